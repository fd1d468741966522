package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// A match log is written by one arena at a time: `arena match --log` and `arena play --log`
// hold an exclusive lock (flock) on it while they play, which the kernel lets go of however
// the arena ends. Two arenas appending to one file would interleave their deals; and a
// reader sees from the lock that the log's last deals may be of a duplicate set still in
// play (`arena serve --log`, which withholds it).

// errLogInUse says that another arena holds a log's lock.
var errLogInUse = errors.New("another arena is writing it now (a match in play): give another file, or wait until that match ends")

// openLog opens a log to append deals to, creating it, and takes its lock; closing the
// file lets go of the lock.
func openLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	// A reader (logBeingWritten) holds a shared lock for a moment: only a lock held longer
	// than that is another arena's.
	err = flockNow(f, unix.LOCK_EX)
	for wait := time.Now().Add(readerLockTime); errors.Is(err, errLogInUse) && time.Now().Before(wait); {
		time.Sleep(10 * time.Millisecond)
		err = flockNow(f, unix.LOCK_EX)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("--log %s: %w", path, err)
	}
	return f, nil
}

// readerLockTime is how long openLog waits for a lock that a reader holds.
const readerLockTime = 200 * time.Millisecond

// checkLogFile reports why the log of --log could not be written: checkOutputFile's
// reasons, or another arena writing it now. It creates nothing.
func checkLogFile(path string) error {
	if err := checkOutputFile("log", path); err != nil || path == "" {
		return err
	}
	writing, err := logBeingWritten(path)
	if err == nil && writing {
		err = errLogInUse
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("--log %s: %w", path, err)
	}
	return nil
}

// logBeingWritten reports whether an arena holds the lock of the log at path: whether a
// match writes it now.
func logBeingWritten(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	switch err := flockNow(f, unix.LOCK_SH); {
	case errors.Is(err, errLogInUse):
		return true, nil
	case err != nil:
		return false, err
	}
	return false, nil
}

// flockNow takes a lock of kind how (unix.LOCK_EX or LOCK_SH) on f without waiting:
// errLogInUse when another open file holds a lock that excludes it.
func flockNow(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EWOULDBLOCK):
			return errLogInUse
		}
		return fmt.Errorf("lock: %w", err)
	}
}

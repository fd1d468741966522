package botproc

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// openFIFOs makes the bot's stdin and stdout as FIFOs in dir, owned by uid (-1: as they
// are), and the wake-up, and opens our ends, none of which waits for the bot. A sandboxed bot
// opens the other ends itself, inside its sandbox: with pipes, the sandbox's own processes
// would hold the bot's stdout too, so a bot that closes it would not be seen to.
func (s *pipes) openFIFOs(dir string, uid, gid int) (in, out string, err error) {
	s.in, s.out, s.wake, s.wakeW, s.dummyOut = -1, -1, -1, -1, -1
	in, out = filepath.Join(dir, "stdin"), filepath.Join(dir, "stdout")
	for _, f := range []string{in, out} {
		if err := unix.Mkfifo(f, 0o600); err != nil {
			return "", "", os.NewSyscallError("mkfifo", err)
		}
		if uid >= 0 {
			if err := os.Chown(f, uid, gid); err != nil {
				return "", "", err
			}
		}
	}
	s.inPath = in
	open := func(path string, mode int) (int, error) {
		fd, err := unix.Open(path, mode|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return -1, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
	if s.out, err = open(out, unix.O_RDONLY); err != nil {
		return "", "", err
	}
	if s.dummyOut, err = open(out, unix.O_WRONLY); err != nil {
		return "", "", err
	}
	if s.in, err = open(in, unix.O_RDWR); err != nil {
		return "", "", err
	}
	if s.wake, s.wakeW, err = newWake(); err != nil {
		return "", "", err
	}
	return in, out, nil
}

// openReady makes the FIFO ready in dir, owned by uid (-1: as it is), on which the shell in
// a bot's sandbox writes a byte once the sandbox is built (see awaitSandbox), and opens it for
// reading, with a writer of our own so that a read waits for the shell's byte instead of
// finding the end of the file.
func openReady(dir string, uid, gid int) (path string, r, w *os.File, err error) {
	path = filepath.Join(dir, "ready")
	if err := unix.Mkfifo(path, 0o600); err != nil {
		return "", nil, nil, os.NewSyscallError("mkfifo", err)
	}
	if uid >= 0 {
		if err := os.Chown(path, uid, gid); err != nil {
			return "", nil, nil, err
		}
	}
	if r, err = os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK, 0); err != nil {
		return "", nil, nil, err
	}
	if w, err = os.OpenFile(path, os.O_WRONLY|unix.O_NONBLOCK, 0); err != nil {
		r.Close()
		return "", nil, nil, err
	}
	return path, r, w, nil
}

package botproc

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// pipeCloexec makes a pipe whose two ends are close-on-exec. macOS has no pipe2: the pipe is
// made and marked under syscall.ForkLock, so no exec in between inherits it.
func pipeCloexec(p *[2]int) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := unix.Pipe(p[:]); err != nil {
		return os.NewSyscallError("pipe", err)
	}
	unix.CloseOnExec(p[0])
	unix.CloseOnExec(p[1])
	return nil
}

// newWake makes the wake-up: macOS has no eventfd, so a pipe with non-blocking ends.
func newWake() (r, w int, err error) {
	var p [2]int
	if err := pipeCloexec(&p); err != nil {
		return -1, -1, err
	}
	for _, fd := range p {
		if err := unix.SetNonblock(fd, true); err != nil {
			unix.Close(p[0])
			unix.Close(p[1])
			return -1, -1, os.NewSyscallError("fcntl", err)
		}
	}
	return p[0], p[1], nil
}

// dupOnto makes newfd a close-on-exec copy of oldfd.
func dupOnto(oldfd, newfd int) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := unix.Dup2(oldfd, newfd); err != nil {
		return err
	}
	unix.CloseOnExec(newfd)
	return nil
}

// pollUntil waits until fds[0] has one of its events or fds[1] (the wake-up) is readable, or
// until is reached (os.ErrDeadlineExceeded). macOS has no ppoll: poll takes milliseconds, so
// the timeout is rounded up to the next one.
func pollUntil(fds []unix.PollFd, until time.Time) error {
	for {
		left := time.Until(until)
		if left <= 0 {
			return os.ErrDeadlineExceeded
		}
		n, err := unix.Poll(fds, int((left+time.Millisecond-1)/time.Millisecond))
		if n > 0 {
			return nil
		}
		if err != nil && err != unix.EINTR {
			return os.NewSyscallError("poll", err)
		}
	}
}

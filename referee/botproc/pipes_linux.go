package botproc

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// pipeCloexec makes a pipe whose two ends are close-on-exec.
func pipeCloexec(p *[2]int) error {
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return os.NewSyscallError("pipe2", err)
	}
	return nil
}

// newWake makes the wake-up: a non-blocking eventfd, which is both its read and write end.
func newWake() (r, w int, err error) {
	fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		return -1, -1, os.NewSyscallError("eventfd", err)
	}
	return fd, fd, nil
}

// dupOnto makes newfd a close-on-exec copy of oldfd.
func dupOnto(oldfd, newfd int) error { return unix.Dup3(oldfd, newfd, unix.O_CLOEXEC) }

// pollUntil waits until fds[0] has one of its events or fds[1] (the wake-up) is readable, or
// until is reached (os.ErrDeadlineExceeded).
func pollUntil(fds []unix.PollFd, until time.Time) error {
	for {
		left := time.Until(until)
		if left <= 0 {
			return os.ErrDeadlineExceeded
		}
		ts := unix.NsecToTimespec(left.Nanoseconds())
		n, err := unix.Ppoll(fds, &ts, nil)
		if n > 0 {
			return nil
		}
		if err != nil && err != unix.EINTR {
			return os.NewSyscallError("ppoll", err)
		}
	}
}

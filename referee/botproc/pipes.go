package botproc

import (
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// The bot's stdin and stdout are driven on the calling goroutine's own thread: our ends of
// both pipes are non-blocking descriptors that Go's netpoller never sees, and Exchange waits
// for them with ppoll(2) and moves bytes with read(2) and write(2). The netpoller would park
// the goroutine, and have another thread wake it when the bot answers (futex wake-ups and
// timer work for every read and write deadline, which was most of the arena's cost per
// decision, and on a shared CPU a context switch more); a thread waiting in ppoll is woken by
// the kernel directly when the bot writes. A long wait lets the runtime hand the thread's P to
// others like any blocking system call.
//
// On macOS the wait is poll(2), with a millisecond timeout (see pollUntil).
//
// The wait also watches the wake-up, an eventfd (a pipe on macOS): the exit watcher signals it when the bot's main
// process exits (so Exchange stops waiting for a leftover process that keeps stdout open) and
// Stop signals it when it begins (so a waiting Exchange returns at once).
//
// The raw descriptors are only used with ioMu held, and Stop closes them with ioMu held, so a
// descriptor number is never used after it was closed (and perhaps reused). The wake-up is
// closed with both ioMu and wakeMu held; signalling it takes only wakeMu.
type pipes struct {
	ioMu   sync.Mutex
	in     int // our (write) end of the bot's stdin; -1 once closed
	out    int // our (read) end of the bot's stdout; -1 once closed
	wakeMu sync.Mutex
	wake   int // the wake-up's read end (see newWake); -1 once closed
	wakeW  int // its write end: the same descriptor where it is an eventfd

	// FIFOs (a sandboxed bot, see openFIFOs): until the bot's first output, we hold a
	// writer of its stdout (dummyOut, so that reading is not EOF before the bot opened it)
	// and its stdin is open for reading and writing; both go at the first bytes read.
	dummyOut int    // -1: none
	inPath   string // the stdin FIFO, reopened write-only then
}

// errWake is returned by pipes.read when the wake-up was signalled (and has been reset).
var errWake = errors.New("botproc: wake-up")

// open makes the bot's stdin and stdout pipes and the wake-up. It returns the bot's ends
// (blocking, close-on-exec: exec puts them at fds 0 and 1).
func (s *pipes) open() (stdinR, stdoutW *os.File, err error) {
	s.in, s.out, s.wake, s.wakeW, s.dummyOut = -1, -1, -1, -1, -1
	var in, out [2]int
	if err := pipeCloexec(&in); err != nil {
		return nil, nil, err
	}
	s.in = in[1]
	stdinR = os.NewFile(uintptr(in[0]), "|0")
	if err := pipeCloexec(&out); err != nil {
		stdinR.Close()
		return nil, nil, err
	}
	s.out = out[0]
	stdoutW = os.NewFile(uintptr(out[1]), "|1")
	if s.wake, s.wakeW, err = newWake(); err != nil {
		stdinR.Close()
		stdoutW.Close()
		return nil, nil, err
	}
	for _, fd := range []int{s.in, s.out} {
		if err := unix.SetNonblock(fd, true); err != nil {
			stdinR.Close()
			stdoutW.Close()
			return nil, nil, os.NewSyscallError("fcntl", err)
		}
	}
	return stdinR, stdoutW, nil
}

// connected lets go of the placeholders of openFIFOs once the bot has written: it has both
// FIFOs open. Our end of its stdin becomes write-only (a bot that closes its stdin is then
// seen to), and its stdout has no writer but the bot's. ioMu must be held.
func (s *pipes) connected() {
	unix.Close(s.dummyOut)
	s.dummyOut = -1
	fd, err := unix.Open(s.inPath, unix.O_WRONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return // the bot has closed its stdin already: the next write blocks, as it would
	}
	_ = dupOnto(fd, s.in)
	unix.Close(fd)
}

// everWritten says whether the bot has written to its stdout. Until then, where its stdout
// is a FIFO (the sandbox), our own placeholder writer keeps it open (see connected).
func (s *pipes) everWritten() bool {
	s.ioMu.Lock()
	defer s.ioMu.Unlock()
	return s.dummyOut < 0
}

// signal wakes a poll of read or write (now or at its next call).
func (s *pipes) signal() {
	s.wakeMu.Lock()
	defer s.wakeMu.Unlock()
	if s.wakeW >= 0 {
		one := [8]byte{1} // an eventfd adds the 8-byte count 1; a pipe takes 8 bytes
		_, _ = unix.Write(s.wakeW, one[:])
	}
}

// resetWake empties the wake-up. ioMu must be held.
func (s *pipes) resetWake() {
	var b [64]byte
	for {
		if n, _ := unix.Read(s.wake, b[:]); n < len(b) {
			return
		}
	}
}

// closeIn closes our end of the bot's stdin.
func (s *pipes) closeIn() {
	s.ioMu.Lock()
	defer s.ioMu.Unlock()
	if s.in >= 0 {
		unix.Close(s.in)
		s.in = -1
	}
}

// closeAll closes every descriptor.
func (s *pipes) closeAll() {
	s.ioMu.Lock()
	defer s.ioMu.Unlock()
	s.wakeMu.Lock()
	defer s.wakeMu.Unlock()
	if s.wakeW == s.wake {
		s.wakeW = -1 // one eventfd
	}
	for _, fd := range []*int{&s.in, &s.out, &s.wake, &s.wakeW, &s.dummyOut} {
		if *fd >= 0 {
			unix.Close(*fd)
			*fd = -1
		}
	}
}

// read waits until the bot's stdout has bytes (or is at EOF), until at the latest, and reads
// them into b. It returns n > 0 and no error, or io.EOF, os.ErrDeadlineExceeded, errWake
// (the wake-up was signalled: nothing was read), os.ErrClosed (Stop closed the pipe), or a
// system call error.
//
// It tries a read before it waits: usually the answer is there already (when the bot shares
// the arena's CPU, waking it by the write lets it run at once; measured: about 80% of reads
// in a match, with any placement), and then the read alone is one system call instead of
// two.
func (s *pipes) read(b []byte, until time.Time) (int, error) {
	s.ioMu.Lock()
	defer s.ioMu.Unlock()
	if s.out < 0 {
		return 0, os.ErrClosed
	}
	if time.Until(until) <= 0 {
		return 0, os.ErrDeadlineExceeded
	}
	fds := [2]unix.PollFd{{Fd: int32(s.out), Events: unix.POLLIN}, {Fd: int32(s.wake), Events: unix.POLLIN}}
	for first := true; ; first = false {
		if !first {
			if err := pollUntil(fds[:], until); err != nil {
				return 0, err
			}
			if fds[1].Revents != 0 {
				s.resetWake()
				return 0, errWake
			}
		}
		n, err := unix.Read(s.out, b)
		switch {
		case n > 0:
			if s.dummyOut >= 0 {
				s.connected()
			}
			return n, nil
		case err == nil:
			return 0, io.EOF
		case err != unix.EAGAIN && err != unix.EINTR:
			return 0, os.NewSyscallError("read", err)
		}
	}
}

// pending reads up to len(b) of the bytes waiting in the bot's stdout into b, without
// waiting, and returns how many (0: none). It is one non-blocking read (no poll first: a read that
// finds the pipe empty costs no more than a zero-timeout poll, and one that finds bytes has
// what the fault quotes). End of file is not pending: the next read finds it.
func (s *pipes) pending(b []byte) int {
	s.ioMu.Lock()
	defer s.ioMu.Unlock()
	if s.out < 0 {
		return 0
	}
	k, err := unix.Read(s.out, b)
	for err == unix.EINTR {
		k, err = unix.Read(s.out, b)
	}
	if k <= 0 {
		return 0
	}
	if s.dummyOut >= 0 {
		s.connected()
	}
	return k
}

// write writes all of b to the bot's stdin, waiting until until at the latest. It returns
// os.ErrDeadlineExceeded if the bot did not take it all in time, os.ErrClosed once Stop has
// begun (or closed the pipe), or a system call error (EPIPE when the bot closed its stdin).
// stopping says whether Stop has begun.
func (s *pipes) write(b []byte, until time.Time, stopping *atomic.Bool) (int, error) {
	s.ioMu.Lock()
	defer s.ioMu.Unlock()
	if s.in < 0 {
		return 0, os.ErrClosed
	}
	done := 0
	for done < len(b) {
		n, err := unix.Write(s.in, b[done:])
		if n > 0 {
			done += n
		}
		switch err {
		case nil, unix.EINTR:
			continue
		case unix.EAGAIN:
		default:
			return done, os.NewSyscallError("write", err)
		}
		fds := [2]unix.PollFd{{Fd: int32(s.in), Events: unix.POLLOUT}, {Fd: int32(s.wake), Events: unix.POLLIN}}
		if err := pollUntil(fds[:], until); err != nil {
			return done, err
		}
		if fds[1].Revents != 0 {
			s.resetWake() // an exit is noticed by the read from its flag
			if stopping.Load() {
				return done, os.ErrClosed
			}
		}
	}
	return done, nil
}

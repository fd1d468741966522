package botproc

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

var sigpipeOnce sync.Once

// Harden prepares the arena process for running untrusted programs. Start calls it every
// time; the arena's main may call it first thing as well. It
//
//   - makes SIGPIPE harmless: a write to a closed pipe, including the arena's own stdout
//     piped into a program that exited (head, a closed terminal), returns EPIPE instead of
//     killing the arena with exit status 141. It does so with signal.Notify on a channel
//     nobody reads, not with signal.Ignore: an ignored signal stays ignored across exec, so
//     signal.Ignore would hand every bot SIGPIPE ignored (verified: SigIgn bit 13 set in the
//     child), while a caught signal is reset to its default in the child;
//   - marks every open file descriptor above 2 close-on-exec, so that descriptors the arena
//     inherited from its own parent (a shell's fd 3, a CI runner's sockets) never reach a bot.
//     Go opens its own files close-on-exec already;
//   - on Linux, makes the arena process not dumpable (prctl PR_SET_DUMPABLE 0): no process of
//     the same user can ptrace it or read its memory, environment or file descriptors through
//     /proc, where the deal being played lies in the clear. Its children are dumpable again
//     from their exec on. macOS has no such switch: there a bot of the same user could attach
//     to the arena with a debugger, where the system lets it (see Limits);
//   - sets the arena's core file size limit to 0, soft and hard (noCoreDumps): every bot
//     inherits it and cannot raise it, so no bot writes a core file.
//
// It returns the first error met; the other steps are done all the same.
func Harden() error {
	sigpipeOnce.Do(func() { signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE) })
	return errors.Join(undumpable(), noCoreDumps(), closeOnExecSweep())
}

// closeOnExecSweep sets FD_CLOEXEC on every open descriptor above 2.
func closeOnExecSweep() error {
	d, err := os.Open(openFilesDir)
	if err != nil {
		return fmt.Errorf("botproc: list open files: %w", err)
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return fmt.Errorf("botproc: list open files: %w", err)
	}
	var first error
	for _, name := range names {
		fd, err := strconv.Atoi(name)
		if err != nil || fd <= 2 || uintptr(fd) == d.Fd() {
			continue
		}
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		if err != nil || flags&unix.FD_CLOEXEC != 0 {
			continue // closed meanwhile, or already close-on-exec
		}
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, flags|unix.FD_CLOEXEC); err != nil && first == nil {
			first = fmt.Errorf("botproc: set close-on-exec on fd %d: %w", fd, err)
		}
	}
	return first
}

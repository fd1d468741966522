package botproc

import (
	"fmt"
	"strconv"

	"golang.org/x/sys/unix"
)

// exitInfo is how the bot's main process ended. On Linux it is read with waitid(WNOWAIT): the
// process stays a zombie, so its pid (and process group id) cannot be reused until Stop reaps
// it. On macOS the exit watcher reaps it (see watchExit there).
type exitInfo struct {
	code   int32 // CLD_EXITED, CLD_KILLED or CLD_DUMPED; 0 if unknown
	status int32 // exit status or signal number
	err    error // why the status is unknown
}

func (e exitInfo) String() string {
	switch e.code {
	case cldExited:
		return "exit status " + strconv.Itoa(int(e.status))
	case cldKilled, cldDumped:
		s := fmt.Sprintf("killed by signal %d (%s)", e.status, unix.SignalName(unix.Signal(e.status)))
		if e.code == cldDumped {
			s += ", core dumped"
		}
		if unix.Signal(e.status) == unix.SIGXFSZ {
			s += ": a file it wrote reached its file size limit"
		}
		return s
	}
	if e.err != nil {
		return "exit status unknown: " + e.err.Error()
	}
	return "exit status unknown"
}

// si_code values for SIGCHLD (asm-generic/siginfo.h; the same on macOS).
const (
	cldExited = 1
	cldKilled = 2
	cldDumped = 3
)

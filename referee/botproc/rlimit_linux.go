package botproc

import (
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// OpenFilesMax is the most files a bot process may have open (RLIMIT_NOFILE, soft and hard
// alike), or the arena's own hard limit where that is lower. It keeps a bot that opens files,
// pipes or sockets in a loop from filling the kernel's file table (fs.file-max), which every
// process of the machine, the arena's included, draws on: 256 processes (a bot's PidsMax) of
// 1024 files each is a tenth of a typical table, while 256 of the usual 20,000 or more can
// fill it. 1024 is the usual soft limit, which programs of every language are made for.
const OpenFilesMax = 1024

var openFiles struct {
	once sync.Once
	lim  unix.Rlimit
}

// openFilesLimit is the RLIMIT_NOFILE a bot gets: OpenFilesMax, or the arena's hard limit
// where that is lower (a process can lower its hard limit, never raise it).
func openFilesLimit() unix.Rlimit {
	openFiles.once.Do(func() {
		n := uint64(OpenFilesMax)
		var own unix.Rlimit
		if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &own); err == nil && own.Max < n {
			n = own.Max
		}
		openFiles.lim = unix.Rlimit{Cur: n, Max: n}
	})
	return openFiles.lim
}

// rlimitNote says, for Limits, which resource limits every bot process has.
func rlimitNote() string {
	lim := openFilesLimit()
	return fmt.Sprintf("; open files: %d a process (RLIMIT_NOFILE, set before the bot runs in the sandbox, at its start without); core dumps: none (RLIMIT_CORE 0)", lim.Max)
}

package botproc

import (
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// DefaultOpenFiles is the most files a bot process may have open (RLIMIT_NOFILE, soft and
// hard alike) unless its Spec says otherwise, or the arena's own hard limit where that is
// lower. It keeps a bot that opens files, pipes or sockets in a loop from filling the
// kernel's file table (fs.file-max), which every process of the machine, the arena's
// included, draws on: 256 processes (a bot's PidsMax) of 1024 files each is a tenth of a
// typical table, while 256 of the usual 20,000 or more can fill it. 1024 is the usual soft
// limit, which programs of every language are made for.
const DefaultOpenFiles = 1024

var openFilesCeiling = sync.OnceValue(func() uint64 {
	var own unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &own); err != nil {
		return DefaultOpenFiles
	}
	return own.Max
})

// OpenFilesCeiling is the most open files a bot process can be allowed (Spec.OpenFiles):
// the arena's own hard limit, which no process of the arena's can raise.
func OpenFilesCeiling() uint64 { return openFilesCeiling() }

// botOpenFiles returns the open files limit of a bot process whose Spec.OpenFiles is n.
func botOpenFiles(n int) (uint64, error) {
	ceiling := OpenFilesCeiling()
	if n <= 0 {
		return min(DefaultOpenFiles, ceiling), nil
	}
	if uint64(n) > ceiling {
		return 0, fmt.Errorf("open files limit %d: above the arena's own hard limit, %d (raise that with ulimit -Hn before the arena starts, or allow the bot fewer)", n, ceiling)
	}
	return uint64(n), nil
}

// noCoreDumps sets the arena's RLIMIT_CORE to 0, soft and hard, which every bot inherits and
// none can raise: a crashing bot writes no core file, in its working directory or anywhere,
// and a bot that crashes in a loop cannot fill a disk that way. The arena loses nothing: on
// Linux it is not dumpable (Harden), and a process that is not dumpable writes no core file
// anyway (unless fs.suid_dumpable is set); on macOS a Go program writes one only with
// GOTRACEBACK=crash.
func noCoreDumps() error {
	if err := unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{}); err != nil {
		return fmt.Errorf("botproc: no core dumps: %w", err)
	}
	return nil
}

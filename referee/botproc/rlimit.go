package botproc

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// noCoreDumps sets the arena's RLIMIT_CORE to 0, soft and hard, which every bot inherits and
// none can raise: a crashing bot writes no core file, in its working directory or anywhere,
// and a bot that crashes in a loop cannot fill a disk that way. The arena loses nothing: on
// Linux it is not dumpable (Harden), and a process that is not dumpable writes no core file
// anyway (unless fs.suid_dumpable is set); on macOS a Go program writes one only with GOTRACEBACK=crash.
func noCoreDumps() error {
	if err := unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{}); err != nil {
		return fmt.Errorf("botproc: no core dumps: %w", err)
	}
	return nil
}

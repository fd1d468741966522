package botproc

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// openFilesDir lists the arena's open file descriptors.
const openFilesDir = "/proc/self/fd"

// undumpable makes the arena process not dumpable (see Harden).
func undumpable() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("botproc: make the arena not dumpable: %w", err)
	}
	return nil
}

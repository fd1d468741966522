package botproc

// openFilesDir lists the arena's open file descriptors.
const openFilesDir = "/dev/fd"

// undumpable does nothing on macOS, which has no per-process switch like Linux's
// PR_SET_DUMPABLE (see Harden).
func undumpable() error { return nil }

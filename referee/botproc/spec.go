package botproc

import (
	"os"
	"time"
)

// Spec says how to run one bot program.
type Spec struct {
	// Name is the bot's name, used in messages and in fault errors.
	Name string
	// Argv is the program and its arguments; there is no shell. A program name without a
	// slash is looked up in the arena's PATH at Start; one with a slash is taken relative to
	// Dir.
	Argv []string
	// Dir is the working directory. If empty, Start makes a fresh private directory
	// (os.MkdirTemp) and Stop removes it with everything in it.
	Dir string
	// Env is the bot's entire environment. If nil, the bot gets DefaultEnv(dir): PATH (the
	// arena's, or a standard one), HOME set to the working directory, and LANG=C.UTF-8, and
	// nothing else of the arena's environment. An empty non-nil slice gives an empty
	// environment.
	Env []string
	// StderrFile, if set, is a file the bot's stderr is appended to as well, up to
	// StderrFileMax bytes per run of the bot. It is created (mode 0600) if missing.
	StderrFile string
	// CPUs, if set, is the CPU affinity of the bot's processes (sched_setaffinity, inherited
	// from the first instruction on). A bot can change its own affinity: this is placement,
	// not a limit.
	CPUs []int
	// MemoryMax, if > 0, is the cgroup memory limit of all the bot's processes together, in
	// bytes (memory.max, with swap off). On reaching it the kernel kills the bot, and
	// Exchange returns a MemoryLimit fault. Ignored, with a warning in the log, where the
	// machine has no memory controller (see Limits).
	MemoryMax int64
	// PidsMax, if > 0, is the cgroup limit on the bot's processes and threads together
	// (pids.max; a Go program uses about 5 threads, a JVM dozens). Ignored, with a warning
	// in the log, where the machine has no pids controller.
	PidsMax int
	// OpenFiles, if > 0, is the most files each of the bot's processes may have open
	// (RLIMIT_NOFILE, soft and hard; pipes and sockets count); 0 means DefaultOpenFiles.
	// Start fails if it is above OpenFilesCeiling.
	OpenFiles int
	// FileSize, if > 0, is the largest in bytes that a file written by any of the bot's
	// processes may grow, rounded down to a multiple of 512 (RLIMIT_FSIZE, soft and hard;
	// pipes do not count); 0 means DefaultFileSize. Start fails if it is above
	// FileSizeCeiling.
	FileSize int64
	// Sandbox, if set, confines the bot (see Sandbox). Start fails with a plain error (the
	// arena's trouble, not the bot's) where the machine cannot make one: see SandboxError.
	Sandbox *Sandbox
}

// StderrFileMax is how many bytes of a bot's stderr are appended to Spec.StderrFile per run
// of the bot; the rest is dropped (with a note in the file). A bot is run again after each
// fault, in each room and (without kept processes) in each match, so the file as a whole is
// bounded too: see StderrFileTotalMax.
const StderrFileMax = 64 << 20

// StderrFileTotalMax is the size Spec.StderrFile never grows past through the bot's stderr,
// over all its runs (which append to the same file): once it is reached, each run's stderr
// goes to the capture only, with a note in the file, so a bot cannot fill the disk.
var StderrFileTotalMax int64 = 1 << 30

// MaxInfo is how many info lines (protocol.IsInfo) a bot may write before one answer; one
// more is a Flood fault (spec.md §8).
const MaxInfo = 100

// Time bounds used by Exchange and Stop.
const (
	// exitDrain is how long Exchange keeps reading stdout after the bot's main process has
	// exited: an answer written just before exiting still counts, while an orphaned child
	// that keeps stdout open cannot delay the Crash fault.
	exitDrain = 50 * time.Millisecond
	// statusWait is how long Exchange waits, after EOF on stdout, for the main process to
	// exit so the fault can say how it ended.
	statusWait = 100 * time.Millisecond
	// killWait bounds the wait for processes to die after SIGKILL.
	killWait = 5 * time.Second
	// drainWait is how long Stop lets the stderr drain read what is left after the kill.
	drainWait = 100 * time.Millisecond
)

// DefaultEnv returns the environment a bot gets when Spec.Env is nil: PATH from the arena
// (or /usr/local/bin:/usr/bin:/bin), HOME=dir and LANG=C.UTF-8.
func DefaultEnv(dir string) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	return []string{"PATH=" + path, "HOME=" + dir, "LANG=C.UTF-8"}
}

package botproc

import "fmt"

// rlimitNote says, for Limits, which resource limits every bot process has.
func rlimitNote() string {
	n, _ := botOpenFiles(0)
	return fmt.Sprintf("; open files: %d a process unless the bot's entry allows more, at most %d (RLIMIT_NOFILE, set before the bot runs in the sandbox, at its start without); core dumps: none (RLIMIT_CORE 0)",
		n, OpenFilesCeiling())
}

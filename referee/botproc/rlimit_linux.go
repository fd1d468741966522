package botproc

import (
	"fmt"

	"github.com/dustin/go-humanize"
)

// rlimitNote says, for Limits, which resource limits every bot process has.
func rlimitNote() string {
	l, _ := botFileLimits(Spec{})
	return fmt.Sprintf("; open files: %d a process unless the bot's entry allows more, at most %d (RLIMIT_NOFILE); file size: %s a file unless the bot's entry allows more (RLIMIT_FSIZE); both set before the bot runs in the sandbox, at its start without; core dumps: none (RLIMIT_CORE 0)",
		l.openFiles, OpenFilesCeiling(), humanize.IBytes(l.fileSize))
}

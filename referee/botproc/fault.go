package botproc

import (
	"errors"
	"fmt"
	"strconv"
)

// FaultKind classifies what a bot did wrong. The zero value means no fault. Its String is the
// lower-case word used in logs and in spec.md's fault table where one exists.
type FaultKind uint8

// Fault kinds.
const (
	NoFault      FaultKind = iota // no fault
	Timeout                       // no answer within the time limit
	Crash                         // the bot exited, closed its stdout or its stdin, or left a partial line
	Garbage                       // a line too long or not printable ASCII
	Flood                         // more than MaxInfo info lines before an answer, or output while no answer was due
	WriteBlocked                  // the bot did not read its input: a write did not finish in time
	MemoryLimit                   // killed by the kernel on reaching Spec.MemoryMax
	StartFailed                   // the program could not be started
)

var faultNames = [...]string{
	NoFault:      "none",
	Timeout:      "timeout",
	Crash:        "crash",
	Garbage:      "garbage",
	Flood:        "flood",
	WriteBlocked: "write_blocked",
	MemoryLimit:  "memory_limit",
	StartFailed:  "start",
}

// String returns the kind's name, e.g. "timeout".
func (k FaultKind) String() string {
	if int(k) < len(faultNames) {
		return faultNames[k]
	}
	return "FaultKind(" + strconv.Itoa(int(k)) + ")"
}

// Fault is a bot failure. Detail says what happened in words, with any text from the bot
// escaped and truncated; StderrTail is the bot's stderr capture (see Proc.StderrTail) at the
// time of the fault.
type Fault struct {
	Bot        string // Spec.Name
	Kind       FaultKind
	Detail     string
	StderrTail string
	Err        error // the underlying error, if any (for StartFailed: the exec error)
}

// Error returns "bot NAME: KIND: DETAIL".
func (f *Fault) Error() string {
	return fmt.Sprintf("bot %q: %s: %s", f.Bot, f.Kind, f.Detail)
}

// Unwrap returns the underlying error, so that errors.Is(err, fs.ErrNotExist) works for a
// missing program.
func (f *Fault) Unwrap() error { return f.Err }

// ErrStopped is returned by Exchange once Stop has been called.
var ErrStopped = errors.New("botproc: bot stopped")

// maxQuoted is how many bytes of bot text a Detail quotes.
const maxQuoted = 80

// quote returns b as a Go string literal with only printable ASCII (everything else escaped),
// truncated to maxQuoted bytes, with the full length appended when truncated.
func quote(b []byte) string {
	if len(b) <= maxQuoted {
		return strconv.QuoteToASCII(string(b))
	}
	return strconv.QuoteToASCII(string(b[:maxQuoted])) + "... (" + strconv.Itoa(len(b)) + " bytes)"
}

package botproc

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/klaverjas-arena/arena/referee"
)

// Fault is a bot failure. Its Kind is one of the referee's fault kinds (referee.FaultTimeout,
// FaultCrash, FaultGarbage, FaultFlood, FaultBlocked, FaultMemory, FaultStart): the referee
// owns the kinds, and this package only reports them. Detail says what happened in words, with
// any text from the bot escaped and truncated; StderrTail is the bot's stderr capture (see Proc.StderrTail) at the
// time of the fault.
type Fault struct {
	Bot        string // Spec.Name
	Kind       referee.FaultKind
	Detail     string
	StderrTail string
	Err        error // the underlying error, if any (for FaultStart: the exec error)
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

// quoteStart quotes the start of a line of which only b was kept, like quote, with "..."
// after it: how long the whole line was is said by the caller.
func quoteStart(b []byte) string {
	return strconv.QuoteToASCII(string(b[:min(len(b), maxQuoted)])) + "..."
}

package referee

import (
	"fmt"
	"strings"

	"github.com/klaverjas-arena/arena/protocol"
)

// StartError is returned by Run when a bot cannot be started, or fails its handshake,
// before the first deal: nothing was played, and the bot's stderr says why.
type StartError struct {
	Bot   string
	Seat  protocol.Seat
	Fault *Fault // its kind, what happened and the bot's stderr
}

func (e *StartError) Error() string {
	msg := fmt.Sprintf("bot %s (seat %s) did not start: %s", e.Bot, e.Seat, e.Fault)
	if tail := strings.TrimSpace(e.Fault.StderrTail); tail != "" {
		msg += "\nits stderr:\n  " + strings.ReplaceAll(tail, "\n", "\n  ")
	}
	return msg
}

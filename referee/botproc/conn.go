package botproc

import (
	"context"
	"errors"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/rs/zerolog"
)

// Conn is a Proc as the referee's connection to a bot: Exchange returns referee replies and
// faults. Stop, StderrTail, ExitStatus, Pid and CPUSinceMark come from the Proc.
type Conn struct{ *Proc }

var (
	_ referee.Conn     = Conn{}
	_ referee.CPUMeter = Conn{}
	_ referee.Pauser   = Conn{}
)

// MeterCPU makes Exchange leave the bot's CPU time out of its replies from now on: the
// referee reads it with CPUSinceMark once a deal, saving a system call per answer.
func (c Conn) MeterCPU() { c.Proc.cpuLater = true }

// Starter returns a referee.Starter that starts the bot of spec under this package.
func Starter(spec Spec, log zerolog.Logger) referee.Starter {
	return func(ctx context.Context) (referee.Conn, error) {
		p, err := Start(ctx, spec, log)
		if err != nil {
			return nil, err
		}
		return Conn{p}, nil
	}
}

// Exchange is Proc.Exchange with the referee's types; a *Fault becomes a *referee.Fault of
// the same kind.
func (c Conn) Exchange(out []byte, wantReply bool, timeout time.Duration) (referee.Reply, error) {
	r, err := c.Proc.Exchange(out, wantReply, timeout)
	if err != nil {
		var f *Fault
		if errors.As(err, &f) {
			return referee.Reply{}, &referee.Fault{Kind: f.Kind, Detail: f.Detail, StderrTail: f.StderrTail}
		}
		return referee.Reply{}, err
	}
	return referee.Reply{Line: r.Line, Infos: r.Infos, Wall: r.Wall, CPU: r.CPU}, nil
}

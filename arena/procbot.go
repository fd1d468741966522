package main

import (
	"context"
	"errors"
	"os"
	"sort"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/botproc"
	"github.com/rs/zerolog"
)

// procStarter returns a referee.Starter that runs the bot as a program under botproc.
func procStarter(b botSpec, cpus []int, log zerolog.Logger) referee.Starter {
	spec := botproc.Spec{Name: b.Name, Argv: b.Cmd, Dir: b.Dir, StderrFile: b.Stderr, CPUs: cpus}
	if len(b.Env) > 0 {
		spec.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
		keys := make([]string, 0, len(b.Env))
		for k := range b.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			spec.Env = append(spec.Env, k+"="+b.Env[k])
		}
	}
	return func(ctx context.Context) (referee.Conn, error) {
		p, err := botproc.Start(ctx, spec, log)
		if err != nil {
			return nil, err
		}
		return procConn{p}, nil
	}
}

// procConn adapts a bot process to the referee's Conn.
type procConn struct{ p *botproc.Proc }

func (c procConn) Exchange(out []byte, wantReply bool, timeout time.Duration) (referee.Reply, error) {
	r, err := c.p.Exchange(out, wantReply, timeout)
	if err != nil {
		var f *botproc.Fault
		if errors.As(err, &f) {
			return referee.Reply{}, &referee.Fault{Kind: referee.FaultKind(f.Kind.String()), Detail: f.Detail, StderrTail: f.StderrTail}
		}
		return referee.Reply{}, err
	}
	return referee.Reply{Line: r.Line, Infos: r.Infos, Wall: r.Wall, CPU: r.CPU}, nil
}

func (c procConn) Stop(grace time.Duration) error { return c.p.Stop(grace) }

func (c procConn) StderrTail() string { return c.p.StderrTail() }

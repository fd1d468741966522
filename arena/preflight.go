package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
)

// checkBotsStart starts each named bot once, as a match would, and waits for its hello, all
// at once: a shard on a cluster node fails before its first match, naming the bot and the
// node, when a bot does not start there (a path that is not on the node's filesystem, a
// missing interpreter).
func checkBotsStart(ctx context.Context, bots map[string]referee.Starter, startup time.Duration) error {
	node, _ := os.Hostname()
	errs := make(chan error, len(bots))
	for name, start := range bots {
		go func() {
			if _, err := helloOnce(ctx, start, startup); err != nil {
				errs <- fmt.Errorf("bot %s does not start on node %s: %w", name, node, err)
				return
			}
			errs <- nil
		}()
	}
	var all []error
	for range bots {
		all = append(all, <-errs)
	}
	return errors.Join(all...)
}

// helloOnce starts a bot, asks for its hello and stops it, returning the hello.
func helloOnce(ctx context.Context, start referee.Starter, startup time.Duration) (*protocol.Hello, error) {
	conn, err := start(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Stop(500 * time.Millisecond)
	msg := protocol.Klaverjas{Versions: []int{protocol.Version}}
	reply, err := conn.Exchange(append(msg.AppendLine(nil), '\n'), true, startup)
	if err != nil {
		if tail := conn.StderrTail(); tail != "" {
			return nil, fmt.Errorf("%w (its stderr: %q)", err, tail)
		}
		return nil, err
	}
	hello, err := protocol.ParseHello(reply.Line)
	if err != nil {
		return nil, fmt.Errorf("its first line is not a hello: %w", err)
	}
	return hello, nil
}

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
			if err := helloOnce(ctx, start, startup); err != nil {
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

// helloOnce starts a bot, asks for its hello and stops it.
func helloOnce(ctx context.Context, start referee.Starter, startup time.Duration) error {
	conn, err := start(ctx)
	if err != nil {
		return err
	}
	defer conn.Stop(500 * time.Millisecond)
	msg := protocol.Klaverjas{Versions: []int{protocol.Version}}
	reply, err := conn.Exchange(append(msg.AppendLine(nil), '\n'), true, startup)
	if err != nil {
		if tail := conn.StderrTail(); tail != "" {
			return fmt.Errorf("%w (its stderr: %q)", err, tail)
		}
		return err
	}
	if _, err := protocol.ParseHello(reply.Line); err != nil {
		return fmt.Errorf("its first line is not a hello: %w", err)
	}
	return nil
}

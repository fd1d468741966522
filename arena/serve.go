package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/klaverjas-arena/arena/arena/web"
	"github.com/urfave/cli/v2"
)

// defaultAddr is where arena serve listens unless told otherwise: this machine only.
const defaultAddr = "127.0.0.1:8080"

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve a read-only web viewer of a league database or a match log",
		Description: "Pages: the leagues, each league's standings, crosstable and rating chart, each bot's\n" +
			"results and decision times, each match with its duplicate boards side by side, and a\n" +
			"deal viewer that steps through the tricks (buttons, ← → keys, slider; a permalink per\n" +
			"trick). The same data is served as JSON under /api/ (arena/web/API.md). Nothing can be\n" +
			"changed through it. A running league holds its database: serve it with\n" +
			"arena league FILE --serve ADDR instead.",
		Flags: []cli.Flag{
			dbFlag(),
			&cli.StringFlag{Name: "log", Usage: "serve a match log `FILE` (JSON lines, spec.md §12) instead of the database, following it as it grows"},
			&cli.StringFlag{Name: "addr", Value: defaultAddr, Usage: "listen on `HOST:PORT`"},
		},
		Action: runServe,
	}
}

func runServe(c *cli.Context) error {
	if c.NArg() > 0 {
		return errors.New("arena serve: no arguments (--db FILE or --log FILE)")
	}
	if errs := sourceFlagConflicts(c, ""); len(errs) > 0 {
		return usageError{errors.Join(errs...).Error()}
	}
	var src web.Source
	if path := c.String("log"); path != "" {
		f, err := logSource(path, c.App.ErrWriter)
		if err != nil {
			return err
		}
		go f.follow(c.Context, time.Second)
		src = f.src
	} else {
		db, err := openForReading(c, "arena serve")
		if err != nil {
			return err
		}
		defer db.Close()
		src = db
	}
	srv, err := web.New(src, nil)
	if err != nil {
		return err
	}
	if err := srv.Warm(); err != nil {
		return err
	}
	return serveUntil(c.Context, c.String("addr"), srv, c.App.Writer)
}

// listen opens the viewer's address; a port of 0 picks a free one.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--addr / --serve %s: %w", addr, err)
	}
	return ln, nil
}

// serveUntil serves h on addr until ctx is done, then shuts down.
func serveUntil(ctx context.Context, addr string, h http.Handler, out io.Writer) error {
	ln, err := listen(addr)
	if err != nil {
		return err
	}
	stop := serveOn(ln, h, out)
	<-ctx.Done()
	return stop()
}

// serveOn serves h on ln in the background and says where; the function it returns stops
// the server, waiting a little for requests under way.
func serveOn(ln net.Listener, h http.Handler, out io.Writer) func() error {
	fmt.Fprintf(out, "viewer: http://%s/ (read-only)\n", ln.Addr())
	if a, ok := ln.Addr().(*net.TCPAddr); ok && a.IP.IsLoopback() {
		h = web.LocalNamesOnly(h)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	return func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx) // the event streams are cut
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

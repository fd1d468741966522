package main

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCommands are the programs the CLI scripts run, each this test binary: arena itself,
// and lowest, a bot that plays its first legal bid and its lowest legal card.
var scriptCommands = map[string]func(){
	"arena":  func() { os.Exit(run(os.Args, os.Stdout, os.Stderr)) },
	"lowest": lowestBot,
}

// TestScripts runs the command-line scripts of testdata/script: one per mistake a user can
// make and per feature, each asserting the exact output and exit status. The arena runs as a
// real process; bots are real processes too.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus},
		Setup: func(env *testscript.Env) error {
			env.Setenv("GOVERSION", runtime.Version())
			env.Setenv("GOOS", runtime.GOOS)
			env.Setenv("GOARCH", runtime.GOARCH)
			return nil
		},
	})
}

// cmdStatus is the script command "status N PROGRAM ARGS...": it runs the program as exec
// does, keeping its stdout and stderr for the next commands, and fails unless its exit
// status is N.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status %q: not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

package main

import (
	"errors"
	"fmt"
	"github.com/klaverjas-arena/arena/arena/confine"
	"github.com/urfave/cli/v2"
	"io"
	"os"
	"sort"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/botproc"
	"github.com/rs/zerolog"
)

// procStarter returns a referee.Starter that runs the bot as a program under botproc, with
// its environment (PATH and LANG, plus the bot's env) when the bot sets any, its limits, and
// the sandbox of the policy.
func procStarter(b botSpec, cpus []int, policy confine.Policy, log zerolog.Logger) referee.Starter {
	return botproc.Starter(procSpec(b, cpus, policy), log)
}

// checkSandboxed reports what would keep each bot from starting in its sandbox, before any
// starts, and writes a note for each bot whose files are private to the arena's user (it
// then runs as that user inside a user namespace, not as botproc.SandboxUID).
func checkSandboxed(w io.Writer, policy confine.Policy, bots ...botSpec) error {
	var errs []error
	for _, b := range bots {
		note, err := botproc.CheckSandbox(procSpec(b, nil, policy))
		if err != nil {
			errs = append(errs, fmt.Errorf("bot %q in its sandbox: %w", b.Name, err))
		} else if note != "" {
			fmt.Fprintf(w, "note: bot %s: %s\n", b.Name, note)
		}
	}
	return errors.Join(errs...)
}

// procSpec is how botproc runs the bot.
func procSpec(b botSpec, cpus []int, policy confine.Policy) botproc.Spec {
	spec := botproc.Spec{Name: b.Name, Argv: b.Cmd, Dir: b.Dir, StderrFile: b.Stderr, CPUs: cpus}
	policy.Apply(&spec, b.Limits)
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
	return spec
}

// sandboxFlag is the --sandbox flag of the commands that run bots.
func sandboxFlag() cli.Flag {
	return &cli.StringFlag{Name: "sandbox", Value: "on", Usage: "on: every bot in its own sandbox (bubblewrap; see README); off: bots run unconfined, as the arena's user"}
}

// sandboxPolicy reads --sandbox.
func sandboxPolicy(c *cli.Context) (confine.Policy, error) {
	off, err := confine.ParseMode(c.String("sandbox"))
	if err != nil {
		return confine.Policy{}, fmt.Errorf("--sandbox: %w", err)
	}
	return confine.Policy{Off: off}, nil
}

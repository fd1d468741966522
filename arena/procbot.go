package main

import (
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/klaverjas-arena/arena/arena/botdef"
	"github.com/klaverjas-arena/arena/arena/confine"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/botproc"
	"github.com/rs/zerolog"
	"github.com/urfave/cli/v2"
)

// procStarter returns a referee.Starter that runs the bot as a program under botproc, with
// its environment (PATH and LANG, plus the bot's env) when the bot sets any, its limits, and
// the sandbox of the policy.
func procStarter(b botdef.Bot, cpus []int, policy confine.Policy, log zerolog.Logger) referee.Starter {
	return botproc.Starter(procSpec(b, cpus, policy), log)
}

// slotStarter is procStarter for a league's worker slot: the scratch images of the bot's
// processes in that slot are compacted when none of them runs, not only when none of the
// bot's processes in any slot does (botproc.Sandbox.ScratchGroup). The slots play matches of
// their own seeds, and each keeps its own processes across matches.
func slotStarter(b botdef.Bot, slot int, cpus []int, policy confine.Policy, log zerolog.Logger) referee.Starter {
	spec := procSpec(b, cpus, policy)
	if spec.Sandbox != nil {
		spec.Sandbox.ScratchGroup = fmt.Sprintf("league slot %d", slot)
	}
	return botproc.Starter(spec, log)
}

// checkSandboxed reports what would keep each bot from starting in its sandbox, before any
// starts, and returns a note for each bot whose files are private to the arena's user (it
// then runs as that user inside a user namespace, not as botproc.SandboxUID).
func checkSandboxed(policy confine.Policy, bots ...botdef.Bot) (notes []string, err error) {
	var errs []error
	for _, b := range bots {
		note, err := botproc.CheckSandbox(procSpec(b, nil, policy))
		if err != nil {
			errs = append(errs, fmt.Errorf("bot %q in its sandbox: %w", b.Name, err))
		} else if note != "" {
			notes = append(notes, fmt.Sprintf("note: bot %s: %s", b.Name, note))
		}
	}
	return notes, errors.Join(errs...)
}

// procSpec is how botproc runs the bot.
func procSpec(b botdef.Bot, cpus []int, policy confine.Policy) botproc.Spec {
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

// botsFlag is the --bots flag of the commands that run bots named in a file.
func botsFlag() cli.Flag {
	return &cli.StringFlag{Name: "bots", EnvVars: []string{"ARENA_BOTS"}, Usage: "TOML `FILE` of bot definitions ([[bot]] name, cmd, dir, env, decision, stderr)"}
}

// graceFlag is the --grace flag of the commands that run bots.
func graceFlag() cli.Flag {
	return &cli.DurationFlag{Name: "grace", Value: referee.DefaultTimeControl.Grace, Usage: "grace on top of the decision time before a timeout"}
}

// startupFlag is the --startup flag of the commands that run bots.
func startupFlag() cli.Flag {
	return &cli.DurationFlag{Name: "startup", Value: referee.DefaultTimeControl.Startup, Usage: "time for each handshake answer"}
}

// sandboxPolicy reads the value of --sandbox.
func sandboxPolicy(mode string) (confine.Policy, error) {
	off, err := confine.ParseMode(mode)
	if err != nil {
		return confine.Policy{}, fmt.Errorf("--sandbox: %w", err)
	}
	return confine.Policy{Off: off}, nil
}

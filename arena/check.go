package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/klaverjas-arena/arena/arena/botdef"
	"github.com/klaverjas-arena/arena/arena/check"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/urfave/cli/v2"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "run one bot through a battery of protocol checks and report what it does wrong",
		ArgsUsage: "BOT",
		Description: "BOT is a bot command, split into words the way a shell would, or a name from --bots.\n" +
			"The bot is run as in a match, many times over: the handshake, every preset, every\n" +
			"trump-choosing procedure (free and forced choices, draaikaart offers), both play rules\n" +
			"in positions where the legal cards are restricted, roem claims, an unknown event, a\n" +
			"full 16-deal game against the check's own opponent, two games in a row per process (as\n" +
			"in a match), a fresh process told game 2 at deal 5 (a restart), a second match on one\n" +
			"process (a league), the three-player game at a table of three and of four (or its\n" +
			"refusal), response times, stderr output and a clean exit on quit. A bot that refuses\n" +
			"the default ruleset is warned and checked under the first preset it plays. Each item is PASS,\n" +
			"WARN, INFO, FAIL or SKIP; failures show the line the arena sent, the exact line the bot\n" +
			"sent and what was expected. Give --time, --bank and --increment of the match or league\n" +
			"the bot will play in: a bot too slow only under a game clock passes without them.\n" +
			"The exit status is 0 only when no item failed (warnings are allowed).",
		Flags: append([]cli.Flag{
			botsFlag(),
			&cli.DurationFlag{Name: "time", Value: referee.DefaultTimeControl.Decision, Usage: "time per decision"},
			graceFlag(),
			startupFlag(),
			&cli.DurationFlag{Name: "bank", Usage: "game clock per seat in the games played through the referee (the full game, games in a row, the three-player games), as arena match --bank", DefaultText: "none"},
			&cli.DurationFlag{Name: "increment", Usage: "added to the game clock after each decision, as arena match --increment", DefaultText: "none"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed for the cards of the full game"},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON"},
			sandboxFlag(),
		}, verbosityFlags()...),
		Action: runCheck,
	}
}

func runCheck(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageError{fmt.Sprintf("arena check: want one bot, got %d arguments (arena help check)", c.NArg())}
	}
	// Every problem of the command line and the bots file, together, before the bot starts.
	var errs []error
	v, err := verbosityFromFlags(c)
	if err != nil {
		errs = append(errs, err)
	}
	var bots botdef.File
	if path := c.String("bots"); path != "" {
		var err error
		if bots, err = botdef.Load(path); err != nil {
			errs = append(errs, err)
		}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	b, err := botdef.Lookup(c.Args().First(), bots, cwd)
	if err != nil {
		errs = append(errs, err)
	}
	tc := referee.TimeControl{Startup: c.Duration("startup"), Decision: c.Duration("time"), Grace: c.Duration("grace"),
		Bank: c.Duration("bank"), Increment: c.Duration("increment")}
	if b.Decision > 0 && !c.IsSet("time") {
		tc.Decision = b.Decision
	}
	errs = append(errs, checkTimeFlags(tc)...)
	policy, err := sandboxPolicy(c.String("sandbox"))
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return errors.Join(distinctErrors(errs)...)
	}
	// The bot's stderr goes to its own file if it has one, else to a temporary file, so the
	// check can count every byte.
	if b.Stderr == "" {
		f, err := os.CreateTemp("", "arena-check-stderr-*")
		if err != nil {
			return err
		}
		f.Close()
		defer os.Remove(f.Name())
		b.Stderr = f.Name()
	}
	if err := policy.Check(); err != nil {
		return err
	}
	policy.Hide = append(policy.Hide, b.Stderr, c.String("bots"))
	notes, err := checkSandboxed(policy, b)
	if err != nil {
		return err
	}
	for _, note := range notes {
		fmt.Fprintln(v.notes(c.App.ErrWriter), note)
	}
	fmt.Fprintf(v.notes(c.App.ErrWriter), "arena: check %s, isolation: %s\n", b.Name, policy.Describe())
	log := logger(c.App.ErrWriter, v.level)
	start := procStarter(b, nil, policy, log)
	opts := check.Options{
		Bot:        c.Args().First(),
		Time:       tc,
		StderrFile: b.Stderr,
		Seed:       c.Uint64("seed"),
		Sandboxed:  !policy.Off,
		Start: func(ctx context.Context) (referee.Conn, error) {
			conn, err := start(ctx)
			if err != nil {
				return nil, err
			}
			return conn, nil // a botproc.Conn: it also tells how the process ended
		},
	}
	rep, err := check.Run(c.Context, opts)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		err = rep.WriteJSON(c.App.Writer)
	} else {
		err = rep.WriteText(c.App.Writer)
	}
	if err != nil {
		return err
	}
	if !rep.Passed {
		return cli.Exit("", 1)
	}
	return nil
}

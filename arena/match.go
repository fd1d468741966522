package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/arena/view/textview"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/urfave/cli/v2"
)

func matchCommand() *cli.Command {
	return &cli.Command{
		Name:      "match",
		Usage:     "play a match between two bots (each team is two copies of one bot), or three or four in the three-player game",
		ArgsUsage: "A B | A B C [D]",
		Description: "A and B are bot commands, split into words the way a shell would\n" +
			"('python3 bots/x.py --level 2'), or names from --bots. Team NS is two copies of A,\n" +
			"team EW two copies of B; --seat N=BOT (repeatable) seats any bot anywhere.\n" +
			"Every deal is played twice by default (duplicate): the second time with the hands\n" +
			"moved one seat on, so each team plays the cards the other team held.\n" +
			"The three-player game (--preset drie_spelers) takes three bots for N, E and S, or\n" +
			"four, the dealer sitting out each deal; duplicate plays every deal once per seat.\n" +
			"Bot faults are part of the result; the exit status is non-zero only for arena errors.",
		Flags: append(rulesetFlags(),
			&cli.StringFlag{Name: "bots", EnvVars: []string{"ARENA_BOTS"}, Usage: "TOML `FILE` of bot definitions ([[bot]] name, cmd, dir, env, decision, stderr)"},
			&cli.StringSliceFlag{Name: "seat", Usage: "seat a bot: `SEAT=BOT`, e.g. --seat E=random (repeatable)"},
			&cli.IntFlag{Name: "games", Value: 2, Usage: "games (deal sets); with duplicate each is played twice (three-player game: once per seat)"},
			&cli.BoolFlag{Name: "duplicate", Value: true, Usage: "replay every game with the hands moved one seat on, until every seat has held every hand (--duplicate=false to turn off)"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed for the cards (default: a random one, printed); without --key a bot that knows it knows every hand"},
			&cli.StringFlag{Name: "key", Usage: "secret deal key `FILE` (arena keygen): the cards then depend on it too, and the seed alone reveals no hand"},
			&cli.StringFlag{Name: "deals", Usage: "`FILE` of predefined deals to play instead of shuffled ones (spec.md §13)"},
			&cli.DurationFlag{Name: "time", Value: referee.DefaultTimeControl.Decision, Usage: "time per decision"},
			&cli.DurationFlag{Name: "grace", Value: referee.DefaultTimeControl.Grace, Usage: "grace on top of the decision time before a timeout"},
			&cli.DurationFlag{Name: "startup", Value: referee.DefaultTimeControl.Startup, Usage: "time for each handshake answer"},
			&cli.DurationFlag{Name: "bank", Usage: "game clock per seat (0: none)"},
			&cli.DurationFlag{Name: "increment", Usage: "added to the game clock after each decision"},
			&cli.IntFlag{Name: "max-faults", Value: 3, Usage: "faults after which a bot is not restarted in this match"},
			&cli.StringFlag{Name: "log", Usage: "append every deal to this JSON-lines `FILE` (spec.md §12)"},
			&cli.StringFlag{Name: "trace", Usage: "write every protocol line to and from every bot to `FILE`"},
			&cli.StringFlag{Name: traceDirFlag, Usage: "write each seat's protocol lines, to and from its bot, to `DIR`/SEAT-BOT.trace: a bot's own transcript"},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"},
			&cli.StringFlag{Name: "sprt", Usage: "stop as soon as a sequential test decides: `elo0=X,elo1=Y[,alpha=A,beta=B,normalized]`; --games is then the most pairs to play"},
			&cli.StringFlag{Name: "affinity", Value: "shared", Usage: "CPU placement: shared (the referee and the four bots on one CPU: fastest, see BENCHMARKS.md), spread (bots over all CPUs) or none"},
			sandboxFlag(),
		),
		Action: runMatch,
	}
}

// runMatch is arena match: the command line is read, then checked whole (every problem is
// reported together, before any bot starts), then the match is run.
func runMatch(c *cli.Context) error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	plan, err := matchConfigFromFlags(c).validate(cwd)
	if err != nil {
		return err
	}
	return plan.run(c.Context, c.App.Writer, c.App.ErrWriter)
}

// run plays the match, writing the result to out and notes and logs to errOut.
func (p *matchPlan) run(ctx context.Context, out, errOut io.Writer) error {
	cfg := p.cfg
	cfg.Logger = logger(errOut)
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	var log io.Writer
	for _, o := range []struct {
		path string
		dst  *io.Writer
	}{{p.logFile, &log}, {p.traceFile, &cfg.Trace}} {
		if o.path != "" {
			f, err := os.OpenFile(o.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
			if err != nil {
				return err
			}
			files = append(files, f)
			*o.dst = f
		}
	}
	if log != nil {
		cfg.Records = referee.NewLogWriter(log)
	}
	if p.traceDir != "" {
		traces, closeTraces, err := openSeatTraces(p.traceDir, botNames(p.bots))
		if err != nil {
			return err
		}
		defer closeTraces()
		cfg.SeatTraces = traces
	}
	entrants := make([]referee.Entrant, len(p.bots))
	for i, b := range p.bots {
		entrants[i] = referee.Entrant{Name: b.Name, HelloName: b.Unnamed, Start: procStarter(b, p.cpus.bot(i), p.policy, cfg.Logger)}
	}
	for _, note := range p.notes {
		fmt.Fprintln(errOut, note)
	}
	fmt.Fprintf(errOut, "arena: match %s, seed %d%s, isolation: %s\n", cfg.ID, cfg.Seed, keyedNote(cfg), p.policy.Describe())
	defer p.cpus.pinReferee()()
	var sprt *sprtRun
	if p.sprt != nil {
		sprt = newSPRTRun(*p.sprt)
		cfg.Stop = sprt.stop
	}
	res, err := referee.Run(ctx, cfg, entrants)
	var refused *referee.RefusedError
	if errors.As(err, &refused) {
		return fmt.Errorf("no match played: %w", err)
	}
	if res != nil {
		if p.json {
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			if err := enc.Encode(res); err != nil {
				return err
			}
		} else {
			printMatch(out, cfg, res)
			if sprt != nil {
				sprt.report(out, res.Bots[0].Name, res.Bots[1].Name)
			}
		}
	}
	return err
}

func printMatch(w io.Writer, cfg referee.Config, res *referee.Result) {
	fmt.Fprintf(w, "match %s: %d games, %d deals, ruleset %s, seed %d%s\n\n", res.ID, len(res.Games), res.Deals, presetOrCustom(cfg), cfg.Seed, keyedNote(cfg))
	textview.Match(w, view.SummarizeMatch(res, cfg.Rules.Players))
}

// keyedNote says, after the seed, that the cards also depend on a secret key.
func keyedNote(cfg referee.Config) string {
	if cfg.Key != nil {
		return " (keyed)"
	}
	return ""
}

func presetOrCustom(cfg referee.Config) string {
	for _, name := range rules.AllPresetNames() {
		if p, err := rules.Preset(name); err == nil && p == cfg.Rules {
			return name
		}
	}
	return "custom"
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/klaverjas-arena/arena/protocol"
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
		Flags: append(append(rulesetFlags(),
			&cli.StringFlag{Name: "bots", EnvVars: []string{"ARENA_BOTS"}, Usage: "TOML `FILE` of bot definitions ([[bot]] name, cmd, dir, env, decision, stderr)"},
			&cli.StringSliceFlag{Name: "seat", Usage: "seat a bot: `SEAT=BOT`, e.g. --seat E=random (repeatable)"},
			&cli.IntFlag{Name: "games", Value: 2, Usage: "games (deal sets); with duplicate each is played twice (three-player game: once per seat)"},
			&cli.BoolFlag{Name: "duplicate", Value: true, Usage: "replay every game with the hands moved one seat on, until every seat has held every hand (--duplicate=false to turn off)"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed for the cards; without --key a bot that knows it knows every hand", DefaultText: "a random one, printed"},
			&cli.StringFlag{Name: "key", Usage: "secret deal key `FILE` (arena keygen): the cards then depend on it too, and the seed alone reveals no hand"},
			&cli.StringFlag{Name: "deals", Usage: "`FILE` of predefined deals to play instead of shuffled ones (spec.md §13)"},
			&cli.DurationFlag{Name: "time", Value: referee.DefaultTimeControl.Decision, Usage: "time per decision"},
			&cli.DurationFlag{Name: "grace", Value: referee.DefaultTimeControl.Grace, Usage: "grace on top of the decision time before a timeout"},
			&cli.DurationFlag{Name: "startup", Value: referee.DefaultTimeControl.Startup, Usage: "time for each handshake answer"},
			&cli.DurationFlag{Name: "bank", Usage: "game clock per seat", DefaultText: "none"},
			&cli.DurationFlag{Name: "increment", Usage: "added to the game clock after each decision", DefaultText: "none"},
			&cli.IntFlag{Name: "max-faults", Value: 3, Usage: "faults after which a bot is not restarted in this match"},
			&cli.StringFlag{Name: "log", Usage: "append every deal to this JSON-lines `FILE` (spec.md §12)"},
			&cli.StringFlag{Name: "trace", Usage: "write every protocol line to and from every bot to `FILE` (replacing what it held)"},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"},
			&cli.StringFlag{Name: "sprt", Usage: "stop as soon as a sequential test decides: `elo0=X,elo1=Y[,alpha=A,beta=B,normalized]`; --games is then the most pairs to play"},
			&cli.StringFlag{Name: "affinity", Value: "shared", Usage: "CPU placement: shared (the referee and the four bots on one CPU: fastest, see BENCHMARKS.md), spread (bots over all CPUs) or none"},
			sandboxFlag(),
		), verbosityFlags()...),
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
	cfg.Logger = logger(errOut, p.verbosity.level)
	notes := p.verbosity.notes(errOut)
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for _, o := range []struct {
		path string
		dst  *io.Writer
		mode int
	}{{p.logFile, &cfg.Log, os.O_APPEND}, {p.traceFile, &cfg.Trace, os.O_TRUNC}} {
		if o.path != "" {
			f, err := os.OpenFile(o.path, os.O_CREATE|os.O_WRONLY|o.mode, 0o600)
			if err != nil {
				return err
			}
			files = append(files, f)
			*o.dst = f
		}
	}
	entrants := make([]referee.Entrant, len(p.bots))
	for i, b := range p.bots {
		entrants[i] = referee.Entrant{Name: b.Name, HelloName: b.Unnamed, Start: procStarter(b, p.cpus.bot(i), p.policy, cfg.Logger)}
	}
	for _, note := range p.notes {
		fmt.Fprintln(notes, note)
	}
	fmt.Fprintf(notes, "arena: match %s, seed %d%s, isolation: %s\n", cfg.ID, cfg.Seed, keyedNote(cfg), p.policy.Describe())
	defer p.cpus.pinReferee()()
	games := cfg.Games
	if cfg.Duplicate {
		games *= referee.DuplicateGames(&cfg.Rules, len(p.bots))
	}
	progress := newMatchProgress(notes, games, p.sprt)
	cfg.Stop = progress.stop
	res, err := referee.Run(ctx, cfg, entrants)
	var refused *referee.RefusedError
	var notStarted *referee.StartError
	if errors.As(err, &refused) || errors.As(err, &notStarted) {
		return fmt.Errorf("no match played: %w", err)
	}
	if ctx.Err() != nil {
		// Interrupted: the deal in play is not recorded and nobody is at fault; what was
		// finished is shown and, with --log, kept.
		err = fmt.Errorf("interrupted after %d finished deals; the deal in play was not recorded", res.Deals)
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
			if p.sprt != nil {
				progress.report(out, res.Bots[0].Name, res.Bots[1].Name)
			}
		}
	}
	return err
}

func printMatch(w io.Writer, cfg referee.Config, res *referee.Result) {
	games := len(res.Games)
	fmt.Fprintf(w, "match %s: %d games, %d deals, ruleset %s, seed %d%s\n\n", res.ID, games, res.Deals, presetOrCustom(cfg), cfg.Seed, keyedNote(cfg))
	total := 0
	for _, ts := range res.Sides {
		total += ts.Points
	}
	side, name := "team", func(s int) string { return protocol.Team(s).String() }
	if cfg.Rules.Players == 3 {
		side, name = "seat", func(s int) string { return protocol.Seat(s).String() }
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tbots\tpoints\tshare\twon\tdrawn\tmade\tnat\tpit\tforfeits\t\n", side)
	for t, ts := range res.Sides {
		share := 0.0
		if total > 0 {
			share = 100 * float64(ts.Points) / float64(total)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f%%\t%d\t%d\t%d\t%d\t%d\t%d\t\n", name(t), strings.Join(ts.Bots, " + "), ts.Points, share, ts.GamesWon, ts.Draws, ts.Made, ts.Nat, ts.Pit, ts.Forfeits)
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "seat\tbot\tdecisions\tmean ms\tmax ms\tcpu ms\tfaults\t")
	for s, b := range res.Bots {
		mean := 0.0
		if b.Decisions > 0 {
			mean = float64(b.Wall.Microseconds()) / 1000 / float64(b.Decisions)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.1f\t%.0f\t%s\t\n", protocol.Seat(s), b.Name, b.Decisions, mean, float64(b.MaxWall.Microseconds())/1000, float64(b.CPU.Microseconds())/1000, faultList(b.Faults))
	}
	tw.Flush()
	if cfg.Rules.Players == 3 {
		printPairwise(w, res)
	} else if pairs := res.Pairs(); len(pairs) > 0 {
		sum := 0.0
		for _, p := range pairs {
			sum += p.Share
		}
		fmt.Fprintf(w, "\nduplicate pairs: %d, NS points share over the pairs %.1f%%\n", len(pairs), 100*sum/float64(len(pairs)))
	}
}

// printPairwise shows, for a three-player match, each pair of seats' share of the points the
// two of them scored: the pairwise results that ratings are made of.
func printPairwise(w io.Writer, res *referee.Result) {
	fmt.Fprintln(w, "\npairwise points share:")
	for a, sa := range res.Sides {
		for b := a + 1; b < len(res.Sides); b++ {
			sb := res.Sides[b]
			if sum := sa.Points + sb.Points; sum > 0 {
				fmt.Fprintf(w, "  %s %s %.1f%% vs %s %s\n", protocol.Seat(a), sa.Bots[0], 100*float64(sa.Points)/float64(sum), protocol.Seat(b), sb.Bots[0])
			}
		}
	}
}

// faultList prints fault counts by kind, e.g. "crash:1,timeout:2", or "-" for none.
func faultList[K ~string](f map[K]int) string {
	if len(f) == 0 {
		return "-"
	}
	var parts []string
	for k, n := range f {
		parts = append(parts, fmt.Sprintf("%s:%d", k, n))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
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

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/botproc"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/urfave/cli/v2"
)

func matchCommand() *cli.Command {
	return &cli.Command{
		Name:      "match",
		Usage:     "play a match between two bots (each team is two copies of one bot)",
		ArgsUsage: "A B",
		Description: "A and B are bot commands, split into words the way a shell would\n" +
			"('python3 bots/x.py --level 2'), or names from --bots. Team NS is two copies of A,\n" +
			"team EW two copies of B; --seat N=BOT (repeatable) seats any bot anywhere.\n" +
			"Every deal is played twice by default (duplicate): the second time with the hands\n" +
			"moved one seat on, so each team plays the cards the other team held.\n" +
			"Bot faults are part of the result; the exit status is non-zero only for arena errors.",
		Flags: append(rulesetFlags(),
			&cli.StringFlag{Name: "bots", EnvVars: []string{"ARENA_BOTS"}, Usage: "TOML `FILE` of bot definitions ([[bot]] name, cmd, dir, env, decision, stderr)"},
			&cli.StringSliceFlag{Name: "seat", Usage: "seat a bot: `SEAT=BOT`, e.g. --seat E=random (repeatable)"},
			&cli.IntFlag{Name: "games", Value: 2, Usage: "games (deal sets); with duplicate each is played twice"},
			&cli.BoolFlag{Name: "duplicate", Value: true, Usage: "replay every game with the hands moved one seat on (--duplicate=false to turn off)"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed for the cards (default: from the clock; printed)"},
			&cli.StringFlag{Name: "deals", Usage: "`FILE` of predefined deals to play instead of shuffled ones (spec.md §13)"},
			&cli.DurationFlag{Name: "time", Value: referee.DefaultTimeControl.Decision, Usage: "time per decision"},
			&cli.DurationFlag{Name: "grace", Value: referee.DefaultTimeControl.Grace, Usage: "grace on top of the decision time before a timeout"},
			&cli.DurationFlag{Name: "startup", Value: referee.DefaultTimeControl.Startup, Usage: "time for each handshake answer"},
			&cli.DurationFlag{Name: "bank", Usage: "game clock per seat (0: none)"},
			&cli.DurationFlag{Name: "increment", Usage: "added to the game clock after each decision"},
			&cli.IntFlag{Name: "max-faults", Value: 3, Usage: "faults after which a bot is not restarted in this match"},
			&cli.StringFlag{Name: "log", Usage: "append every deal to this JSON-lines `FILE` (spec.md §12)"},
			&cli.StringFlag{Name: "trace", Usage: "write every protocol line to and from every bot to `FILE`"},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"},
			&cli.StringFlag{Name: "sprt", Usage: "stop as soon as a sequential test decides: `elo0=X,elo1=Y[,alpha=A,beta=B,normalized]`; --games is then the most pairs to play"},
			&cli.StringFlag{Name: "affinity", Value: "shared", Usage: "CPU placement: shared (the referee and the four bots on one CPU: fastest, see BENCHMARKS.md), spread (bots over all CPUs) or none"},
		),
		Action: runMatch,
	}
}

func runMatch(c *cli.Context) error {
	cfg, entrants, placement, closeFiles, err := matchSetup(c)
	if err != nil {
		return err
	}
	defer closeFiles()
	defer placement.pinReferee()()
	var sprt *sprtRun
	if text := c.String("sprt"); text != "" {
		sc, _ := parseSPRT(text) // checked in matchSetup
		sprt = newSPRTRun(sc)
		cfg.Stop = sprt.stop
	}
	res, err := referee.Run(c.Context, cfg, entrants)
	if res != nil {
		if c.Bool("json") {
			enc := json.NewEncoder(c.App.Writer)
			enc.SetIndent("", "  ")
			if err := enc.Encode(res); err != nil {
				return err
			}
		} else {
			printMatch(c.App.Writer, cfg, res)
			if sprt != nil {
				sprt.report(c.App.Writer, res.Bots[0].Name, res.Bots[1].Name)
			}
		}
	}
	return err
}

// matchSetup checks every flag and bot before anything starts, reporting all problems.
func matchSetup(c *cli.Context) (referee.Config, [4]referee.Entrant, placement, func(), error) {
	var entrants [4]referee.Entrant
	var errs []error
	fail := func(err error) { errs = append(errs, err) }
	noop := func() {}

	rs, err := rulesetFromFlags(c)
	if err != nil {
		fail(err)
	} else if rs.Players != 4 {
		fail(fmt.Errorf("players = %d: the rules engine plays the three-player game, but matches of three bots are not supported yet", rs.Players))
	}
	var bots map[string]botSpec
	if path := c.String("bots"); path != "" {
		if bots, err = loadBots(path); err != nil {
			fail(err)
		}
	}
	args := c.Args().Slice()
	var specs [4]*botSpec
	if len(args) != 2 && !(len(args) == 0 && len(c.StringSlice("seat")) == 4) {
		fail(fmt.Errorf("want two bots A and B (or --seat for all four seats), got %d arguments", len(args)))
	}
	for i, arg := range args {
		if i > 1 {
			break
		}
		b, err := resolveBot(arg, bots)
		if err != nil {
			fail(err)
			continue
		}
		specs[i], specs[i+2] = &b, &b
	}
	for _, kv := range c.StringSlice("seat") {
		seatText, arg, ok := strings.Cut(kv, "=")
		seat, err := protocol.ParseSeat(seatText)
		if !ok || err != nil {
			fail(fmt.Errorf("--seat %q: want SEAT=BOT with SEAT one of N E S W", kv))
			continue
		}
		b, err := resolveBot(arg, bots)
		if err != nil {
			fail(err)
			continue
		}
		specs[seat] = &b
	}
	cfg := referee.Config{
		ID:        "m-" + time.Now().UTC().Format("20060102-150405"),
		Rules:     rs,
		Games:     c.Int("games"),
		Duplicate: c.Bool("duplicate"),
		Seed:      c.Uint64("seed"),
		Time: referee.TimeControl{Startup: c.Duration("startup"), Decision: c.Duration("time"), Grace: c.Duration("grace"),
			Bank: c.Duration("bank"), Increment: c.Duration("increment")},
		MaxFaults: c.Int("max-faults"),
		Logger:    logger(c.App.ErrWriter),
	}
	if !c.IsSet("seed") {
		cfg.Seed = uint64(time.Now().UnixNano())
	}
	if cfg.Games < 1 {
		fail(errors.New("--games must be at least 1"))
	}
	if cfg.Time.Decision <= 0 || cfg.Time.Startup <= 0 || cfg.Time.Grace < 0 || cfg.Time.Bank < 0 || cfg.Time.Increment < 0 {
		fail(errors.New("times must be positive (--grace, --bank and --increment may be 0)"))
	}
	if path := c.String("deals"); path != "" {
		f, err := os.Open(path)
		if err != nil {
			fail(err)
		} else {
			cfg.Deals, err = referee.ParseDeals(f, path)
			f.Close()
			if err != nil {
				fail(err)
			}
		}
	}
	if text := c.String("sprt"); text != "" {
		if _, err := parseSPRT(text); err != nil {
			fail(err)
		}
		if !cfg.Duplicate {
			fail(errors.New("--sprt tests duplicate pairs: it needs --duplicate"))
		}
	}
	cpus, err := parsePlacement(c.String("affinity"))
	if err != nil {
		fail(err)
	}
	if len(errs) > 0 {
		return cfg, entrants, cpus, noop, errors.Join(errs...)
	}
	var files []*os.File
	closeFiles := func() {
		for _, f := range files {
			f.Close()
		}
	}
	for _, o := range []struct {
		flag string
		dst  *io.Writer
	}{{"log", &cfg.Log}, {"trace", &cfg.Trace}} {
		if path := c.String(o.flag); path != "" {
			f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
			if err != nil {
				closeFiles()
				return cfg, entrants, cpus, noop, err
			}
			files = append(files, f)
			*o.dst = f
		}
	}
	for i, b := range specs {
		if b.Decision.Duration > 0 && b.Decision.Duration != cfg.Time.Decision {
			fmt.Fprintf(c.App.ErrWriter, "note: bot %s asks for %v per decision; a match uses one time control (%v)\n", b.Name, b.Decision.Duration, cfg.Time.Decision)
		}
		entrants[i] = referee.Entrant{Name: b.Name, Start: procStarter(*b, cpus.bot(i), cfg.Logger)}
	}
	fmt.Fprintf(c.App.ErrWriter, "arena: match %s, seed %d, isolation: %s\n", cfg.ID, cfg.Seed, botproc.Limits())
	return cfg, entrants, cpus, closeFiles, nil
}

func printMatch(w io.Writer, cfg referee.Config, res *referee.Result) {
	games := len(res.Games)
	fmt.Fprintf(w, "match %s: %d games, %d deals, ruleset %s, seed %d\n\n", res.ID, games, res.Deals, presetOrCustom(cfg), cfg.Seed)
	total := res.Teams[0].Points + res.Teams[1].Points
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "team\tbots\tpoints\tshare\twon\tdrawn\tmade\tnat\tpit\tforfeits\t")
	for t, ts := range res.Teams {
		share := 0.0
		if total > 0 {
			share = 100 * float64(ts.Points) / float64(total)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f%%\t%d\t%d\t%d\t%d\t%d\t%d\t\n", protocol.Team(t), ts.Bots[0]+" + "+ts.Bots[1], ts.Points, share, ts.GamesWon, ts.Draws, ts.Made, ts.Nat, ts.Pit, ts.Forfeits)
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
	if pairs := res.Pairs(); len(pairs) > 0 {
		sum := 0.0
		for _, p := range pairs {
			sum += p.Share
		}
		fmt.Fprintf(w, "\nduplicate pairs: %d, NS points share over the pairs %.1f%%\n", len(pairs), 100*sum/float64(len(pairs)))
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

func presetOrCustom(cfg referee.Config) string {
	for _, name := range rules.PresetNames() {
		if p, err := rules.Preset(name); err == nil && p == cfg.Rules {
			return name
		}
	}
	return "custom"
}

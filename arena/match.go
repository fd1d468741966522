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
	var refused *referee.RefusedError
	if errors.As(err, &refused) {
		return fmt.Errorf("no match played: %w", err)
	}
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
func matchSetup(c *cli.Context) (referee.Config, []referee.Entrant, placement, func(), error) {
	var errs []error
	fail := func(err error) { errs = append(errs, err) }
	noop := func() {}

	rs, err := rulesetFromFlags(c)
	if err != nil {
		fail(err)
	}
	var bots map[string]botSpec
	if path := c.String("bots"); path != "" {
		if bots, err = loadBots(path); err != nil {
			fail(err)
		}
	}
	args, seats := c.Args().Slice(), c.StringSlice("seat")
	table := 4
	switch {
	case rs.Players == 3 && len(args) == 0 && len(seats) == 3:
		table = 3
	case rs.Players == 3 && (len(args) == 3 || len(args) == 4):
		table = len(args)
	case rs.Players == 3:
		fail(fmt.Errorf("the three-player game wants three bots (N E S), or four with the dealer sitting out (or --seat for every seat), got %d arguments", len(args)))
	case len(args) != 2 && !(len(args) == 0 && len(seats) == 4):
		fail(fmt.Errorf("want two bots A and B (or --seat for all four seats), got %d arguments", len(args)))
	}
	specs := make([]*botSpec, table)
	for i, arg := range args[:min(len(args), table)] {
		b, err := resolveBot(arg, bots)
		if err != nil {
			fail(err)
			continue
		}
		specs[i] = &b
		if rs.Players == 4 && i < 2 {
			specs[i+2] = &b
		}
	}
	for _, kv := range seats {
		seatText, arg, ok := strings.Cut(kv, "=")
		seat, err := protocol.ParseSeat(seatText)
		if !ok || err != nil || int(seat) >= table {
			fail(fmt.Errorf("--seat %q: want SEAT=BOT with SEAT one of %s", kv, "N E S W"[:2*table-1]))
			continue
		}
		b, err := resolveBot(arg, bots)
		if err != nil {
			fail(err)
			continue
		}
		specs[seat] = &b
	}
	if len(errs) == 0 {
		for i, b := range specs {
			if b == nil {
				fail(fmt.Errorf("seat %s has no bot", protocol.Seat(i)))
			}
		}
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
		cfg.Seed = randomSeed()
	}
	if cfg.Key, err = keyFromFlag(c); err != nil {
		fail(err)
	}
	if cfg.Games < 1 {
		fail(errors.New("--games must be at least 1"))
	}
	if cfg.Time.Decision <= 0 || cfg.Time.Startup <= 0 || cfg.Time.Grace < 0 || cfg.Time.Bank < 0 || cfg.Time.Increment < 0 {
		fail(errors.New("times must be positive (--grace, --bank and --increment may be 0)"))
	}
	if path := c.String("deals"); path != "" && rs.Players == 3 {
		fail(errors.New("--deals: predefined deals are for the four-player game"))
	} else if path != "" {
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
		if rs.Players == 3 {
			fail(errors.New("--sprt tests one bot against another: it is for the four-player game"))
		}
	}
	cpus, err := parsePlacement(c.String("affinity"))
	if err != nil {
		fail(err)
	}
	policy, err := sandboxPolicy(c)
	if err != nil {
		fail(err)
	}
	policy.Hide = append(policy.Hide, c.String("log"), c.String("trace"), c.String(traceDirFlag), c.String("bots"), c.String("key"))
	for _, b := range specs {
		if b != nil && b.Stderr != "" {
			policy.Hide = append(policy.Hide, b.Stderr)
		}
	}
	if err := policy.Check(); err != nil {
		fail(err)
	} else if len(errs) == 0 {
		seated := map[string]botSpec{}
		for _, b := range specs {
			seated[b.Name] = *b
		}
		for _, b := range seated {
			if err := checkSandboxed(c.App.ErrWriter, policy, b); err != nil {
				fail(err)
			}
		}
	}
	if len(errs) > 0 {
		return cfg, nil, cpus, noop, errors.Join(errs...)
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
			f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
			if err != nil {
				closeFiles()
				return cfg, nil, cpus, noop, err
			}
			files = append(files, f)
			*o.dst = f
		}
	}
	if dir := c.String(traceDirFlag); dir != "" {
		names := make([]string, table)
		for i, b := range specs {
			names[i] = b.Name
		}
		traces, closeTraces, err := openSeatTraces(dir, names)
		if err != nil {
			closeFiles()
			return cfg, nil, cpus, noop, err
		}
		closeLogs := closeFiles
		cfg.SeatTraces, closeFiles = traces, func() { closeLogs(); closeTraces() }
	}
	entrants := make([]referee.Entrant, table)
	for i, b := range specs {
		if b.Decision.Duration > 0 && b.Decision.Duration != cfg.Time.Decision {
			fmt.Fprintf(c.App.ErrWriter, "note: bot %s asks for %v per decision; a match uses one time control (%v)\n", b.Name, b.Decision.Duration, cfg.Time.Decision)
		}
		entrants[i] = referee.Entrant{Name: b.Name, HelloName: b.Unnamed, Start: procStarter(*b, cpus.bot(i), policy, cfg.Logger)}
	}
	fmt.Fprintf(c.App.ErrWriter, "arena: match %s, seed %d%s, isolation: %s\n", cfg.ID, cfg.Seed, keyedNote(cfg), policy.Describe())
	return cfg, entrants, cpus, closeFiles, nil
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

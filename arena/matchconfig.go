package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/klaverjas-arena/arena/arena/botdef"
	"github.com/klaverjas-arena/arena/arena/confine"
	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/urfave/cli/v2"
)

// matchConfig is arena match's command line as given: every flag and argument, none checked.
type matchConfig struct {
	Args        []string // the bots A B, or A B C [D]: commands, or names from BotsFile
	Seats       []string // --seat SEAT=BOT
	BotsFile    string
	Ruleset     rulesetConfig
	Games       int
	Duplicate   bool
	Seed        uint64
	SeedSet     bool // --seed given; else a random seed is drawn
	KeyFile     string
	DealsFile   string
	Time        referee.TimeControl
	MaxFaults   int
	LogFile     string
	TraceFile   string
	TraceDir    string // --trace-dir: a trace file per seat in it
	JSON        bool
	SPRT        string // --sprt as typed
	Affinity    string
	Sandbox     string
	Quiet       bool
	Verbose     bool
	Concurrency int // duplicate pairs played at once
	// FlagProblems is the flag values that their flags refused (badFlagValues), the flags
	// then at their defaults.
	FlagProblems []string
}

// matchConfigFromFlags reads arena match's flags and arguments; it checks nothing.
func matchConfigFromFlags(c *cli.Context) matchConfig {
	return matchConfig{
		Args:      c.Args().Slice(),
		Seats:     c.StringSlice("seat"),
		BotsFile:  c.String("bots"),
		Ruleset:   rulesetConfigFromFlags(c),
		Games:     c.Int("games"),
		Duplicate: c.Bool("duplicate"),
		Seed:      c.Uint64("seed"),
		SeedSet:   c.IsSet("seed"),
		KeyFile:   c.String("key"),
		DealsFile: c.String("deals"),
		Time: referee.TimeControl{Startup: c.Duration("startup"), Decision: c.Duration("time"), Grace: c.Duration("grace"),
			Bank: c.Duration("bank"), Increment: c.Duration("increment")},
		MaxFaults:    c.Int("max-faults"),
		LogFile:      c.String("log"),
		TraceFile:    c.String("trace"),
		TraceDir:     c.String(traceDirFlag),
		JSON:         c.Bool("json"),
		SPRT:         c.String("sprt"),
		Affinity:     c.String("affinity"),
		Sandbox:      c.String("sandbox"),
		Quiet:        c.Bool("quiet"),
		Verbose:      c.Bool("verbose"),
		Concurrency:  c.Int("concurrency"),
		FlagProblems: flagProblems(c),
	}
}

// matchPlan is a checked match, ready to run: every file it reads has been read, every bot
// checked, and nothing has started.
type matchPlan struct {
	cfg       referee.Config // without its writers and logger, which run adds
	bots      []botdef.Bot   // by seat
	sprt      *rating.SPRTConfig
	cpus      placement
	policy    confine.Policy
	notes     []string // for the user, before the match starts
	logFile   string
	traceFile string
	traceDir  string
	json      bool
	verbosity verbosity
	parallel  int // pairs at once
}

// validate checks the whole command line and every file it names, and returns the match to
// play, or every problem found, together. Bots given as commands run in the directory cwd.
func (mc matchConfig) validate(cwd string) (*matchPlan, error) {
	var errs []error
	fail := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	for _, p := range mc.FlagProblems {
		fail(errors.New(p))
	}
	rs, err := mc.Ruleset.build()
	fail(err)
	var bots botdef.File
	if mc.BotsFile != "" {
		bots, err = botdef.Load(mc.BotsFile)
		fail(inputFileError("bots", mc.BotsFile, err, ""))
	}
	seated, err := seatBots(rs.Players, mc.Args, mc.Seats, bots, cwd)
	fail(err)
	p := &matchPlan{
		cfg: referee.Config{
			ID:        matchID(time.Now()),
			Rules:     rs,
			Games:     mc.Games,
			Duplicate: mc.Duplicate,
			Seed:      mc.Seed,
			Time:      mc.Time,
			MaxFaults: mc.MaxFaults,
		},
		bots:      seated,
		logFile:   mc.LogFile,
		traceFile: mc.TraceFile,
		traceDir:  mc.TraceDir,
		json:      mc.JSON,
	}
	p.verbosity, err = newVerbosity(mc.Quiet, mc.Verbose)
	fail(err)
	if !mc.SeedSet {
		p.cfg.Seed = randomSeed()
	}
	if mc.KeyFile != "" {
		p.cfg.Key, err = readKeyFile(mc.KeyFile)
		fail(inputFileError("key", mc.KeyFile, err, "arena keygen FILE makes one"))
	}
	if mc.Games < 1 {
		fail(fmt.Errorf("--games %d: must be at least 1", mc.Games))
	}
	p.parallel = mc.Concurrency
	if mc.Concurrency < 1 || mc.Concurrency > maxConcurrency {
		fail(fmt.Errorf("--concurrency %d: want 1 to %d", mc.Concurrency, maxConcurrency))
	} else if mc.Concurrency > 1 && mc.DealsFile != "" {
		fail(errors.New("--concurrency: predefined deals (--deals) are played in order, one pair after another"))
	} else if mc.Concurrency > 1 && (mc.TraceFile != "" || mc.TraceDir != "") {
		fail(errors.New("--concurrency: a protocol trace (--trace, --trace-dir) follows one pair after another"))
	}
	if mc.MaxFaults < 1 {
		fail(fmt.Errorf("--max-faults %d: must be at least 1", mc.MaxFaults))
	}
	for _, err := range checkTimeFlags(mc.Time) {
		fail(err)
	}
	if mc.DealsFile != "" && rs.Players == 3 {
		fail(errors.New("--deals: predefined deals are for the four-player game"))
	} else if mc.DealsFile != "" {
		p.cfg.Deals, err = readDeals(mc.DealsFile)
		fail(inputFileError("deals", mc.DealsFile, err, "spec.md §13 describes the file"))
	}
	if mc.SPRT != "" {
		sc, err := parseSPRT(mc.SPRT)
		fail(err)
		p.sprt = &sc
		if !mc.Duplicate {
			fail(errors.New("--sprt tests duplicate pairs: it needs --duplicate"))
		}
		if rs.Players == 3 {
			fail(errors.New("--sprt tests one bot against another: it is for the four-player game"))
		}
	}
	if mc.TraceDir != "" {
		fail(checkTraceDir(mc.TraceDir))
	}
	fail(checkLogFile(mc.LogFile))
	fail(checkOutputFile("trace", mc.TraceFile))
	p.cpus, err = parsePlacement(mc.Affinity)
	fail(err)
	p.policy, err = sandboxPolicy(mc.Sandbox)
	fail(err)
	// The predefined deals hold every hand of every deal: no bot may read them.
	p.policy.Hide = append(p.policy.Hide, mc.LogFile, mc.TraceFile, mc.TraceDir, mc.BotsFile, mc.KeyFile, mc.DealsFile)
	for _, b := range seated {
		if b.Stderr != "" {
			p.policy.Hide = append(p.policy.Hide, b.Stderr)
		}
		p.policy.HideScratch(b.Scratch)
	}
	if err := p.policy.Check(); err != nil {
		fail(err)
	} else if len(errs) == 0 {
		p.notes, err = checkSandboxed(p.policy, distinctBots(seated)...)
		fail(err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(distinctErrors(errs)...)
	}
	for _, b := range distinctBots(seated) {
		if b.Decision > 0 && b.Decision != mc.Time.Decision {
			p.notes = append(p.notes, fmt.Sprintf("note: bot %s asks for %v per decision; a match uses one time control (%v)", b.Name, b.Decision, mc.Time.Decision))
		}
	}
	return p, nil
}

// maxConcurrency is the most pairs --concurrency plays at once.
const maxConcurrency = 64

// matchID names a match by its start, to the second, and six random hexadecimal digits,
// so that matches started in the same second (in one --log) still differ:
// "m-20261201-225040-3fa9c1".
func matchID(t time.Time) string {
	return fmt.Sprintf("m-%s-%06x", t.UTC().Format("20060102-150405"), randomSeed()&0xffffff)
}

// checkTimeFlags returns every problem of the time-control flags.
func checkTimeFlags(tc referee.TimeControl) []error {
	var errs []error
	for _, f := range []struct {
		flag   string
		v      time.Duration
		zeroOK bool
	}{{"--time", tc.Decision, false}, {"--grace", tc.Grace, true}, {"--startup", tc.Startup, false},
		{"--bank", tc.Bank, true}, {"--increment", tc.Increment, true}} {
		if err := botdef.CheckTime(f.flag, f.v, f.zeroOK); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// readDeals reads a file of predefined deals (spec.md §13).
func readDeals(path string) ([]referee.DealSpec, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return referee.ParseDeals(f, path)
}

// seatBots seats the bots of the command line at a table of players (3 or 4): A and B as
// teams NS and EW (two copies each), or at three, the bots in seat order, the dealer
// sitting out when there are four; then --seat SEAT=BOT places one anywhere. It returns the
// bots by seat, or every problem found.
func seatBots(players int, args, seats []string, bots botdef.File, cwd string) ([]botdef.Bot, error) {
	var errs []error
	table := 4
	switch {
	case players == 3 && len(args) == 0 && len(seats) == 3:
		table = 3
	case players == 3 && (len(args) == 3 || len(args) == 4):
		table = len(args)
	case players == 3:
		errs = append(errs, fmt.Errorf("the three-player game wants three bots (N E S), or four with the dealer sitting out (or --seat for every seat), got %d arguments", len(args)))
	case len(args) == 3:
		errs = append(errs, fmt.Errorf("want two bots A and B (or --seat for all four seats), got 3 arguments; three bots play the three-player game: add --preset drie_spelers"))
	case len(args) != 2 && !(len(args) == 0 && len(seats) == 4):
		errs = append(errs, fmt.Errorf("want two bots A and B (or --seat for all four seats), got %d arguments", len(args)))
	}
	seated := make([]*botdef.Bot, table)
	for i, arg := range args[:min(len(args), table)] {
		b, err := botdef.Lookup(arg, bots, cwd)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		seated[i] = &b
		if players == 4 && i < 2 {
			seated[i+2] = &b
		}
	}
	for _, kv := range seats {
		seatText, arg, ok := strings.Cut(kv, "=")
		seat, err := protocol.ParseSeat(seatText)
		if !ok || err != nil || int(seat) >= table {
			errs = append(errs, fmt.Errorf("--seat %q: want SEAT=BOT with SEAT one of %s", kv, "N E S W"[:2*table-1]))
			continue
		}
		b, err := botdef.Lookup(arg, bots, cwd)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		seated[seat] = &b
	}
	if len(errs) > 0 {
		return nil, errors.Join(distinctErrors(errs)...)
	}
	out := make([]botdef.Bot, table)
	for i, b := range seated {
		if b == nil {
			errs = append(errs, fmt.Errorf("seat %s has no bot", protocol.Seat(i)))
			continue
		}
		out[i] = *b
	}
	apartUnnamed(out)
	return out, errors.Join(errs...)
}

// apartUnnamed gives different bots given as commands that got one name from their commands
// (bot.sh of two directories) names apart, "-2" added to the later in seat order, so that the
// referee tells them apart by name when their hellos name them alike (two builds of one bot).
// One command given twice (self-play) is one bot.
func apartUnnamed(bots []botdef.Bot) {
	first := map[string]botdef.Bot{}
	for i := range bots {
		b := &bots[i]
		if !b.Unnamed {
			continue
		}
		base := b.Name
		for n := 2; ; n++ {
			f, taken := first[b.Name]
			if !taken {
				first[b.Name] = *b
				break
			}
			if f.Dir == b.Dir && slices.Equal(f.Cmd, b.Cmd) {
				break
			}
			b.Name = fmt.Sprintf("%s-%d", base, n)
		}
	}
}

// distinctBots returns each bot of a seating once, by name, in seat order.
func distinctBots(seated []botdef.Bot) []botdef.Bot {
	var out []botdef.Bot
	seen := map[string]bool{}
	for _, b := range seated {
		if !seen[b.Name] {
			seen[b.Name] = true
			out = append(out, b)
		}
	}
	return out
}

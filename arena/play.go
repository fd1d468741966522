package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/klaverjas-arena/arena/arena/botdef"
	"github.com/klaverjas-arena/arena/arena/confine"
	"github.com/klaverjas-arena/arena/arena/human"
	"github.com/klaverjas-arena/arena/arena/view/textview"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/urfave/cli/v2"
)

func playCommand() *cli.Command {
	return &cli.Command{
		Name:      "play",
		Usage:     "take a seat yourself, in the terminal, against bots (or with a bot as partner)",
		ArgsUsage: "BOT [BOT2 [BOT3]]",
		Description: "You sit at --as (default S); the bots take the other seats. One bot takes all of\n" +
			"them; with two, the first is your partner and the second your opponents; with three,\n" +
			"they sit from your left clockwise. In the three-player game (--preset drie_spelers) one\n" +
			"or two bots sit with you, and three make a table of four, the dealer sitting out.\n" +
			"You see your hand with suit symbols, the legal cards numbered, the trick, the bidding\n" +
			"and the scores, and type a card (its number, or its name such as JH) or a bid; ? shows\n" +
			"the last trick. You are a seat like any bot: the same referee, and --log writes the\n" +
			"game for arena replay. You take as long as you like, unless the game has a clock (--bank,\n" +
			"--increment) or --clock puts you under the decision time (--time) too: the time left is\n" +
			"then shown at every prompt.",
		Flags: append(rulesetFlags(),
			botsFlag(),
			&cli.StringFlag{Name: "as", Value: "S", Usage: "your `SEAT`: N, E, S or W"},
			&cli.StringFlag{Name: "name", Value: "you", Usage: "your `NAME` in the log"},
			&cli.IntFlag{Name: "games", Value: 1, Usage: "games to play"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed for the cards (default: a random one)"},
			&cli.DurationFlag{Name: "time", Value: referee.DefaultTimeControl.Decision, Usage: "time per decision (with --bank and no --time: the bank)"},
			graceFlag(),
			startupFlag(),
			&cli.DurationFlag{Name: "bank", Usage: "game clock per seat (0: none)"},
			&cli.DurationFlag{Name: "increment", Usage: "added to the game clock after each decision"},
			&cli.BoolFlag{Name: "clock", Usage: "play under the decision time (--time) yourself, with the time left shown (on with --bank)"},
			&cli.StringFlag{Name: "log", Usage: "append every deal to this JSON-lines `FILE` (spec.md §12), for arena replay"},
			&cli.StringFlag{Name: "trace", Usage: "write every protocol line to and from every seat to `FILE`"},
			&cli.BoolFlag{Name: "ascii", Usage: "plain ASCII even on a terminal"},
			sandboxFlag(),
		),
		Action: runPlay,
	}
}

// playConfig is arena play's command line as given: every flag and argument, none checked.
type playConfig struct {
	Args      []string // the bots: commands, or names from BotsFile
	BotsFile  string
	Ruleset   rulesetConfig
	As        string // --as: the person's seat
	Name      string // --name: the person's name
	Games     int
	Seed      uint64
	SeedSet   bool // --seed given; else a random seed is drawn
	Time      referee.TimeControl
	TimeSet   bool // --time given; else with a game clock the bank alone limits a decision
	Clock     bool // --clock: the person plays under the decision time too
	LogFile   string
	TraceFile string
	Sandbox   string
	// FlagProblems is the flag values that their flags refused (badFlagValues), the flags
	// then at their defaults.
	FlagProblems []string
}

// playConfigFromFlags reads arena play's flags and arguments; it checks nothing.
func playConfigFromFlags(c *cli.Context) playConfig {
	return playConfig{
		Args:     c.Args().Slice(),
		BotsFile: c.String("bots"),
		Ruleset:  rulesetConfigFromFlags(c),
		As:       c.String("as"),
		Name:     c.String("name"),
		Games:    c.Int("games"),
		Seed:     c.Uint64("seed"),
		SeedSet:  c.IsSet("seed"),
		Time: referee.TimeControl{Startup: c.Duration("startup"), Decision: c.Duration("time"), Grace: c.Duration("grace"),
			Bank: c.Duration("bank"), Increment: c.Duration("increment")},
		TimeSet:      c.IsSet("time"),
		Clock:        c.Bool("clock"),
		LogFile:      c.String("log"),
		TraceFile:    c.String("trace"),
		Sandbox:      c.String("sandbox"),
		FlagProblems: flagProblems(c),
	}
}

// playPlan is a checked game with a person at the table, ready to run: every bot checked
// in its sandbox, nothing started.
type playPlan struct {
	cfg       referee.Config // without its writers and logger, which run adds
	seats     []*botdef.Bot  // by seat; nil is the person's
	names     []string       // by seat
	clock     bool           // show the person the time left
	policy    confine.Policy
	notes     []string // for the user, before the game starts
	logFile   string
	traceFile string
}

// validate checks the whole command line and every file it names, as arena match does, and
// returns the game to play, or every problem found, together. Bots given as commands run in
// the directory cwd.
func (pc playConfig) validate(cwd string) (*playPlan, error) {
	var errs []error
	fail := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	for _, p := range pc.FlagProblems {
		fail(errors.New(p))
	}
	rs, err := pc.Ruleset.build()
	fail(err)
	if err := botdef.CheckName(pc.Name); err != nil {
		fail(fmt.Errorf("--name: %w", err))
	}
	me, err := protocol.ParseSeat(pc.As)
	if err != nil {
		fail(fmt.Errorf("--as: %w", err))
	}
	var bots botdef.File
	if pc.BotsFile != "" {
		bots, err = botdef.Load(pc.BotsFile)
		fail(inputFileError("bots", pc.BotsFile, err, ""))
	}
	var specs []botdef.Bot
	for _, arg := range pc.Args {
		b, err := botdef.Lookup(arg, bots, cwd)
		fail(err)
		specs = append(specs, b)
	}
	p := &playPlan{
		cfg:       referee.Config{ID: "play-" + time.Now().UTC().Format("20060102-150405"), Rules: rs, Games: pc.Games, Seed: pc.Seed, Time: pc.Time},
		logFile:   pc.LogFile,
		traceFile: pc.TraceFile,
	}
	if len(errs) == 0 { // the seat and the bots are known
		p.seats, err = playSeats(rs.Players, me, specs)
		fail(err)
	}
	if !pc.SeedSet {
		p.cfg.Seed = randomSeed()
	}
	if p.cfg.Time.Bank > 0 && !pc.TimeSet {
		p.cfg.Time.Decision = p.cfg.Time.Bank // the game clock alone limits each decision
	}
	p.clock = pc.Clock || p.cfg.Time.Bank > 0
	if pc.Games < 1 {
		fail(fmt.Errorf("--games %d: must be at least 1", pc.Games))
	}
	for _, err := range checkTimeFlags(p.cfg.Time) {
		fail(err)
	}
	fail(checkLogFile(pc.LogFile))
	fail(checkOutputFile("trace", pc.TraceFile))
	p.policy, err = sandboxPolicy(pc.Sandbox)
	fail(err)
	p.policy.Hide = append(p.policy.Hide, pc.LogFile, pc.TraceFile, pc.BotsFile)
	for _, b := range specs {
		if b.Stderr != "" {
			p.policy.Hide = append(p.policy.Hide, b.Stderr)
		}
		p.policy.HideScratch(b.Scratch)
	}
	if err := p.policy.Check(); err != nil {
		fail(err)
	} else if len(errs) == 0 {
		p.notes, err = checkSandboxed(p.policy, distinctBots(specs)...)
		fail(err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(distinctErrors(errs)...)
	}
	p.names = make([]string, len(p.seats))
	for i, b := range p.seats {
		p.names[i] = pc.Name
		if b != nil {
			p.names[i] = b.Name
		}
	}
	return p, nil
}

// runPlay is arena play: the command line is read, then checked whole, then the game is
// played with the person at the terminal of the app's reader and writer.
func runPlay(c *cli.Context) error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	p, err := playConfigFromFlags(c).validate(cwd)
	if err != nil && len(flagProblems(c)) > 0 {
		return usageError{err.Error()} // a refused flag value is a usage error
	} else if err != nil {
		return err
	}
	return p.run(c.Context, c.App.Reader, c.App.Writer, c.App.ErrWriter, cardStyle(c.App.Writer, c.Bool("ascii")))
}

// run plays the game: the person reads out and types on in, styled with st; notes and logs
// go to errOut.
func (p *playPlan) run(ctx context.Context, in io.Reader, out, errOut io.Writer, st textview.Style) error {
	cfg := p.cfg
	cfg.Logger = logger(errOut, defaultLogLevel())
	if p.logFile != "" {
		f, err := openLog(p.logFile)
		if err != nil {
			return err
		}
		defer f.Close()
		cfg.Records = referee.NewLogWriter(f)
	}
	if p.traceFile != "" {
		f, err := os.OpenFile(p.traceFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		cfg.Trace = f
	}
	for _, note := range p.notes {
		fmt.Fprintln(errOut, note)
	}
	entrants := make([]referee.Entrant, len(p.seats))
	for i, b := range p.seats {
		if b == nil {
			entrants[i] = referee.Entrant{Name: p.names[i], Start: human.Starter(human.Options{Name: p.names[i], In: in, Out: out,
				Names: p.names, Card: st.Card, Suit: st.Suit, Clock: p.clock})}
			continue
		}
		entrants[i] = referee.Entrant{Name: b.Name, HelloName: b.Unnamed, Start: procStarter(*b, nil, p.policy, cfg.Logger)}
	}
	res, err := referee.Run(ctx, cfg, entrants)
	if res != nil {
		fmt.Fprintln(out)
		printMatch(out, cfg, res)
	}
	return err
}

// playSeats seats the bots around the person at seat me: nil is the person's seat.
func playSeats(players int, me protocol.Seat, bots []botdef.Bot) ([]*botdef.Bot, error) {
	table := players
	if players == 3 && len(bots) == 3 {
		table = 4
	}
	if int(me) >= table {
		return nil, fmt.Errorf("--as %s: not a seat at a table of %d", me, table)
	}
	seats := make([]*botdef.Bot, table)
	switch {
	case len(bots) == 0 || len(bots) > table-1:
		return nil, fmt.Errorf("want 1 to %d bots to play against, got %d", table-1, len(bots))
	case len(bots) == 1:
		for i := range seats {
			seats[i] = &bots[0]
		}
	case players == 4 && len(bots) == 2:
		for i := range seats {
			seats[i] = &bots[1]
		}
		seats[me.Plus(2, table)] = &bots[0]
	default: // from the person's left, clockwise
		for i := range bots {
			seats[me.Plus(i+1, table)] = &bots[i]
		}
	}
	seats[me] = nil
	return seats, nil
}

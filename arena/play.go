package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/klaverjas-arena/arena/arena/human"
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
			&cli.StringFlag{Name: "bots", EnvVars: []string{"ARENA_BOTS"}, Usage: "TOML `FILE` of bot definitions"},
			&cli.StringFlag{Name: "as", Value: "S", Usage: "your `SEAT`: N, E, S or W"},
			&cli.StringFlag{Name: "name", Value: "you", Usage: "your `NAME` in the log"},
			&cli.IntFlag{Name: "games", Value: 1, Usage: "games to play"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed for the cards (default: a random one)"},
			&cli.DurationFlag{Name: "time", Value: referee.DefaultTimeControl.Decision, Usage: "time per decision (with --bank and no --time: the bank)"},
			&cli.DurationFlag{Name: "grace", Value: referee.DefaultTimeControl.Grace, Usage: "grace on top of the decision time before a timeout"},
			&cli.DurationFlag{Name: "startup", Value: referee.DefaultTimeControl.Startup, Usage: "time for each handshake answer"},
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

func runPlay(c *cli.Context) error {
	rs, err := rulesetFromFlags(c)
	if err != nil {
		return err
	}
	if !protocol.ValidBotName(c.String("name")) {
		return fmt.Errorf("--name %q: one word of letters, digits, '.', '_' or '-'", c.String("name"))
	}
	me, err := protocol.ParseSeat(c.String("as"))
	if err != nil {
		return fmt.Errorf("--as: %w", err)
	}
	var bots map[string]botSpec
	if path := c.String("bots"); path != "" {
		if bots, err = loadBots(path); err != nil {
			return err
		}
	}
	var specs []botSpec
	for _, arg := range c.Args().Slice() {
		b, err := resolveBot(arg, bots)
		if err != nil {
			return err
		}
		specs = append(specs, b)
	}
	seats, err := playSeats(rs.Players, me, specs)
	if err != nil {
		return err
	}
	cfg := referee.Config{
		ID: "play-" + time.Now().UTC().Format("20060102-150405"), Rules: rs, Games: c.Int("games"), Seed: c.Uint64("seed"),
		Time: referee.TimeControl{Startup: c.Duration("startup"), Decision: c.Duration("time"), Grace: c.Duration("grace"),
			Bank: c.Duration("bank"), Increment: c.Duration("increment")},
		Logger: logger(c.App.ErrWriter),
	}
	if !c.IsSet("seed") {
		cfg.Seed = randomSeed()
	}
	if cfg.Time.Bank > 0 && !c.IsSet("time") {
		cfg.Time.Decision = cfg.Time.Bank // the game clock alone limits each decision
	}
	if cfg.Games < 1 {
		return errors.New("--games must be at least 1")
	}
	if cfg.Time.Decision <= 0 || cfg.Time.Startup <= 0 || cfg.Time.Grace < 0 || cfg.Time.Bank < 0 || cfg.Time.Increment < 0 {
		return errors.New("times must be positive (--grace, --bank and --increment may be 0)")
	}
	policy, err := sandboxPolicy(c)
	if err != nil {
		return err
	}
	policy.Hide = append(policy.Hide, c.String("log"), c.String("trace"), c.String("bots"))
	if err := policy.Check(); err != nil {
		return err
	}
	names := make([]string, len(seats))
	for i, b := range seats {
		names[i] = c.String("name")
		if b != nil {
			names[i] = b.Name
			if err := checkSandboxed(c.App.ErrWriter, policy, *b); err != nil {
				return err
			}
		}
	}
	for _, o := range []struct {
		path string
		dst  *io.Writer
	}{{c.String("log"), &cfg.Log}, {c.String("trace"), &cfg.Trace}} {
		if o.path != "" {
			f, err := os.OpenFile(o.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
			if err != nil {
				return err
			}
			defer f.Close()
			*o.dst = f
		}
	}
	st := newCardStyle(c.App.Writer, c.Bool("ascii"))
	entrants := make([]referee.Entrant, len(seats))
	for i, b := range seats {
		if b == nil {
			entrants[i] = referee.Entrant{Name: names[i], Start: human.Starter(human.Options{Name: names[i], In: c.App.Reader, Out: c.App.Writer,
				Names: names, Card: st.card, Suit: st.suit, Clock: c.Bool("clock") || cfg.Time.Bank > 0})}
			continue
		}
		entrants[i] = referee.Entrant{Name: b.Name, HelloName: b.Unnamed, Start: procStarter(*b, nil, policy, cfg.Logger)}
	}
	res, err := referee.Run(c.Context, cfg, entrants)
	if res != nil {
		fmt.Fprintln(c.App.Writer)
		printMatch(c.App.Writer, cfg, res)
	}
	return err
}

// playSeats seats the bots around the person at seat me: nil is the person's seat.
func playSeats(players int, me protocol.Seat, bots []botSpec) ([]*botSpec, error) {
	table := players
	if players == 3 && len(bots) == 3 {
		table = 4
	}
	if int(me) >= table {
		return nil, fmt.Errorf("--as %s: not a seat at a table of %d", me, table)
	}
	seats := make([]*botSpec, table)
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

package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/urfave/cli/v2"
)

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "play one whole game between four in-process random players and print it deal by deal",
		Flags: append(rulesetFlags(),
			&cli.Uint64Flag{Name: "seed", Usage: "random seed", DefaultText: "a random one, printed"},
			&cli.BoolFlag{Name: "brief", Usage: "one line per deal instead of every trick"},
		),
		Action: func(c *cli.Context) error {
			rs, err := rulesetFromFlags(c)
			if err != nil {
				return err
			}
			seed := c.Uint64("seed")
			if !c.IsSet("seed") {
				seed = randomSeed()
			}
			return playDemo(c.App.Writer, &rs, seed, c.Bool("brief"))
		},
	}
}

// playDemo plays one game with random legal decisions through the rules engine and prints it.
func playDemo(out io.Writer, rs *rules.Ruleset, seed uint64, brief bool) error {
	rng := rand.New(rand.NewPCG(seed, 0x6b6c61766572))
	fmt.Fprintf(out, "Klaverjas demo: four random players, seed %d\nruleset: %s\n\n", seed, rulesLine(rs))
	game := rules.NewGame(rs, protocol.Seat(rng.IntN(rs.Players)))
	var deal rules.Deal
	for n := 1; !game.Over(); n++ {
		deck := rules.Shuffle(rng)
		setup := rules.Setup{Dealer: game.Dealer(), Pile: rules.ShufflePile(rs, rng), FirstOfMatch: game.FirstDeal()}
		setup.Hands, _ = rules.DealHands(rs, &deck, setup.Dealer)
		if err := deal.Start(rs, setup); err != nil {
			return err
		}
		rules.PlayOut(&deal, rng)
		res := deal.Result()
		game.Add(res)
		if brief {
			fmt.Fprintf(out, "deal %2d  %s  total NS %4d  EW %4d\n", n, resultLine(&deal, res), game.Total[protocol.NS], game.Total[protocol.EW])
			continue
		}
		printDeal(out, n, &deal)
		fmt.Fprintf(out, "  %s\n  total: NS %d, EW %d\n\n", resultLine(&deal, res), game.Total[protocol.NS], game.Total[protocol.EW])
	}
	switch leader := game.Leader(); leader {
	case -1:
		fmt.Fprintf(out, "\nfinal score after %d deals: NS %d, EW %d: a draw\n", game.Played(), game.Total[protocol.NS], game.Total[protocol.EW])
	default:
		fmt.Fprintf(out, "\nfinal score after %d deals: NS %d, EW %d: %s wins\n", game.Played(), game.Total[protocol.NS], game.Total[protocol.EW], protocol.Team(leader))
	}
	return nil
}

func rulesLine(rs *rules.Ruleset) string {
	var parts []string
	for _, kv := range rs.Options() {
		parts = append(parts, kv[0]+"="+kv[1])
	}
	return strings.Join(parts, " ")
}

func printDeal(out io.Writer, n int, d *rules.Deal) {
	fmt.Fprintf(out, "deal %d, dealer %s\n", n, d.Dealer())
	for s := range protocol.Seat(d.Rules().Players) {
		fmt.Fprintf(out, "  %s  %s\n", s, d.Dealt(s))
	}
	if turned := d.Turned(); len(turned) > 0 {
		fmt.Fprintf(out, "  turned: %v\n", turned)
	}
	var bids []string
	for _, b := range d.Bids() {
		bids = append(bids, b.Seat.String()+" "+bidWords(b.Bid))
	}
	if len(bids) > 0 {
		fmt.Fprintf(out, "  bids: %s\n", strings.Join(bids, ", "))
	}
	if d.Maker() != protocol.NoSeat {
		fmt.Fprintf(out, "  trump %s, maker %s (%s)\n", d.Trump(), d.Maker(), protocol.TeamOf(d.Maker()))
	}
	for i, t := range d.Tricks() {
		cards := make([]string, t.N)
		for k := range t.N {
			cards[k] = t.Cards[k].String()
		}
		roem := ""
		if t.Scored > 0 {
			roem = fmt.Sprintf(" + %d roem %v", t.Scored, t.Roem.List())
		}
		fmt.Fprintf(out, "  trick %d: %s leads %s -> %s wins %d%s\n", i+1, t.Leader, strings.Join(cards, " "), t.Winner, t.Points, roem)
	}
}

func resultLine(d *rules.Deal, res rules.Result) string {
	s := fmt.Sprintf("%-7s", res.Outcome)
	if res.Outcome == rules.Redeal {
		return s + " everybody passed twice: the same dealer deals again"
	}
	s += fmt.Sprintf(" trump %s maker %s  cards NS %3d EW %3d  roem NS %3d EW %3d  score NS %3d EW %3d",
		d.Trump(), d.Maker(), res.CardPoints[protocol.NS], res.CardPoints[protocol.EW],
		res.Roem[protocol.NS], res.Roem[protocol.EW], res.Score[protocol.NS], res.Score[protocol.EW])
	if res.PitSide >= 0 {
		s += "  pit " + protocol.Team(res.PitSide).String()
	}
	return s
}

func bidWords(b rules.Bid) string {
	if b == rules.BidPass {
		return "pass"
	}
	return "play " + b.String()
}

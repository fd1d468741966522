package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/arena/view/textview"
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
		game.Add(deal.Result())
		d := view.DealFromPlay(&deal, n)
		if brief {
			fmt.Fprintf(out, "deal %2d  %s  total NS %4d  EW %4d\n", n, textview.DemoResult(d), game.Total[protocol.NS], game.Total[protocol.EW])
			continue
		}
		textview.DemoDeal(out, d)
		fmt.Fprintf(out, "  %s\n  total: NS %d, EW %d\n\n", textview.DemoResult(d), game.Total[protocol.NS], game.Total[protocol.EW])
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

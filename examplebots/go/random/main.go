// Command random is the example bot that makes a uniformly random choice among the legal
// bids and cards, claims its roem honestly and, in the three-player game, lays away two
// random cards. It is the baseline every bot should beat.
//
//	go build -o bin/random ./examplebots/go/random
//	bin/random -seed 7    # the same choices every run
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

func main() {
	seed := flag.Uint64("seed", 0, "seed for the random choices (0: a different game every run)")
	flag.Parse()
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	if err := bot.Run(newBot(*seed)); err != nil {
		fmt.Fprintln(os.Stderr, "random:", err)
		os.Exit(1)
	}
}

// newBot returns the random bot, its choices drawn from a generator seeded with seed.
func newBot(seed uint64) bot.Bot {
	rng := rand.New(rand.NewPCG(seed, 0x6b6c61766572))
	return bot.Bot{Name: "random", Author: "klaverjas-arena examplebots", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.DiscardKind:
			first := s.Hand.Nth(rng.IntN(s.Hand.Len()))
			rest := s.Hand.Remove(first)
			return bot.Answer{Discard: [2]protocol.Card{first, rest.Nth(rng.IntN(rest.Len()))}}
		case bot.BidKind:
			bids := d.LegalBids.All()
			return bot.Answer{Bid: bids[rng.IntN(len(bids))]}
		case bot.ClaimKind:
			return bot.Answer{Claim: roem(s.Options, d.Trick, s.Trump)}
		}
		return bot.Answer{Card: d.LegalCards.Nth(rng.IntN(d.LegalCards.Len()))}
	}}
}

// roem returns the roem in a finished trick under the ruleset of the rules line.
func roem(options map[string]string, trick []protocol.Card, trump protocol.Suit) int {
	rs := rules.Default()
	for name, value := range options {
		_ = rs.Set(name, value) // an option of a later revision keeps its default
	}
	return rules.TrickRoem(&rs, protocol.SetOf(trick...), trump).Total()
}

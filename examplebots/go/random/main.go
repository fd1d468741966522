// Command random is the example bot that makes a uniformly random choice among the legal
// bids and cards, claims its roem honestly and, in the three-player game, lays away two
// random cards. It is the baseline every bot should beat.
//
//	go build -o bin/random ./examplebots/go/random
//	bin/random -seed 7    # the same choices every run
//	bin/random -seed 7 -stateless   # each choice from the seed and the position alone
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
	stateless := flag.Bool("stateless", false, "draw each choice from the seed and the position alone (game, deal, seat, hand, bids and tricks so far), not from the choices before: a bot restarted in the middle of a match plays on as the one it replaces")
	flag.Parse()
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	b := newBot(*seed)
	if *stateless {
		b = newStatelessBot(*seed)
	}
	if err := bot.Run(b); err != nil {
		fmt.Fprintln(os.Stderr, "random:", err)
		os.Exit(1)
	}
}

// newBot returns the random bot, its choices drawn from a generator seeded with seed.
func newBot(seed uint64) bot.Bot {
	rng := rand.New(rand.NewPCG(seed, 0x6b6c61766572))
	return bot.Bot{Name: "random", Author: "klaverjas-arena examplebots", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		return decide(rng, s, d)
	}}
}

// newStatelessBot returns the random bot whose every choice is drawn from a generator seeded
// with seed and the position: the same position gets the same choice in any process.
func newStatelessBot(seed uint64) bot.Bot {
	return bot.Bot{Name: "random", Author: "klaverjas-arena examplebots", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		return decide(rand.New(rand.NewPCG(seed, position(s, d))), s, d)
	}}
}

// position sums up the decision's position in the match: which game, deal and seat, the
// hand, and how far the deal has come.
func position(s *bot.State, d bot.Decision) uint64 {
	h := uint64(0x6b6c61766572)
	for _, v := range []uint64{uint64(s.Game), uint64(s.Deal), uint64(s.Seat), uint64(s.Hand), uint64(len(s.Bids)), uint64(len(s.Turned)), uint64(len(s.Tricks)), uint64(len(s.Current)), uint64(d.Kind)} {
		h = (h ^ v) * 0x100000001b3 // FNV-1a, a word at a time
	}
	return h
}

// decide makes a uniformly random choice with rng.
func decide(rng *rand.Rand, s *bot.State, d bot.Decision) bot.Answer {
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
}

// roem returns the roem in a finished trick under the ruleset of the rules line.
func roem(options map[string]string, trick []protocol.Card, trump protocol.Suit) int {
	rs := rules.Default()
	for name, value := range options {
		_ = rs.Set(name, value) // an option of a later revision keeps its default
	}
	return rules.TrickRoem(&rs, protocol.SetOf(trick...), trump).Total()
}

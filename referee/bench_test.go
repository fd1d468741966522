package referee

import (
	"context"
	"testing"

	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// lowestBot answers the first legal bid and the lowest legal card: the cheapest possible bot,
// so the benchmark measures the referee and the protocol, not the bot.
func lowestBot() bot.Bot {
	return bot.Bot{Name: "lowest", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.BidKind:
			return bot.Answer{Bid: d.LegalBids.All()[0]}
		case bot.DiscardKind:
			return bot.Answer{Discard: bot.LowestDiscard(s.Hand, s.Trump)}
		}
		return bot.Answer{Card: d.LegalCards.Lowest()}
	}}
}

// BenchmarkMatchInProcess plays matches between in-process bots that speak the full line
// protocol (encode, parse, state tracking): the referee's own cost per decision and per deal,
// for the four-player game and the three-player game at a table of three.
func BenchmarkMatchInProcess(b *testing.B) {
	b.Run("amsterdams", func(b *testing.B) { matchInProcess(b, "amsterdams", 4) })
	b.Run("drie_spelers", func(b *testing.B) { matchInProcess(b, "drie_spelers", 3) })
}

func matchInProcess(b *testing.B, preset string, bots int) {
	rs, err := rules.Preset(preset)
	if err != nil {
		b.Fatal(err)
	}
	e := make([]Entrant, bots)
	for i := range e {
		e[i] = Entrant{Name: "lowest", Start: NewInProcess(lowestBot())}
	}
	decisions, deals := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		res, err := Run(context.Background(), Config{Rules: rs, Games: 1, Duplicate: true, Seed: 1}, e)
		if err != nil {
			b.Fatal(err)
		}
		deals += res.Deals
		for _, bs := range res.Bots {
			decisions += bs.Decisions
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
	b.ReportMetric(float64(deals)/b.Elapsed().Seconds(), "deals/s")
}

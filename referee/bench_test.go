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
	return bot.Bot{Name: "lowest", Decide: func(_ *bot.State, d bot.Decision) bot.Answer {
		if d.Kind == bot.BidKind {
			return bot.Answer{Bid: d.LegalBids.All()[0]}
		}
		return bot.Answer{Card: d.LegalCards.Lowest()}
	}}
}

// BenchmarkMatchInProcess plays matches between in-process bots that speak the full line
// protocol (encode, parse, state tracking): the referee's own cost per decision and per deal.
func BenchmarkMatchInProcess(b *testing.B) {
	rs := rules.Default()
	var e [4]Entrant
	for i := range e {
		e[i] = Entrant{Name: "lowest", Start: NewInProcess(lowestBot())}
	}
	decisions, deals := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		res, err := Run(context.Background(), Config{Rules: rs, Games: 1, Duplicate: true, Seed: 1}, e[:])
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

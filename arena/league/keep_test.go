package league

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// countingBots returns entrants for bots a and b (seated a b a b) whose starts are counted,
// and which play their first legal choice.
func countingBots(starts *atomic.Int64) []referee.Entrant {
	first := bot.Bot{Name: "first", Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.BidKind:
			return bot.Answer{Bid: d.LegalBids.All()[0]}
		case bot.ClaimKind:
			return bot.Answer{}
		}
		return bot.Answer{Card: d.LegalCards.Nth(0)}
	}}
	inner := referee.NewInProcess(first)
	start := func(ctx context.Context) (referee.Conn, error) {
		starts.Add(1)
		return inner(ctx)
	}
	return []referee.Entrant{{Name: "a", Start: start}, {Name: "b", Start: start}, {Name: "a", Start: start}, {Name: "b", Start: start}}
}

// TestKeeperKeepsBots: with keep_bots, three matches of the same two bots on one worker start
// four bots, not twelve, and each match is played in full; without it, every match starts
// its own.
func TestKeeperKeepsBots(t *testing.T) {
	for _, keep := range []bool{true, false} {
		var starts atomic.Int64
		k := &keeper{ctx: context.Background(), keep: keep}
		seats := []int{0, 1, 0, 1}
		for m := range 3 {
			var deals int
			cfg := referee.Config{ID: "k", Rules: rules.Default(), Games: 1, Duplicate: true, Seed: uint64(m),
				Records: referee.DealFunc(func(*referee.DealRecord) error { deals++; return nil })}
			res, err := referee.Run(context.Background(), cfg, k.entrants(m, countingBots(&starts), seats))
			if err != nil {
				t.Fatal(err)
			}
			if deals != 32 || res.Deals != 32 || res.Bots[0].Name != "a" || res.Bots[1].Name != "b" {
				t.Fatalf("keep %v, match %d: %d deals recorded, result %+v", keep, m, deals, res)
			}
		}
		k.stopAll()
		want := int64(12)
		if keep {
			want = 4
		}
		if got := starts.Load(); got != want {
			t.Errorf("keep %v: %d bot starts for three matches, want %d", keep, got, want)
		}
	}
}

// stopCounting is a Conn whose Stop calls are counted.
type stopCounting struct {
	referee.Conn
	stops *atomic.Int64
}

func (c stopCounting) Stop(grace time.Duration) error {
	c.stops.Add(1)
	return c.Conn.Stop(grace)
}

// TestKeeperPrestarts: without keep_bots, a match takes the fresh processes its keeper started
// and greeted ahead for it (four starts a match, not eight), and what
// was started ahead and not taken is stopped; every process is stopped once, at the latest by
// stopAll.
func TestKeeperPrestarts(t *testing.T) {
	var starts, stops atomic.Int64
	entrants := func() []referee.Entrant {
		es := countingBots(&starts)
		for i := range es {
			start := es[i].Start
			es[i].Start = func(ctx context.Context) (referee.Conn, error) {
				c, err := start(ctx)
				return stopCounting{Conn: c, stops: &stops}, err
			}
		}
		return es
	}
	k := &keeper{ctx: context.Background()}
	seats := []int{0, 1, 0, 1}
	rs := rules.Default()
	for m := range 2 {
		k.prestart(m, entrants(), seats, &rs, time.Second)
		cfg := referee.Config{ID: "k", Rules: rs, Games: 1, Duplicate: true, Seed: uint64(m)}
		res, err := referee.Run(context.Background(), cfg, k.entrants(m, entrants(), seats))
		if err != nil {
			t.Fatal(err)
		}
		k.done(m)
		if res.Deals != 32 || res.Bots[0].Name != "a" || res.Bots[1].Name != "b" {
			t.Fatalf("match %d: %d deals, bots %s and %s", m, res.Deals, res.Bots[0].Name, res.Bots[1].Name)
		}
		if got := starts.Load(); got != int64(4*(m+1)) {
			t.Errorf("after match %d: %d starts, want %d (the processes started ahead)", m, got, 4*(m+1))
		}
	}
	k.prestart(2, entrants(), seats, &rs, time.Second) // never played
	k.stopAll()
	if s, p := starts.Load(), stops.Load(); s != 12 || p != 12 {
		t.Errorf("%d starts, %d stops: want 12 of each", s, p)
	}
}

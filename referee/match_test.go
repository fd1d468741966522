package referee

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// randomBot makes uniformly random legal decisions (random discards in the three-player
// game) and claims its roem honestly.
func randomBot(name string, seed uint64) bot.Bot {
	rng := rand.New(rand.NewPCG(seed, 1))
	return bot.Bot{Name: name, Author: "tests", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.DiscardKind:
			first := s.Hand.Nth(rng.IntN(s.Hand.Len()))
			rest := s.Hand.Remove(first)
			return bot.Answer{Discard: [2]protocol.Card{first, rest.Nth(rng.IntN(rest.Len()))}}
		case bot.BidKind:
			bids := d.LegalBids.All()
			return bot.Answer{Bid: bids[rng.IntN(len(bids))]}
		case bot.ClaimKind:
			opts := map[string]any{}
			for k, v := range s.Options {
				opts[k] = v
			}
			rs, err := rules.FromMap(opts)
			if err != nil {
				panic(err)
			}
			return bot.Answer{Claim: rules.TrickRoem(&rs, protocol.SetOf(d.Trick...), s.Trump).Total()}
		}
		return bot.Answer{Card: d.LegalCards.Nth(rng.IntN(d.LegalCards.Len()))}
	}}
}

func randomEntrants() []Entrant {
	e := make([]Entrant, 4)
	for i := range e {
		name := []string{"alpha", "beta", "alpha", "beta"}[i]
		e[i] = Entrant{Name: name, Start: NewInProcess(randomBot(name, uint64(i)))}
	}
	return e
}

// TestMatchRecordsVerify plays duplicate matches under every preset and re-referees every
// logged deal from its line alone.
func TestMatchRecordsVerify(t *testing.T) {
	for _, preset := range rules.PresetNames() {
		t.Run(preset, func(t *testing.T) {
			rs, _ := rules.Preset(preset)
			rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 16}
			var log bytes.Buffer
			res, err := Run(context.Background(), Config{ID: "m1", Rules: rs, Games: 3, Duplicate: true, Seed: 42, Records: NewLogWriter(&log)}, randomEntrants())
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Games) != 6 {
				t.Fatalf("%d games, want 6", len(res.Games))
			}
			n := 0
			sc := bufio.NewScanner(&log)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var rec DealRecord
				if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
					t.Fatalf("line %d: %v", n+1, err)
				}
				if err := rec.Verify(); err != nil {
					t.Fatalf("line %d: %v\n%s", n+1, err, sc.Bytes())
				}
				n++
			}
			if n != res.Deals || n < 6*16 {
				t.Fatalf("%d records, result says %d deals", n, res.Deals)
			}
			for _, b := range res.Bots {
				if len(b.Faults) > 0 {
					t.Errorf("bot %s faulted: %v", b.Name, b.Faults)
				}
			}
			if got := len(res.Pairs()); got != 3 {
				t.Errorf("%d pair shares, want 3", got)
			}
		})
	}
}

// TestMatchDuplicateMovesHands checks that the mirror game deals each team the other
// team's cards: the first deal's hands are moved one seat on.
func TestMatchDuplicateMovesHands(t *testing.T) {
	rs := rules.Default()
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 2}
	var log bytes.Buffer
	if _, err := Run(context.Background(), Config{Rules: rs, Games: 1, Duplicate: true, Seed: 7, Records: NewLogWriter(&log)}, randomEntrants()); err != nil {
		t.Fatal(err)
	}
	var recs []DealRecord
	for line := range strings.SplitSeq(strings.TrimSpace(log.String()), "\n") {
		var r DealRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if len(recs) != 4 {
		t.Fatalf("%d deals", len(recs))
	}
	for k := range 2 {
		a, b := recs[k], recs[k+2]
		if a.Mirror || !b.Mirror {
			t.Fatal("mirror flags wrong")
		}
		for i := range 4 {
			if a.Hands[i] != b.Hands[(i+1)%4] {
				t.Errorf("deal %d: hand %s in the first game is %s, but %s holds %s in the mirror", k+1, protocol.Seat(i), a.Hands[i], protocol.Seat((i+1)%4), b.Hands[(i+1)%4])
			}
		}
	}
}

// TestMatchRoomsNoProcessSeesADealTwice: in a duplicate match every game of a deal set is
// played by processes of its own (Rooms), so that no bot process is dealt a hand it has held
// or seen played before, whose deal it would then know whole; each process plays the games of
// one rotation only. Four players (two rooms) and three at a table of three and of four (three
// and four rooms), over several deal sets.
func TestMatchRoomsNoProcessSeesADealTwice(t *testing.T) {
	four := rules.Default()
	four.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 4}
	three, _ := rules.Preset("drie_spelers")
	three.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 3}
	for _, tc := range []struct {
		name     string
		rules    rules.Ruleset
		entrants []Entrant
	}{
		{"four", four, randomEntrants()},
		{"three", three, threeEntrants(3)},
		{"three at four", three, threeEntrants(4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var procs []*[]string
			for i := range tc.entrants {
				start := tc.entrants[i].Start
				tc.entrants[i].Start = func(ctx context.Context) (Conn, error) {
					lines := new([]string)
					mu.Lock()
					procs = append(procs, lines)
					mu.Unlock()
					return recorded(start, lines)(ctx)
				}
			}
			cfg := Config{Rules: tc.rules, Games: 3, Duplicate: true, Seed: 11}
			if _, err := Run(context.Background(), cfg, tc.entrants); err != nil {
				t.Fatal(err)
			}
			rooms := Rooms(&cfg, len(tc.entrants))
			if want := rooms * len(tc.entrants); len(procs) != want {
				t.Errorf("%d processes started, want %d: one per seat in each of %d rooms", len(procs), want, rooms)
			}
			for p, lines := range procs {
				held := map[protocol.CardSet]string{}
				games := map[int]bool{}
				var played map[protocol.Seat]protocol.CardSet
				for _, l := range *lines {
					msg, err := protocol.ParseMessage(strings.TrimPrefix(l, "< "))
					if err != nil || !strings.HasPrefix(l, "< ") {
						continue
					}
					switch m := msg.(type) {
					case *protocol.Game:
						games[(m.Number-1)%rooms] = true
					case *protocol.Dealt:
						if before, ok := held[m.Hand]; ok && m.Hand != 0 {
							t.Fatalf("process %d was dealt %v, which it knew from %s", p, m.Hand, before)
						}
						held[m.Hand] = l
						played = map[protocol.Seat]protocol.CardSet{}
					case *protocol.Played:
						played[m.Seat] = played[m.Seat].Add(m.Card)
					case *protocol.Scored:
						for seat, cards := range played {
							held[cards] = fmt.Sprintf("the cards %s played", seat)
						}
					}
				}
				if len(games) != 1 {
					t.Errorf("process %d played games of %d rotations of the deal sets, want one", p, len(games))
				}
			}
		})
	}
}

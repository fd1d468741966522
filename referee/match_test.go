package referee

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
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

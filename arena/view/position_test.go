package view

import (
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

// TestPositionFromRecord: at every decision of real records, the position has the recorded
// actor to move, asked what it did; the card it played is in its hand; in the four-player
// game the cards held and the cards played so far are the 32 dealt, each once; and the bids
// are those made before the decision.
func TestPositionFromRecord(t *testing.T) {
	for _, name := range []string{"four.jsonl", "three.jsonl", "claims.jsonl"} {
		for i, r := range records(t, name) {
			bids := 0
			for n, a := range r.Actions {
				p := PositionFromRecord(&r, name, n+1)
				if p.Problem != "" {
					t.Fatalf("%s #%d decision %d: %s", name, i, n+1, p.Problem)
				}
				if p.ToMove.String() != a.Seat {
					t.Fatalf("%s #%d decision %d: %s to move, the record has %s", name, i, n+1, p.ToMove, a.Seat)
				}
				want := map[bool]string{a.Bid != "": "bid", a.Card != "": "play", a.Claim != nil: "claim", a.Discard != "": "discard"}[true]
				if p.Request != want {
					t.Fatalf("%s #%d decision %d: asked to %s, the record has a %s", name, i, n+1, p.Request, want)
				}
				if len(p.Bids) != bids {
					t.Fatalf("%s #%d decision %d: %d bids, want %d", name, i, n+1, len(p.Bids), bids)
				}
				if a.Bid != "" {
					bids++
				}
				if a.Card != "" {
					c, _ := protocol.ParseCard(a.Card)
					if !p.Seats[p.ToMove].Hand.Has(c) || !p.Playing {
						t.Fatalf("%s #%d decision %d: %s plays %s, not in its hand %s (playing: %v)", name, i, n+1, a.Seat, a.Card, p.Seats[p.ToMove].Hand, p.Playing)
					}
				}
				if r.Rules.Players == 4 {
					var all protocol.CardSet
					count := 0
					add := func(s protocol.CardSet) { all |= s; count += s.Len() }
					for _, s := range p.Seats {
						add(s.Hand)
					}
					for _, tr := range p.Tricks {
						for _, pl := range tr.Plays {
							add(protocol.SetOf(pl.Card))
						}
					}
					for _, pl := range p.Trick {
						add(protocol.SetOf(pl.Card))
					}
					if all.Len() != 32 || count != 32 {
						t.Fatalf("%s #%d decision %d: %d cards held and played (%d distinct), want 32", name, i, n+1, count, all.Len())
					}
				}
			}
		}
	}
}

// TestPositionOfADamagedRecord: a record whose actions break the rules before the decision
// gives a Problem, not a panic or a wrong position.
func TestPositionOfADamagedRecord(t *testing.T) {
	r := records(t, "four.jsonl")[0]
	r.Actions[0], r.Actions[1] = r.Actions[1], r.Actions[0]
	p := PositionFromRecord(&r, "four.jsonl", 5)
	if !strings.HasPrefix(p.Problem, "cannot rebuild the position: action 1: ") || len(p.Seats) != 0 {
		t.Errorf("problem %q, %d seats", p.Problem, len(p.Seats))
	}
	r.Dealer = "X"
	if p := PositionFromRecord(&r, "four.jsonl", 1); p.Problem == "" {
		t.Error("a record with dealer X: no problem")
	}
}

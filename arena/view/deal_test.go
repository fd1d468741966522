package view

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// records reads a test log: deal records exported from real leagues of the example bots.
func records(t *testing.T, name string) []referee.DealRecord {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []referee.DealRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r referee.DealRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, r)
	}
	return out
}

// TestDealFromRecord: the deal view of a real record holds every dealt card once, and its
// tricks, re-refereed, play the record's cards in the record's order and are won as the
// record says.
func TestDealFromRecord(t *testing.T) {
	for _, name := range []string{"four.jsonl", "three.jsonl", "claims.jsonl"} {
		for i, r := range records(t, name) {
			d := DealFromRecord(&r, name)
			if d.Problem != "" || len(d.Unfinished) > 0 {
				t.Fatalf("%s #%d: problem %q, unfinished %v", name, i, d.Problem, d.Unfinished)
			}
			all := d.Skart
			for _, s := range d.Seats {
				if s.Bot != r.Seats[s.Seat] {
					t.Errorf("%s #%d: seat %s bot %q, want %q", name, i, s.Seat, s.Bot, r.Seats[s.Seat])
				}
				if all&s.Hand != 0 {
					t.Errorf("%s #%d: a card dealt twice", name, i)
				}
				all |= s.Hand
			}
			if all.Len() != 32 {
				t.Errorf("%s #%d: %d cards dealt, want 32", name, i, all.Len())
			}
			var recorded, played []string
			for _, a := range r.Actions {
				if a.Card != "" {
					recorded = append(recorded, a.Seat+" "+a.Card)
				}
			}
			winners, points, tricks := "", 0, 0
			for k, tr := range d.Tricks {
				if tr.Number != k+1 || len(tr.Plays) != r.Rules.Players || tr.Plays[0].Seat != tr.Leader {
					t.Errorf("%s #%d: trick %+v", name, i, tr)
				}
				for _, p := range tr.Plays {
					played = append(played, p.Seat.String()+" "+p.Card.String())
				}
				winners += tr.Winner.String()
				points += tr.Points
			}
			for _, s := range d.Steps {
				tricks += s.Tricks
				if s.Illegal != "" {
					t.Errorf("%s #%d: %s", name, i, s.Illegal)
				}
			}
			if !slices.Equal(played, recorded) || tricks != len(d.Tricks) || len(d.Steps) != len(r.Actions) {
				t.Errorf("%s #%d: tricks play %v, the record %v (%d steps finish %d tricks)", name, i, played, recorded, len(d.Steps), tricks)
			}
			sum := 0
			for _, c := range r.Result.Cards {
				sum += c
			}
			if winners != r.Result.Winners || points != sum {
				t.Errorf("%s #%d: winners %s points %d, the record says %s and %d", name, i, winners, points, r.Result.Winners, sum)
			}
		}
	}
}

// TestDealFromRecordDamaged: an action the rules refuse is marked and the deal is not
// followed past it; an unreadable hand is a problem, not a panic.
func TestDealFromRecordDamaged(t *testing.T) {
	recs := records(t, "damaged.jsonl")
	d := DealFromRecord(&recs[0], "x")
	var illegal []string
	for _, s := range d.Steps {
		if s.Illegal != "" {
			illegal = append(illegal, s.Illegal)
		}
	}
	if len(illegal) != 1 || !strings.HasPrefix(illegal[0], "action 7 (W) is not legal here") || len(d.Tricks) != 1 || len(d.Unfinished) != 28 {
		t.Errorf("illegal %q, %d tricks, unfinished %v", illegal, len(d.Tricks), d.Unfinished)
	}
	d = DealFromRecord(&recs[1], "x") // the actions stop short in the third trick
	if len(d.Tricks) != 2 || len(d.Unfinished) != 3 {
		t.Errorf("cut short: %d tricks, unfinished %v", len(d.Tricks), d.Unfinished)
	}
	d = DealFromRecord(&recs[2], "x")
	if !strings.Contains(d.Problem, `cannot read the deal: hand N: bad card "XX"`) || d.Seats != nil || d.Steps != nil {
		t.Errorf("unreadable: %+v", d)
	}
}

// TestDealFromPlay: a deal played by the engine shows its bids, and its 32 cards in tricks
// of four with the engine's winners.
func TestDealFromPlay(t *testing.T) {
	rs, err := rules.Preset("amsterdams")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 20 {
		deck := rules.Shuffle(rng)
		setup := rules.Setup{Dealer: protocol.Seat(n % 4), Pile: rules.ShufflePile(&rs, rng), FirstOfMatch: n == 0}
		setup.Hands, _ = rules.DealHands(&rs, &deck, setup.Dealer)
		var deal rules.Deal
		if err := deal.Start(&rs, setup); err != nil {
			t.Fatal(err)
		}
		rules.PlayOut(&deal, rng)
		d := DealFromPlay(&deal, n+1)
		bids, cards := 0, protocol.CardSet(0)
		for _, s := range d.Steps {
			switch s.Kind {
			case BidStep:
				bids++
			case CardStep:
				c, err := protocol.ParseCard(s.Card)
				if err != nil || cards.Has(c) {
					t.Fatalf("deal %d: card %q twice or unreadable", n, s.Card)
				}
				cards = cards.Add(c)
			}
		}
		res := deal.Result()
		if bids != len(deal.Bids()) || d.Result.Outcome != res.Outcome.String() || len(d.Seats) != 4 || d.Dealer != setup.Dealer.String() {
			t.Errorf("deal %d: %d bids, want %d; outcome %s; %d seats", n, bids, len(deal.Bids()), d.Result.Outcome, len(d.Seats))
		}
		if res.Outcome != rules.Redeal && (cards.Len() != 32 || len(d.Tricks) != 8 || d.Tricks[7].Winner != deal.Tricks()[7].Winner) {
			t.Errorf("deal %d: %d cards in %d tricks", n, cards.Len(), len(d.Tricks))
		}
	}
}

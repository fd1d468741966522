package rules

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

// TestDealHands is RULES.md §3: 8 cards each, clockwise from left of the dealer, in packets
// of deal_packets; index 0 of the deck is dealt first.
func TestDealHands(t *testing.T) {
	ordered := OrderedDeck() // 7C 8C ... AC 7D ... AS: index i is suit i/8, rank i%8
	var reversed Deck
	for i := range reversed {
		reversed[i] = ordered[31-i]
	}
	tests := []struct {
		name, opts, dealer string
		deck               Deck
		n, e, s, w         string
	}{
		// 3-2-3, dealer N: E gets 0-2, 12-13, 20-22; S 3-5, 14-15, 23-25; W 6-8, 16-17,
		// 26-28; N 9-11, 18-19, 29-31.
		{"3-2-3 dealer N", "", "N", ordered,
			"8D 9D TD 9H TH QS KS AS", "7C 8C 9C JD QD JH QH KH", "TC JC QC KD AD AH 7S 8S", "KC AC 7D 7H 8H 9S TS JS"},
		{"3-2-3 dealer W", "", "W", ordered,
			"7C 8C 9C JD QD JH QH KH", "TC JC QC KD AD AH 7S 8S", "KC AC 7D 7H 8H 9S TS JS", "8D 9D TD 9H TH QS KS AS"},
		// 4-4, dealer N: E 0-3, 16-19; S 4-7, 20-23; W 8-11, 24-27; N 12-15, 28-31.
		{"4-4 dealer N", "deal_packets=[4,4]", "N", ordered,
			"JD QD KD AD JS QS KS AS", "7C 8C 9C TC 7H 8H 9H TH", "JC QC KC AC JH QH KH AH", "7D 8D 9D TD 7S 8S 9S TS"},
		// Reversed deck (deck[i] is card 31-i, AS first), dealer S: W gets AS KS QS, then
		// TH 9H, then TD 9D 8D; N, E and S follow.
		{"3-2-3 reversed dealer S", "", "S", reversed,
			"JS TS 9S 8H 7H 7D AC KC", "8S 7S AH AD KD QC JC TC", "KH QH JH QD JD 9C 8C 7C", "AS KS QS TH 9H TD 9D 8D"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ruleset(t, tt.opts)
			hands, rest := DealHands(r, &tt.deck, seatOf(t, tt.dealer))
			if rest != 0 {
				t.Errorf("rest %v", rest)
			}
			for i, h := range []string{tt.n, tt.e, tt.s, tt.w} {
				if hands[i] != cards(t, h) {
					t.Errorf("%v: %v, want %s", Seat(i), hands[i], h)
				}
			}
			var union CardSet
			for _, h := range hands[:4] {
				if h.Len() != 8 {
					t.Errorf("hand of %d cards: %v", h.Len(), h)
				}
				union |= h
			}
			if union != protocol.FullDeck {
				t.Errorf("hands do not cover the deck: %v", union)
			}
		})
	}
}

func TestShuffle(t *testing.T) {
	a := Shuffle(rand.New(rand.NewPCG(1, 2)))
	b := Shuffle(rand.New(rand.NewPCG(1, 2)))
	c := Shuffle(rand.New(rand.NewPCG(3, 4)))
	if a != b {
		t.Error("the same seed gave different decks")
	}
	if a == c || a == OrderedDeck() {
		t.Error("different seeds gave the same deck, or the deck was not shuffled")
	}
	var set CardSet
	for _, c := range a {
		set = set.Add(c)
	}
	if set != protocol.FullDeck {
		t.Errorf("shuffled deck is not a permutation: %v", set)
	}
	for _, tt := range []struct {
		opts string
		n    int
	}{{"", 0}, {"bidding=nku_dealer_first", 0}, {"bidding=draaikaart", 20}, {"bidding=bga_draw", 20},
		{"bidding=draaikaart_vrij_kiezen draaikaart_jokers=true", 22}, {"bidding=bga_draw draaikaart_jokers=true", 22}} {
		r := ruleset(t, tt.opts)
		p := ShufflePile(r, rand.New(rand.NewPCG(5, 6)))
		if len(p) != tt.n {
			t.Errorf("[%s] pile of %d cards, want %d", tt.opts, len(p), tt.n)
			continue
		}
		if tt.n == 0 {
			if p != nil {
				t.Errorf("[%s] pile %v, want nil", tt.opts, p)
			}
			continue
		}
		got, want := slices.Clone(p), protocol.FullPile(tt.n == 22)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("[%s] pile %v is not the full pile", tt.opts, p)
		}
	}
}

// TestShufflePileInto: reusing a buffer gives the piles ShufflePile gives for the same random
// numbers, and allocates nothing once the buffer has room.
func TestShufflePileInto(t *testing.T) {
	r := ruleset(t, "bidding=draaikaart draaikaart_jokers=true")
	a, b := rand.New(rand.NewPCG(7, 8)), rand.New(rand.NewPCG(7, 8))
	var buf []protocol.PileCard
	for range 50 {
		buf = ShufflePileInto(buf, r, a)
		if want := ShufflePile(r, b); !slices.Equal(buf, want) {
			t.Fatalf("ShufflePileInto %v, ShufflePile %v", buf, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { buf = ShufflePileInto(buf, r, a) }); n != 0 {
		t.Errorf("%v allocations a pile with a buffer of room", n)
	}
}

package rules

import (
	"math/bits"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules/bitstream"
)

// PlayIndexed plays, while the deal is in the play phase, each card as its index among the
// legal cards of its moment (Legal, counted from the lowest), read from r in
// bitstream.IndexBits of their number (none when only one card is legal), until the phase
// ends (the deal is done, or a trick waits for its roem claim), and reports whether it did:
// false when an index is out of range or r ends first, the deal and r left as before that
// card. The deal is left as a loop of Legal and PlayUnchecked would leave it, but the loop
// is fused, one trick at a time, with r's bits in registers: it is the readers' way to
// re-derive a stored deal from the choices it records.
func (d *Deal) PlayIndexed(r *bitstream.Reader) bool {
	trump, n := d.trump, d.players
	trumps := protocol.SuitMask(trump)
	t := &d.trick
	acc, nacc := r.Acc, r.N
	// index reads the index of a card among k legal ones; false if it is out of range or r
	// ends first.
	index := func(k int) (uint64, bool) {
		w := bitstream.IndexBits(k)
		if nacc < w {
			r.Acc, r.N = acc, nacc
			r.Fill()
			acc, nacc = r.Acc, r.N
		}
		i := acc & (1<<(w&63) - 1) // w < 6: the masks spare Go's shifts their fix for 64 and more
		if nacc < w || i >= uint64(k) {
			return 0, false
		}
		acc >>= w & 63
		nacc -= w
		return i, true
	}
	for d.phase == PhasePlay {
		s := d.toMove
		if t.N == 0 { // the lead: any card of the hand
			hand := d.hands[s&3]
			i, ok := index(hand.Len())
			if !ok {
				r.Acc, r.N = acc, nacc
				return false
			}
			c, bit := indexedCard(hand, i)
			d.hands[s&3] = hand &^ bit
			t.add(c, bit)
			d.best = 0
			if s == d.stukSeat {
				d.announceStuk(s, c)
			}
			if s++; int(s) == n {
				s = 0
			}
		}
		led := t.Cards[0].Suit()
		var follow CardSet // the led suit, unless it is trumps (see legalAt)
		if led != trump {
			follow = protocol.SuitMask(led)
		}
		order := &strengthOf[trump&3][led&3] // strength of each card in this trick
		best := d.best
		bestStrength := order[t.Cards[best&3]&31]
		for t.N < n {
			hand := d.hands[s&3]
			legal := hand & follow
			if legal == 0 {
				if follow != 0 && hand&trumps == 0 {
					legal = hand // neither the led suit nor trumps: any card, as legalAt says
				} else {
					legal = legalAt(&d.rules, trump, hand, t, best)
				}
			}
			i, ok := index(legal.Len())
			if !ok {
				r.Acc, r.N = acc, nacc
				d.toMove, d.best = s, best
				return false
			}
			c, bit := indexedCard(legal, i)
			d.hands[s&3] = hand &^ bit
			if st := order[c&31]; st > bestStrength {
				best, bestStrength = t.N, st
			}
			t.add(c, bit)
			if s == d.stukSeat {
				d.announceStuk(s, c)
			}
			if s++; int(s) == n {
				s = 0
			}
		}
		d.best = best
		d.finishTrick()
	}
	r.Acc, r.N = acc, nacc
	return true
}

// indexedCard returns the card of s at index i (from the lowest, i < s.Len()) and its set:
// the set made by clearing cards, with no shift.
func indexedCard(s CardSet, i uint64) (Card, CardSet) {
	for ; i > 0; i-- {
		s &= s - 1
	}
	bit := s & -s
	return Card(bits.TrailingZeros32(uint32(bit))), bit
}

package rules

import (
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
	for d.phase == PhasePlay {
		s, best := d.toMove, d.best
		var follow CardSet                  // the led suit, unless it is trumps (see legalAt)
		var order *[protocol.NumCards]uint8 // strength of each card in this trick
		var bestStrength uint8
		if t.N > 0 {
			led := t.Cards[0].Suit()
			if led != trump {
				follow = protocol.SuitMask(led)
			}
			order = &strengthOf[trump&3][led&3]
			bestStrength = order[t.Cards[best&3]&31]
		}
		for i := t.N; i < n; i++ {
			hand := d.hands[s&3]
			legal := hand
			if i > 0 {
				switch legal = hand & follow; {
				case legal != 0:
				case follow != 0 && hand&trumps == 0:
					legal = hand // neither the led suit nor trumps: any card, as legalAt says
				default:
					legal = legalAt(&d.rules, trump, hand, t, best)
				}
			}
			k := legal.Len()
			w := bitstream.IndexBits(k)
			if nacc < w {
				r.Acc, r.N = acc, nacc
				r.Fill()
				acc, nacc = r.Acc, r.N
			}
			index := acc & (1<<w - 1)
			if nacc < w || index >= uint64(k) {
				r.Acc, r.N = acc, nacc
				d.toMove, d.best = s, best
				return false
			}
			acc >>= w
			nacc -= w
			c := legal.Nth(int(index))
			d.hands[s&3] = hand.Remove(c)
			t.Add(c)
			if i == 0 {
				led := c.Suit()
				if led != trump {
					follow = protocol.SuitMask(led)
				}
				order = &strengthOf[trump&3][led&3]
				best, bestStrength = 0, order[c&31]
			} else if st := order[c&31]; st > bestStrength {
				best, bestStrength = i, st
			}
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

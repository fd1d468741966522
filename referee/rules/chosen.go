package rules

import "github.com/klaverjas-arena/arena/protocol"

// PlayChosen plays, while the deal is in the play phase, the card that choose returns for
// the player to move from the legal cards of that moment (Legal, never empty), until the
// phase ends (the deal is done, or a trick waits for its roem claim) or choose returns
// false, and reports whether it ended by the phase. choose must return a card of legal, as
// with PlayUnchecked. The deal is left as a loop of Legal and PlayUnchecked would leave it,
// but the loop is fused, one trick at a time: it is the readers' way to re-derive a stored
// deal from the choices it records.
func (d *Deal) PlayChosen(choose func(legal CardSet) (Card, bool)) bool {
	trump, n := d.trump, d.players
	t := &d.trick
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
				if legal = hand & follow; legal == 0 {
					legal = legalAt(&d.rules, trump, hand, t, best)
				}
			}
			c, ok := choose(legal)
			if !ok {
				d.toMove, d.best = s, best
				return false
			}
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
	return true
}

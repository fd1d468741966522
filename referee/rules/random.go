package rules

import (
	"math/bits"
	"math/rand/v2"

	"github.com/klaverjas-arena/arena/protocol"
)

// RandomAction makes one uniformly random legal decision for the player to move: a bid, a
// card, two distinct cards to discard (skart phase), or (in the claim phase) an honest claim
// of the trick's roem. It does nothing when
// the deal is done. Simulations, property tests and the demo use it.
func RandomAction(d *Deal, rng *rand.Rand) {
	switch d.phase {
	case PhaseBidding:
		bids := d.LegalBids()
		n := rng.IntN(bits.OnesCount8(uint8(bids)))
		for b := range Bid(5) {
			if bids.Has(b) {
				if n == 0 {
					_ = d.Bid(b) // legal by construction
					return
				}
				n--
			}
		}
	case PhasePlay:
		legal := d.Legal()
		d.play(legal.Nth(rng.IntN(legal.Len())))
	case PhaseClaim:
		_ = d.Claim(d.tricks[d.nTricks-1].Roem.Total())
	case PhaseSkart:
		hand := d.hands[d.toMove]
		a := hand.Nth(rng.IntN(hand.Len()))
		hand = hand.Remove(a)
		_ = d.Discard(a, hand.Nth(rng.IntN(hand.Len()))) // legal by construction
	}
}

// PlayOut finishes the deal with random decisions (see RandomAction).
func PlayOut(d *Deal, rng *rand.Rand) {
	r := digits{rng: rng}
	for d.phase != PhaseDone {
		if d.phase != PhasePlay {
			RandomAction(d, rng)
			continue
		}
		if d.trick.N == 0 {
			d.playRandomTricks(&r)
			continue
		}
		legal := d.Legal()
		if n := legal.Len(); n > 1 {
			d.play(legal.Nth(int(r.intN(uint32(n)))))
		} else {
			d.play(legal.Lowest())
		}
	}
}

// playRandomTricks plays whole tricks of uniformly random legal cards while the deal is at the
// start of a trick in the play phase: PlayOut's fused loop. It leaves the deal in the same
// state as playing each card with play; the digit source is kept in locals for speed.
func (d *Deal) playRandomTricks(g *digits) {
	trump, n := d.trump, d.players
	left, have := g.left, g.have
	t := &d.trick
	for d.phase == PhasePlay && t.N == 0 {
		s := d.toMove
		var played CardSet
		var led Suit
		var ledMask CardSet
		best, bestStrength := 0, uint8(0)
		for i := range n {
			hand := d.hands[s]
			legal := hand
			if i > 0 {
				if follow := hand & ledMask; follow != 0 && led != trump {
					legal = follow
				} else {
					legal = legalAt(&d.rules, trump, hand, t, best)
				}
			}
			if k := legal.Len(); k > 1 {
				if have == 0 {
					left, have = g.draw(), digitCount
				}
				have--
				q, _ := bits.Mul64(left, reciprocals[k&15])
				r := int(left - q*uint64(k))
				left = q
				for ; r > 0; r-- {
					legal &= legal - 1
				}
			}
			c := Card(bits.TrailingZeros32(uint32(legal)))
			d.hands[s] = hand &^ (1 << c)
			t.Cards[i] = c
			played |= 1 << c
			if i == 0 {
				led = c.Suit()
				ledMask = protocol.SuitMask(led)
				bestStrength = strength(c, led, trump)
			} else if st := strength(c, led, trump); st > bestStrength {
				best, bestStrength = i, st
			}
			t.N = i + 1
			if s == d.stukSeat {
				d.announceStuk(s, c)
			}
			if s++; int(s) == n {
				s = 0
			}
		}
		t.Played = played
		d.best = best
		d.finishTrick()
	}
	g.left, g.have = left, have
}

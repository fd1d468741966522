package rules

import (
	"math/bits"
	"math/rand/v2"
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
	r := bounded{rng: rng}
	for d.phase != PhaseDone {
		if d.phase != PhasePlay {
			RandomAction(d, rng)
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

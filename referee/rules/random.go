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
			d.play(nthCard(legal, int(r.intN(uint32(n)))))
		} else {
			d.play(legal.Lowest())
		}
	}
}

// playRandomTricks plays whole tricks of uniformly random legal cards while the deal is at the
// start of a trick in the play phase: PlayOut's fused loop. It leaves the deal in the same
// state as playing each card with play; the digit source is kept in locals for speed. It is
// PlayIndexed's loop with a random choice in place of the read index: a loop that called a
// function for each card's choice made RandomDeal 5-8% slower.
func (d *Deal) playRandomTricks(g *digits) {
	trump, n := d.trump, d.players
	left, have := g.left, g.have
	t := &d.trick
	for d.phase == PhasePlay && t.N == 0 {
		s := d.toMove
		var played CardSet
		var follow CardSet                  // the led suit, unless it is trumps (see legalAt)
		var order *[protocol.NumCards]uint8 // strength of each card in this trick
		best, bestStrength := 0, uint8(0)
		for i := range n {
			hand := d.hands[s&3]
			legal := hand
			if i > 0 {
				if legal = hand & follow; legal == 0 {
					legal = legalAt(&d.rules, trump, hand, t, best)
				}
			}
			c := Card(bits.TrailingZeros32(uint32(legal)))
			if k := legal.Len(); k > 1 {
				if have == 0 {
					left, have = g.draw(), digitCount
				}
				have--
				q, _ := bits.Mul64(left, reciprocals[k&15])
				c = nthCard(legal, int(left-q*uint64(k)))
				left = q
			}
			bit := CardSet(1) << (c & 31)
			d.hands[s&3] = hand &^ bit
			t.Cards[i&3] = c
			played |= bit
			if i == 0 {
				led := c.Suit()
				if led != trump {
					follow = protocol.SuitMask(led)
				}
				order = &strengthOf[trump&3][led&3]
				bestStrength = order[c&31]
			} else if st := order[c&31]; st > bestStrength {
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

// nthCard returns the card of s at position r counting from the lowest (r below s.Len()),
// without a loop over the cards, whose exit branch mispredicts on random positions: it
// counts the cards of each byte (suit) and of the bytes below it in parallel within one
// word, finds the byte holding the card by comparing all four counts with r at once, and
// then the card in it by table.
func nthCard(s CardSet, r int) Card {
	x := uint32(s)
	c := x - x>>1&0x55555555
	c = c&0x33333333 + c>>2&0x33333333
	c = (c + c>>4) & 0x0F0F0F0F
	upTo := c * 0x01010101 // byte j: the cards in bytes 0 … j, at most 32
	// High bit of byte j: upTo_j > r (no borrow crosses a byte: upTo_j|0x80 ≥ 128 > r+1).
	past := ((upTo | 0x80808080) - uint32(r+1)*0x01010101) & 0x80808080
	shift := uint(bits.TrailingZeros32(past)) - 7 // 8 × the byte holding the card
	below := int(upTo << 8 >> shift & 0xFF)       // the cards in the bytes under it
	return Card(shift + uint(nthInByte[uint8(x>>shift)][(r-below)&7]))
}

// nthInByte[b][r] is the position of the r-th set bit of b, counting from the lowest.
var nthInByte [256][8]uint8

// strengthOf[trump][led][c] is strength(c, led, trump).
var strengthOf [4][4][protocol.NumCards]uint8

func init() {
	for b := range 256 {
		r := 0
		for i := range 8 {
			if b>>i&1 != 0 {
				nthInByte[b][r] = uint8(i)
				r++
			}
		}
	}
	for trump := range Suit(4) {
		for led := range Suit(4) {
			for c := range Card(protocol.NumCards) {
				strengthOf[trump][led][c] = strength(c, led, trump)
			}
		}
	}
}

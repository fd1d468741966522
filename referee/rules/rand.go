package rules

import (
	"math/bits"
	"math/rand/v2"

	"github.com/klaverjas-arena/arena/protocol"
)

// digits draws exact uniform integers below n, for 2 <= n <= 10, five from one call of the
// underlying generator: it draws one uniform integer below digitBase = 2520^5 (2520 is the
// least common multiple of 1..10) and hands out its digits in the mixed radix of the ranges
// asked for. Each range divides what is left of the base, so every digit is exactly uniform
// and independent of the others.
type digits struct {
	rng  *rand.Rand
	left uint64 // the undrawn part of the number: uniform below the remaining base
	have int    // digits still available from left
}

const (
	digitLCM   = 2520
	digitCount = 5
	digitBase  = digitLCM * digitLCM * digitLCM * digitLCM * digitLCM // 1.02e17 < 2^57
)

// reciprocals[n] is ceil(2^64/n): for x below 2^57, the high word of x*reciprocals[n] is x/n.
var reciprocals = [16]uint64{2: 1 << 63, 3: 0x5555555555555556, 4: 1 << 62, 5: 0x3333333333333334, 6: 0x2AAAAAAAAAAAAAAB, 7: 0x2492492492492493, 8: 1 << 61, 9: 0x1C71C71C71C71C72, 10: 0x199999999999999A}

// intN returns a uniform integer below n, for 2 <= n <= 10.
func (g *digits) intN(n uint32) uint32 {
	if g.have == 0 {
		g.left, g.have = g.draw(), digitCount
	}
	g.have--
	q, _ := bits.Mul64(g.left, reciprocals[n&15])
	r := g.left - q*uint64(n)
	g.left = q
	return uint32(r)
}

// draw returns a uniform number below digitBase (Lemire's method).
func (g *digits) draw() uint64 {
	for {
		hi, lo := bits.Mul64(g.rng.Uint64(), digitBase)
		if lo < digitBase && lo < (1<<64-digitBase)%digitBase {
			continue // reject the few values that would bias the draw
		}
		return hi
	}
}

// shuffleCards shuffles cards uniformly (Fisher-Yates). The swap indices are drawn in batches,
// several from one 64-bit word: the digits, in mixed radix, of one exact uniform draw below the
// product of their ranges (Brackett-Rozinsky and Lemire, "Batched ranged random integer
// generation", 2024).
func shuffleCards(rng *rand.Rand, cards []Card) {
	var idx [maxBatch]uint64
	for i := len(cards); i > 1; {
		var b batch
		if i < len(batches) {
			b = batches[i]
		} else {
			b = newBatch(i)
		}
		k, product := int(b.k), b.product
		for {
			x := rng.Uint64()
			for t := range idx[:k] {
				idx[t], x = bits.Mul64(x, uint64(i-t))
			}
			if x >= product || x >= -product%product {
				break
			}
		}
		for t, j := range idx[:k] {
			a := i - t - 1
			cards[a], cards[j] = cards[j], cards[a]
		}
		i -= k
	}
}

// maxBatchProduct bounds the product of the ranges of one batch of shuffleCards, which
// keeps the rejection rate below 2^-24.
const maxBatchProduct = 1 << 40

// maxBatch is the most indices in one batch: the ranges are at least 2.
const maxBatch = 40

// batch is one step of shuffleCards from i cards left: k indices, below i, i−1, …, i−k+1,
// drawn together, whose ranges multiply to product.
type batch struct {
	k       uint8
	product uint64
}

// newBatch returns the batch from i > 1 cards left: as many ranges as fit under
// maxBatchProduct.
func newBatch(i int) batch {
	b := batch{product: 1}
	for i-int(b.k) > 1 && b.product*uint64(i-int(b.k)) <= maxBatchProduct {
		b.product *= uint64(i - int(b.k))
		b.k++
	}
	return b
}

// batches[i] is newBatch(i), for the deck and pile sizes.
var batches [protocol.NumCards + 1]batch

func init() {
	for i := 2; i < len(batches); i++ {
		batches[i] = newBatch(i)
	}
}

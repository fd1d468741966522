package rules

import (
	"math/bits"
	"math/rand/v2"
)

// bounded draws exact uniform integers below n (Lemire's method), two per call of the
// underlying generator.
type bounded struct {
	rng  *rand.Rand
	buf  uint64
	have bool
}

func (b *bounded) intN(n uint32) uint32 {
	for {
		if !b.have {
			b.buf = b.rng.Uint64()
		}
		b.have = !b.have
		x := uint32(b.buf)
		b.buf >>= 32
		m := uint64(x) * uint64(n)
		if low := uint32(m); low < n && low < -n%n {
			continue // reject the few values that would bias the draw
		}
		return uint32(m >> 32)
	}
}

// shuffleCards shuffles cards uniformly (Fisher-Yates). The swap indices are drawn in batches,
// several from one 64-bit word: the digits, in mixed radix, of one exact uniform draw below the
// product of their ranges (Brackett-Rozinsky and Lemire, "Batched ranged random integer
// generation", 2024).
func shuffleCards(rng *rand.Rand, cards []Card) {
	const maxProduct = 1 << 40 // keeps the rejection rate below 2^-24
	var idx [24]uint64
	for i := len(cards); i > 1; {
		product, k := uint64(1), 0
		for i-k > 1 && product*uint64(i-k) <= maxProduct {
			product *= uint64(i - k)
			k++
		}
		for {
			x := rng.Uint64()
			for t := range k {
				idx[t], x = bits.Mul64(x, uint64(i-t))
			}
			if x >= product || x >= -product%product {
				break
			}
		}
		for t := range k {
			a := i - t - 1
			cards[a], cards[idx[t]] = cards[idx[t]], cards[a]
		}
		i -= k
	}
}

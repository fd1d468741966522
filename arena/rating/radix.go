package rating

import "math/bits"

// botBits returns the number of bits a bot index up to top needs.
func botBits(top int) int {
	return max(1, bits.Len(uint(top)))
}

// digitBits is the widest digit sortEntries sorts by in one pass: 2,048 buckets, whose
// counts stay in the first-level cache.
const digitBits = 11

// sortEntries sorts es by key, stably, for keys whose four 16-bit bot fields each hold a
// value below 2^b: a least-significant-digit radix sort over the 4·b bits that can be set.
func sortEntries(es []entry, b int) {
	width := 4 * b
	passes := (width + digitBits - 1) / digitBits
	digit := (width + passes - 1) / passes
	mask := uint64(1)<<digit - 1
	// One reading pass counts the digits of every pass.
	count := make([][1 << digitBits]int, passes)
	for i := range es {
		k := packed(es[i].key, b)
		for pass := range count {
			count[pass][k>>(pass*digit)&mask]++
		}
	}
	buf := make([]entry, len(es))
	src, dst := es, buf
	for pass := range count {
		c, shift, sum := &count[pass], pass*digit, 0
		for d, n := range c[:mask+1] {
			c[d] = sum
			sum += n
		}
		for i := range src {
			d := packed(src[i].key, b) >> shift & mask
			dst[c[d]] = src[i]
			c[d]++
		}
		src, dst = dst, src
	}
	if passes%2 == 1 {
		copy(es, src)
	}
}

// packed squeezes the four 16-bit bot fields of a key into 4·b bits, in the same order.
func packed(k uint64, b int) uint64 {
	return (k>>48)<<(3*b) | (k>>32&0xffff)<<(2*b) | (k>>16&0xffff)<<b | k&0xffff
}

// Package bitstream writes and reads bit fields, least significant bit first, and Elias
// gamma codes. A stored deal's compact form is written in it: each decision as its index
// among the legal choices of its moment, in IndexBits of their number (see
// rules.Deal.PlayIndexed), and the times as gamma codes.
package bitstream

import (
	"encoding/binary"
	"math/bits"
)

// IndexBits is the bits an index among n choices takes: none for one choice (or none).
func IndexBits(n int) uint { return uint(bits.Len(uint(max(n, 1) - 1))) }

// Writer appends bit fields to a byte slice; the zero value is empty.
type Writer struct {
	out  []byte
	acc  uint64 // the bits not yet in out, the first lowest
	nacc uint
}

// Write appends the lowest n bits of v (n ≤ 56; the bits above them must be 0).
func (w *Writer) Write(v uint64, n uint) {
	w.acc |= v << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

// WriteGamma appends v (1 ≤ v < 2^28) in Elias gamma code: as many 0 bits as v has bits
// after its highest, a 1 bit, then those bits of v.
func (w *Writer) WriteGamma(v uint64) {
	n := uint(bits.Len64(v)) - 1
	w.Write(0, n)
	w.Write(1, 1)
	w.Write(v&(1<<n-1), n)
}

// Len returns the bits written.
func (w *Writer) Len() uint { return 8*uint(len(w.out)) + w.nacc }

// Bytes returns what was written, the last byte's unused high bits 0; the Writer is then
// at a byte boundary.
func (w *Writer) Bytes() []byte {
	if w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc, w.nacc = 0, 0
	}
	return w.out
}

// Reader reads what a Writer wrote.
type Reader struct {
	// Acc holds the bits loaded and not yet read, the next one lowest, and N their number;
	// the bits of Acc above them are 0. A loop that reads many fields may keep the two in
	// locals, take bits from them itself, and store them back before it calls a method.
	Acc  uint64
	N    uint
	data []byte
	next int // the next byte to load
	err  bool
}

// NewReader returns a Reader of data.
func NewReader(data []byte) Reader { return Reader{data: data} }

// Read returns the next n bits (n ≤ 56); past the end it returns 0 and Err reports it.
func (r *Reader) Read(n uint) uint64 {
	if r.N < n {
		if r.Fill(); r.N < n {
			r.err = true
			return 0
		}
	}
	v := r.Acc & (1<<n - 1)
	r.Acc >>= n
	r.N -= n
	return v
}

// Err reports whether a Read went past the end of the data.
func (r *Reader) Err() bool { return r.err }

// Consumed returns the bits read so far.
func (r *Reader) Consumed() uint { return 8*uint(r.next) - r.N }

// Size returns the bytes of the data.
func (r *Reader) Size() int { return len(r.data) }

// Fill loads Acc with as many whole bytes as it holds (N at least 57 after it, unless the
// data ends first).
func (r *Reader) Fill() {
	if r.next+8 <= len(r.data) {
		k := (64 - r.N) / 8 // the bytes that fit
		w := binary.LittleEndian.Uint64(r.data[r.next:])
		if k < 8 {
			w &= 1<<(8*k) - 1
		}
		r.Acc |= w << r.N
		r.next += int(k)
		r.N += 8 * k
		return
	}
	for r.N <= 56 && r.next < len(r.data) {
		r.Acc |= uint64(r.data[r.next]) << r.N
		r.next++
		r.N += 8
	}
}

// DecodeGamma decodes the Elias gamma code (see Writer.WriteGamma) in the lowest n bits of
// acc, as a Reader holds them in Acc and N: its value, the bits of acc after it (rest) and
// its length in bits; false when it begins with more than most 0 bits (most < 32), or does
// not lie whole in the n bits. A Reader's Acc holds at least 2*most+1 bits after Fill unless
// its data ends first.
func DecodeGamma(acc uint64, n, most uint) (v, rest uint64, length uint, ok bool) {
	zeros := uint(bits.TrailingZeros64(acc))
	if zeros > most || 2*zeros+1 > n {
		return 0, acc, 0, false
	}
	t := acc >> (zeros + 1)
	return 1<<zeros | t&(1<<zeros-1), t >> zeros, 2*zeros + 1, true
}

package bitstream

import (
	"math/rand/v2"
	"testing"
)

// refBits reads bits one at a time, least significant first: what Reader must find.
type refBits struct {
	data []byte
	pos  int
}

func (r *refBits) read(n uint) (uint64, bool) {
	if r.pos+int(n) > 8*len(r.data) {
		return 0, false
	}
	v := uint64(0)
	for i := range n {
		v |= uint64(r.data[r.pos/8]>>(r.pos%8)&1) << i
		r.pos++
	}
	return v, true
}

// readGamma reads a gamma code of at most most 0 bits from r by DecodeGamma, as a fast
// loop does, and fails t unless the accumulator DecodeGamma leaves is the one Read leaves.
func readGamma(t *testing.T, r *Reader, most uint) (uint64, bool) {
	t.Helper()
	if r.N < 2*most+1 {
		r.Fill()
	}
	v, rest, length, ok := DecodeGamma(r.Acc, r.N, most)
	if ok {
		r.Read(length)
		if r.Acc != rest {
			t.Fatalf("DecodeGamma left %#x of the accumulator, Read %#x", rest, r.Acc)
		}
	}
	return v, ok
}

// TestReaderGamma: reads of fields and of gamma codes (DecodeGamma) find what reading one
// bit at a time finds (the value, a code with too many 0 bits, the end of the data), on
// random bit streams of every length around the reader's 8-byte loads.
func TestReaderGamma(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 20000 {
		data := make([]byte, r.IntN(20))
		for i := range data {
			v := r.Uint32()
			data[i] = byte(v) & byte(v>>8) & byte(v>>16) // mostly 0 bits
		}
		fast, ref := NewReader(data), refBits{data: data}
		for step := 0; step < 60; step++ {
			if r.IntN(2) == 0 {
				n := uint(r.IntN(57))
				got := fast.Read(n)
				want, ok := ref.read(n)
				if got != want || fast.Err() == ok {
					t.Fatalf("trial %d step %d: read(%d) %d (err %v), bit by bit %d (ok %v)", trial, step, n, got, fast.Err(), want, ok)
				}
				if !ok {
					break
				}
			} else {
				got, ok := readGamma(t, &fast, 9)
				want, wantOK, n := uint64(0), true, uint(0)
				for {
					bit, more := ref.read(1)
					if !more || n == 9 && bit == 0 {
						wantOK = false
						break
					}
					if bit == 1 {
						break
					}
					n++
				}
				if wantOK {
					low, more := ref.read(n)
					want, wantOK = 1<<n|low, more
				}
				if got != want && wantOK || ok != wantOK {
					t.Fatalf("trial %d step %d: gamma %d %v, bit by bit %d %v", trial, step, got, ok, want, wantOK)
				}
				if !ok {
					break
				}
			}
			if int(fast.Consumed()) != ref.pos {
				t.Fatalf("trial %d step %d: at bit %d, bit by bit at %d", trial, step, fast.Consumed(), ref.pos)
			}
		}
	}
}

// TestWriterReader: random fields and gamma codes read back as written, and the bits and
// bytes written are counted.
func TestWriterReader(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 5000 {
		type field struct {
			v     uint64
			n     uint
			gamma bool
		}
		var fields []field
		var w Writer
		for range r.IntN(30) {
			f := field{gamma: r.IntN(3) == 0}
			if f.gamma {
				f.v = 1 + r.Uint64N(1<<uint(1+r.IntN(27))-1)
				w.WriteGamma(f.v)
			} else {
				f.n = uint(r.IntN(57))
				f.v = r.Uint64() & (1<<f.n - 1)
				w.Write(f.v, f.n)
			}
			fields = append(fields, f)
		}
		bitsWritten := w.Len()
		data := w.Bytes()
		if len(data) != int(bitsWritten+7)/8 || w.Len() != 8*uint(len(data)) {
			t.Fatalf("trial %d: %d bits in %d bytes (then %d bits)", trial, bitsWritten, len(data), w.Len())
		}
		rd := NewReader(data)
		for i, f := range fields {
			var got uint64
			ok := true
			if f.gamma {
				got, ok = readGamma(t, &rd, 27)
			} else {
				got = rd.Read(f.n)
			}
			if got != f.v || !ok || rd.Err() {
				t.Fatalf("trial %d field %d: wrote %d (%d bits, gamma %v), read %d", trial, i, f.v, f.n, f.gamma, got)
			}
		}
		if rd.Consumed() != bitsWritten || rd.Acc != 0 || rd.Size() != len(data) {
			t.Fatalf("trial %d: read %d bits of %d, %x left", trial, rd.Consumed(), bitsWritten, rd.Acc)
		}
	}
}

// TestIndexBits: an index among n choices fits in IndexBits(n) bits, and not in fewer.
func TestIndexBits(t *testing.T) {
	for n := 0; n <= 64; n++ {
		b := IndexBits(n)
		if n > 1 && (uint64(n-1)>>b != 0 || uint64(n-1)>>(b-1) == 0) || n <= 1 && b != 0 {
			t.Errorf("IndexBits(%d) = %d", n, b)
		}
	}
}

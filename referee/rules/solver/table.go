package solver

import "github.com/klaverjas-arena/arena/protocol"

// The transposition table. Positions are stored only at the start of a trick, keyed on the
// remaining cards, the leader and the score so far, which decides how the rest is scored
// (nat, pit). Within one call the remaining cards fix who holds what, so the key is exact.

const (
	cardBits = 10 // per side, card points so far
	roemBits = 11 // per side, roem so far
	// maxFuturePoints and maxFutureRoem bound what the rest of a deal can add to one side.
	maxFuturePoints = 162 + 100
	maxFutureRoem   = 1100 // four jacks once and 100 in every other trick, or the three-player values
)

// key identifies a position at the start of a trick.
type key struct{ a, b uint64 }

type entry struct {
	k      key
	gen    uint32
	lo, hi int32         // bounds on the exact value
	move   protocol.Card // best or refuting card found
}

func (s *Solver) keyOf(st *state) key {
	var remaining uint64
	for i := range s.players {
		remaining |= uint64(st.hands[i])
	}
	a := remaining | uint64(st.trick.Leader)<<32
	var b uint64
	for i := range s.players {
		if st.won[i] > 0 {
			a |= 1 << (34 + i)
		}
		b |= uint64(st.cards[i]) << (i * cardBits)
		b |= uint64(st.roem[i]) << (3*cardBits + i*roemBits)
	}
	return key{a, b}
}

func (k key) index(size int) int {
	h := (k.a ^ k.b*0x9E3779B97F4A7C15) * 0xD6E8FEB86659FD93
	return int(h>>32) & (size - 1)
}

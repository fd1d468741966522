package protocol

import (
	"iter"
	"math/bits"
	"strings"
)

// CardSet is a set of cards as a bitset: bit c is set when card c is in the set.
// Each suit occupies one byte, ranks in natural order from the low bit.
type CardSet uint32

// FullDeck holds all 32 cards.
const FullDeck CardSet = 0xFFFFFFFF

// SuitMask returns the set of all eight cards of suit s.
func SuitMask(s Suit) CardSet { return 0xFF << (uint(s) << 3) }

// SetOf returns the set holding the given cards.
func SetOf(cards ...Card) CardSet {
	var s CardSet
	for _, c := range cards {
		s = s.Add(c)
	}
	return s
}

// Has reports whether c is in the set.
func (s CardSet) Has(c Card) bool { return s>>c&1 != 0 }

// Add returns the set with c added.
func (s CardSet) Add(c Card) CardSet { return s | 1<<c }

// Remove returns the set with c removed.
func (s CardSet) Remove(c Card) CardSet { return s &^ (1 << c) }

// Len returns the number of cards in the set.
func (s CardSet) Len() int { return bits.OnesCount32(uint32(s)) }

// Empty reports whether the set has no cards.
func (s CardSet) Empty() bool { return s == 0 }

// Suit returns the cards of suit su in the set.
func (s CardSet) Suit(su Suit) CardSet { return s & SuitMask(su) }

// Lowest returns the lowest-numbered card in the set, or NoCard if it is empty.
func (s CardSet) Lowest() Card {
	if s == 0 {
		return NoCard
	}
	return Card(bits.TrailingZeros32(uint32(s)))
}

// Nth returns the n-th card of the set counting from the lowest (n from 0), or NoCard if the
// set has n or fewer cards. Callers pick a uniformly random member with s.Nth(rand.IntN(s.Len())).
func (s CardSet) Nth(n int) Card {
	for ; n > 0 && s != 0; n-- {
		s &= s - 1
	}
	return s.Lowest()
}

// All yields the cards of the set in ascending order (suits C D H S, ranks 7 to A).
func (s CardSet) All() iter.Seq[Card] {
	return func(yield func(Card) bool) {
		for s != 0 {
			c := Card(bits.TrailingZeros32(uint32(s)))
			if !yield(c) {
				return
			}
			s &= s - 1
		}
	}
}

// Cards returns the cards of the set in ascending order.
func (s CardSet) Cards() []Card {
	out := make([]Card, 0, s.Len())
	for c := range s.All() {
		out = append(out, c)
	}
	return out
}

// String returns the cards in ascending order separated by single spaces, e.g. "7C JH AS";
// the empty set is "-".
func (s CardSet) String() string {
	if s == 0 {
		return "-"
	}
	var b strings.Builder
	b.Grow(3 * s.Len())
	for c := range s.All() {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// ParseCardSet parses cards separated by spaces (any order); "-" or "" is the empty set.
// A card named twice is an error.
func ParseCardSet(text string) (CardSet, error) {
	var s CardSet
	if strings.TrimSpace(text) == "-" {
		return 0, nil
	}
	for f := range strings.FieldsSeq(text) {
		c, err := ParseCard(f)
		if err != nil {
			return 0, err
		}
		if s.Has(c) {
			return 0, &NotationError{What: "card set", Text: text, Want: "each card at most once (" + f + " repeats)"}
		}
		s = s.Add(c)
	}
	return s, nil
}

// RankMask returns the set of the four cards of rank r.
func RankMask(r Rank) CardSet { return 0x01010101 << r }

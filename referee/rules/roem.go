package rules

import (
	"fmt"

	"github.com/klaverjas-arena/arena/protocol"
)

// RoemKind is the kind of a roem combination.
type RoemKind uint8

// Roem kinds.
const (
	// RoemSequence is a run of consecutive cards of one suit in natural order.
	RoemSequence RoemKind = iota
	// RoemStuk is king and queen of trumps.
	RoemStuk
	// RoemSameRank is four (at a table of three: three) cards of one rank.
	RoemSameRank
)

// RoemItem is one roem combination in a trick.
type RoemItem struct {
	Kind   RoemKind
	Length uint8 // cards in a sequence or of the same rank
	Suit   Suit  // of a sequence
	Rank   Rank  // of a same-rank combination
	Points int16
}

// String names the combination as the test vectors do: "sequence_3_D", "stuk",
// "four_of_a_kind_J" (at a table of three, "three_of_a_kind_J").
func (it RoemItem) String() string {
	switch it.Kind {
	case RoemSequence:
		return fmt.Sprintf("sequence_%d_%s", it.Length, it.Suit)
	case RoemStuk:
		return "stuk"
	}
	if it.Length == 3 {
		return "three_of_a_kind_" + it.Rank.String()
	}
	return "four_of_a_kind_" + it.Rank.String()
}

// Roem lists the roem combinations in a trick of cards (RULES.md §6; three-player values in
// RULES.md §11). At most two combinations can occur in one trick.
type Roem struct {
	Items [2]RoemItem
	N     uint8
}

// Total returns the points of all combinations.
func (r Roem) Total() int {
	total := 0
	for _, it := range r.Items[:r.N] {
		total += int(it.Points)
	}
	return total
}

// List returns the combinations as a slice.
func (r Roem) List() []RoemItem { return r.Items[:r.N:r.N] }

func (r *Roem) add(it RoemItem) {
	r.Items[r.N] = it
	r.N++
}

// TrickRoem returns the roem in a complete trick of cards with trump as the trump suit.
// Under stuk_scoring = announced_by_holder, king and queen of trumps score when played (see
// Deal), not here.
func TrickRoem(rs *Ruleset, cards CardSet, trump Suit) Roem {
	var roem Roem
	roem.fill(rs, cards, trump)
	return roem
}

// fill sets roem to the combinations in cards; roem must be empty.
func (roem *Roem) fill(rs *Ruleset, cards CardSet, trump Suit) {
	three := rs.Players == 3
	// A trick of at most four cards holds at most one run. Masks keep runs within a suit.
	if run3 := cards & (cards >> 1) & (cards >> 2) & 0x3F3F3F3F; run3 != 0 {
		su := run3.Lowest().Suit()
		switch {
		case run3&(cards>>3)&0x1F1F1F1F != 0:
			roem.add(RoemItem{Kind: RoemSequence, Length: 4, Suit: su, Points: 50})
		case three:
			roem.add(RoemItem{Kind: RoemSequence, Length: 3, Suit: su, Points: 40})
		default:
			roem.add(RoemItem{Kind: RoemSequence, Length: 3, Suit: su, Points: 20})
		}
	}
	if rs.StukScoring == StukInTrick && trump.Valid() {
		stuk := stukOf(trump)
		if cards&stuk == stuk {
			roem.add(RoemItem{Kind: RoemStuk, Points: 20})
		}
	}
	if roem.N > 0 {
		return // a run or stuk leaves no room for a same-rank combination
	}
	c, d, h, s := cards&0xFF, cards>>8&0xFF, cards>>16&0xFF, cards>>24
	same := c & d & h & s
	if three {
		same = c&d&h | c&d&s | c&h&s | d&h&s
	}
	if same == 0 {
		return
	}
	r := Rank(same.Lowest())
	if pts := sameRankPoints(rs, r); pts > 0 {
		roem.add(RoemItem{Kind: RoemSameRank, Length: uint8(rs.Players), Rank: r, Points: int16(pts)})
	}
}

func sameRankPoints(rs *Ruleset, r Rank) int {
	if rs.Players == 3 {
		if r == protocol.Jack {
			return 120
		}
		return 80
	}
	switch rs.FourOfAKind {
	case FourJacks200High100:
		switch r {
		case protocol.Jack:
			return 200
		case protocol.Ace, protocol.Ten, protocol.King, protocol.Queen:
			return 100
		}
		return 0
	case FourJacks200All100:
		if r == protocol.Jack {
			return 200
		}
	}
	return 100
}

package rules

import (
	"github.com/klaverjas-arena/arena/protocol"
)

// Card order and card points (RULES.md §2), as tables indexed by natural rank (7 8 9 T J Q K A).
var (
	// trumpOrder ranks trumps J 9 A T K Q 8 7, high to low (higher is better).
	trumpOrder = [protocol.NumRanks]uint8{protocol.Seven: 0, protocol.Eight: 1, protocol.Queen: 2, protocol.King: 3, protocol.Ten: 4, protocol.Ace: 5, protocol.Nine: 6, protocol.Jack: 7}
	// plainOrder ranks other suits A T K Q J 9 8 7, high to low.
	plainOrder = [protocol.NumRanks]uint8{protocol.Seven: 0, protocol.Eight: 1, protocol.Nine: 2, protocol.Jack: 3, protocol.Queen: 4, protocol.King: 5, protocol.Ten: 6, protocol.Ace: 7}

	trumpPoints = [protocol.NumRanks]uint8{protocol.Jack: 20, protocol.Nine: 14, protocol.Ace: 11, protocol.Ten: 10, protocol.King: 4, protocol.Queen: 3}
	plainPoints = [protocol.NumRanks]uint8{protocol.Ace: 11, protocol.Ten: 10, protocol.King: 4, protocol.Queen: 3, protocol.Jack: 2}
)

// Tables derived from the ones above at start-up, so the hot paths are lookups.
var (
	// trumpsAbove[k] is the set of ranks (as a suit byte) whose trump order is above k.
	trumpsAbove [protocol.NumRanks]uint8
	// pointsOfByte[t][b] is the card points of the cards of one suit whose ranks are the bits
	// of b, as trumps (t=1) or not (t=0).
	pointsOfByte [2][256]uint8
)

func init() {
	for k := range protocol.NumRanks {
		for r := range protocol.NumRanks {
			if int(trumpOrder[r]) > k {
				trumpsAbove[k] |= 1 << r
			}
		}
	}
	for b := range 256 {
		for r := range protocol.NumRanks {
			if b>>r&1 != 0 {
				pointsOfByte[0][b] += plainPoints[r]
				pointsOfByte[1][b] += trumpPoints[r]
			}
		}
	}
}

// Points returns the card points of c when trump is the trump suit.
func Points(c Card, trump Suit) int {
	if c.Suit() == trump {
		return int(trumpPoints[c.Rank()])
	}
	return int(plainPoints[c.Rank()])
}

// SetPoints returns the card points of every card in s when trump is the trump suit.
func SetPoints(s CardSet, trump Suit) int {
	plain := &pointsOfByte[0]
	total := int(plain[uint8(s)]) + int(plain[uint8(s>>8)]) + int(plain[uint8(s>>16)]) + int(plain[uint8(s>>24)])
	if trump.Valid() {
		t := uint8(s >> (uint(trump&3) * 8))
		total += int(pointsOfByte[1][t]) - int(plain[t])
	}
	return total
}

// stukOf returns king and queen of suit trump.
func stukOf(trump Suit) CardSet {
	return CardSet(1<<protocol.King|1<<protocol.Queen) << (uint(trump&3) * 8)
}

// strength orders the cards of one trick: any trump beats any card of the led suit, which
// beats any other card (worth 0: it can never win).
func strength(c Card, led, trump Suit) uint8 {
	switch c.Suit() {
	case trump:
		return 32 + trumpOrder[c.Rank()]
	case led:
		return 16 + plainOrder[c.Rank()]
	}
	return 0
}

// Beats reports whether card a beats card b in a trick whose led suit is led.
func Beats(a, b Card, led, trump Suit) bool { return strength(a, led, trump) > strength(b, led, trump) }

// higherTrumps returns the trumps in hand that rank above trump card c.
func higherTrumps(hand CardSet, c Card, trump Suit) CardSet {
	return hand & (CardSet(trumpsAbove[trumpOrder[c.Rank()]]) << (uint(trump) * 8))
}

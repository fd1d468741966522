package rules

import "github.com/klaverjas-arena/arena/protocol"

// Trick is a trick in progress or complete: the leader and the cards in play order.
type Trick struct {
	Leader Seat
	Cards  [protocol.MaxSeats]Card
	N      int     // cards played so far
	Played CardSet // the cards played so far, as a set
}

// Seat returns the seat that played (or is to play) the i-th card at a table of n seats.
func (t *Trick) Seat(i, n int) Seat { return t.Leader.Plus(i, n) }

// Led returns the suit of the first card, or NoSuit for an empty trick.
func (t *Trick) Led() Suit {
	if t.N == 0 {
		return noSuit
	}
	return t.Cards[0].Suit()
}

// WinningIndex returns the index of the card that currently wins the trick (RULES.md §5.1):
// the highest trump, else the highest card of the led suit. It returns -1 for an empty trick.
func (t *Trick) WinningIndex(trump Suit) int {
	if t.N == 0 {
		return -1
	}
	led := t.Cards[0].Suit()
	best, bestStrength := 0, strength(t.Cards[0], led, trump)
	for i := 1; i < t.N; i++ {
		if s := strength(t.Cards[i], led, trump); s > bestStrength {
			best, bestStrength = i, s
		}
	}
	return best
}

// Winner returns the seat whose card currently wins the trick at a table of n seats.
func (t *Trick) Winner(trump Suit, n int) Seat {
	i := t.WinningIndex(trump)
	if i < 0 {
		return noSeat
	}
	return t.Seat(i, n)
}

// Add appends a card to the trick.
func (t *Trick) Add(c Card) {
	t.Cards[t.N] = c
	t.N++
	t.Played = t.Played.Add(c)
}

// add appends card c, whose set is bit, to the trick (Add without the shift).
func (t *Trick) add(c Card, bit CardSet) {
	t.Cards[t.N&3] = c
	t.N++
	t.Played |= bit
}

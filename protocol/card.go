package protocol

import (
	"errors"
	"fmt"
)

// Suit is one of the four suits. The zero value is Clubs; NoSuit marks "no suit".
type Suit uint8

// The suits in notation order C D H S.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
	// NoSuit means "no suit", e.g. no trump chosen yet.
	NoSuit Suit = 0xFF
)

// NumSuits is the number of suits in the deck.
const NumSuits = 4

const suitLetters = "CDHS"

// String returns the suit letter: "C", "D", "H" or "S"; "-" for NoSuit.
func (s Suit) String() string {
	if s >= NumSuits {
		return "-"
	}
	return suitLetters[s : s+1]
}

// Valid reports whether s is one of the four suits.
func (s Suit) Valid() bool { return s < NumSuits }

// ParseSuit parses a suit letter (C, D, H or S).
func ParseSuit(text string) (Suit, error) {
	if len(text) == 1 {
		for i := range NumSuits {
			if text[0] == suitLetters[i] {
				return Suit(i), nil
			}
		}
	}
	return NoSuit, &NotationError{What: "suit", Text: text, Want: "one of C D H S"}
}

// Rank is a card rank in natural order 7 8 9 T J Q K A (the order used for runs).
type Rank uint8

// The ranks in natural order.
const (
	Seven Rank = iota
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

// NumRanks is the number of ranks per suit.
const NumRanks = 8

const rankLetters = "789TJQKA"

// String returns the rank letter: 7 8 9 T J Q K A.
func (r Rank) String() string {
	if r >= NumRanks {
		return "?"
	}
	return rankLetters[r : r+1]
}

// Card is one of the 32 cards, numbered suit*8 + rank, so a CardSet can hold it as one bit.
type Card uint8

// NumCards is the size of the deck.
const NumCards = 32

// NoCard marks "no card".
const NoCard Card = 0xFF

// NewCard returns the card of rank r in suit s.
func NewCard(r Rank, s Suit) Card { return Card(uint8(s)<<3 | uint8(r)) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(c >> 3) }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c & 7) }

// Valid reports whether c is one of the 32 cards.
func (c Card) Valid() bool { return c < NumCards }

// String returns the card notation, rank then suit: "JH", "TS", "7C"; "--" for an invalid card.
func (c Card) String() string {
	if !c.Valid() {
		return "--"
	}
	return cardNames[c]
}

// cardNames holds the notation of every card, so String never allocates.
var cardNames = func() (names [NumCards]string) {
	for c := range Card(NumCards) {
		names[c] = string([]byte{rankLetters[c.Rank()], suitLetters[c.Suit()]})
	}
	return names
}()

// ParseCard parses card notation: a rank letter (7 8 9 T J Q K A) followed by a suit letter
// (C D H S). Only upper case is accepted, so every card has exactly one spelling.
func ParseCard(text string) (Card, error) {
	if len(text) == 2 {
		r, s := rankIndex(text[0]), suitIndex(text[1])
		if r >= 0 && s >= 0 {
			return NewCard(Rank(r), Suit(s)), nil
		}
	}
	return NoCard, &NotationError{What: "card", Text: text, Want: "a rank 7 8 9 T J Q K A followed by a suit C D H S, e.g. JH"}
}

// letterIndex maps each byte to its index in rankLetters (low nibble) and in suitLetters (high
// nibble), 0xF where it is none.
var letterIndex = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	for i := range NumRanks {
		t[rankLetters[i]] = t[rankLetters[i]]&0xF0 | byte(i)
	}
	for i := range NumSuits {
		t[suitLetters[i]] = t[suitLetters[i]]&0x0F | byte(i)<<4
	}
	return t
}()

func rankIndex(b byte) int {
	if i := letterIndex[b] & 0xF; i != 0xF {
		return int(i)
	}
	return -1
}

func suitIndex(b byte) int {
	if i := letterIndex[b] >> 4; i != 0xF {
		return int(i)
	}
	return -1
}

// ErrNotation is the sentinel wrapped by every NotationError.
var ErrNotation = errors.New("bad notation")

// NotationError reports text that is not valid notation for a card, suit, seat or set.
type NotationError struct {
	What string // "card", "suit", "seat", ...
	Text string // the offending text
	Want string // what was expected
}

func (e *NotationError) Error() string {
	return fmt.Sprintf("bad %s %q: want %s", e.What, e.Text, e.Want)
}

// Unwrap returns ErrNotation.
func (e *NotationError) Unwrap() error { return ErrNotation }

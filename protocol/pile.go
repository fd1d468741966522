package protocol

// PileCard is a card of the separate pile of low cards (the 2-6 of each suit, optionally two
// jokers) from which the draaikaart and bga_draw procedures turn the proposed trump suit.
// Its notation is rank then suit ("4H", "2C") or "JK" for a joker.
type PileCard uint8

// Joker is the pile's joker.
const Joker PileCard = 0x80

// NewPileCard returns the pile card of rank (2 to 6) in suit s.
func NewPileCard(rank int, s Suit) PileCard { return PileCard(uint8(s)<<3 | uint8(rank)) }

// Suit returns the card's suit, or NoSuit for a joker.
func (p PileCard) Suit() Suit {
	if p == Joker {
		return NoSuit
	}
	return Suit(p >> 3)
}

// Rank returns the card's rank, 2 to 6, or 0 for a joker.
func (p PileCard) Rank() int {
	if p == Joker {
		return 0
	}
	return int(p & 7)
}

// Valid reports whether p is a joker or a 2-6 of one of the suits.
func (p PileCard) Valid() bool {
	return p == Joker || (p>>3 < NumSuits && p&7 >= 2 && p&7 <= 6)
}

// String returns the notation, e.g. "4H" or "JK".
func (p PileCard) String() string {
	switch {
	case p == Joker:
		return "JK"
	case p.Valid():
		return string([]byte{'0' + byte(p.Rank()), suitLetters[p.Suit()]})
	}
	return "--"
}

// ParsePileCard parses pile-card notation: "2C" to "6S", or "JK".
func ParsePileCard(text string) (PileCard, error) {
	if text == "JK" {
		return Joker, nil
	}
	if len(text) == 2 && text[0] >= '2' && text[0] <= '6' {
		if s := suitIndex(text[1]); s >= 0 {
			return NewPileCard(int(text[0]-'0'), Suit(s)), nil
		}
	}
	return 0, &NotationError{What: "pile card", Text: text, Want: "2C to 6S, or JK for a joker"}
}

// FullPile returns the whole pile in a fixed order: 2C..6C, 2D..6D, 2H..6H, 2S..6S, and then
// two jokers if jokers is true.
func FullPile(jokers bool) []PileCard {
	return AppendFullPile(make([]PileCard, 0, 22), jokers)
}

// AppendFullPile appends the cards of FullPile, in its order, to pile and returns it.
func AppendFullPile(pile []PileCard, jokers bool) []PileCard {
	for s := range Suit(NumSuits) {
		for r := 2; r <= 6; r++ {
			pile = append(pile, NewPileCard(r, s))
		}
	}
	if jokers {
		pile = append(pile, Joker, Joker)
	}
	return pile
}

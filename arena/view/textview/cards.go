package textview

import (
	"strings"

	"github.com/klaverjas-arena/arena/protocol"
)

// Style is how cards are written: suit symbols, in colour, for a terminal; the protocol's
// letters otherwise.
type Style struct {
	Symbols bool // ♣ ♦ ♥ ♠ instead of C D H S
	Colour  bool // red diamonds and hearts (ANSI escapes); only with Symbols
}

var suitSymbols = [4]string{"♣", "♦", "♥", "♠"}

// Suit writes a suit.
func (st Style) Suit(s protocol.Suit) string {
	if !st.Symbols || !s.Valid() {
		return s.String()
	}
	if st.Colour && (s == protocol.Diamonds || s == protocol.Hearts) {
		return "\033[31m" + suitSymbols[s] + "\033[0m"
	}
	return suitSymbols[s]
}

// Card writes a card: rank, then suit.
func (st Style) Card(c protocol.Card) string {
	if !st.Symbols {
		return c.String()
	}
	return c.Rank().String() + st.Suit(c.Suit())
}

// Hand writes a hand suit by suit, e.g. "C 79K  D 8T".
func (st Style) Hand(h protocol.CardSet) string {
	var parts []string
	for s := range protocol.Suit(protocol.NumSuits) {
		var ranks string
		for c := range h.Suit(s).All() {
			ranks += c.Rank().String()
		}
		if ranks != "" {
			parts = append(parts, st.Suit(s)+" "+ranks)
		}
	}
	return strings.Join(parts, "  ")
}

// arrow is the arrow before a trick's winner.
func (st Style) arrow() string {
	if st.Symbols {
		return "→"
	}
	return "->"
}

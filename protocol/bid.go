package protocol

import "strings"

// Bid is a trump-choosing action: play on a suit, or pass. Its notation is the suit letter
// (C, D, H or S) or "pass".
type Bid uint8

// BidPass is the pass; Bid(s) for a suit s plays on that suit (see PlaySuit).
const BidPass Bid = 4

// PlaySuit returns the bid that plays on suit s.
func PlaySuit(s Suit) Bid { return Bid(s) }

// Suit returns the suit of a playing bid, or NoSuit for a pass.
func (b Bid) Suit() Suit {
	if b == BidPass {
		return NoSuit
	}
	return Suit(b)
}

// String returns the notation: "pass", or the suit letter.
func (b Bid) String() string {
	if b == BidPass {
		return "pass"
	}
	return Suit(b).String()
}

// ParseBid parses "pass" or a suit letter.
func ParseBid(text string) (Bid, error) {
	if text == "pass" {
		return BidPass, nil
	}
	s, err := ParseSuit(text)
	if err != nil {
		return BidPass, &NotationError{What: "bid", Text: text, Want: "pass or a suit C D H S"}
	}
	return PlaySuit(s), nil
}

// Bids is a set of bids.
type Bids uint8

// AllSuits is the set of the four playing bids.
const AllSuits Bids = 0x0F

// Has reports whether b is in the set.
func (s Bids) Has(b Bid) bool { return s>>b&1 != 0 }

// Add returns the set with b added.
func (s Bids) Add(b Bid) Bids { return s | 1<<b }

// All returns the bids of the set: the suits in order, then pass.
func (s Bids) All() []Bid {
	var out []Bid
	for b := range Bid(5) {
		if s.Has(b) {
			out = append(out, b)
		}
	}
	return out
}

// String lists the bids separated by spaces, e.g. "H pass".
func (s Bids) String() string {
	parts := make([]string, 0, 5)
	for _, b := range s.All() {
		parts = append(parts, b.String())
	}
	return strings.Join(parts, " ")
}

package protocol

import (
	"errors"
	"strings"
	"testing"
)

// TestParseCardAll32 parses every card of the deck by its notation and checks its rank,
// suit, number (suit*8 + rank) and that String gives the notation back.
func TestParseCardAll32(t *testing.T) {
	const ranks, suits = "789TJQKA", "CDHS"
	seen := map[Card]string{}
	for si := range len(suits) {
		for ri := range len(ranks) {
			text := string([]byte{ranks[ri], suits[si]})
			c, err := ParseCard(text)
			if err != nil {
				t.Fatalf("ParseCard(%q): %v", text, err)
			}
			if c.Rank() != Rank(ri) || c.Suit() != Suit(si) {
				t.Errorf("ParseCard(%q) = rank %d suit %d, want %d %d", text, c.Rank(), c.Suit(), ri, si)
			}
			if want := Card(si*8 + ri); c != want {
				t.Errorf("ParseCard(%q) = card %d, want %d", text, c, want)
			}
			if !c.Valid() {
				t.Errorf("%s is not Valid", text)
			}
			if got := c.String(); got != text {
				t.Errorf("ParseCard(%q).String() = %q", text, got)
			}
			if nc := NewCard(Rank(ri), Suit(si)); nc != c {
				t.Errorf("NewCard(%d, %d) = %v, want %v", ri, si, nc, c)
			}
			if prev, dup := seen[c]; dup {
				t.Errorf("%s and %s are the same card %d", prev, text, c)
			}
			seen[c] = text
		}
	}
	if len(seen) != NumCards {
		t.Errorf("%d distinct cards, want %d", len(seen), NumCards)
	}
}

func TestCardNamedConstants(t *testing.T) {
	tests := []struct {
		c    Card
		want string
	}{
		{NewCard(Jack, Hearts), "JH"},
		{NewCard(Ten, Spades), "TS"},
		{NewCard(Seven, Clubs), "7C"},
		{NewCard(Ace, Diamonds), "AD"},
		{NewCard(Nine, Spades), "9S"},
		{NewCard(Queen, Clubs), "QC"},
		{NewCard(King, Hearts), "KH"},
		{NewCard(Eight, Diamonds), "8D"},
		{NoCard, "--"},
		{Card(32), "--"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("card %d String = %q, want %q", tt.c, got, tt.want)
		}
	}
	if NoCard.Valid() || Card(32).Valid() {
		t.Error("NoCard or card 32 is Valid")
	}
}

func TestParseCardRejects(t *testing.T) {
	for _, text := range []string{
		"jh", "Jh", "jH", "1H", "0H", "6H", "2C", "10H", "JX", "J", "H", "", "JHH", " JH", "JH ", "HJ",
		"XX", "--", "TT", "AA", "ZS", "J\x00",
	} {
		c, err := ParseCard(text)
		if err == nil {
			t.Errorf("ParseCard(%q) = %v, want an error", text, c)
			continue
		}
		if c != NoCard {
			t.Errorf("ParseCard(%q) returned card %d with its error, want NoCard", text, c)
		}
		if !errors.Is(err, ErrNotation) {
			t.Errorf("ParseCard(%q) error %v does not wrap ErrNotation", text, err)
		}
		var ne *NotationError
		if !errors.As(err, &ne) || ne.What != "card" || ne.Text != text {
			t.Errorf("ParseCard(%q) error = %#v, want a *NotationError for a card with the text", text, err)
		}
	}
}

func TestSuitAndRankNotation(t *testing.T) {
	suits := []struct {
		text string
		s    Suit
	}{{"C", Clubs}, {"D", Diamonds}, {"H", Hearts}, {"S", Spades}}
	for _, tt := range suits {
		s, err := ParseSuit(tt.text)
		if err != nil || s != tt.s {
			t.Errorf("ParseSuit(%q) = %v, %v; want %v", tt.text, s, err, tt.s)
		}
		if s.String() != tt.text || !s.Valid() {
			t.Errorf("suit %d: String %q Valid %v", s, s.String(), s.Valid())
		}
	}
	for _, bad := range []string{"", "c", "X", "CC", "N", "-"} {
		if s, err := ParseSuit(bad); err == nil || s != NoSuit || !errors.Is(err, ErrNotation) {
			t.Errorf("ParseSuit(%q) = %v, %v; want NoSuit and a notation error", bad, s, err)
		}
	}
	if NoSuit.String() != "-" || NoSuit.Valid() {
		t.Errorf("NoSuit: String %q Valid %v", NoSuit.String(), NoSuit.Valid())
	}
	for i, want := range []string{"7", "8", "9", "T", "J", "Q", "K", "A"} {
		if got := Rank(i).String(); got != want {
			t.Errorf("Rank(%d) = %q, want %q", i, got, want)
		}
	}
	if Rank(8).String() != "?" {
		t.Errorf("Rank(8) = %q, want ?", Rank(8).String())
	}
}

func TestNotationErrorMessage(t *testing.T) {
	_, err := ParseCard("JX")
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{`"JX"`, "card", "JH"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
}

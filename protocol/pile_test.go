package protocol

import (
	"errors"
	"testing"
)

func TestPileCardNotation(t *testing.T) {
	seen := map[PileCard]bool{}
	for si, sl := range "CDHS" {
		for r := 2; r <= 6; r++ {
			text := string([]rune{rune('0' + r), sl})
			p, err := ParsePileCard(text)
			if err != nil {
				t.Fatalf("ParsePileCard(%q): %v", text, err)
			}
			if p.Rank() != r || p.Suit() != Suit(si) || !p.Valid() || p.String() != text {
				t.Errorf("%q: rank %d suit %v valid %v string %q", text, p.Rank(), p.Suit(), p.Valid(), p.String())
			}
			if p != NewPileCard(r, Suit(si)) {
				t.Errorf("%q != NewPileCard(%d, %v)", text, r, Suit(si))
			}
			if p == Joker || seen[p] {
				t.Errorf("%q collides with another pile card", text)
			}
			seen[p] = true
		}
	}
	j, err := ParsePileCard("JK")
	if err != nil || j != Joker {
		t.Fatalf("ParsePileCard(JK) = %v, %v", j, err)
	}
	if j.String() != "JK" || j.Suit() != NoSuit || j.Rank() != 0 || !j.Valid() {
		t.Errorf("joker: %q suit %v rank %d valid %v", j.String(), j.Suit(), j.Rank(), j.Valid())
	}
	for _, bad := range []string{"", "7C", "1C", "0H", "jk", "JKK", "2X", "2c", "J", "JH", "22C"} {
		if p, err := ParsePileCard(bad); err == nil || !errors.Is(err, ErrNotation) {
			t.Errorf("ParsePileCard(%q) = %v, %v; want a notation error", bad, p, err)
		}
	}
	for _, p := range []PileCard{NewPileCard(7, Clubs), NewPileCard(1, Hearts), NewPileCard(0, Spades)} {
		if p.Valid() || p.String() != "--" {
			t.Errorf("pile card %d: Valid %v String %q", p, p.Valid(), p.String())
		}
	}
}

func TestFullPile(t *testing.T) {
	want := "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D 2H 3H 4H 5H 6H 2S 3S 4S 5S 6S"
	for _, jokers := range []bool{false, true} {
		pile := FullPile(jokers)
		got := ""
		for i, p := range pile {
			if i > 0 {
				got += " "
			}
			got += p.String()
		}
		w := want
		if jokers {
			w += " JK JK"
		}
		if got != w {
			t.Errorf("FullPile(%v) = %q, want %q", jokers, got, w)
		}
	}
}

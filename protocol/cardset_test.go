package protocol

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func mustSet(t *testing.T, text string) CardSet {
	t.Helper()
	s, err := ParseCardSet(text)
	if err != nil {
		t.Fatalf("ParseCardSet(%q): %v", text, err)
	}
	return s
}

func card(t *testing.T, text string) Card {
	t.Helper()
	c, err := ParseCard(text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCardSetString checks that String lists the cards in ascending order (suits C D H S,
// ranks 7 to A), whatever order they were parsed in, and that it parses back to the same set.
func TestCardSetString(t *testing.T) {
	tests := []struct {
		in, want string
		n        int
	}{
		{"AS 7C JH", "7C JH AS", 3},
		{"JH", "JH", 1},
		{"-", "-", 0},
		{"", "-", 0},
		{"   ", "-", 0},
		{"AC KC QC JC TC 9C 8C 7C", "7C 8C 9C TC JC QC KC AC", 8},
		{"7S 7H 7D 7C", "7C 7D 7H 7S", 4},
		{"TD  9D\tAH", "9D TD AH", 3},
		{"7C 8C 9C TC JC QC KC AC 7D 8D 9D TD JD QD KD AD 7H 8H 9H TH JH QH KH AH 7S 8S 9S TS JS QS KS AS",
			"7C 8C 9C TC JC QC KC AC 7D 8D 9D TD JD QD KD AD 7H 8H 9H TH JH QH KH AH 7S 8S 9S TS JS QS KS AS", 32},
	}
	for _, tt := range tests {
		s := mustSet(t, tt.in)
		if got := s.String(); got != tt.want {
			t.Errorf("ParseCardSet(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
		if s.Len() != tt.n {
			t.Errorf("ParseCardSet(%q).Len() = %d, want %d", tt.in, s.Len(), tt.n)
		}
		if back := mustSet(t, s.String()); back != s {
			t.Errorf("round trip of %q: %v != %v", tt.in, back, s)
		}
	}
	if FullDeck.Len() != 32 || mustSet(t, FullDeck.String()) != FullDeck {
		t.Errorf("FullDeck: Len %d, String %q", FullDeck.Len(), FullDeck.String())
	}
	if CardSet(0).String() != "-" || !CardSet(0).Empty() || mustSet(t, "JH").Empty() {
		t.Error("empty set: String or Empty wrong")
	}
}

func TestParseCardSetRejects(t *testing.T) {
	tests := []string{"JH JH", "7C AS 7C", "JH jh", "JH 1H", "JH,AS", "JHH", "- JH", "JH -", "10H"}
	for _, text := range tests {
		s, err := ParseCardSet(text)
		if err == nil {
			t.Errorf("ParseCardSet(%q) = %v, want an error", text, s)
			continue
		}
		if s != 0 {
			t.Errorf("ParseCardSet(%q) returned %v with its error", text, s)
		}
		if !errors.Is(err, ErrNotation) {
			t.Errorf("ParseCardSet(%q): %v does not wrap ErrNotation", text, err)
		}
	}
	// The duplicate error names the repeated card.
	_, err := ParseCardSet("7C AS 7C")
	if err == nil || !strings.Contains(err.Error(), "7C") {
		t.Errorf("duplicate error %v does not name 7C", err)
	}
}

func TestCardSetMembers(t *testing.T) {
	s := mustSet(t, "KD 7C AS JH")
	tests := []struct {
		n    int
		want Card
	}{
		{0, card(t, "7C")}, {1, card(t, "KD")}, {2, card(t, "JH")}, {3, card(t, "AS")}, {4, NoCard}, {40, NoCard},
	}
	for _, tt := range tests {
		if got := s.Nth(tt.n); got != tt.want {
			t.Errorf("Nth(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
	if s.Lowest() != card(t, "7C") {
		t.Errorf("Lowest = %v, want 7C", s.Lowest())
	}
	if CardSet(0).Lowest() != NoCard || CardSet(0).Nth(0) != NoCard {
		t.Error("empty set: Lowest or Nth(0) is not NoCard")
	}
	if got := mustSet(t, "AS").Lowest(); got != card(t, "AS") {
		t.Errorf("{AS}.Lowest = %v", got)
	}
	if s.Len() != 4 {
		t.Errorf("Len = %d", s.Len())
	}
	if !s.Has(card(t, "JH")) || s.Has(card(t, "JD")) {
		t.Error("Has wrong")
	}
	if got := s.Add(card(t, "JD")).String(); got != "7C JD KD JH AS" {
		t.Errorf("Add JD = %q", got)
	}
	if got := s.Add(card(t, "JH")); got != s {
		t.Errorf("Add of a member changed the set: %v", got)
	}
	if got := s.Remove(card(t, "KD")).String(); got != "7C JH AS" {
		t.Errorf("Remove KD = %q", got)
	}
	if got := s.Remove(card(t, "8C")); got != s {
		t.Errorf("Remove of a non-member changed the set: %v", got)
	}
	if got := slices.Collect(s.All()); !slices.Equal(got, []Card{card(t, "7C"), card(t, "KD"), card(t, "JH"), card(t, "AS")}) {
		t.Errorf("All = %v", got)
	}
	if got := s.Cards(); len(got) != 4 || got[0] != card(t, "7C") || got[3] != card(t, "AS") {
		t.Errorf("Cards = %v", got)
	}
	var first []Card
	for c := range s.All() {
		first = append(first, c)
		break
	}
	if len(first) != 1 || first[0] != card(t, "7C") {
		t.Errorf("All with break = %v", first)
	}
	if got := SetOf(card(t, "AS"), card(t, "7C"), card(t, "AS")); got != mustSet(t, "7C AS") {
		t.Errorf("SetOf = %v", got)
	}
}

func TestCardSetMasks(t *testing.T) {
	deck := mustSet(t, FullDeck.String())
	tests := []struct {
		got  CardSet
		want string
	}{
		{SuitMask(Clubs), "7C 8C 9C TC JC QC KC AC"},
		{SuitMask(Hearts), "7H 8H 9H TH JH QH KH AH"},
		{SuitMask(Spades), "7S 8S 9S TS JS QS KS AS"},
		{RankMask(Jack), "JC JD JH JS"},
		{RankMask(Seven), "7C 7D 7H 7S"},
		{RankMask(Ace), "AC AD AH AS"},
		{deck.Suit(Diamonds), "7D 8D 9D TD JD QD KD AD"},
		{mustSet(t, "7C JH AH 8S").Suit(Hearts), "JH AH"},
		{mustSet(t, "7C JH AH 8S").Suit(Diamonds), "-"},
	}
	for i, tt := range tests {
		if got := tt.got.String(); got != tt.want {
			t.Errorf("case %d: %q, want %q", i, got, tt.want)
		}
	}
}

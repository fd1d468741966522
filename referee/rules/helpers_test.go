package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/klaverjas-arena/arena/protocol"
)

// Helpers shared by the table tests: everything is written in card notation (RULES.md §1).

// card parses one card, e.g. "JH".
func card(t testing.TB, text string) Card {
	t.Helper()
	c, err := protocol.ParseCard(text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// cards parses a set of cards separated by spaces, e.g. "AS 7H KD"; "" or "-" is empty.
func cards(t testing.TB, text string) CardSet {
	t.Helper()
	s, err := protocol.ParseCardSet(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// suitOf parses a suit letter.
func suitOf(t testing.TB, text string) Suit {
	t.Helper()
	s, err := protocol.ParseSuit(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// seatOf parses a seat letter.
func seatOf(t testing.TB, text string) Seat {
	t.Helper()
	s, err := protocol.ParseSeat(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// trickOf builds a trick led by leader with the given cards in play order, e.g.
// trickOf(t, "N", "AC 7H").
func trickOf(t testing.TB, leader, played string) Trick {
	t.Helper()
	tr := Trick{Leader: seatOf(t, leader)}
	for _, f := range strings.Fields(played) {
		tr.Add(card(t, f))
	}
	return tr
}

// ruleset returns the default ruleset changed by "option=value" words, e.g.
// ruleset(t, "play_rule=rotterdams undertrump=mandatory"); "preset=NAME" starts from a preset.
// The result must be a valid ruleset.
func ruleset(t testing.TB, opts string) *Ruleset {
	t.Helper()
	r := Default()
	for _, f := range strings.Fields(opts) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			t.Fatalf("ruleset: %q is not option=value", f)
		}
		if k == "preset" {
			p, err := Preset(v)
			if err != nil {
				t.Fatal(err)
			}
			r = p
			continue
		}
		if err := r.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Validate(); err != nil {
		t.Fatalf("ruleset %q: %v", opts, err)
	}
	return &r
}

// pile returns a complete trump pile (with two jokers if jokers) whose first cards are the
// given ones, e.g. pile(t, false, "4H 2H 3S"); the rest follow in FullPile order.
func pile(t testing.TB, jokers bool, first string) []protocol.PileCard {
	t.Helper()
	rest := protocol.FullPile(jokers)
	var out []protocol.PileCard
	for _, f := range strings.Fields(first) {
		p, err := protocol.ParsePileCard(f)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.Index(rest, p)
		if i < 0 {
			t.Fatalf("pile: %s is not (or no longer) in the pile", f)
		}
		out = append(out, p)
		rest = slices.Delete(rest, i, i+1)
	}
	return append(out, rest...)
}

// handsOf parses four hands given in seat order N E S W.
func handsOf(t testing.TB, n, e, s, w string) [protocol.MaxSeats]CardSet {
	t.Helper()
	return [protocol.MaxSeats]CardSet{cards(t, n), cards(t, e), cards(t, s), cards(t, w)}
}

// orderedHands deals the ordered deck 7C..AS from dealer under r: valid hands for tests in
// which the cards do not matter.
func orderedHands(r *Ruleset, dealer Seat) [protocol.MaxSeats]CardSet {
	deck := OrderedDeck()
	h, _ := DealHands(r, &deck, dealer)
	return h
}

// bid makes the bids in words separated by spaces: "pass" or a suit letter ("H" = play
// hearts). Every bid must be accepted.
func bid(t testing.TB, d *Deal, words string) {
	t.Helper()
	for i, w := range strings.Fields(words) {
		b := BidPass
		if w != "pass" {
			b = PlaySuit(suitOf(t, w))
		}
		if err := d.Bid(b); err != nil {
			t.Fatalf("bid %d (%s): %v", i+1, w, err)
		}
	}
}

// play plays the cards in order, each for the seat to move. Every card must be legal.
func play(t testing.TB, d *Deal, played string) {
	t.Helper()
	for i, f := range strings.Fields(played) {
		seat := d.ToMove()
		if err := d.Play(card(t, f)); err != nil {
			t.Fatalf("card %d (%s by %s): %v", i+1, f, seat, err)
		}
	}
}

// bidsOf returns a set of bids written as words: "pass" or suit letters.
func bidsOf(t testing.TB, words string) Bids {
	t.Helper()
	var s Bids
	for _, w := range strings.Fields(words) {
		b := BidPass
		if w != "pass" {
			b = PlaySuit(suitOf(t, w))
		}
		s |= 1 << b
	}
	return s
}

// sides is a per-side array from NS and EW values.
func sides(ns, ew int) [protocol.MaxSeats]int {
	return [protocol.MaxSeats]int{ns, ew}
}

// parseJSON reads a ruleset written as a JSON object, decoding it into FromMap's map as
// package rulesfile does (numbers as their text), so that the engine's tests can write
// rulesets the way people do.
func parseJSON(data []byte) (Ruleset, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return Ruleset{}, err
	}
	if dec.More() {
		return Ruleset{}, errors.New("data after the object")
	}
	return FromMap(numbersAsText(m))
}

// numbersAsText replaces the JSON numbers (json.Number) in m's values by their text, which
// FromMap reads as ruleset notation, and returns m.
func numbersAsText(m map[string]any) map[string]any {
	var asText func(v any) any
	asText = func(v any) any {
		switch v := v.(type) {
		case json.Number:
			return v.String()
		case []any:
			for i, e := range v {
				v[i] = asText(e)
			}
		}
		return v
	}
	for k, v := range m {
		m[k] = asText(v)
	}
	return m
}

// parseTOML reads a ruleset written as TOML lines into FromMap, as package rulesfile does.
func parseTOML(data []byte) (Ruleset, error) {
	var m map[string]any
	if err := toml.Unmarshal(data, &m); err != nil {
		return Ruleset{}, err
	}
	return FromMap(m)
}

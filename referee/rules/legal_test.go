package rules

import "testing"

// legalCase is one position: the trick so far (led by leader), the hand of the seat to move,
// and the legal cards by RULES.md §5.
type legalCase struct {
	name   string
	trump  string
	leader string
	trick  string
	hand   string
	want   string
}

func runLegal(t *testing.T, opts string, tests []legalCase) {
	t.Helper()
	r := ruleset(t, opts)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := trickOf(t, tt.leader, tt.trick)
			got := Legal(r, suitOf(t, tt.trump), cards(t, tt.hand), &tr)
			if want := cards(t, tt.want); got != want {
				t.Errorf("[%s] trump %s, trick %s:%s, hand %s: legal %v, want %v",
					opts, tt.trump, tt.leader, tt.trick, tt.hand, got, want)
			}
		})
	}
}

// commonLegal holds the rules of §5.2, the same in both variants and under every undertrump
// option.
var commonLegal = []legalCase{
	{"lead anything", "H", "N", "", "7C 9D JH AS", "7C 9D JH AS"},
	{"follow suit, no need to head", "H", "N", "9C", "7C AC JH 8D", "7C AC"},
	{"follow suit though the trick is ruffed", "H", "N", "AC 7H", "8C JH 9H 7D", "8C"},
	{"follow suit with one card", "H", "N", "TD", "7D JH 9H", "7D"},
	{"trump led: must beat", "H", "N", "9H", "JH 7H AS", "JH"},
	{"trump led: cannot beat, any trump", "H", "N", "9H", "AH 7H JS", "AH 7H"},
	{"trump led: beat partner's trump", "H", "N", "9H 7H", "JH 8H KS", "JH"},
	{"trump led: partner's jack, any trump", "H", "N", "JH 7H", "9H 8H KS", "9H 8H"},
	{"trump led: beat the highest, not the first", "H", "N", "8H JH", "9H 7H AC", "9H 7H"},
	{"trump led: several higher trumps", "H", "N", "QH", "KH TH 8H 7C", "KH TH"},
	{"trump led: void in trumps, anything", "H", "N", "JH", "7C 8D AS", "7C 8D AS"},
	{"plain led: void, no trumps, anything", "H", "N", "AC", "7D 8S KD", "7D 8S KD"},
	{"spades trump led by west", "S", "W", "AS KS", "JS 7S 8H", "JS"},
	{"clubs trump: follow plain suit, may not ruff", "C", "E", "TD 7C", "AD JC", "AD"},
}

func TestLegalCommonAmsterdams(t *testing.T) { runLegal(t, "", commonLegal) }
func TestLegalCommonRotterdams(t *testing.T) {
	runLegal(t, "play_rule=rotterdams undertrump=mandatory", commonLegal)
}
func TestLegalCommonRotterdamsNoUndertrump(t *testing.T) {
	runLegal(t, "play_rule=rotterdams undertrump=forbidden_unless_only_trumps", commonLegal)
}
func TestLegalCommonAmsterdamsUndertrumpMandatory(t *testing.T) {
	runLegal(t, "undertrump=mandatory", commonLegal)
}
func TestLegalCommonAmsterdamsPartnerUndertrumpAllowed(t *testing.T) {
	runLegal(t, "partner_trump_undertrump=allowed", commonLegal)
}

// TestLegalAmsterdams is §5.3 Amsterdams with the defaults: undertrump and
// partner_trump_undertrump forbidden_unless_only_trumps.
func TestLegalAmsterdams(t *testing.T) {
	runLegal(t, "play_rule=amsterdams", []legalCase{
		{"opponent winning, no trump yet: must trump", "H", "N", "AC", "7D JH 8H", "JH 8H"},
		{"opponent ruffed: must overtrump", "H", "N", "AC 9H", "JH 7H 8D", "JH"},
		{"opponent ruffed, cannot overtrump: discard, no undertrump", "H", "N", "AC 9H", "AH 7H 8D KS", "8D KS"},
		{"opponent ruffed, only lower trumps: undertrump", "H", "N", "AC 9H", "AH 7H", "AH 7H"},
		{"opponent overruffed partner: discard", "H", "W", "AC 9H JH", "AH 8D", "8D"},
		{"opponent winning after partner followed: must trump", "H", "W", "AC 7C 8C", "7H 8D", "7H"},
		{"partner winning with a plain card: free", "H", "N", "AC 7C", "8D 9H JH", "8D 9H JH"},
		{"partner winning third hand: free", "H", "W", "7C AC 8C", "JH 8D", "JH 8D"},
		{"partner ruffed: overtrump or discard, not undertrump", "H", "W", "AC 9H 7C", "JH 7H 8D", "JH 8D"},
		{"partner ruffed, only trumps: must overtrump partner (L10)", "H", "W", "AC 9H 7C", "JH 7H", "JH"},
		{"partner ruffed, only lower trumps: undertrump", "H", "W", "AC 9H 7C", "AH 7H", "AH 7H"},
		{"partner ruffed, lower trump and a discard: discard", "H", "W", "AC 9H 7C", "7H 8D", "8D"},
		{"partner ruffed low: a higher trump is allowed", "H", "W", "AC 7H 7C", "8H 8D", "8H 8D"},
		{"clubs trump: opponent ruffed, overtrump", "C", "N", "AH 7C", "JC 8D", "JC"},
		{"diamonds trump: opponent ruffed with the jack", "D", "N", "AS JD", "9D 7D KH", "KH"},
	})
}

// TestLegalAmsterdamsPartnerUndertrumpAllowed: partner_trump_undertrump = allowed frees every
// card when partner is winning, but not when an opponent is.
func TestLegalAmsterdamsPartnerUndertrumpAllowed(t *testing.T) {
	runLegal(t, "partner_trump_undertrump=allowed", []legalCase{
		{"partner ruffed: anything", "H", "W", "AC 9H 7C", "JH 7H 8D", "JH 7H 8D"},
		{"partner ruffed, only trumps: anything", "H", "W", "AC 9H 7C", "JH 7H", "JH 7H"},
		{"partner ruffed, lower trump and a discard", "H", "W", "AC 9H 7C", "7H 8D", "7H 8D"},
		{"opponent ruffed: still must overtrump", "H", "N", "AC 9H", "JH 7H 8D", "JH"},
		{"opponent ruffed, cannot overtrump: discard", "H", "N", "AC 9H", "AH 7H 8D", "8D"},
		{"opponent winning, no trump: must trump", "H", "N", "AC", "7D JH 8H", "JH 8H"},
	})
}

// TestLegalAmsterdamsUndertrumpMandatory: Amsterdams with undertrump = mandatory (some clubs).
func TestLegalAmsterdamsUndertrumpMandatory(t *testing.T) {
	runLegal(t, "undertrump=mandatory", []legalCase{
		{"opponent ruffed, cannot overtrump: any trump", "H", "N", "AC 9H", "AH 7H 8D KS", "AH 7H"},
		{"opponent ruffed: overtrump", "H", "N", "AC 9H", "JH 7H 8D", "JH"},
		{"partner ruffed: overtrump or discard", "H", "W", "AC 9H 7C", "JH 7H 8D", "JH 8D"},
		{"partner ruffed, lower trump and a discard: discard", "H", "W", "AC 9H 7C", "7H 8D", "8D"},
		{"partner winning with a plain card: free", "H", "N", "AC 7C", "8D 9H JH", "8D 9H JH"},
	})
}

// TestLegalRotterdams is §5.3 Rotterdams with its preset's undertrump = mandatory: no
// partner exception.
func TestLegalRotterdams(t *testing.T) {
	runLegal(t, "preset=rotterdams", []legalCase{
		{"opponent winning, no trump yet: any trump", "H", "N", "AC", "7H JH 8D", "7H JH"},
		{"opponent ruffed: overtrump", "H", "N", "AC 9H", "JH 7H 8D", "JH"},
		{"opponent ruffed, cannot overtrump: undertrump", "H", "N", "AC 9H", "AH 8D", "AH"},
		{"partner winning with a plain card: must trump", "H", "W", "7C AC 8C", "JH 8D", "JH"},
		{"partner winning second hand: must trump", "H", "N", "AC 7C", "8D 9H JH", "9H JH"},
		{"partner ruffed: must overtrump partner", "H", "W", "AC 9H 7C", "JH 7H 8D", "JH"},
		{"partner ruffed, cannot overtrump: any trump", "H", "W", "AC 9H 7C", "AH 7H 8D", "AH 7H"},
		{"partner ruffed, lower trump and a discard: undertrump", "H", "W", "AC 9H 7C", "7H 8D", "7H"},
		{"no trumps: anything", "H", "W", "AC 9H 7C", "8D KS", "8D KS"},
		{"spades trump: opponent ruffed with the nine", "S", "E", "AD 9S", "JS AS 7C", "JS"},
	})
}

// TestLegalRotterdamsNoUndertrump: Rotterdams with undertrump = forbidden_unless_only_trumps
// (RULES.md §10, item 1).
func TestLegalRotterdamsNoUndertrump(t *testing.T) {
	runLegal(t, "play_rule=rotterdams undertrump=forbidden_unless_only_trumps", []legalCase{
		{"partner ruffed, cannot overtrump: discard", "H", "W", "AC 9H 7C", "AH 7H 8D", "8D"},
		{"opponent ruffed, cannot overtrump: discard", "H", "N", "AC 9H", "AH 8D", "8D"},
		{"only lower trumps: undertrump", "H", "N", "AC 9H", "AH 7H", "AH 7H"},
		{"partner winning with a plain card: must trump", "H", "W", "7C AC 8C", "JH 8D", "JH"},
		{"partner ruffed: must overtrump partner", "H", "W", "AC 9H 7C", "JH 7H 8D", "JH"},
	})
}

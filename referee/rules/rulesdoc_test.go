package rules

import (
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

// The examples of RULES.md, checked against the engine: if one of these fails, the rule book
// and the referee disagree.

// TestRulesDocLegal is the table of RULES.md §5.5 (hearts trumps, S to play).
func TestRulesDocLegal(t *testing.T) {
	cases := []struct {
		leader, trick, hand string
		amsterdams          string // default options
		rotterdams          string // rotterdams preset
	}{
		{"W", "AC 7C 9H", "JH 8H 7D", "JH", "JH"},
		{"W", "AC 7C 9H", "8H 7H 7D", "7D", "8H 7H"},
		{"W", "KC AC 8C", "8H KD", "8H KD", "8H"},
		{"W", "7C TH 8C", "9H 7H KD", "9H KD", "9H"},
		{"W", "7C TH 8C", "9H 7H", "9H", "9H"},
		{"W", "7C TH 8C", "8H 7H", "8H 7H", "8H 7H"},
		{"W", "9H KH 7H", "JH TH 7D", "JH", "JH"},
		{"W", "9H KH 7H", "AH TH 7D", "AH TH", "AH TH"},
		{"W", "QS AS 7S", "8S TS JH", "8S TS", "8S TS"},
	}
	trump := suitOf(t, "H")
	for _, c := range cases {
		tr := trickOf(t, c.leader, c.trick)
		for _, v := range []struct{ opts, want string }{
			{"", c.amsterdams},
			{"preset=rotterdams", c.rotterdams},
		} {
			if got := Legal(ruleset(t, v.opts), trump, cards(t, c.hand), &tr); got != cards(t, v.want) {
				t.Errorf("%q: trick %s, hand %s: legal %s, RULES.md says %s", v.opts, c.trick, c.hand, got, v.want)
			}
		}
	}
	partnerFree := ruleset(t, "partner_trump_undertrump=allowed")
	tr := trickOf(t, "W", "7C TH 8C")
	if got := Legal(partnerFree, trump, cards(t, "9H 7H KD"), &tr); got != cards(t, "9H 7H KD") {
		t.Errorf("partner_trump_undertrump=allowed: legal %s, RULES.md says all three", got)
	}
	clubs := ruleset(t, "undertrump=mandatory")
	tr = trickOf(t, "W", "AC 7C 9H")
	if got := Legal(clubs, trump, cards(t, "8H 7H 7D"), &tr); got != cards(t, "8H 7H") {
		t.Errorf("amsterdams, undertrump=mandatory: legal %s, RULES.md says 8H 7H", got)
	}
	tr = trickOf(t, "W", "KC AC 8C")
	if got := Legal(clubs, trump, cards(t, "8H KD"), &tr); got != cards(t, "8H KD") {
		t.Errorf("amsterdams, undertrump=mandatory, partner winning: legal %s, RULES.md says 8H KD", got)
	}
}

// TestRulesDocRoem is the roem examples of RULES.md §6.1, §6.2 and §11.6 (hearts trumps).
func TestRulesDocRoem(t *testing.T) {
	trump := suitOf(t, "H")
	four := map[string]int{
		"7C 8C 9C TC": 50, "9D JD TD 7S": 20, "TC KC AC QH": 0, "KH QH 7S 8D": 20, "KH JH QH 8S": 40,
		"TH KH JH QH": 70, "QS KS AS TS": 20, "KS QS 7S AH": 0, "JH QH KH 8S": 40,
	}
	for trick, want := range four {
		if got := TrickRoem(ruleset(t, ""), cards(t, trick), trump).Total(); got != want {
			t.Errorf("%s: roem %d, RULES.md says %d", trick, got, want)
		}
	}
	kinds := []struct {
		trick string
		want  [3]int // all_100, jacks_200_high_100, jacks_200_all_100
	}{
		{"JC JD JH JS", [3]int{100, 200, 200}},
		{"8C 8D 8H 8S", [3]int{100, 0, 100}},
	}
	for _, k := range kinds {
		for i, v := range fourOfAKindNames {
			if got := TrickRoem(ruleset(t, "four_of_a_kind="+v), cards(t, k.trick), trump).Total(); got != k.want[i] {
				t.Errorf("%s, %s: roem %d, RULES.md says %d", k.trick, v, got, k.want[i])
			}
		}
	}
	if got := TrickRoem(ruleset(t, "stuk_scoring=announced_by_holder"), cards(t, "JH QH KH 8S"), trump).Total(); got != 20 {
		t.Errorf("announced_by_holder: JH QH KH 8S has trick roem %d, RULES.md says 20 (the run only)", got)
	}
	three := map[string]int{"7D 8D 9D": 40, "QH KH AH": 60, "KH QH 7S": 20, "9C 9H 9S": 80, "JC JD JS": 120, "TC QC KC": 0}
	for trick, want := range three {
		if got := TrickRoem(ruleset(t, "preset=drie_spelers"), cards(t, trick), trump).Total(); got != want {
			t.Errorf("three players, %s: roem %d, RULES.md says %d", trick, got, want)
		}
	}
}

// TestRulesDocScores is the examples of RULES.md §7.3, §7.4, §6.4 and §11.7.
func TestRulesDocScores(t *testing.T) {
	cases := []struct {
		opts                 string
		mc, mr, dc, dr       int // makers' and defenders' cards and roem (the makers are NS)
		mt                   int // makers' tricks (8: a pit; 0: the defenders' pit)
		outcome              Outcome
		makersScore, defence int
	}{
		{"", 82, 0, 80, 0, 4, Made, 82, 80},
		{"", 81, 0, 81, 0, 4, Nat, 0, 162},
		{"", 90, 0, 72, 20, 4, Nat, 0, 182},
		{"", 62, 50, 100, 0, 4, Made, 112, 100},
		{"", 162, 40, 0, 0, 8, Made, 302, 0},
		{"", 0, 0, 162, 20, 0, Nat, 0, 282},
		{"pit_for_defenders=false", 0, 0, 162, 20, 0, Nat, 0, 182},
		{"nat_rule=card_points_at_least_82", 82, 0, 80, 0, 4, Made, 82, 80},
		{"nat_rule=card_points_at_least_82", 81, 0, 81, 0, 4, Nat, 0, 162},
		{"nat_rule=card_points_at_least_82", 90, 0, 72, 20, 4, Made, 90, 92},
		{"nat_rule=card_points_at_least_82", 62, 50, 100, 0, 4, Nat, 0, 212},
		// §10: 82 whatever last_trick_bonus is (here 82 of 202, and 81 of 152).
		{"nat_rule=card_points_at_least_82 last_trick_bonus=50", 82, 0, 120, 0, 4, Made, 82, 120},
		{"nat_rule=card_points_at_least_82 last_trick_bonus=0", 81, 0, 71, 0, 4, Nat, 0, 152},
		// §6.4: a pit made nat by a penalty of 200.
		{"roem_claiming=claim_required false_claim_penalty=200", 162, 20, 0, 200, 8, Nat, 0, 382},
	}
	for _, c := range cases {
		r := ruleset(t, c.opts)
		res := ScoreDeal(r, 0, sides(c.mc, c.dc), sides(c.mr, c.dr), sides(c.mt, 8-c.mt))
		if res.Outcome != c.outcome || res.Score[0] != c.makersScore || res.Score[1] != c.defence {
			t.Errorf("%q %d+%d against %d+%d: %s %d/%d, RULES.md says %s %d/%d", c.opts, c.mc, c.mr, c.dc, c.dr,
				res.Outcome, res.Score[0], res.Score[1], c.outcome, c.makersScore, c.defence)
		}
	}
	if res := ScoreForfeit(ruleset(t, ""), 1, sides(20, 50)); res.Score != sides(332, 0) {
		t.Errorf("forfeit by EW after 20 and 50 roem: %v, RULES.md says 332/0", res.Score[:2])
	}
	three := ruleset(t, "preset=drie_spelers")
	var c3, r3, t3 [protocol.MaxSeats]int
	c3, r3, t3 = [protocol.MaxSeats]int{30, 92, 40}, [protocol.MaxSeats]int{}, [protocol.MaxSeats]int{2, 6, 2}
	if res := ScoreDeal(three, 1, c3, r3, t3); res.Outcome != Made || res.Score != [protocol.MaxSeats]int{30, 90, 40} {
		t.Errorf("three players, the spec.md §14 deal: %s %v, RULES.md says made 30, 90, 40", res.Outcome, res.Score[:3])
	}
	c3, r3 = [protocol.MaxSeats]int{60, 81, 21}, [protocol.MaxSeats]int{0, 0, 20}
	if res := ScoreDeal(three, 1, c3, r3, t3); res.Outcome != Nat || res.Score != [protocol.MaxSeats]int{90, 0, 90} {
		t.Errorf("three players, Player 81 + 0: %s %v, RULES.md says nat 90, 0, 90", res.Outcome, res.Score[:3])
	}
	// §11.7 and §11.9: the Player needs 82 whatever last_trick_bonus is (here of 202).
	c3, r3 = [protocol.MaxSeats]int{60, 82, 60}, [protocol.MaxSeats]int{}
	if res := ScoreDeal(ruleset(t, "preset=drie_spelers last_trick_bonus=50"), 1, c3, r3, t3); res.Outcome != Made || res.Score != [protocol.MaxSeats]int{60, 80, 60} {
		t.Errorf("three players, last_trick_bonus 50, Player 82 + 0: %s %v, RULES.md says made 60, 80, 60", res.Outcome, res.Score[:3])
	}
	if res := ScoreForfeit(three, 0, [protocol.MaxSeats]int{}); res.Score != [protocol.MaxSeats]int{0, 130, 130} {
		t.Errorf("three players, forfeit without roem: %v, RULES.md says 0, 130, 130", res.Score[:3])
	}
	for in, want := range map[int]int{85: 90, 84: 80, 91: 90, 101: 100} {
		if got := RoundScore(in); got != want {
			t.Errorf("RoundScore(%d) = %d, RULES.md says %d", in, got, want)
		}
	}
}

// TestRulesDocClaims is RULES.md §6.4's example through a deal: NS win JH QH KH 8S (40 roem)
// and claim 40, 20 or 50 (false_claim_penalty 20).
func TestRulesDocClaims(t *testing.T) {
	r := ruleset(t, "roem_claiming=claim_required false_claim_penalty=20")
	hands := handsOf(t, "JH AH TH 7C 8C 9C TC JC", "QH 7H QC KC AC 7D 8D 9D", "KH 8H 9H TD JD QD KD AD", "7S 8S 9S TS JS QS KS AS")
	for _, c := range []struct{ claim, ns, ew int }{{40, 40, 0}, {20, 20, 0}, {50, 0, 20}} {
		d, err := NewDeal(r, Setup{Dealer: protocol.West, Hands: hands})
		if err != nil {
			t.Fatal(err)
		}
		bid(t, d, "H")
		play(t, d, "JH QH KH 8S")
		if d.Phase() != PhaseClaim || d.ToMove() != protocol.North {
			t.Fatalf("phase %s, to move %s: want N's claim", d.Phase(), d.ToMove())
		}
		if err := d.Claim(c.claim); err != nil {
			t.Fatal(err)
		}
		if d.roem[0] != c.ns || d.roem[1] != c.ew {
			t.Errorf("claim %d: roem NS %d, EW %d; RULES.md says %d, %d", c.claim, d.roem[0], d.roem[1], c.ns, c.ew)
		}
	}
}

// TestRulesDocDealingAndBidding is the examples of RULES.md §2, §3, §4.1 and §11.4.
func TestRulesDocDealingAndBidding(t *testing.T) {
	hearts := suitOf(t, "H")
	tr := trickOf(t, "N", "9H AS JS KH")
	if p, w := SetPoints(tr.Played, hearts), tr.Winner(hearts, 4); p != 31 || w != protocol.North {
		t.Errorf("9H AS JS KH: %d points won by %s, RULES.md says 31 won by N (9H)", p, w)
	}
	r := ruleset(t, "")
	deck := OrderedDeck()
	hands, _ := DealHands(r, &deck, protocol.West)
	// With [3,2,3] and dealer W, N gets cards 1-3, 13-14 and 21-23 (deck indexes 0-2, 12-13, 20-22).
	want := protocol.SetOf(deck[0], deck[1], deck[2], deck[12], deck[13], deck[20], deck[21], deck[22])
	if hands[protocol.North] != want {
		t.Errorf("dealer W, [3,2,3]: N holds %s, RULES.md says %s", hands[protocol.North], want)
	}
	d, err := NewDeal(r, Setup{Dealer: protocol.West, Hands: hands})
	if err != nil {
		t.Fatal(err)
	}
	bid(t, d, "pass pass H")
	if d.Maker() != protocol.South || d.Trump() != hearts || d.ToMove() != protocol.North {
		t.Errorf("N, E pass, S names H: maker %s, trump %s, lead %s; RULES.md says S, H, N", d.Maker(), d.Trump(), d.ToMove())
	}
	d, _ = NewDeal(r, Setup{Dealer: protocol.West, Hands: hands})
	bid(t, d, "pass pass pass pass")
	if d.ToMove() != protocol.North || d.LegalBids() != bidsOf(t, "C D H S") {
		t.Errorf("all four passed: %s to move with %s; RULES.md says N must name a suit", d.ToMove(), d.LegalBids())
	}
	three := ruleset(t, "preset=drie_spelers")
	diamonds := suitOf(t, "D")
	last := SetPoints(cards(t, "AS KS JS"), diamonds) + three.LastTrickBonus
	if last != 27 || last+SetPoints(cards(t, "TC AC"), diamonds) != 48 || SetPoints(cards(t, "8S 9H"), diamonds) != 0 {
		t.Errorf("the last trick AS KS JS: %d, with the discards TC AC %d; RULES.md says 27 and 48", last, last+SetPoints(cards(t, "TC AC"), diamonds))
	}
}

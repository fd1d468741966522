package rules

import (
	"fmt"
	"strings"
	"testing"
)

// roemString renders a roem as "total: item=points item=points".
func roemString(r Roem) string {
	parts := []string{fmt.Sprint(r.Total()) + ":"}
	for _, it := range r.List() {
		parts = append(parts, fmt.Sprintf("%s=%d", it, it.Points))
	}
	return strings.Join(parts, " ")
}

type roemCase struct {
	trick, trump string
	want         string // as roemString
}

func runRoem(t *testing.T, opts string, tests []roemCase) {
	t.Helper()
	r := ruleset(t, opts)
	for _, tt := range tests {
		got := roemString(TrickRoem(r, cards(t, tt.trick), suitOf(t, tt.trump)))
		if got != tt.want {
			t.Errorf("[%s] roem of %s (trump %s) = %q, want %q", opts, tt.trick, tt.trump, got, tt.want)
		}
	}
}

// TestRoemRunsAndStuk is the roem table of RULES.md §6 with the defaults.
func TestRoemRunsAndStuk(t *testing.T) {
	runRoem(t, "", []roemCase{
		{"7C 8C 9C AD", "H", "20: sequence_3_C=20"},
		{"AD 7C 9C 8C", "H", "20: sequence_3_C=20"},
		{"TD JD QD 7S", "H", "20: sequence_3_D=20"},
		{"QS KS AS 7C", "H", "20: sequence_3_S=20"},
		{"9H TH JH 7C", "H", "20: sequence_3_H=20"}, // a trump run in natural order
		{"8H 9H TH 7C", "H", "20: sequence_3_H=20"},
		{"8S 9S TS JS", "H", "50: sequence_4_S=50"}, // a 4-run scores 50 only
		{"7D 8D 9D TD", "C", "50: sequence_4_D=50"},
		{"JS QS KS AS", "H", "50: sequence_4_S=50"},
		{"8H 9H TH JH", "H", "50: sequence_4_H=50"},
		{"9H TH JH QH", "H", "50: sequence_4_H=50"}, // Q without K: no stuk
		{"TS KS AS 7C", "H", "0:"},                  // T-K-A is not a run
		{"9H JH AH KH", "H", "0:"},                  // trick order J 9 A K is not a run
		{"JH 9H AH 7C", "H", "0:"},
		{"7C 8C TC JC", "H", "0:"},
		{"7C 8C 9C JC", "H", "20: sequence_3_C=20"},
		{"7C 9C TC JC", "H", "20: sequence_3_C=20"},
		{"7C 8D 9C TC", "H", "0:"}, // runs are in one suit
		{"AC 7D 8D KC", "H", "0:"}, // no wrap-around A-7
		{"QC KC AC 7C", "H", "20: sequence_3_C=20"},
		{"KH QH 7C 8D", "H", "20: stuk=20"},
		{"KS QS 7C 8D", "H", "0:"}, // K+Q of a plain suit is not stuk
		{"KS QS 7C 8D", "S", "20: stuk=20"},
		{"KH QD 7C 8S", "H", "0:"},
		{"AH KH QH 7C", "H", "40: sequence_3_H=20 stuk=20"},
		{"KH QH JH 7C", "H", "40: sequence_3_H=20 stuk=20"},
		{"QD KD AD 7C", "D", "40: sequence_3_D=20 stuk=20"},
		{"TH JH QH KH", "H", "70: sequence_4_H=50 stuk=20"},
		{"JH QH KH AH", "H", "70: sequence_4_H=50 stuk=20"},
		{"JC QC KC AC", "C", "70: sequence_4_C=50 stuk=20"},
		{"AH KH QH 7C", "S", "20: sequence_3_H=20"}, // not trumps: no stuk
		{"7C 8D 9H TS", "H", "0:"},
	})
}

// TestRoemFourOfAKind checks four of a kind under each value of four_of_a_kind.
func TestRoemFourOfAKind(t *testing.T) {
	ranks := []string{"J", "A", "T", "K", "Q", "9", "8", "7"}
	want := map[string][]int{ // per rank, in the order of ranks
		"all_100":            {100, 100, 100, 100, 100, 100, 100, 100},
		"jacks_200_high_100": {200, 100, 100, 100, 100, 0, 0, 0},
		"jacks_200_all_100":  {200, 100, 100, 100, 100, 100, 100, 100},
	}
	for opt, pts := range want {
		var tests []roemCase
		for i, rk := range ranks {
			w := "0:"
			if pts[i] > 0 {
				w = fmt.Sprintf("%d: four_of_a_kind_%s=%d", pts[i], rk, pts[i])
			}
			for _, trump := range []string{"H", "C"} {
				tests = append(tests, roemCase{rk + "C " + rk + "D " + rk + "H " + rk + "S", trump, w})
			}
		}
		// Three of a kind is nothing at a table of four.
		tests = append(tests, roemCase{"JC JD JH 7S", "H", "0:"}, roemCase{"AC AD AH KS", "S", "0:"})
		runRoem(t, "four_of_a_kind="+opt, tests)
	}
}

// TestRoemStukAnnouncedByHolder: with stuk_scoring = announced_by_holder, the trick roem
// leaves stuk out (it is scored by the holder in the Deal); runs still count.
func TestRoemStukAnnouncedByHolder(t *testing.T) {
	runRoem(t, "stuk_scoring=announced_by_holder", []roemCase{
		{"KH QH 7C 8D", "H", "0:"},
		{"AH KH QH 7C", "H", "20: sequence_3_H=20"},
		{"TH JH QH KH", "H", "50: sequence_4_H=50"},
		{"7C 8C 9C AD", "H", "20: sequence_3_C=20"},
		{"JC JD JH JS", "H", "100: four_of_a_kind_J=100"},
	})
}

// TestStukInTrickDeal: with the default stuk_scoring = in_trick, a trick holding K and Q of
// trumps scores stuk for its winner, whoever played them.
func TestStukInTrickDeal(t *testing.T) {
	// W deals; N leads KH, E plays QH (both trumps), S 7H, W 9H wins: EW get stuk 20.
	d, err := NewDeal(ruleset(t, ""), Setup{Dealer: seatOf(t, "W"), Hands: handsOf(t,
		"KH 7C 8C 9C 7D 8D 9D 7S", "QH TC JC QC TD JD QD 8S", "7H KC AC KD AD 9S TS JS", "JH 8H 9H TH AH QS KS AS")})
	if err != nil {
		t.Fatal(err)
	}
	bid(t, d, "H")
	play(t, d, "KH QH 7H 9H")
	rec := d.Tricks()[0]
	if rec.Winner != seatOf(t, "W") || rec.Scored != 20 || rec.Points != 4+3+0+14 {
		t.Errorf("trick 1: winner %s roem %d points %d, want W 20 21", rec.Winner, rec.Scored, rec.Points)
	}
	d.Forfeit(seatOf(t, "N"))
	if got := d.Result().Roem; got != sides(0, 20) {
		t.Errorf("roem %v, want NS 0 EW 20", got)
	}
}

// stukHands: S holds K and Q of hearts (trumps) and three plain queens.
//
//	N: 7C 8C 7D 8D 7H 8H 7S 8S
//	E: 9C TC 9D TD 9H TH 9S TS
//	S: JC QC JD QD QH KH JS QS
//	W: KC AC KD AD JH AH KS AS
//
// W deals, N and E pass, S plays hearts; N leads. The play:
//
//	1 N 7H  E 9H  S KH  W JH   W wins 38 (trump led: E and W must beat, S cannot)
//	2 W AH  N 8H  E TH  S QH   W wins 24 (S plays his second stuk card)
//	3 W AC  N 7C  E TC  S QC   W wins 24
//	4 W KC  N 8C  E 9C  S JC   W wins 6
//	5 W AD  N 7D  E TD  S QD   W wins 24
//	6 W KD  N 8D  E 9D  S JD   W wins 6
//	7 W AS  N 7S  E TS  S QS   W wins 24
//	8 W KS  N 8S  E 9S  S JS   W wins 6 + 10
//
// EW take all 162 card points; no trick holds roem.
func stukDeal(t *testing.T, r *Ruleset) *Deal {
	t.Helper()
	d, err := NewDeal(r, Setup{Dealer: seatOf(t, "W"), Hands: handsOf(t,
		"7C 8C 7D 8D 7H 8H 7S 8S", "9C TC 9D TD 9H TH 9S TS", "JC QC JD QD QH KH JS QS", "KC AC KD AD JH AH KS AS")})
	if err != nil {
		t.Fatal(err)
	}
	bid(t, d, "pass pass H")
	play(t, d, "7H 9H KH JH  AH 8H TH QH  AC 7C TC QC  KC 8C 9C JC  AD 7D TD QD  KD 8D 9D JD  AS 7S TS QS  KS 8S 9S JS")
	if d.Phase() != PhaseDone {
		t.Fatalf("phase %v", d.Phase())
	}
	return d
}

// TestStukAnnouncedByHolder: the holder of K and Q of trumps scores stuk (20, for his side)
// when he plays the second of them, even in tricks the opponents win; and only once.
func TestStukAnnouncedByHolder(t *testing.T) {
	tests := []struct {
		opts           string
		roem, score    [4]int
		outcome        Outcome
		stukAfterTrick int // the trick after which NS hold 20 roem (0: never)
	}{
		// in_trick: K and Q fell in different tricks, so no stuk. NS nat, EW pit.
		{"", sides(0, 0), sides(0, 162+100), Nat, 0},
		// announced_by_holder: S announces with QH in trick 2: NS 20 roem, still nat, and EW
		// write 162 + all roem (20) + pit 100.
		{"stuk_scoring=announced_by_holder", sides(20, 0), sides(0, 162+20+100), Nat, 2},
	}
	for _, tt := range tests {
		t.Run(tt.opts, func(t *testing.T) {
			d := stukDeal(t, ruleset(t, tt.opts))
			res := d.Result()
			if res.Roem != tt.roem || res.Score != tt.score || res.Outcome != tt.outcome {
				t.Errorf("roem %v score %v outcome %v, want %v %v %v", res.Roem, res.Score, res.Outcome, tt.roem, tt.score, tt.outcome)
			}
			if res.CardPoints != sides(0, 162) || res.TricksWon != sides(0, 8) || res.PitSide != 1 {
				t.Errorf("cards %v tricks %v pit %d", res.CardPoints, res.TricksWon, res.PitSide)
			}
			for i, rec := range d.Tricks() {
				if rec.Scored != 0 {
					t.Errorf("trick %d scored roem %d, want 0", i+1, rec.Scored)
				}
			}
		})
	}
}

// TestStukAnnouncedByHolderTiming replays the stuk deal step by step: the 20 arrive with the
// second stuk card and nothing more with the plain queens S plays later.
func TestStukAnnouncedByHolderTiming(t *testing.T) {
	r := ruleset(t, "stuk_scoring=announced_by_holder")
	d, err := NewDeal(r, Setup{Dealer: seatOf(t, "W"), Hands: handsOf(t,
		"7C 8C 7D 8D 7H 8H 7S 8S", "9C TC 9D TD 9H TH 9S TS", "JC QC JD QD QH KH JS QS", "KC AC KD AD JH AH KS AS")})
	if err != nil {
		t.Fatal(err)
	}
	bid(t, d, "pass pass H")
	steps := []struct {
		cards string
		ns    int // NS roem after these cards, seen through a forfeit of a copy
	}{
		{"7H 9H", 0},
		{"KH", 0}, // first stuk card: nothing yet
		{"JH AH 8H TH", 0},
		{"QH", 20}, // second stuk card: stuk announced
		{"AC 7C TC QC", 20},
		{"KC 8C 9C JC AD 7D TD QD", 20},
		{"KD 8D 9D JD AS 7S TS QS", 20},
	}
	for _, st := range steps {
		play(t, d, st.cards)
		cp := *d
		cp.Forfeit(seatOf(t, "E"))
		if got := cp.Result().Roem[0]; got != st.ns {
			t.Errorf("after %s: NS roem %d, want %d", st.cards, got, st.ns)
		}
	}
}

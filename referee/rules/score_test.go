package rules

import (
	"fmt"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

// TestScoreDeal is RULES.md §7: made or nat (both nat_rule values), pit (pit_bonus,
// pit_for_defenders), last_trick_bonus, and the worked examples of §7.3.
func TestScoreDeal(t *testing.T) {
	tests := []struct {
		name    string
		opts    string
		maker   string // maker team
		cards   [4]int // NS, EW
		roem    [4]int
		tricks  [4]int
		outcome Outcome
		score   [4]int
		pit     int
	}{
		// §7.3 worked examples (NS make trumps).
		{"7.3 82-80", "", "NS", sides(82, 80), sides(0, 0), sides(5, 3), Made, sides(82, 80), -1},
		{"7.3 81-81 is nat", "", "NS", sides(81, 81), sides(0, 0), sides(4, 4), Nat, sides(0, 162), -1},
		{"7.3 90 vs 72+20 is nat", "", "NS", sides(90, 72), sides(0, 20), sides(5, 3), Nat, sides(0, 182), -1},
		{"7.3 62+50 vs 100 is made", "", "NS", sides(62, 100), sides(50, 0), sides(3, 5), Made, sides(112, 100), -1},
		{"7.3 pit with 40 roem", "", "NS", sides(162, 0), sides(40, 0), sides(8, 0), Made, sides(302, 0), 0},

		// East-West make trumps.
		{"EW made 82-80", "", "EW", sides(80, 82), sides(0, 0), sides(3, 5), Made, sides(80, 82), -1},
		{"EW nat 81-81", "", "EW", sides(81, 81), sides(0, 0), sides(4, 4), Nat, sides(162, 0), -1},
		{"EW nat, all roem to NS", "", "EW", sides(100, 62), sides(20, 50), sides(5, 3), Nat, sides(232, 0), -1},

		// strictly_more_incl_roem: roem counts in the comparison.
		{"equal with roem is nat", "", "NS", sides(71, 91), sides(20, 0), sides(4, 4), Nat, sides(0, 182), -1},
		{"roem makes it", "", "NS", sides(72, 90), sides(20, 0), sides(4, 4), Made, sides(92, 90), -1},
		{"defenders' roem breaks it", "", "NS", sides(82, 80), sides(0, 100), sides(4, 4), Nat, sides(0, 262), -1},
		{"nat: defenders get both teams' roem", "", "NS", sides(70, 92), sides(20, 50), sides(4, 4), Nat, sides(0, 232), -1},
		{"made with roem on both sides", "", "NS", sides(100, 62), sides(20, 50), sides(5, 3), Made, sides(120, 112), -1},
		{"seven tricks is no pit", "", "NS", sides(150, 12), sides(0, 0), sides(7, 1), Made, sides(150, 12), -1},
		{"plain made 140-22", "", "NS", sides(140, 22), sides(0, 0), sides(6, 2), Made, sides(140, 22), -1},

		// nat_rule = card_points_at_least_82: roem is ignored for the test.
		{"82 cards made despite roem", "nat_rule=card_points_at_least_82", "NS", sides(82, 80), sides(0, 100), sides(4, 4), Made, sides(82, 180), -1},
		{"81 cards nat despite roem", "nat_rule=card_points_at_least_82", "NS", sides(81, 81), sides(100, 0), sides(4, 4), Nat, sides(0, 262), -1},
		{"81 cards + roem is made by default", "", "NS", sides(81, 81), sides(100, 0), sides(4, 4), Made, sides(181, 81), -1},
		{"at_least_82: 81-81", "nat_rule=card_points_at_least_82", "NS", sides(81, 81), sides(0, 0), sides(4, 4), Nat, sides(0, 162), -1},
		{"at_least_82: EW 82", "nat_rule=card_points_at_least_82", "EW", sides(80, 82), sides(20, 0), sides(4, 4), Made, sides(100, 82), -1},
		{"at_least_82: made with roem", "nat_rule=card_points_at_least_82", "NS", sides(100, 62), sides(20, 50), sides(5, 3), Made, sides(120, 112), -1},

		// Pit: pit_bonus and pit_for_defenders.
		{"makers' pit", "", "NS", sides(162, 0), sides(0, 0), sides(8, 0), Made, sides(262, 0), 0},
		{"EW makers' pit", "", "EW", sides(0, 162), sides(0, 20), sides(0, 8), Made, sides(0, 282), 1},
		{"defenders' pit", "", "NS", sides(0, 162), sides(0, 20), sides(0, 8), Nat, sides(0, 282), 1},
		{"defenders' pit, EW makers", "", "EW", sides(162, 0), sides(50, 0), sides(8, 0), Nat, sides(312, 0), 0},
		{"defenders' pit, no bonus for defenders", "pit_for_defenders=false", "NS", sides(0, 162), sides(0, 20), sides(0, 8), Nat, sides(0, 182), 1},
		{"makers' pit, pit_for_defenders=false", "pit_for_defenders=false", "NS", sides(162, 0), sides(0, 0), sides(8, 0), Made, sides(262, 0), 0},
		{"pit_bonus 200, makers", "pit_bonus=200", "NS", sides(162, 0), sides(20, 0), sides(8, 0), Made, sides(382, 0), 0},
		{"pit_bonus 200, defenders", "pit_bonus=200", "EW", sides(162, 0), sides(0, 0), sides(8, 0), Nat, sides(362, 0), 0},
		{"pit_bonus 0", "pit_bonus=0", "NS", sides(162, 0), sides(0, 0), sides(8, 0), Made, sides(162, 0), 0},

		// last_trick_bonus: the deal is worth 152 + the bonus.
		{"no last-trick bonus: nat is 152", "last_trick_bonus=0", "NS", sides(70, 82), sides(0, 20), sides(3, 5), Nat, sides(0, 172), -1},
		{"no last-trick bonus: 77-75 made", "last_trick_bonus=0", "NS", sides(77, 75), sides(0, 0), sides(4, 4), Made, sides(77, 75), -1},
		{"no last-trick bonus: 76-76 nat", "last_trick_bonus=0", "EW", sides(76, 76), sides(0, 0), sides(4, 4), Nat, sides(152, 0), -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ruleset(t, tt.opts)
			team, err := protocol.ParseTeam(tt.maker)
			if err != nil {
				t.Fatal(err)
			}
			res := ScoreDeal(r, int(team), tt.cards, tt.roem, tt.tricks)
			if res.Outcome != tt.outcome || res.Score != tt.score || res.PitSide != tt.pit {
				t.Errorf("outcome %v score NS %d EW %d pit %d, want %v NS %d EW %d pit %d",
					res.Outcome, res.Score[0], res.Score[1], res.PitSide, tt.outcome, tt.score[0], tt.score[1], tt.pit)
			}
			if res.CardPoints != tt.cards || res.Roem != tt.roem || res.TricksWon != tt.tricks {
				t.Errorf("breakdown %v %v %v, want the inputs back", res.CardPoints, res.Roem, res.TricksWon)
			}
		})
	}
}

// TestScoreForfeit is RULES.md §7.4: the offenders score 0, the others 162 + all roem +
// renege_extra_roem.
func TestScoreForfeit(t *testing.T) {
	tests := []struct {
		opts     string
		offender string
		roem     [4]int
		score    [4]int
	}{
		{"", "NS", sides(20, 50), sides(0, 332)},
		{"", "EW", sides(20, 50), sides(332, 0)},
		{"", "EW", sides(0, 0), sides(262, 0)},
		{"", "NS", sides(0, 0), sides(0, 262)},
		{"renege_extra_roem=0", "NS", sides(20, 50), sides(0, 232)},
		{"renege_extra_roem=0", "EW", sides(0, 0), sides(162, 0)},
		{"renege_extra_roem=100", "EW", sides(100, 0), sides(362, 0)},
	}
	for _, tt := range tests {
		team, err := protocol.ParseTeam(tt.offender)
		if err != nil {
			t.Fatal(err)
		}
		res := ScoreForfeit(ruleset(t, tt.opts), int(team), tt.roem)
		if res.Outcome != Forfeited || res.Score != tt.score || res.Roem != tt.roem || res.PitSide != -1 {
			t.Errorf("[%s] %s forfeits with roem %v: %v score %v pit %d, want forfeit %v",
				tt.opts, tt.offender, tt.roem, res.Outcome, res.Score, res.PitSide, tt.score)
		}
	}
}

// TestScorePlayedPit plays the all-hearts deal (trick_test.go) under several options: NS make
// trumps and take every trick without roem.
func TestScorePlayedPit(t *testing.T) {
	tests := []struct {
		opts  string
		score [4]int
	}{
		{"", sides(262, 0)},
		{"pit_bonus=200", sides(362, 0)},
		{"pit_for_defenders=false", sides(262, 0)},
		{"roem_claiming=claim_required", sides(262, 0)},
		{"last_trick_bonus=0", sides(252, 0)},
	}
	for _, tt := range tests {
		d := pitDeal(t, ruleset(t, tt.opts))
		res := d.Result()
		if res.Outcome != Made || res.Score != tt.score || res.PitSide != 0 || res.TricksWon != sides(8, 0) {
			t.Errorf("[%s] %v score %v pit %d tricks %v, want made %v pit 0", tt.opts, res.Outcome, res.Score, res.PitSide, res.TricksWon, tt.score)
		}
		if res.Maker != seatOf(t, "N") || res.Trump != suitOf(t, "H") || res.Offender != protocol.NoSeat {
			t.Errorf("[%s] maker %v trump %v offender %v", tt.opts, res.Maker, res.Trump, res.Offender)
		}
	}
}

// TestScorePlayedDefendersPit: N makes clubs but East holds every club; East ruffs N's heart
// lead and then leads clubs: EW take every trick. NS are nat; EW write 162 + pit.
func TestScorePlayedDefendersPit(t *testing.T) {
	tests := []struct {
		opts  string
		score [4]int
	}{
		{"", sides(0, 262)},
		{"pit_for_defenders=false", sides(0, 162)},
		{"pit_bonus=200", sides(0, 362)},
		{"preset=rotterdams", sides(0, 262)},
	}
	for _, tt := range tests {
		d, err := NewDeal(ruleset(t, tt.opts), Setup{Dealer: seatOf(t, "W"), Hands: handsOf(t,
			"7H 8H 9H TH JH QH KH AH", "7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD", "7S 8S 9S TS JS QS KS AS")})
		if err != nil {
			t.Fatal(err)
		}
		bid(t, d, "C")
		// Trick 1: N leads AH, E must trump (an opponent is winning), S and W discard.
		// Then E leads his clubs (S, W, N follow in turn); nobody else has a club.
		play(t, d, "AH JC AD AS  9C 7D 7S 7H  AC 8D 8S 8H  TC 9D 9S 9H  KC TD TS TH  QC JD JS JH  8C QD QS QH  7C KD KS KH")
		res := d.Result()
		if res.Outcome != Nat || res.Score != tt.score || res.PitSide != 1 || res.CardPoints != sides(0, 162) || res.Roem != sides(0, 0) {
			t.Errorf("[%s] %v score %v pit %d cards %v roem %v, want nat %v pit 1", tt.opts, res.Outcome, res.Score, res.PitSide, res.CardPoints, res.Roem, tt.score)
		}
	}
}

// TestMakeThresholdIs82 checks that card_points_at_least_82 (four players) and the
// three-player test (card points + roem) both need 82, whatever last_trick_bonus is: with a
// bonus of 0, 81 card points are nat; with 50, 82 are made although the deal is worth 202.
func TestMakeThresholdIs82(t *testing.T) {
	p := func(n, e, s int) [protocol.MaxSeats]int { return [protocol.MaxSeats]int{n, e, s} }
	for _, bonus := range []int{0, 5, 10, 15, 50, 100} {
		total := 152 + bonus
		four := ruleset(t, fmt.Sprintf("nat_rule=card_points_at_least_82 last_trick_bonus=%d", bonus))
		for _, tt := range []struct {
			makers  int
			roem    [4]int
			outcome Outcome
		}{
			{81, sides(0, 0), Nat},
			{81, sides(100, 0), Nat}, // roem is ignored for the test
			{82, sides(0, 0), Made},
			{82, sides(0, 100), Made},
			{83, sides(0, 0), Made},
		} {
			cards := sides(tt.makers, total-tt.makers)
			for maker := range 2 {
				c, r := cards, tt.roem
				if maker == 1 {
					c, r = sides(c[1], c[0]), sides(r[1], r[0])
				}
				if got := ScoreDeal(four, maker, c, r, sides(4, 4)).Outcome; got != tt.outcome {
					t.Errorf("four players, last_trick_bonus=%d: maker side %d with %d of %d card points (roem %v): %s, want %s",
						bonus, maker, tt.makers, total, r[:2], got, tt.outcome)
				}
			}
		}
		three := three(t, fmt.Sprintf("last_trick_bonus=%d", bonus))
		for _, tt := range []struct {
			cards, roem int
			outcome     Outcome
		}{
			{81, 0, Nat},
			{82, 0, Made},
			{62, 20, Made},
			{61, 20, Nat},
			{83, 0, Made},
		} {
			rest := total - tt.cards
			res := ScoreDeal(three, 1, p(rest/2, tt.cards, rest-rest/2), p(0, tt.roem, 0), p(3, 4, 3))
			if res.Outcome != tt.outcome {
				t.Errorf("three players, last_trick_bonus=%d: the Player with %d card points + %d roem of %d: %s, want %s",
					bonus, tt.cards, tt.roem, total, res.Outcome, tt.outcome)
			}
		}
	}
}

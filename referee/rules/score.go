package rules

import "github.com/klaverjas-arena/arena/protocol"

// Outcome is how a deal ended.
type Outcome uint8

// Deal outcomes.
const (
	Unfinished Outcome = iota
	Made               // the makers scored more than the defenders ("gehaald"); at three: the Player took at least 82
	Nat                // the makers failed: the defenders score everything
	Forfeited          // a side reneged, timed out, crashed or sent garbage (RULES.md §7.4)
	Redeal             // everybody passed and the procedure calls for a new deal
)

var outcomeNames = [...]string{"unfinished", "made", "nat", "forfeit", "redeal"}

func (o Outcome) String() string { return outcomeNames[o] }

// Result is the score breakdown of a deal. Per-side arrays are indexed by side (SideOf): at a
// table of four, 0 is NS and 1 is EW; at a table of three, the seat (each player is a side),
// and Score is already rounded to tens (RULES.md §11).
type Result struct {
	Outcome    Outcome
	Maker      Seat
	Trump      Suit
	CardPoints [protocol.MaxSeats]int // card points taken, with the last-trick bonus
	Roem       [protocol.MaxSeats]int // roem scored (claimed, where claiming is required)
	TricksWon  [protocol.MaxSeats]int
	PitSide    int                    // the side that took every trick, or -1
	Score      [protocol.MaxSeats]int // what each side writes down for the deal
	Offender   Seat                   // the seat that forfeited the deal, or NoSeat
}

// SideOf returns the scoring side of seat s: its partnership (seat mod 2) at a table of four.
func (r *Ruleset) SideOf(s Seat) int {
	if r.Players == 4 {
		return int(s) & 1
	}
	return int(s)
}

// TotalCardPoints returns the card points in a deal: 152 on the cards plus the last-trick bonus.
func (r *Ruleset) TotalCardPoints() int { return 152 + r.LastTrickBonus }

// makeThreshold is the fixed number of points that makes a deal under nat_rule =
// card_points_at_least_82 (card points alone) and at a table of three (card points + roem,
// RULES.md §11), whatever the last-trick bonus.
const makeThreshold = 82

// ScoreDeal scores a played deal (RULES.md §7) from the per-side card points, roem and tricks.
//
// With nat_rule = card_points_at_least_82 the makers make the deal with at least 82 card
// points (makeThreshold), roem ignored, whatever last_trick_bonus is.
//
// At a table of three (RULES.md §11) each player is a side. The Player (maker) makes his deal
// with at least 82 in card points + roem (makeThreshold, whatever last_trick_bonus is); then each
// player scores his card points + roem, plus pit_bonus for all ten tricks. If he is nat he
// scores 0 and the two others each score half of all card points + all roem (plus pit_bonus
// for one who took all ten tricks). Every score is then rounded to the nearest ten, halves
// up (RoundScore).
func ScoreDeal(r *Ruleset, makerSide int, cards, roem, tricks [protocol.MaxSeats]int) Result {
	res := Result{CardPoints: cards, Roem: roem, TricksWon: tricks, PitSide: -1, Offender: noSeat}
	if r.Players == 3 {
		scoreThree(r, makerSide, &res)
		return res
	}
	sides := r.Sides()
	allRoem, otherCards, otherRoem := 0, 0, 0
	for s := range sides {
		allRoem += roem[s]
		if s != makerSide {
			otherCards += cards[s]
			otherRoem += roem[s]
		}
		if tricks[s] == r.HandSize() {
			res.PitSide = s
		}
	}
	made := cards[makerSide]+roem[makerSide] > otherCards+otherRoem
	if r.NatRule == NatCardPointsAtLeast82 {
		made = cards[makerSide] >= makeThreshold
	}
	if made {
		res.Outcome = Made
		for s := range sides {
			res.Score[s] = cards[s] + roem[s]
		}
		// The pit bonus goes with the tricks (RULES.md §6.4, §7.2): to the makers, or to the
		// defenders under pit_for_defenders, who can take every trick of a made deal when
		// penalty roem for false claims makes the makers' contract.
		if res.PitSide == makerSide {
			res.Score[makerSide] += r.PitBonus
		} else if res.PitSide >= 0 && r.PitForDefenders {
			res.Score[res.PitSide] += r.PitBonus
		}
		return res
	}
	res.Outcome = Nat
	for s := range sides {
		if s != makerSide {
			res.Score[s] = r.TotalCardPoints() + allRoem
			if res.PitSide == s && r.PitForDefenders {
				res.Score[s] += r.PitBonus
			}
		}
	}
	return res
}

// scoreThree is ScoreDeal at a table of three (RULES.md §11).
func scoreThree(r *Ruleset, maker int, res *Result) {
	allRoem := 0
	for s := range 3 {
		allRoem += res.Roem[s]
		if res.TricksWon[s] == r.HandSize() {
			res.PitSide = s
		}
	}
	pit := func(s int) int {
		if res.PitSide == s {
			return r.PitBonus
		}
		return 0
	}
	if res.CardPoints[maker]+res.Roem[maker] >= makeThreshold {
		res.Outcome = Made
		for s := range 3 {
			res.Score[s] = RoundScore(res.CardPoints[s] + res.Roem[s] + pit(s))
		}
		return
	}
	res.Outcome = Nat
	for s := range 3 {
		if s != maker {
			// Half of an odd total ends in .5, which rounds up with the rest: (2x+10)/20 tens.
			res.Score[s] = (r.TotalCardPoints() + allRoem + 2*pit(s) + 10) / 20 * 10
		}
	}
}

// RoundScore rounds a deal score at a table of three to the nearest ten, halves up (RULES.md
// §11.7: 85 becomes 90, 84 becomes 80).
func RoundScore(points int) int {
	if points < 0 {
		return -RoundScore(-points - 1)
	}
	return (points + 5) / 10 * 10
}

// ScoreForfeit scores a deal forfeited by the offending side (RULES.md §7.4): the offenders
// score 0, the other side 162 plus all roem made so far by both sides plus renege_extra_roem.
//
// At a table of three (an arena convention, by analogy with a nat deal of RULES.md §11): the
// offender scores 0, and each of the two others half of 162 + all roem made so far +
// renege_extra_roem, rounded to the nearest ten (halves up) like every three-player score.
func ScoreForfeit(r *Ruleset, offender int, roem [protocol.MaxSeats]int) Result {
	res := Result{Outcome: Forfeited, Roem: roem, PitSide: -1}
	if r.Players == 3 {
		all := r.TotalCardPoints() + r.RenegeExtraRoem
		for s := range 3 {
			all += roem[s]
		}
		for s := range 3 {
			if s != offender {
				// Half of an odd total ends in .5, which rounds up with the rest: (all+10)/20 tens.
				res.Score[s] = (all + 10) / 20 * 10
			}
		}
		return res
	}
	allRoem := 0
	for s := range r.Sides() {
		allRoem += roem[s]
	}
	for s := range r.Sides() {
		if s != offender {
			res.Score[s] = r.TotalCardPoints() + allRoem + r.RenegeExtraRoem
		}
	}
	return res
}

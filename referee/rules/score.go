package rules

import "github.com/klaverjas-arena/arena/protocol"

// Outcome is how a deal ended.
type Outcome uint8

// Deal outcomes.
const (
	Unfinished Outcome = iota
	Made               // the makers scored more than the defenders ("gehaald")
	Nat                // the makers failed: the defenders score everything
	Forfeited          // a side reneged, timed out, crashed or sent garbage (rules.md §7.4)
	Redeal             // everybody passed and the procedure calls for a new deal
)

var outcomeNames = [...]string{"unfinished", "made", "nat", "forfeit", "redeal"}

func (o Outcome) String() string { return outcomeNames[o] }

// Result is the score breakdown of a deal. Per-side arrays are indexed by side (SideOf): at a
// table of four, 0 is NS and 1 is EW.
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

// ScoreDeal scores a played deal (rules.md §7) from the per-side card points, roem and tricks.
func ScoreDeal(r *Ruleset, makerSide int, cards, roem, tricks [protocol.MaxSeats]int) Result {
	res := Result{CardPoints: cards, Roem: roem, TricksWon: tricks, PitSide: -1, Offender: noSeat}
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
		made = cards[makerSide] > r.TotalCardPoints()/2
	}
	if made {
		res.Outcome = Made
		for s := range sides {
			res.Score[s] = cards[s] + roem[s]
		}
		if res.PitSide == makerSide {
			res.Score[makerSide] += r.PitBonus
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

// ScoreForfeit scores a deal forfeited by the offending side (rules.md §7.4): the offenders
// score 0, the other side 162 plus all roem made so far by both sides plus renege_extra_roem.
func ScoreForfeit(r *Ruleset, offender int, roem [protocol.MaxSeats]int) Result {
	res := Result{Outcome: Forfeited, Roem: roem, PitSide: -1}
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

// Package pairing decides who plays whom in a league. A Format produces a league's matches
// round by round from the results so far: round robin and gauntlet know every match from the
// start, Swiss pairs each round by score, and knockout plays a seeded bracket. A format is a
// pure function of the results it is given, so a league resumed from its database decides
// the same matches again.
package pairing

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Match is one match a format asks for: one duplicate set between the bots in seat order (in
// the four-player game A and B, A sitting North-South; in the three-player game N, E and S).
type Match struct {
	Bots []int
}

// Result is a played match: its bots as the format gave them, and for each of them the
// points it scored and the games it won over the match's duplicate set.
type Result struct {
	Bots   []int
	Points []int
	Won    []int
}

// Format decides a league's matches.
type Format interface {
	// Next returns the matches of the round after the given ones, or none when the league
	// is over. rounds[r][i] is the result of the i-th match Next returned for round r; every
	// round given is complete. Next depends on nothing else, so calling it again with the
	// same results gives the same matches. An error means results it cannot have produced.
	Next(rounds [][]Result) ([]Match, error)
	// Matches returns the number of matches of the whole league.
	Matches() int
}

// Ranker is a format with a ranking of its own (Swiss, knockout), shown beside the ratings.
type Ranker interface {
	// Rank ranks every bot on the results of the given complete rounds, best first.
	Rank(rounds [][]Result) (Ranking, error)
}

// Ranking is a format's ranking: one row per bot, best first.
type Ranking struct {
	Columns []string // what each row's Values are
	Rows    []Rank
}

// Rank is one bot's row of a Ranking.
type Rank struct {
	Bot    int
	Place  int // 1 is first; bots the ranking cannot tell apart share a place
	Values []float64
}

// Config is what a format is made from: the league file's entrants and options.
type Config struct {
	Names    []string // the bots, in seed order (the league file's order)
	Size     int      // bots per match: 2 in the four-player game, 3 in the three-player game
	Sets     int      // matches (duplicate sets) per pairing and round: games / games per set
	Gauntlet string   // gauntlet = "BOT", for format = "gauntlet" only
	Rounds   int      // rounds = N, for format = "swiss" only (0: its default)
}

// Formats are the names a league file's format may have, in the order the documentation
// lists them.
var Formats = []string{"round_robin", "gauntlet", "swiss", "knockout"}

// New returns the named format for the configuration, or every problem with it.
func New(name string, c Config) (Format, error) {
	var errs []error
	if name != "gauntlet" && c.Gauntlet != "" {
		errs = append(errs, fmt.Errorf("gauntlet = %q is only for format = \"gauntlet\"", c.Gauntlet))
	}
	if name != "swiss" && c.Rounds != 0 {
		errs = append(errs, fmt.Errorf("rounds = %d is only for format = \"swiss\"", c.Rounds))
	}
	if !slices.Contains(Formats, name) {
		quoted := make([]string, len(Formats))
		for i, n := range Formats {
			quoted[i] = fmt.Sprintf("%q", n)
		}
		errs = append(errs, fmt.Errorf("format = %q: want one of %s", name, strings.Join(quoted, ", ")))
	}
	if len(c.Names) < c.Size {
		errs = append(errs, fmt.Errorf("a league needs at least %d bots, has %d", c.Size, len(c.Names)))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	var f Format
	var err error
	switch name {
	case "round_robin":
		f = newRoundRobin(c)
	case "gauntlet":
		f, err = newGauntlet(c)
	case "swiss":
		f, err = newSwiss(c)
	default:
		f, err = newKnockout(c)
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

// twoBotsOnly refuses a three-player configuration for a format that pits two bots.
func twoBotsOnly(format string, c Config) error {
	if c.Size != 2 {
		return fmt.Errorf("format = %q pairs two bots a match: it is for the four-player game (the three-player game plays \"round_robin\" or \"gauntlet\")", format)
	}
	return nil
}

// sets returns the matches of one round of the given pairings: Sets duplicate sets of
// each, set by set, the seat order reversed in every other set.
func sets(pairings [][]int, n int) []Match {
	var out []Match
	for set := range n {
		for _, p := range pairings {
			bots := slices.Clone(p)
			if set%2 == 1 {
				slices.Reverse(bots)
			}
			out = append(out, Match{Bots: bots})
		}
	}
	return out
}

// tie is two bots' results over the matches they played each other in one round.
type tie struct {
	points, won [2]int
}

// ties sums a round's results of two-bot matches by pairing: the key is the pair, lower
// bot first, and so are the tie's sums.
func ties(round []Result) (map[[2]int]*tie, error) {
	out := map[[2]int]*tie{}
	for _, r := range round {
		if len(r.Bots) != 2 || len(r.Points) != 2 || len(r.Won) != 2 || r.Bots[0] == r.Bots[1] {
			return nil, fmt.Errorf("a result of bots %v with points %v and games won %v: want two bots", r.Bots, r.Points, r.Won)
		}
		lo, hi := 0, 1
		if r.Bots[1] < r.Bots[0] {
			lo, hi = 1, 0
		}
		key := [2]int{r.Bots[lo], r.Bots[hi]}
		t := out[key]
		if t == nil {
			t = &tie{}
			out[key] = t
		}
		t.points[0] += r.Points[lo]
		t.points[1] += r.Points[hi]
		t.won[0] += r.Won[lo]
		t.won[1] += r.Won[hi]
	}
	return out, nil
}

// share is a points share in percent, rounded to a tenth, or 0 without points.
func share(pointsFor, pointsAgainst int) float64 {
	all := pointsFor + pointsAgainst
	if all == 0 {
		return 0
	}
	return math.Round(1000*float64(pointsFor)/float64(all)) / 10
}

package pairing

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
)

// swiss plays a fixed number of rounds; each round pairs bots of equal or near score, and no
// two bots meet twice (the Monrad system):
//
//   - Every pairing of a round plays Sets duplicate sets; the bot with more points over them
//     wins the round's tie (1 point), equal points are a draw (½ each).
//   - With an odd number of bots, the lowest-ranked bot that has had no bye sits the round
//     out and scores 1 point: no bot has two byes.
//   - Bots are ranked by score, then Buchholz (the sum of the scores of the opponents met),
//     then points share over all their matches, then seed (the league file's order). Round
//     one is seed order.
//   - The highest-ranked bot not yet paired plays the highest-ranked one it has not met,
//     provided the rest can still be paired without a repeat (otherwise the next one, and so
//     on: a backtracking search); the higher-ranked bot of a pairing sits North-South first.
//   - rounds defaults to ⌈log₂ N⌉ for N bots (enough to leave one bot unbeaten) and may be at
//     most ⌊N/2⌋: then a pairing without repeats always exists (each bot has met fewer than
//     half of the others, so by Dirac's theorem the graph of pairs not yet met has a
//     Hamiltonian cycle, hence a perfect matching).
type swiss struct {
	n, sets, rounds int
}

func newSwiss(c Config) (*swiss, error) {
	if err := twoBotsOnly("swiss", c); err != nil {
		return nil, err
	}
	n := len(c.Names)
	most := n / 2
	s := &swiss{n: n, sets: c.Sets, rounds: c.Rounds}
	if s.rounds == 0 {
		s.rounds = max(1, min(most, bits.Len(uint(n-1))))
	}
	if s.rounds < 1 || s.rounds > most {
		return nil, fmt.Errorf("rounds = %d: a Swiss league of %d bots plays 1 to %d rounds (at most half the bots, so that no two bots need to meet twice)", c.Rounds, n, most)
	}
	return s, nil
}

// Matches returns rounds × pairings per round × sets.
func (s *swiss) Matches() int { return s.rounds * (s.n / 2) * s.sets }

// swissBot is one bot's record after some rounds.
type swissBot struct {
	bot           int
	score         int // half points
	buchholz      int // half points
	byes          int
	pointsFor     int
	pointsAgainst int
	met           []int
}

// tally sums the complete rounds given.
func (s *swiss) tally(rounds [][]Result) ([]swissBot, error) {
	st := make([]swissBot, s.n)
	for i := range st {
		st[i].bot = i
	}
	for r, round := range rounds {
		played := make([]bool, s.n)
		ts, err := ties(round)
		if err != nil {
			return nil, fmt.Errorf("swiss round %d: %w", r+1, err)
		}
		for pair, t := range ts {
			for side, b := range pair {
				if b < 0 || b >= s.n || played[b] {
					return nil, fmt.Errorf("swiss round %d: bot %d plays twice or is not in the league", r+1, b)
				}
				played[b] = true
				other := pair[1-side]
				st[b].met = append(st[b].met, other)
				st[b].pointsFor += t.points[side]
				st[b].pointsAgainst += t.points[1-side]
				switch mine, theirs := t.points[side], t.points[1-side]; {
				case mine > theirs:
					st[b].score += 2
				case mine == theirs:
					st[b].score++
				}
			}
		}
		for b := range st {
			if !played[b] {
				st[b].byes++
				st[b].score += 2
			}
		}
	}
	for b := range st {
		for _, o := range st[b].met {
			st[b].buchholz += st[o].score
		}
	}
	return st, nil
}

// compare orders bots best first: score, Buchholz, points share, seed.
func (a *swissBot) compare(b *swissBot) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	if c := cmp.Compare(b.buchholz, a.buchholz); c != 0 {
		return c
	}
	// a's share above b's: a.for/a.all > b.for/b.all, without division.
	if c := cmp.Compare(b.pointsFor*(a.pointsFor+a.pointsAgainst), a.pointsFor*(b.pointsFor+b.pointsAgainst)); c != 0 {
		return c
	}
	return cmp.Compare(a.bot, b.bot)
}

// ranked returns the bots best first.
func ranked(st []swissBot) []swissBot {
	out := slices.Clone(st)
	slices.SortFunc(out, func(a, b swissBot) int { return a.compare(&b) })
	return out
}

// Next pairs the next round, or returns none after the last.
func (s *swiss) Next(rounds [][]Result) ([]Match, error) {
	if len(rounds) >= s.rounds {
		return nil, nil
	}
	st, err := s.tally(rounds)
	if err != nil {
		return nil, err
	}
	var order []int
	for _, b := range ranked(st) {
		order = append(order, b.bot)
	}
	if s.n%2 == 1 {
		bye := -1
		for _, b := range order {
			if st[b].byes == 0 {
				bye = b // the last one wins: the lowest-ranked
			}
		}
		order = slices.DeleteFunc(order, func(b int) bool { return b == bye })
	}
	met := func(a, b int) bool { return slices.Contains(st[a].met, b) }
	pairs, ok := pairUp(order, met)
	if !ok {
		return nil, fmt.Errorf("swiss round %d: no pairing without a repeat exists", len(rounds)+1)
	}
	return sets(pairs, s.sets), nil
}

// pairUp pairs the bots of order (best first): the first unpaired bot with the first one
// after it that it has not met and that leaves the rest pairable.
func pairUp(order []int, met func(a, b int) bool) ([][]int, bool) {
	used := make([]bool, len(order))
	var pairs [][]int
	var walk func() bool
	walk = func() bool {
		first := slices.Index(used, false)
		if first < 0 {
			return true
		}
		used[first] = true
		for j := first + 1; j < len(order); j++ {
			if used[j] || met(order[first], order[j]) {
				continue
			}
			used[j] = true
			pairs = append(pairs, []int{order[first], order[j]})
			if walk() {
				return true
			}
			pairs = pairs[:len(pairs)-1]
			used[j] = false
		}
		used[first] = false
		return false
	}
	return pairs, walk()
}

// Rank ranks by score, Buchholz, points share and seed; bots equal on the first three share
// a place.
func (s *swiss) Rank(rounds [][]Result) (Ranking, error) {
	st, err := s.tally(rounds)
	if err != nil {
		return Ranking{}, err
	}
	rk := Ranking{Columns: []string{"score", "buchholz", "share%", "byes"}}
	for i, b := range ranked(st) {
		place := i + 1
		if i > 0 {
			prev := rk.Rows[i-1]
			if a := st[prev.Bot]; a.score == b.score && a.buchholz == b.buchholz &&
				a.pointsFor*(b.pointsFor+b.pointsAgainst) == b.pointsFor*(a.pointsFor+a.pointsAgainst) {
				place = prev.Place
			}
		}
		rk.Rows = append(rk.Rows, Rank{Bot: b.bot, Place: place,
			Values: []float64{float64(b.score) / 2, float64(b.buchholz) / 2, share(b.pointsFor, b.pointsAgainst), float64(b.byes)}})
	}
	return rk, nil
}

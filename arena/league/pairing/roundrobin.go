package pairing

import "slices"

// roundRobin plays every pairing of the league's bots (every two in the four-player game,
// every three in the three-player game) Sets times, the seat order reversed every other
// time. Its matches do not depend on results: its first round is the whole league.
type roundRobin struct {
	pairings [][]int
	sets     int
}

func newRoundRobin(c Config) *roundRobin {
	return &roundRobin{pairings: combinations(len(c.Names), c.Size), sets: c.Sets}
}

// Next returns every match at once, cycle by cycle (one duplicate set of every pairing per
// cycle) so that standings grow evenly.
func (r *roundRobin) Next(rounds [][]Result) ([]Match, error) {
	if len(rounds) > 0 {
		return nil, nil
	}
	return sets(r.pairings, r.sets), nil
}

// Matches returns the number of pairings times the sets of each.
func (r *roundRobin) Matches() int { return len(r.pairings) * r.sets }

// combinations returns every k-subset of 0..n-1 in lexicographic order.
func combinations(n, k int) [][]int {
	var out [][]int
	var walk func(start int, cur []int)
	walk = func(start int, cur []int) {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for i := start; i < n; i++ {
			walk(i+1, append(cur, i))
		}
	}
	walk(0, nil)
	return out
}

package league

import (
	"fmt"

	"github.com/klaverjas-arena/arena/arena/store"
)

// Scheduled is one match of the schedule: one duplicate pair between two bots, each
// playing as a team of two copies of itself.
type Scheduled struct {
	Index int
	ID    string
	A, B  int    // bot indices; A sits N and S
	Seed  uint64 // the match's own seed: replaying it plays the same cards
}

// Seats returns the bot indices for N, E, S, W.
func (s Scheduled) Seats() [4]int { return [4]int{s.A, s.B, s.A, s.B} }

// Record returns a fresh match record for the store.
func (s Scheduled) Record() store.Match {
	return store.Match{Index: s.Index, ID: s.ID, Seed: s.Seed, Seats: s.Seats()}
}

// Schedule returns every match of the league, in the order they are started: round by
// round (one duplicate pair of every pairing per round), so that standings grow evenly.
// Which bot sits North-South alternates from round to round.
func (f *File) Schedule() []Scheduled {
	var pairings [][2]int
	switch f.Format {
	case Gauntlet:
		g := 0
		for i, b := range f.Bots {
			if b.Name == f.Gauntlet {
				g = i
			}
		}
		for i := range f.Bots {
			if i != g {
				pairings = append(pairings, [2]int{g, i})
			}
		}
	default:
		for i := range f.Bots {
			for j := i + 1; j < len(f.Bots); j++ {
				pairings = append(pairings, [2]int{i, j})
			}
		}
	}
	var out []Scheduled
	for round := range f.Games / 2 {
		for _, p := range pairings {
			a, b := p[0], p[1]
			if round%2 == 1 {
				a, b = b, a
			}
			n := len(out)
			out = append(out, Scheduled{Index: n, ID: fmt.Sprintf("%s/%d", f.Name, n), A: a, B: b, Seed: matchSeed(f.Seed, n)})
		}
	}
	return out
}

// matchSeed derives a match's seed from the league's (splitmix64).
func matchSeed(seed uint64, n int) uint64 {
	z := seed + uint64(n+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

package league

import (
	"fmt"
	"slices"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
)

// Scheduled is one match of the schedule: one duplicate set. In the four-player game it is
// a pair of games between two bots, each playing as a team of two copies of itself; in the
// three-player game it is three games between three bots, one per seat.
type Scheduled struct {
	Index int
	ID    string
	Bots  []int  // bot indices: A and B (A sits N and S), or the three players N, E, S
	Seed  uint64 // the match's own seed: replaying it plays the same cards
}

// Seats returns the bot index of every table seat from North.
func (s Scheduled) Seats() []int {
	if len(s.Bots) == 2 {
		return []int{s.Bots[0], s.Bots[1], s.Bots[0], s.Bots[1]}
	}
	return s.Bots
}

// Record returns a fresh match record for the store.
func (s Scheduled) Record() store.Match {
	return store.Match{Index: s.Index, ID: s.ID, Seed: s.Seed, Seats: s.Seats()}
}

// Schedule returns every match of the league, in the order they are started: round by
// round (one duplicate set of every pairing per round), so that standings grow evenly.
// A pairing is two bots in the four-player game and three in the three-player game; a
// gauntlet's pairings all include the gauntlet bot. From round to round the order is
// reversed: which bot sits North-South, or who plays after whom.
func (f *File) Schedule() []Scheduled {
	size := f.matchBots()
	gauntlet := -1
	if f.Format == Gauntlet {
		gauntlet = slices.IndexFunc(f.Bots, func(b Bot) bool { return b.Name == f.Gauntlet })
	}
	var pairings [][]int
	for _, c := range combinations(len(f.Bots), size) {
		if gauntlet < 0 || slices.Contains(c, gauntlet) {
			pairings = append(pairings, c)
		}
	}
	var out []Scheduled
	for round := range f.Games / f.SetGames() {
		for _, p := range pairings {
			bots := slices.Clone(p)
			if round%2 == 1 {
				slices.Reverse(bots)
			}
			n := len(out)
			out = append(out, Scheduled{Index: n, ID: fmt.Sprintf("%s/%d", f.Name, n), Bots: bots, Seed: matchSeed(f.Seed, n)})
		}
	}
	return out
}

// SetGames returns the games of one duplicate set: 2 in the four-player game, 3 in the
// three-player game.
func (f *File) SetGames() int { return referee.DuplicateGames(&f.Rules, f.matchBots()) }

// matchBots returns the number of different bots in a match: two teams, or three players.
func (f *File) matchBots() int {
	if f.Rules.Players == 3 {
		return 3
	}
	return 2
}

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

// matchSeed derives a match's seed from the league's (splitmix64).
func matchSeed(seed uint64, n int) uint64 {
	z := seed + uint64(n+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

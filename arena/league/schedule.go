package league

import (
	"fmt"
	"slices"

	"github.com/klaverjas-arena/arena/arena/league/pairing"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
)

// Scheduled is one match of the league: one duplicate set. In the four-player game it is
// a pair of games between two bots, each playing as a team of two copies of itself; in the
// three-player game it is three games between three bots, one per seat.
type Scheduled struct {
	Index int
	ID    string
	Round int    // the format's round (0 first) that decided it
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

// Record returns a fresh match record for the store, of a match played under the league file
// whose hash is fileHash.
func (s Scheduled) Record(fileHash string) store.Match {
	return store.Match{Index: s.Index, ID: s.ID, Seed: s.Seed, Seats: s.Seats(), File: fileHash}
}

// Plan is where a league stands: the rounds its format has decided, from the results of the
// matches done.
type Plan struct {
	Rounds  [][]Scheduled      // every round decided so far; only the last may be unfinished
	Results [][]pairing.Result // the results of the finished rounds
	Todo    []Scheduled        // the matches of the last round not done; none: the league is over
	Done    int                // matches done
}

// Matches returns every match decided so far, in index order.
func (p *Plan) Matches() []Scheduled { return slices.Concat(p.Rounds...) }

// Plan decides the league's matches from the stored ones: round after round, the format
// decides a round from the results of the earlier ones, until a round is not finished or the
// format has no more. Match n of the league has index n and its seed from the league's seed
// and n alone. Every stored match must be the one decided at its index (the same bots and
// seed), or the database does not belong to this league file; the error says which.
func (f *File) Plan(stored []store.Match) (*Plan, error) {
	byIndex := map[int]*store.Match{}
	for i := range stored {
		byIndex[stored[i].Index] = &stored[i]
	}
	p := &Plan{}
	n := 0
	for {
		next, err := f.Pairing.Next(p.Results)
		if err != nil {
			return nil, fmt.Errorf("league %s: %w", f.Name, err)
		}
		if len(next) == 0 {
			break
		}
		round := make([]Scheduled, len(next))
		var results []pairing.Result
		for i, m := range next {
			s := Scheduled{Index: n, ID: fmt.Sprintf("%s/%d", f.Name, n), Round: len(p.Rounds), Bots: m.Bots, Seed: matchSeed(f.Seed, n)}
			n++
			round[i] = s
			got := byIndex[s.Index]
			delete(byIndex, s.Index)
			if got == nil || !got.Done {
				p.Todo = append(p.Todo, s)
			} else {
				p.Done++
			}
			if got == nil {
				continue
			}
			if got.ID != s.ID || got.Seed != s.Seed || !slices.Equal(got.Seats, s.Seats()) {
				return nil, fmt.Errorf("league %s: match %s is stored with seats %v and seed %d, but the league file decides seats %v and seed %d: the database does not hold this league file's matches (give the league a new name)",
					f.Name, got.ID, f.names(got.Seats), got.Seed, f.names(s.Seats()), s.Seed)
			}
			if got.Done {
				res, err := result(s, got)
				if err != nil {
					return nil, err
				}
				results = append(results, res)
			}
		}
		p.Rounds = append(p.Rounds, round)
		if len(p.Todo) > 0 {
			break
		}
		p.Results = append(p.Results, results)
	}
	for _, m := range byIndex {
		return nil, fmt.Errorf("league %s: match %s is stored, but the league file decides no such match (%d so far): the database does not hold this league file's matches (give the league a new name)",
			f.Name, m.ID, n)
	}
	return p, nil
}

// result is a done match's result for the format: each bot's points and games won.
func result(s Scheduled, m *store.Match) (pairing.Result, error) {
	r := pairing.Result{Bots: s.Bots, Points: make([]int, len(s.Bots)), Won: make([]int, len(s.Bots))}
	for _, g := range m.Games {
		if len(g.Totals) != len(s.Bots) {
			return r, fmt.Errorf("match %s: a game with %d scores, want %d", m.ID, len(g.Totals), len(s.Bots))
		}
		for side, pts := range g.Totals {
			r.Points[side] += pts
		}
		if g.Winner >= 0 && g.Winner < len(s.Bots) {
			r.Won[g.Winner]++
		}
	}
	return r, nil
}

// names returns the names of the given bots, for messages.
func (f *File) names(bots []int) []string {
	out := make([]string, len(bots))
	for i, b := range bots {
		out[i] = fmt.Sprint(b)
		if b >= 0 && b < len(f.Bots) {
			out[i] = f.Bots[b].Name
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

// matchSeed derives a match's seed from the league's (splitmix64).
func matchSeed(seed uint64, n int) uint64 {
	z := seed + uint64(n+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

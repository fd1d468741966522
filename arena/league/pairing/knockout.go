package pairing

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
)

// knockout is a single-elimination bracket:
//
//   - The bots are seeded in the league file's order (the first is seed 1). The bracket has
//     room for the next power of two, P; seed s meets seed P+1−s in the first round, and the
//     bracket is laid out so that the two best seeds can meet only in the final, the best
//     four only in the semi-finals, and so on.
//   - When there are fewer than P bots the missing seeds are byes: the best seeds go through
//     the first round without playing.
//   - Every tie is Sets duplicate sets between its two bots. The bot with more points over
//     them goes through; with equal points the one that won more games; with equal games
//     the better seed.
//   - There is no match for third place: the losers of a round share a place.
type knockout struct {
	n, sets int
	bracket []int // bot per first-round slot, -1 for a bye
}

func newKnockout(c Config) (*knockout, error) {
	if err := twoBotsOnly("knockout", c); err != nil {
		return nil, err
	}
	n := len(c.Names)
	size := 1 << bits.Len(uint(n-1))
	k := &knockout{n: n, sets: c.Sets}
	for _, seed := range seedOrder(size) {
		bot := seed - 1
		if bot >= n {
			bot = -1
		}
		k.bracket = append(k.bracket, bot)
	}
	return k, nil
}

// seedOrder returns the seeds 1..size in bracket order: 1, size, and so on, each first-round
// pair summing to size+1, the halves of every part holding its best and second-best seed.
func seedOrder(size int) []int {
	order := []int{1}
	for len(order) < size {
		next := make([]int, 0, 2*len(order))
		for _, s := range order {
			next = append(next, s, 2*len(order)+1-s)
		}
		order = next
	}
	return order
}

// Matches returns one tie per bot knocked out, Sets matches each.
func (k *knockout) Matches() int { return (k.n - 1) * k.sets }

// Next returns the ties of the next round, or none once one bot is left.
func (k *knockout) Next(rounds [][]Result) ([]Match, error) {
	slots, _, err := k.play(rounds)
	if err != nil || len(slots) == 1 {
		return nil, err
	}
	var pairs [][]int
	for i := 0; i < len(slots); i += 2 {
		if slots[i] >= 0 && slots[i+1] >= 0 {
			pairs = append(pairs, []int{slots[i], slots[i+1]})
		}
	}
	return sets(pairs, k.sets), nil
}

// play runs the bracket through the given rounds: it returns the bots still in, by slot, and
// how many rounds each bot went through (a bye counts) with its points for and against.
func (k *knockout) play(rounds [][]Result) ([]int, []knockoutBot, error) {
	st := make([]knockoutBot, k.n)
	for i := range st {
		st[i].bot = i
	}
	slots := k.bracket
	for r, round := range rounds {
		if len(slots) == 1 {
			return nil, nil, fmt.Errorf("knockout round %d: the bracket was decided after round %d", r+1, r)
		}
		ts, err := ties(round)
		if err != nil {
			return nil, nil, fmt.Errorf("knockout round %d: %w", r+1, err)
		}
		next := make([]int, len(slots)/2)
		for i := range next {
			a, b := slots[2*i], slots[2*i+1]
			if a < 0 || b < 0 {
				next[i] = max(a, b)
				st[next[i]].through++
				continue
			}
			lo, hi := min(a, b), max(a, b)
			t := ts[[2]int{lo, hi}]
			if t == nil {
				return nil, nil, fmt.Errorf("knockout round %d: no result for the tie of bots %d and %d", r+1, lo, hi)
			}
			delete(ts, [2]int{lo, hi})
			st[lo].pointsFor += t.points[0]
			st[lo].pointsAgainst += t.points[1]
			st[hi].pointsFor += t.points[1]
			st[hi].pointsAgainst += t.points[0]
			// The lower bot index is the better seed: it goes through unless beaten.
			next[i] = lo
			if c := cmp.Or(cmp.Compare(t.points[1], t.points[0]), cmp.Compare(t.won[1], t.won[0])); c > 0 {
				next[i] = hi
			}
			st[next[i]].through++
		}
		if len(ts) > 0 {
			return nil, nil, fmt.Errorf("knockout round %d: results of bots that were not drawn to meet", r+1)
		}
		slots = next
	}
	return slots, st, nil
}

// knockoutBot is one bot's record in the bracket.
type knockoutBot struct {
	bot, through             int
	pointsFor, pointsAgainst int
}

// Rank ranks by the rounds a bot went through (the winner first, the runner-up second, the
// losers of each earlier round sharing a place), then by seed.
func (k *knockout) Rank(rounds [][]Result) (Ranking, error) {
	_, st, err := k.play(rounds)
	if err != nil {
		return Ranking{}, err
	}
	slices.SortStableFunc(st, func(a, b knockoutBot) int { return cmp.Compare(b.through, a.through) })
	rk := Ranking{Columns: []string{"rounds won", "share%"}}
	for i, b := range st {
		place := i + 1
		if i > 0 && st[i-1].through == b.through {
			place = rk.Rows[i-1].Place
		}
		rk.Rows = append(rk.Rows, Rank{Bot: b.bot, Place: place, Values: []float64{float64(b.through), share(b.pointsFor, b.pointsAgainst)}})
	}
	return rk, nil
}

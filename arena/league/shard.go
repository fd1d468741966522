package league

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Shard is one part of a league split to run on several machines: shard I of N, from 1.
type Shard struct{ I, N int }

// ParseShard reads "I/N", 1 ≤ I ≤ N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("shard %q: want I/N with 1 ≤ I ≤ N, such as 2/4", s)
	}
	return Shard{I: i, N: n}, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// Shards splits the league's matches into n shards: every match in exactly one, the work
// balanced. A match's work is its time per decision (the most generous of its bots', which
// the league file may set per bot; every match has the same games and deals). The matches
// are dealt out heaviest first, each to the shard with the least work so far (the lowest
// shard on a tie), so no shard has more work than another plus one match's; with equal
// times it is match i to shard i mod n + 1. Each shard's matches are in index order.
//
// Only a format that decides every match from the start can be split: Swiss and knockout
// decide each round from the results of the one before, which shards running apart do not
// have, and are refused.
func (f *File) Shards(n int) ([][]Scheduled, error) {
	plan, err := f.Plan(nil)
	if err != nil {
		return nil, err
	}
	if len(plan.Todo) != f.Pairing.Matches() {
		return nil, fmt.Errorf("league %s: format = %q decides each round from the results of the one before, which shards running apart on other machines do not have: it cannot be sharded (run it without --shard; its matches within a round already run `concurrency` at once)", f.Name, f.Format)
	}
	work := func(s Scheduled) time.Duration { return f.TimeControl(s.Bots...).Decision }
	order := slices.Clone(plan.Todo)
	slices.SortStableFunc(order, func(a, b Scheduled) int { return cmp.Compare(work(b), work(a)) })
	out := make([][]Scheduled, n)
	load := make([]time.Duration, n)
	for _, s := range order {
		i := 0
		for j := range load {
			if load[j] < load[i] {
				i = j
			}
		}
		out[i] = append(out[i], s)
		load[i] += work(s)
	}
	for i := range out {
		slices.SortFunc(out[i], func(a, b Scheduled) int { return cmp.Compare(a.Index, b.Index) })
	}
	return out, nil
}

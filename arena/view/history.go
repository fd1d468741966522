package view

import (
	"slices"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/arena/store"
)

// HistoryPoint is the points-channel ratings after the first Matches finished matches;
// Elo is nil while they cannot be fitted yet.
type HistoryPoint struct {
	Matches int       `json:"matches"`
	Elo     []float64 `json:"elo"` // by league bot index
}

// RatingHistory fits the ratings after every step of the league's done matches, in schedule
// order, at most points times (evenly spread, the last point being all of them): the
// data of a rating chart. bots is the number of the league's bots.
func RatingHistory(matches []store.Match, bots, points int) []HistoryPoint {
	var done []*store.Match
	for i := range matches {
		if matches[i].Done && len(matches[i].Games) > 0 {
			done = append(done, &matches[i])
		}
	}
	slices.SortStableFunc(done, func(a, b *store.Match) int { return a.Index - b.Index })
	n := len(done)
	if n == 0 || points < 1 {
		return nil
	}
	var st rating.Stats
	var out []HistoryPoint
	next := 1
	for i, m := range done {
		_ = st.AddAll(league.RatingResults(m)) // stored results were added to the totals the same way
		if i+1 < n && (i+1)*points < next*n {
			continue
		}
		next++
		p := HistoryPoint{Matches: i + 1}
		if r, err := rating.Fit(&rating.Stats{Pairings: slices.Clone(st.Pairings)}, rating.Options{}); err == nil && len(r.Elo) <= bots && allFinite(r.Elo) {
			p.Elo = r.Elo
		}
		out = append(out, p)
	}
	return out
}

func allFinite(v []float64) bool {
	for _, x := range v {
		if finite(x) == nil {
			return false
		}
	}
	return true
}

package view

import (
	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/arena/store"
)

// Cell is what one bot (the row) scored against another (the column).
type Cell struct {
	Pairs int `json:"pairs"` // duplicate pairs played between the two
	// Share is the row bot's mean points share over those pairs, GameShare its share of
	// the games (win 1, draw ½); both in [0, 1], and meaningless when Pairs is 0.
	Share     float64 `json:"points_share"`
	GameShare float64 `json:"game_share"`
	// LOS is the likelihood that the row bot is the stronger, from the fitted ratings;
	// nil while there are none.
	LOS *float64 `json:"los"`
}

// Crosstable is every pairwise result, in standings order: Cells[i][j] is
// Bots[i] against Bots[j] (the diagonal is empty).
type Crosstable struct {
	Bots  []string `json:"bots"`
	Cells [][]Cell `json:"cells"`
}

// ComputeCrosstable builds the crosstable of a league's totals in the order of its
// standings (computed from the same totals). Only results between two teams of one bot
// each count: that is every result of a league.
func ComputeCrosstable(t *store.Totals, s *Standings) *Crosstable {
	n := len(s.Standings)
	pos := make(map[int]int, n) // league index → row
	x := &Crosstable{Cells: make([][]Cell, n)}
	for i, st := range s.Standings {
		pos[st.Index] = i
		x.Bots = append(x.Bots, st.Bot)
		x.Cells[i] = make([]Cell, n)
	}
	for _, p := range t.Pairings {
		a, b := p.Team1, p.Team2
		if a[0] != a[1] || b[0] != b[1] {
			continue
		}
		i, iok := pos[a[0]]
		j, jok := pos[b[0]]
		if !iok || !jok || i == j {
			continue
		}
		x.Cells[i][j] = cell(p.Points, p.Games, false)
		x.Cells[j][i] = cell(p.Points, p.Games, true)
	}
	for i := range x.Cells {
		for j := range x.Cells[i] {
			if los, ok := s.LOSOf(s.Standings[i].Index, s.Standings[j].Index); ok && i != j {
				x.Cells[i][j].LOS = finite(los)
			}
		}
	}
	return x
}

// cell is the result of one pairing's sums for their team 1, or for team 2 with flip. A
// Stats holds one pairing per two teams, so this is all of their results.
func cell(points, games rating.Sums, flip bool) Cell {
	share := func(s rating.Sums) float64 {
		switch {
		case s.N <= 0:
			return 0
		case flip:
			return (s.N - s.S) / s.N
		}
		return s.S / s.N
	}
	return Cell{Pairs: points.Clusters, Share: share(points), GameShare: share(games)}
}

package view

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/arena/store"
)

// leagueTotals makes the totals of a round robin of bots of the given strengths (true Elo),
// pairs duplicate pairs per pairing, with results drawn around the expected points share.
func leagueTotals(t *testing.T, elo []float64, pairs int) *store.Totals {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	tot := &store.Totals{}
	for i := range elo {
		tot.Bots = append(tot.Bots, store.BotTotals{Name: string(rune('a' + i))})
	}
	var st rating.Stats
	for i := range elo {
		for j := i + 1; j < len(elo); j++ {
			want := 1 / (1 + math.Pow(10, (elo[j]-elo[i])/400))
			for range pairs {
				share := min(1, max(0, want+0.1*(rng.Float64()-0.5)))
				games := 0.0
				if share > 0.5 {
					games = 2
				}
				if err := st.Add(rating.Result{Team1: rating.Solo(i), Team2: rating.Solo(j), Points: share, GameScore: games, Games: 2}); err != nil {
					t.Fatal(err)
				}
				pts := int(1000 * share)
				a, b := &tot.Bots[i], &tot.Bots[j]
				a.PointsFor, a.PointsAgainst = a.PointsFor+pts, a.PointsAgainst+1000-pts
				b.PointsFor, b.PointsAgainst = b.PointsFor+1000-pts, b.PointsAgainst+pts
				a.Games, b.Games = a.Games+2, b.Games+2
				tot.Matches++
			}
		}
	}
	tot.Pairings = st.Pairings
	return tot
}

func TestStandings(t *testing.T) {
	tot := leagueTotals(t, []float64{0, 200, 100, -50}, 30)
	tab, err := ComputeStandings("l", tot, StandingsOptions{LOS: true})
	if err != nil {
		t.Fatal(err)
	}
	var order string
	for i, s := range tab.Standings {
		order += s.Bot
		if s.Rank != i+1 || s.Elo == nil || s.CI95 == nil || *s.CI95 <= 0 || s.GameElo == nil {
			t.Errorf("row %+v", s)
		}
	}
	if order != "bcad" || tab.Note != "" || tab.Matches != tot.Matches {
		t.Errorf("order %s, note %q", order, tab.Note)
	}
	fit, err := rating.Fit(&rating.Stats{Pairings: tot.Pairings}, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range tab.Standings {
		if *s.Elo != fit.Elo[s.Index] || *s.CI95 != fit.HalfWidth95(s.Index) {
			t.Errorf("%s: %v ± %v, the fit says %v ± %v", s.Bot, *s.Elo, *s.CI95, fit.Elo[s.Index], fit.HalfWidth95(s.Index))
		}
		for j := range tab.Standings {
			los := tab.LOS[i][j]
			if math.Abs(los+tab.LOS[j][i]-1) > 1e-12 || i < j && los <= 0.5 || i == j && los != 0.5 {
				t.Errorf("LOS[%d][%d] = %v, LOS[%d][%d] = %v", i, j, los, j, i, tab.LOS[j][i])
			}
			if got, ok := tab.LOSOf(s.Index, tab.Standings[j].Index); !ok || got != los {
				t.Errorf("LOSOf(%d, %d) = %v, %v; want %v", s.Index, tab.Standings[j].Index, got, ok, los)
			}
		}
	}

	anchored, err := ComputeStandings("l", tot, StandingsOptions{Anchor: "c=1500"})
	if err != nil || anchored.Standings[1].Bot != "c" || *anchored.Standings[1].Elo != 1500 || anchored.LOS != nil {
		t.Errorf("anchored at c=1500: %v %+v", err, anchored)
	}
	for _, bad := range []string{"x=1", "c", "c=high"} {
		if _, err := ComputeStandings("l", tot, StandingsOptions{Anchor: bad}); err == nil || !strings.Contains(err.Error(), "--anchor") {
			t.Errorf("anchor %q: %v", bad, err)
		}
	}
}

// TestStandingsTooFew: with too few results for a fit the standings say why, have no
// ratings, and rank by points share.
func TestStandingsTooFew(t *testing.T) {
	tot := leagueTotals(t, []float64{0, 300}, 1)
	tab, err := ComputeStandings("l", tot, StandingsOptions{LOS: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tab.Note, "no ratings yet: ") || tab.LOS != nil || tab.Standings[0].Bot != "b" || tab.Standings[0].Elo != nil {
		t.Errorf("%+v", tab)
	}
	if _, ok := tab.LOSOf(0, 1); ok {
		t.Error("LOSOf without ratings")
	}
	x := ComputeCrosstable(tot, tab)
	if x.Cells[0][1].LOS != nil || x.Cells[0][1].Pairs != 1 {
		t.Errorf("crosstable without ratings: %+v", x.Cells[0][1])
	}
}

func TestCrosstable(t *testing.T) {
	tot := leagueTotals(t, []float64{0, 200, 100}, 10)
	tab, err := ComputeStandings("l", tot, StandingsOptions{LOS: true})
	if err != nil {
		t.Fatal(err)
	}
	x := ComputeCrosstable(tot, tab)
	if strings.Join(x.Bots, "") != "bca" {
		t.Fatalf("bots %v", x.Bots)
	}
	for i := range x.Cells {
		for j, c := range x.Cells[i] {
			if i == j {
				if c != (Cell{}) {
					t.Errorf("diagonal %d: %+v", i, c)
				}
				continue
			}
			o := x.Cells[j][i]
			if c.Pairs != 10 || math.Abs(c.Share+o.Share-1) > 1e-12 || math.Abs(c.GameShare+o.GameShare-1) > 1e-12 {
				t.Errorf("cell %d,%d %+v against %+v", i, j, c, o)
			}
			if c.LOS == nil || *c.LOS != tab.LOS[i][j] {
				t.Errorf("cell %d,%d LOS %v, standings %v", i, j, c.LOS, tab.LOS[i][j])
			}
			if i < j && c.Share <= 0.5 {
				t.Errorf("the stronger %s scored %.3f against %s", x.Bots[i], c.Share, x.Bots[j])
			}
		}
	}
	// The share is the mean of the pairs' shares: from the rating sums, team 1's side.
	for _, p := range tot.Pairings {
		i, j := rowOf(tab, p.Team1[0]), rowOf(tab, p.Team2[0])
		if got, want := x.Cells[i][j].Share, p.Points.S/p.Points.N; math.Abs(got-want) > 1e-12 {
			t.Errorf("%s v %s: %v, want %v", x.Bots[i], x.Bots[j], got, want)
		}
	}
}

func rowOf(tab *Standings, bot int) int {
	for i, s := range tab.Standings {
		if s.Index == bot {
			return i
		}
	}
	return -1
}

package rating

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestStats_AddRejectsInvalid(t *testing.T) {
	ok := Result{Team1: Solo(0), Team2: Solo(1), Points: 0.5, GameScore: 1, Games: 2}
	tests := []struct {
		name string
		edit func(r *Result)
	}{
		{"negative bot", func(r *Result) { r.Team1[1] = -1 }},
		{"bot too large", func(r *Result) { r.Team2[0] = MaxBots }},
		{"points above 1", func(r *Result) { r.Points = 1.5 }},
		{"points NaN", func(r *Result) { r.Points = math.NaN() }},
		{"negative games", func(r *Result) { r.Games = -1 }},
		{"game score above games", func(r *Result) { r.GameScore = 2.5 }},
		{"negative game score", func(r *Result) { r.GameScore = -0.5 }},
		{"negative weight", func(r *Result) { r.Weight = -1 }},
		{"infinite weight", func(r *Result) { r.Weight = math.Inf(1) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ok
			tt.edit(&r)
			var st Stats
			if err := st.Add(r); !errors.Is(err, ErrInvalidResult) {
				t.Fatalf("Add(%+v) = %v, want ErrInvalidResult", r, err)
			}
			if len(st.Pairings) != 0 {
				t.Errorf("invalid result was stored: %+v", st.Pairings)
			}
		})
	}
	var st Stats
	mustAdd(t, &st, ok)
}

func TestStats_AddSameTeamIgnored(t *testing.T) {
	var st Stats
	mustAdd(t, &st, Result{Team1: Team{1, 2}, Team2: Team{2, 1}, Points: 0.7})
	if len(st.Pairings) != 0 {
		t.Errorf("a team against itself was stored: %+v", st.Pairings)
	}
}

func TestStats_AddSums(t *testing.T) {
	var st Stats
	mustAdd(t, &st, Result{Team1: Solo(3), Team2: Team{2, 1}, Points: 0.25, GameScore: 0.5, Games: 2, Weight: 2})
	// Stored the other way round: team {1,2} first, scores flipped.
	mustAdd(t, &st, Result{Team1: Team{1, 2}, Team2: Solo(3), Points: 0.5, GameScore: 2, Games: 2})
	if len(st.Pairings) != 1 {
		t.Fatalf("got %d pairings, want 1", len(st.Pairings))
	}
	p := st.Pairings[0]
	if p.Team1 != (Team{1, 2}) || p.Team2 != Solo(3) {
		t.Fatalf("pairing %v v %v, want [1 2] v [3 3]", p.Team1, p.Team2)
	}
	// Points: (w=2, n=1, S=0.75) and (w=1, n=1, S=0.5).
	// Games: (w=2, n=2, S=1.5) and (w=1, n=2, S=2).
	want := Pairing{
		Team1: Team{1, 2}, Team2: Solo(3),
		Points: Sums{Clusters: 2, N: 3, S: 2, SS: 4*0.5625 + 0.25, NS: 4*0.75 + 0.5, NN: 5},
		Games:  Sums{Clusters: 2, N: 6, S: 5, SS: 4*2.25 + 4, NS: 4*3 + 4, NN: 4*4 + 4},
	}
	if !pairingsClose(p, want, 1e-12) {
		t.Errorf("got  %+v\nwant %+v", p, want)
	}
	if got := st.Bots(); got != 4 {
		t.Errorf("Bots() = %d, want 4", got)
	}
}

func TestStats_AddAllSumsAsAdd(t *testing.T) {
	seed := testSeed(t)
	s := newSim(seed, 0, spread(10, -300, 300))
	rs := make([]Result, 3000)
	for i := range rs {
		t1, t2, f := s.teams()
		rs[i] = s.duplicateBetween(t1, t2, f, 0.8)
		if i%7 == 0 {
			rs[i].Team1, rs[i].Team2 = Team{rs[i].Team2[1], rs[i].Team2[0]}, rs[i].Team1
			rs[i].Points, rs[i].GameScore = 1-rs[i].Points, float64(rs[i].Games)-rs[i].GameScore
		}
		if i%11 == 0 {
			rs[i].Weight = 0.5
		}
	}
	rs[5].Team2 = sortTeam(rs[5].Team1) // a team against itself: ignored by both
	var one, all, some Stats
	for _, r := range rs {
		mustAdd(t, &one, r)
	}
	if err := all.AddAll(rs); err != nil {
		t.Fatal(err)
	}
	// Into a Stats that holds pairings already: the first third by Add, the rest in two
	// batches, then one more result by Add (which rebuilds the index).
	for _, r := range rs[:1000] {
		mustAdd(t, &some, r)
	}
	for _, batch := range [][]Result{rs[1000:2000], rs[2000:2999]} {
		if err := some.AddAll(batch); err != nil {
			t.Fatal(err)
		}
	}
	mustAdd(t, &some, rs[2999])
	want := map[[2]Team]Pairing{}
	for _, p := range one.Pairings {
		want[[2]Team{p.Team1, p.Team2}] = p
	}
	for name, st := range map[string]*Stats{"AddAll": &all, "Add then AddAll": &some} {
		if len(st.Pairings) != len(one.Pairings) {
			t.Fatalf("%s: %d pairings, Add made %d", name, len(st.Pairings), len(one.Pairings))
		}
		for _, p := range st.Pairings {
			// The same additions in the same order: equal to the last bit.
			if q := want[[2]Team{p.Team1, p.Team2}]; p != q {
				t.Fatalf("%s: pairing %+v, Add made %+v", name, p, q)
			}
		}
	}
	for i := 1; i < len(all.Pairings); i++ {
		if a, b := all.Pairings[i-1], all.Pairings[i]; key(a.Team1, a.Team2) >= key(b.Team1, b.Team2) {
			t.Fatalf("AddAll's pairings out of order at %d: %v v %v, then %v v %v", i, a.Team1, a.Team2, b.Team1, b.Team2)
		}
	}
}

func TestStats_AddAllRejectsInvalid(t *testing.T) {
	good := Result{Team1: Solo(0), Team2: Solo(1), Points: 0.5}
	var st Stats
	mustAdd(t, &st, good)
	before := slices.Clone(st.Pairings)
	err := st.AddAll([]Result{good, good, {Team1: Solo(0), Team2: Solo(2), Points: 2}})
	if !errors.Is(err, ErrInvalidResult) || !strings.Contains(err.Error(), "result 2") {
		t.Fatalf("AddAll with an invalid third result = %v, want ErrInvalidResult naming result 2", err)
	}
	if !slices.Equal(st.Pairings, before) {
		t.Errorf("AddAll changed the Stats on error: %+v, was %+v", st.Pairings, before)
	}
	loaded := Stats{Pairings: []Pairing{{Team1: Solo(0), Team2: Solo(1), Points: Sums{N: math.NaN()}}}}
	if err := loaded.AddAll([]Result{good}); !errors.Is(err, ErrInvalidResult) {
		t.Errorf("AddAll to a Stats loaded with an invalid pairing = %v, want ErrInvalidResult", err)
	}
}

func TestStats_LoadSaved(t *testing.T) {
	seed := testSeed(t)
	s := newSim(seed, 0, spread(6, -200, 200))
	var st Stats
	for range 500 {
		mustAdd(t, &st, s.duplicate(0.5))
	}
	// Save in reverse order with every other pairing in the other orientation.
	saved := make([]Pairing, len(st.Pairings))
	for i, p := range st.Pairings {
		if i%2 == 1 {
			p.Team1, p.Team2 = Team{p.Team2[1], p.Team2[0]}, p.Team1
			p.Points, p.Games = p.Points.flipped(), p.Games.flipped()
		}
		saved[len(saved)-1-i] = p
	}
	loaded := Stats{Pairings: saved}
	extra := s.duplicate(0.5)
	mustAdd(t, &st, extra)
	mustAdd(t, &loaded, extra)
	if len(loaded.Pairings) != len(st.Pairings) {
		t.Fatalf("loaded Stats has %d pairings, want %d", len(loaded.Pairings), len(st.Pairings))
	}
	assertSameFit(t, mustFit(t, &st, Options{Channel: Games}), mustFit(t, &loaded, Options{Channel: Games}), 1e-9)
}

func TestStats_LoadInvalid(t *testing.T) {
	for _, p := range []Pairing{
		{Team1: Solo(-1), Team2: Solo(0)},
		{Team1: Solo(0), Team2: Solo(1), Points: Sums{N: math.NaN()}},
		{Team1: Solo(0), Team2: Solo(1), Games: Sums{Clusters: -1}},
		{Team1: Solo(0), Team2: Solo(1), Games: Sums{N: -1}},
	} {
		loaded := Stats{Pairings: []Pairing{p}}
		if err := loaded.Add(Result{Team1: Solo(0), Team2: Solo(1)}); !errors.Is(err, ErrInvalidResult) {
			t.Errorf("Add to Stats{Pairings: %+v} = %v, want ErrInvalidResult", p, err)
		}
	}
}

// pairingsClose reports whether two pairings have the same teams and sums within tol.
func pairingsClose(a, b Pairing, tol float64) bool {
	if a.Team1 != b.Team1 || a.Team2 != b.Team2 {
		return false
	}
	for _, s := range [][2]Sums{{a.Points, b.Points}, {a.Games, b.Games}} {
		x, y := s[0], s[1]
		if x.Clusters != y.Clusters {
			return false
		}
		for _, d := range []float64{x.N - y.N, x.S - y.S, x.SS - y.SS, x.NS - y.NS, x.NN - y.NN} {
			if math.Abs(d) > tol {
				return false
			}
		}
	}
	return true
}

// assertSameFit fails the test if two fits differ by more than tol in any rating, or
// relatively in any covariance.
func assertSameFit(tb testing.TB, a, b *Ratings, tol float64) {
	tb.Helper()
	for i := range a.Elo {
		if d := math.Abs(a.Elo[i] - b.Elo[i]); d > tol {
			tb.Errorf("rating %d: %.12f v %.12f (differ by %.3g)", i, a.Elo[i], b.Elo[i], d)
		}
	}
	for _, c := range [][2][]float64{{a.Cov, b.Cov}, {a.PlainCov, b.PlainCov}} {
		for i := range c[0] {
			x, y := c[0][i], c[1][i]
			if d := math.Abs(x - y); d > tol*max(1, math.Abs(x)) {
				tb.Errorf("covariance entry %d: %.12g v %.12g", i, x, y)
			}
		}
	}
	if a.Clusters != b.Clusters {
		tb.Errorf("clusters %d v %d", a.Clusters, b.Clusters)
	}
}

package rating

import (
	"errors"
	"math"
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

func TestStats_Merge(t *testing.T) {
	seed := testSeed(t)
	s := newSim(seed, 0, spread(10, -300, 300))
	var all, a, b Stats
	for i := range 2000 {
		t1, t2, f := s.teams()
		r := s.duplicateBetween(t1, t2, f, 0.8)
		mustAdd(t, &all, r)
		if i%3 == 0 {
			mustAdd(t, &a, r)
		} else {
			mustAdd(t, &b, r)
		}
	}
	if err := a.Merge(&b); err != nil {
		t.Fatal(err)
	}
	for _, ch := range []Channel{Points, Games} {
		assertSameFit(t, mustFit(t, &all, Options{Channel: ch}), mustFit(t, &a, Options{Channel: ch}), 1e-9)
	}
	// Merging a Stats into itself doubles every sum, also when it was loaded with a
	// pairing saved in two parts (here its points and its games).
	pointsPart, gamesPart := all.Pairings[0], all.Pairings[0]
	pointsPart.Games, gamesPart.Points = Sums{}, Sums{}
	double := Stats{Pairings: append([]Pairing{pointsPart, gamesPart}, all.Pairings[1:]...)}
	if err := double.Merge(&double); err != nil {
		t.Fatal(err)
	}
	if len(double.Pairings) != len(all.Pairings) {
		t.Fatalf("self-merge: %d pairings, want %d", len(double.Pairings), len(all.Pairings))
	}
	for i, p := range double.Pairings {
		want := all.Pairings[i]
		want.Points.add(want.Points)
		want.Games.add(want.Games)
		if !pairingsClose(p, want, 1e-9) {
			t.Fatalf("self-merge: pairing %d %+v, want %+v", i, p, want)
		}
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

func TestStats_AddPairingRejectsInvalid(t *testing.T) {
	for _, p := range []Pairing{
		{Team1: Solo(-1), Team2: Solo(0)},
		{Team1: Solo(0), Team2: Solo(1), Points: Sums{N: math.NaN()}},
		{Team1: Solo(0), Team2: Solo(1), Games: Sums{Clusters: -1}},
		{Team1: Solo(0), Team2: Solo(1), Games: Sums{N: -1}},
	} {
		var st Stats
		if err := st.AddPairing(p); !errors.Is(err, ErrInvalidResult) {
			t.Errorf("AddPairing(%+v) = %v, want ErrInvalidResult", p, err)
		}
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

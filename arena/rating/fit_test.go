package rating

import (
	"errors"
	"math"
	"reflect"
	"testing"
)

func TestFit_ErrNoData(t *testing.T) {
	var st Stats
	if _, err := Fit(&st, Options{}); !errors.Is(err, ErrNoData) {
		t.Errorf("empty Stats: %v, want ErrNoData", err)
	}
	mustAdd(t, &st, Result{Team1: Solo(0), Team2: Solo(1), Points: 0.6})
	if _, err := Fit(&st, Options{Channel: Games}); !errors.Is(err, ErrNoData) {
		t.Errorf("no games: %v, want ErrNoData", err)
	}
}

func TestFit_DisconnectedError(t *testing.T) {
	var st Stats
	for range 5 {
		mustAdd(t, &st, Result{Team1: Solo(0), Team2: Solo(2), Points: 0.6})
		mustAdd(t, &st, Result{Team1: Solo(1), Team2: Solo(4), Points: 0.4})
		// Bot 5 sits on both sides: this links 3 and 6 only.
		mustAdd(t, &st, Result{Team1: Team{5, 3}, Team2: Team{6, 5}, Points: 0.5})
	}
	_, err := Fit(&st, Options{})
	var de *DisconnectedError
	if !errors.As(err, &de) {
		t.Fatalf("Fit = %v, want *DisconnectedError", err)
	}
	want := [][]int{{0, 2}, {1, 4}, {3, 6}, {5}}
	if !reflect.DeepEqual(de.Components, want) {
		t.Errorf("components %v, want %v", de.Components, want)
	}
	if got := de.Error(); got != "rating: comparison graph is not connected: 4 components [0 2] [1 4] [3 6] [5]" {
		t.Errorf("Error() = %q", got)
	}
}

func TestFit_ErrNotIdentified(t *testing.T) {
	// Fixed partnerships {0,1} and {2,3}, plus {0,1} v {4,4}: connected, but only the sums
	// r0+r1 and r2+r3 are measured.
	var st Stats
	for range 10 {
		mustAdd(t, &st, Result{Team1: Team{0, 1}, Team2: Team{2, 3}, Points: 0.6})
		mustAdd(t, &st, Result{Team1: Team{0, 1}, Team2: Solo(4), Points: 0.4})
		mustAdd(t, &st, Result{Team1: Team{2, 3}, Team2: Solo(4), Points: 0.45})
	}
	if _, err := Fit(&st, Options{}); !errors.Is(err, ErrNotIdentified) {
		t.Fatalf("Fit = %v, want ErrNotIdentified", err)
	}
	// Once 0 and 1 and 2 and 3 have each met, every rating is determined.
	for range 10 {
		mustAdd(t, &st, Result{Team1: Solo(0), Team2: Solo(1), Points: 0.55})
		mustAdd(t, &st, Result{Team1: Team{2, 4}, Team2: Team{3, 4}, Points: 0.5})
	}
	mustFit(t, &st, Options{})
}

func TestFit_InvalidOptions(t *testing.T) {
	var st Stats
	for range 3 {
		mustAdd(t, &st, Result{Team1: Solo(0), Team2: Solo(1), Points: 0.6})
	}
	for _, opt := range []Options{
		{Channel: 7},
		{PriorSD: -1},
		{PriorSD: math.NaN()},
		{Reference: &Reference{Bot: 2}},
		{Reference: &Reference{Bot: -1}},
	} {
		if _, err := Fit(&st, opt); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("Fit(%+v) = %v, want ErrInvalidOptions", opt, err)
		}
	}
}

func TestFit_ErrTooFewClusters(t *testing.T) {
	var st Stats
	mustAdd(t, &st, Result{Team1: Solo(0), Team2: Solo(1), Points: 0.6})
	mustAdd(t, &st, Result{Team1: Solo(1), Team2: Solo(2), Points: 0.6})
	if _, err := Fit(&st, Options{}); !errors.Is(err, ErrTooFewClusters) {
		t.Fatalf("Fit = %v, want ErrTooFewClusters", err)
	}
	mustAdd(t, &st, Result{Team1: Solo(0), Team2: Solo(2), Points: 0.6})
	mustFit(t, &st, Options{})
}

func TestFit_PerfectScore(t *testing.T) {
	var st Stats
	for range 20 {
		mustAdd(t, &st, Result{Team1: Solo(0), Team2: Solo(1), Points: 1, GameScore: 2, Games: 2})
		mustAdd(t, &st, Result{Team1: Solo(1), Team2: Solo(2), Points: 0.5, GameScore: 1, Games: 2})
	}
	for _, ch := range []Channel{Points, Games} {
		r := mustFit(t, &st, Options{Channel: ch})
		if !(r.Elo[0]-r.Elo[1] > 300) || math.IsInf(r.Elo[0], 0) {
			t.Errorf("%v: perfect score rated %.1f above its victim, want a large finite gap", ch, r.Elo[0]-r.Elo[1])
		}
		if _, err := Fit(&st, Options{Channel: ch, PriorSD: math.Inf(1)}); !errors.Is(err, ErrNoConvergence) {
			t.Errorf("%v without prior: %v, want ErrNoConvergence", ch, err)
		}
	}
}

func TestFit_Reference(t *testing.T) {
	seed := testSeed(t)
	s := newSim(seed, 0, spread(6, -250, 250))
	var st Stats
	for range 600 {
		mustAdd(t, &st, s.duplicate(0.8))
	}
	mean := mustFit(t, &st, Options{Channel: Games})
	ref := mustFit(t, &st, Options{Channel: Games, Reference: &Reference{Bot: 2, Elo: 1500}})
	if ref.Elo[2] != 1500 || ref.SE(2) != 0 {
		t.Errorf("reference bot: %v ± %v, want 1500 ± 0", ref.Elo[2], ref.SE(2))
	}
	for i := range mean.Elo {
		if d := (ref.Elo[i] - 1500) - (mean.Elo[i] - mean.Elo[2]); math.Abs(d) > 1e-9 {
			t.Errorf("bot %d: anchor moved the rating difference to the reference by %g", i, d)
		}
		for j := range mean.Elo {
			if d := ref.DiffSE(i, j) - mean.DiffSE(i, j); math.Abs(d) > 1e-9 {
				t.Errorf("SE(r%d − r%d) depends on the anchor: %g v %g", i, j, ref.DiffSE(i, j), mean.DiffSE(i, j))
			}
			if d := ref.LOS(i, j) - mean.LOS(i, j); math.Abs(d) > 1e-9 {
				t.Errorf("LOS(%d, %d) depends on the anchor", i, j)
			}
		}
		// With a reference, a bot's SE is that of its difference to the reference.
		if d := ref.SE(i) - mean.DiffSE(i, 2); math.Abs(d) > 1e-9 {
			t.Errorf("bot %d: SE %g, want SE(r%d − r2) = %g", i, ref.SE(i), i, mean.DiffSE(i, 2))
		}
	}
}

func TestFit_MixedTeams(t *testing.T) {
	seed := testSeed(t)
	elo := spread(10, -300, 300)
	s := newSim(seed, 0, elo)
	var st Stats
	for range 20000 {
		t1, t2, f := s.teams()
		mustAdd(t, &st, s.duplicateBetween(t1, t2, f, 0.8))
	}
	r := mustFit(t, &st, Options{Channel: Games})
	for i, want := range elo {
		if z := (r.Elo[i] - want) / r.SE(i); math.Abs(z) > 4.5 {
			t.Errorf("bot %d: %.1f ± %.1f, true %.1f", i, r.Elo[i], r.SE(i), want)
		}
	}
}

func TestFit_Iterations(t *testing.T) {
	seed := testSeed(t)
	s := newSim(seed, 0, spread(100, -600, 600))
	var st Stats
	for range 50000 {
		mustAdd(t, &st, s.duplicate(0.8))
	}
	for _, ch := range []Channel{Points, Games} {
		r := mustFit(t, &st, Options{Channel: ch})
		t.Logf("%v: %d Newton iterations in all, for 100 bots", ch, r.Iterations)
		if r.Iterations >= 10 {
			t.Errorf("%v: %d Newton iterations, want fewer than 10", ch, r.Iterations)
		}
	}
}

func TestRatings_LOSMatrix(t *testing.T) {
	seed := testSeed(t)
	s := newSim(seed, 0, spread(4, -100, 100))
	var st Stats
	for range 400 {
		mustAdd(t, &st, s.duplicate(0.8))
	}
	r := mustFit(t, &st, Options{Channel: Games})
	m := r.LOSMatrix()
	for i := range m {
		for j := range m[i] {
			if d := m[i][j] + m[j][i] - 1; math.Abs(d) > 1e-12 {
				t.Errorf("LOS(%d,%d) + LOS(%d,%d) = 1%+g", i, j, j, i, d)
			}
			if want := normalCDF((r.Elo[i] - r.Elo[j]) / r.DiffSE(i, j)); i != j && m[i][j] != want {
				t.Errorf("LOS(%d,%d) = %v, want %v", i, j, m[i][j], want)
			}
		}
	}
	lo, hi := r.Interval(1)
	if math.Abs((hi-lo)/2-1.959963984540054*r.SE(1)) > 1e-9 || math.Abs((hi+lo)/2-r.Elo[1]) > 1e-9 {
		t.Errorf("Interval(1) = [%v, %v] for %v ± %v", lo, hi, r.Elo[1], r.SE(1))
	}
	if h := r.HalfWidth95(1); math.Abs(h-(hi-lo)/2) > 1e-9 {
		t.Errorf("HalfWidth95(1) = %v, want %v", h, (hi-lo)/2)
	}
	if h, want := r.DiffHalfWidth95(0, 1), 1.959963984540054*r.DiffSE(0, 1); h <= 0 || math.Abs(h-want) > 1e-9 {
		t.Errorf("DiffHalfWidth95(0, 1) = %v, want %v", h, want)
	}
}

// TestFitAfterOvershoot fits data (found by a random search) on which a long Newton step
// of the fit without a prior overshoots: the log-likelihood falls again at its end, so
// that the fit must measure the objective and halve the step. The fit must still end at
// the maximum, where the gradient vanishes.
func TestFitAfterOvershoot(t *testing.T) {
	rs := []Result{
		{Team1: Team{1, 0}, Team2: Team{1, 3}, Points: 0.11554666012922499, Weight: 235},
		{Team1: Team{2, 3}, Team2: Team{1, 0}, Points: 0.9061774434811893, Weight: 1},
		{Team1: Team{3, 2}, Team2: Solo(0), Points: 0.2699923678517073, Weight: 1},
		{Team1: Team{3, 0}, Team2: Team{0, 2}, Points: 0.22112075985077928, Weight: 441},
		{Team1: Solo(0), Team2: Team{1, 3}, Points: 0.7715842430774528, Weight: 1},
	}
	var st Stats
	if err := st.AddAll(rs); err != nil {
		t.Fatal(err)
	}
	res := mustFit(t, &st, Options{PriorSD: math.Inf(1)})
	d, err := newDesign(&st, Points)
	if err != nil {
		t.Fatal(err)
	}
	e := &evaluation{g: make([]float64, d.n), h: make([]float64, d.n*d.n)}
	d.eval(res.Elo, e)
	for i, g := range e.g {
		if math.Abs(g) > 1e-9 {
			t.Errorf("gradient %d at the fit = %g, want 0", i, g)
		}
	}
}

package rating

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomDesign returns a design of n bots over random pairings, mixed and solo, some
// with a bot on both sides.
func randomDesign(tb testing.TB, rng *rand.Rand, n, pairings int) *design {
	tb.Helper()
	var st Stats
	for range pairings {
		t1, t2 := Team{rng.IntN(n), rng.IntN(n)}, Team{rng.IntN(n), rng.IntN(n)}
		if err := st.Add(Result{Team1: t1, Team2: t2, Points: rng.Float64()}); err != nil {
			tb.Fatal(err)
		}
	}
	d, err := newDesign(&st, Points)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// vector returns t's design vector x, written out: R(t1) − R(t2) = x·r.
func (d *design) vector(t *term) []float64 {
	x := make([]float64, d.n)
	for _, b := range d.teams[t.t1] {
		x[b] += 0.5
	}
	for _, b := range d.teams[t.t2] {
		x[b] -= 0.5
	}
	return x
}

func TestOuterMatchesDenseSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 7))
	d := randomDesign(t, rng, 7, 300)
	n := d.n
	v, g := make([]float64, len(d.terms)), make([]float64, len(d.terms))
	wantH, wantG := make([]float64, n*n), make([]float64, n)
	for i := range d.terms {
		v[i], g[i] = rng.Float64(), rng.NormFloat64()
		x := d.vector(&d.terms[i])
		for a := range n {
			wantG[a] += g[i] * x[a]
			for b := range n {
				wantH[a*n+b] += v[i] * x[a] * x[b]
			}
		}
	}
	d.acc.reset()
	for base := 0; base < len(d.terms); base += 64 { // in chunks, as eval does
		end := min(base+64, len(d.terms))
		d.acc.accumulate(d.teams, d.terms[base:end], v[base:end], g[base:end])
	}
	h, gr := make([]float64, n*n), make([]float64, n)
	d.acc.expand(d.teams, h, gr)
	for i := range h {
		if math.Abs(h[i]-wantH[i]) > 1e-12*float64(len(d.terms)) {
			t.Errorf("Σ v·x·xᵀ entry (%d, %d) = %v, want %v", i/n, i%n, h[i], wantH[i])
		}
	}
	for i := range gr {
		if math.Abs(gr[i]-wantG[i]) > 1e-12*float64(len(d.terms)) {
			t.Errorf("Σ g·x entry %d = %v, want %v", i, gr[i], wantG[i])
		}
	}
}

func TestLevelsLogistic(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 8))
	d := randomDesign(t, rng, 6, 60)
	// Ratings of ordinary size take the product of the teams' exponentials; one rating
	// of 150,000 Elo makes every term take math.Exp, bounded at ±maxZ.
	for _, spread := range []float64{800, 150_000} {
		r := make([]float64, d.n)
		for i := range r {
			r[i] = (rng.Float64() - 0.5) * 800
		}
		r[0] = spread
		d.lv.set(d.teams, r)
		if d.lv.fast != (spread < 10_000) {
			t.Errorf("spread %v: fast = %v", spread, d.lv.fast)
		}
		for i := range d.terms {
			tm := &d.terms[i]
			x := d.vector(tm)
			diff := 0.0
			for b, c := range x {
				diff += c * r[b]
			}
			wantZ := max(-maxZ, min(maxZ, kappa*diff))
			z, ez := d.lv.logistic(tm)
			if math.Abs(z-wantZ) > 1e-9 || math.Abs(ez-math.Exp(-wantZ)) > 1e-12*math.Exp(-wantZ) {
				t.Errorf("spread %v, term %d: z, e^-z = %v, %v; want %v, %v", spread, i, z, ez, wantZ, math.Exp(-wantZ))
			}
		}
	}
}

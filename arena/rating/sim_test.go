package rating

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// This file is the simulator the acceptance tests draw results from: bots with known
// true ratings, results drawn from the package's own model.

// full reports whether the full-size acceptance runs were asked for (RATING_FULL=1).
func full() bool { return os.Getenv("RATING_FULL") != "" }

// testSeed returns the seed of a random test, RATING_SEED if set and the clock
// otherwise, and logs it so that a failure can be replayed.
func testSeed(tb testing.TB) uint64 {
	tb.Helper()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("RATING_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			tb.Fatalf("RATING_SEED=%q: %v", s, err)
		}
		seed = v
	}
	tb.Logf("seed %d (replay with RATING_SEED=%d)", seed, seed)
	return seed
}

// spread returns n ratings evenly spaced from lo to hi.
func spread(n int, lo, hi float64) []float64 {
	r := make([]float64, n)
	for i := range r {
		r[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return r
}

// sim draws results between bots with true ratings elo.
type sim struct {
	rng *rand.Rand
	elo []float64
}

// newSim returns a simulator whose stream is fixed by (seed, stream), so that every
// repetition of an experiment has its own reproducible stream.
func newSim(seed, stream uint64, elo []float64) *sim {
	return &sim{rng: rand.New(rand.NewPCG(seed, stream)), elo: elo}
}

// solos returns two different bots, uniformly, as teams of one bot, and team 1's
// expected score.
func (s *sim) solos() (t1, t2 Team, f float64) {
	i := s.rng.IntN(len(s.elo))
	j := s.rng.IntN(len(s.elo) - 1)
	if j >= i {
		j++
	}
	return Solo(i), Solo(j), Expected(s.elo[i] - s.elo[j])
}

// teams returns two random teams of two bots each (a bot may partner itself, and the
// two teams may share a bot but are never the same team), and team 1's expected score.
func (s *sim) teams() (t1, t2 Team, f float64) {
	n := len(s.elo)
	for {
		t1 = Team{s.rng.IntN(n), s.rng.IntN(n)}
		t2 = Team{s.rng.IntN(n), s.rng.IntN(n)}
		if sortTeam(t1) != sortTeam(t2) {
			break
		}
	}
	return t1, t2, Expected(s.strength(t1) - s.strength(t2))
}

// strength returns a team's true rating.
func (s *sim) strength(t Team) float64 { return (s.elo[t[0]] + s.elo[t[1]]) / 2 }

// game returns one independent win/loss game between two random bots, as a result of
// one game whose points share is the game score.
func (s *sim) game() Result {
	t1, t2, f := s.solos()
	g := 0.0
	if s.rng.Float64() < f {
		g = 1
	}
	return Result{Team1: t1, Team2: t2, Points: g, GameScore: g, Games: 1}
}

// duplicate returns a duplicate pair of two win/loss games between two random bots. The
// card luck of the two plays is correlated: with a Gaussian copula, team 1's luck in the
// second play is −rho times its luck in the first plus independent noise, because it
// then holds the cards its opponents held. Each game alone follows the model.
func (s *sim) duplicate(rho float64) Result {
	t1, t2, f := s.solos()
	return s.duplicateBetween(t1, t2, f, rho)
}

// duplicateBetween is duplicate for given teams with expected score f.
func (s *sim) duplicateBetween(t1, t2 Team, f, rho float64) Result {
	g1, g2 := s.duplicateGames(f, rho)
	return Result{Team1: t1, Team2: t2, Points: (g1 + g2) / 2, GameScore: g1 + g2, Games: 2}
}

// duplicateGames returns the two game scores of a duplicate pair (see duplicate), in
// the order played.
func (s *sim) duplicateGames(f, rho float64) (g1, g2 float64) {
	z1 := s.rng.NormFloat64()
	z2 := -rho*z1 + math.Sqrt(1-rho*rho)*s.rng.NormFloat64()
	if normalCDF(z1) < f {
		g1 = 1
	}
	if normalCDF(z2) < f {
		g2 = 1
	}
	return g1, g2
}

// pointsPair returns a pair's points share between two random bots, drawn from a Beta
// distribution with mean the model's expected score f and variance f(1−f)/(phi+1):
// phi+1 times less than a win/loss game's. It has no games.
func (s *sim) pointsPair(phi float64) Result {
	t1, t2, f := s.solos()
	return Result{Team1: t1, Team2: t2, Points: s.beta(phi*f, phi*(1-f))}
}

// beta draws from the Beta(a, b) distribution.
func (s *sim) beta(a, b float64) float64 {
	x := s.gamma(a)
	return x / (x + s.gamma(b))
}

// gamma draws from the Gamma(a, 1) distribution (Marsaglia and Tsang's method).
func (s *sim) gamma(a float64) float64 {
	if a < 1 {
		return s.gamma(a+1) * math.Pow(s.rng.Float64(), 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := s.rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := s.rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < x*x/2+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// mustFit fits st or fails the test.
func mustFit(tb testing.TB, st *Stats, opt Options) *Ratings {
	tb.Helper()
	r, err := Fit(st, opt)
	if err != nil {
		tb.Fatalf("Fit: %v", err)
	}
	return r
}

// mustAdd adds r to st or fails the test.
func mustAdd(tb testing.TB, st *Stats, r Result) {
	tb.Helper()
	if err := st.Add(r); err != nil {
		tb.Fatalf("Add(%+v): %v", r, err)
	}
}

package rating

import (
	"fmt"
	"math"
	"testing"
)

// The acceptance figures of ratings.md, reproduced with the simulator. Normal runs use
// fewer repetitions and sizes; RATING_FULL=1 runs the full study. Each repetition has
// its own random stream, derived from the test's seed.

// TestAcceptance_RMSE checks the fit's RMSE against the table in ratings.md (at most
// 1.1× its figures), and incremental K=16 Elo against its figures (within 15%, which
// checks that the simulator is the study's): 8 bots over −400…+400, independent
// win/loss games between random pairs of bots. Normal runs stop at 3,000 games.
func TestAcceptance_RMSE(t *testing.T) {
	t.Parallel()
	seed := testSeed(t)
	type row struct {
		games, reps int
		fit, k16    float64 // figures of ratings.md
	}
	rows := []row{
		{300, 400, 53.2, 112.8},
		{1000, 400, 28.9, 43.0},
		{3000, 400, 16.4, 34.6},
	}
	if full() {
		rows = []row{
			{300, 2000, 53.2, 112.8},
			{1000, 2000, 28.9, 43.0},
			{3000, 1000, 16.4, 34.6},
			{10000, 1000, 9.0, 35.1},
			{30000, 400, 5.1, 35.2},
			{100000, 400, 2.9, 34.9},
		}
	}
	elo := spread(8, -400, 400)
	for _, rw := range rows {
		var fitSq, k16Sq float64
		for rep := range rw.reps {
			s := newSim(seed, uint64(rw.games)<<20|uint64(rep), elo)
			var st Stats
			k16 := NewIncremental(len(elo), 16, Games)
			for range rw.games {
				r := s.game()
				mustAdd(t, &st, r)
				if err := k16.Add(r); err != nil {
					t.Fatal(err)
				}
			}
			fit := mustFit(t, &st, Options{Channel: Games})
			for i, want := range elo {
				fitSq += (fit.Elo[i] - want) * (fit.Elo[i] - want)
				k16Sq += (k16.Elo[i] - want) * (k16.Elo[i] - want)
			}
		}
		n := float64(rw.reps * len(elo))
		fitRMSE, k16RMSE := math.Sqrt(fitSq/n), math.Sqrt(k16Sq/n)
		t.Logf("%6d games, %4d reps: fit RMSE %5.1f (table %5.1f, ratio %.3f); K=16 RMSE %5.1f (table %5.1f)",
			rw.games, rw.reps, fitRMSE, rw.fit, fitRMSE/rw.fit, k16RMSE, rw.k16)
		if fitRMSE > 1.1*rw.fit {
			t.Errorf("%d games: fit RMSE %.1f, want at most 1.1 × %.1f", rw.games, fitRMSE, rw.fit)
		}
		if math.Abs(k16RMSE/rw.k16-1) > 0.15 {
			t.Errorf("%d games: K=16 RMSE %.1f, want within 15%% of %.1f (simulator differs from the study's)", rw.games, k16RMSE, rw.k16)
		}
	}
}

// coverageCase is one setting of TestAcceptance_Coverage.
type coverageCase struct {
	name  string
	elo   []float64
	draw  func(s *sim) Result // one result
	per   int                 // games per result
	ch    Channel
	plain float64 // minimum coverage of the plain-Hessian interval, 0 for no check
}

// TestAcceptance_Coverage checks that 95% intervals cover the true rating 93–97% of the
// time for independent games, duplicate pairs and points shares, and that on duplicate
// data the plain inverse Hessian over-covers (at least 0.99), which shows that the
// clusters are used.
//
// Duplicate pairs use the setting of ratings.md's duplicate figure (8 bots over
// −50…+50, luck correlation 0.8 within a pair). Over −400…+400 the card luck matters
// less between unequal bots and the plain Hessian over-covers less; the full run checks
// the sandwich there too, and logs the plain Hessian's coverage. Points shares at 300 games (150 pairs) cover about 0.935, close to the
// lower limit, so that case runs more repetitions.
func TestAcceptance_Coverage(t *testing.T) {
	t.Parallel()
	seed := testSeed(t)
	wide, narrow := spread(8, -400, 400), spread(8, -50, 50)
	dup := func(s *sim) Result { return s.duplicate(0.8) }
	points := func(s *sim) Result { return s.pointsPair(5) }
	cases := []coverageCase{
		{"iid games", wide, (*sim).game, 1, Games, 0},
		{"duplicate pairs", narrow, dup, 2, Games, 0.99},
		{"points shares", wide, points, 2, Points, 0},
	}
	type run struct {
		games, reps int
	}
	runs := func(c coverageCase) []run {
		if full() {
			return []run{{300, 4000 * (1 + 3*btoi(c.ch == Points))}, {1000, 4000}, {3000, 4000}, {10000, 2000}}
		}
		return []run{{300, 1000 * (1 + 3*btoi(c.ch == Points))}, {1000, 1000}}
	}
	if full() {
		cases = append(cases, coverageCase{"duplicate pairs, wide", wide, dup, 2, Games, 0})
	}
	for ci, c := range cases {
		for _, rn := range runs(c) {
			t.Run(fmt.Sprintf("%s/%d", c.name, rn.games), func(t *testing.T) {
				t.Parallel()
				var covered, plainCovered, n float64
				for rep := range rn.reps {
					s := newSim(seed, uint64(ci)<<40|uint64(rn.games)<<20|uint64(rep), c.elo)
					var st Stats
					for range rn.games / c.per {
						mustAdd(t, &st, c.draw(s))
					}
					fit := mustFit(t, &st, Options{Channel: c.ch})
					for i, want := range c.elo {
						if math.Abs(fit.Elo[i]-want) <= z95*fit.SE(i) {
							covered++
						}
						if math.Abs(fit.Elo[i]-want) <= z95*fit.PlainSE(i) {
							plainCovered++
						}
						n++
					}
				}
				cov, plain := covered/n, plainCovered/n
				t.Logf("%s, %d games, %d reps: sandwich coverage %.4f, plain Hessian %.4f", c.name, rn.games, rn.reps, cov, plain)
				if cov < 0.93 || cov > 0.97 {
					t.Errorf("coverage %.4f, want 0.93–0.97", cov)
				}
				if plain < c.plain {
					t.Errorf("plain Hessian coverage %.4f, want at least %.2f", plain, c.plain)
				}
			})
		}
	}
}

// btoi returns 1 for true and 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestAcceptance_DuplicateRMSE checks that duplicate pairs (8 bots over −50…+50, luck
// correlation 0.8) give at most 0.72 times the RMSE of as many independent games.
func TestAcceptance_DuplicateRMSE(t *testing.T) {
	t.Parallel()
	seed := testSeed(t)
	elo := spread(8, -50, 50)
	sizes, reps := []int{1000}, 1000
	if full() {
		sizes, reps = []int{300, 1000, 3000, 10000}, 2000
	}
	for _, games := range sizes {
		var iidSq, dupSq float64
		for rep := range reps {
			s := newSim(seed, uint64(games)<<20|uint64(rep), elo)
			var iid, dup Stats
			for range games {
				mustAdd(t, &iid, s.game())
			}
			for range games / 2 {
				mustAdd(t, &dup, s.duplicate(0.8))
			}
			a, b := mustFit(t, &iid, Options{Channel: Games}), mustFit(t, &dup, Options{Channel: Games})
			for i, want := range elo {
				iidSq += (a.Elo[i] - want) * (a.Elo[i] - want)
				dupSq += (b.Elo[i] - want) * (b.Elo[i] - want)
			}
		}
		ratio := math.Sqrt(dupSq / iidSq)
		t.Logf("%5d games, %4d reps: RMSE iid %.2f, duplicate %.2f, ratio %.3f", games, reps,
			math.Sqrt(iidSq/float64(reps*len(elo))), math.Sqrt(dupSq/float64(reps*len(elo))), ratio)
		if ratio > 0.72 {
			t.Errorf("%d games: duplicate/iid RMSE ratio %.3f, want at most 0.72", games, ratio)
		}
	}
}

// TestAcceptance_LOSCalibration checks that between equal bots LOS exceeds 0.95 and 0.99
// about as often as it should: P(LOS > 0.95) in [0.04, 0.065], P(LOS > 0.99) in
// [0.005, 0.02]. 4 equal bots, 200 duplicate pairs a repetition, every ordered pair of
// bots counted.
func TestAcceptance_LOSCalibration(t *testing.T) {
	t.Parallel()
	seed := testSeed(t)
	reps := 2000
	if full() {
		reps = 10000
	}
	elo := make([]float64, 4)
	var n, over95, over99 float64
	for rep := range reps {
		s := newSim(seed, uint64(rep), elo)
		var st Stats
		for range 200 {
			mustAdd(t, &st, s.duplicate(0.8))
		}
		los := mustFit(t, &st, Options{Channel: Games}).LOSMatrix()
		for i := range los {
			for j := range los[i] {
				if i == j {
					continue
				}
				n++
				if los[i][j] > 0.95 {
					over95++
				}
				if los[i][j] > 0.99 {
					over99++
				}
			}
		}
	}
	p95, p99 := over95/n, over99/n
	t.Logf("%d reps: P(LOS > 0.95) = %.4f, P(LOS > 0.99) = %.4f", reps, p95, p99)
	if p95 < 0.04 || p95 > 0.065 {
		t.Errorf("P(LOS > 0.95) = %.4f, want 0.04–0.065", p95)
	}
	if p99 < 0.005 || p99 > 0.02 {
		t.Errorf("P(LOS > 0.99) = %.4f, want 0.005–0.02", p99)
	}
}

// PlainSE returns the inverse-Hessian standard error of bot i's rating.
func (r *Ratings) PlainSE(i int) float64 {
	return math.Sqrt(r.PlainCov[i*len(r.Elo)+i])
}

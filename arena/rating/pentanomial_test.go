package rating

import (
	"math"
	"testing"
)

// pentanomialSE returns, for pair scores x (each the mean of a pair's two game scores,
// or a points share), fastchess's pentanomial score and standard error of the Elo
// difference: the variance of the pair scores about their mean (over N, as fastchess
// computes it) divided by N, carried to Elo by the slope of the logistic curve at the
// score (the delta method).
func pentanomialSE(x []float64) (elo, se float64) {
	n := float64(len(x))
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= n
	variance := 0.0
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	variance /= n
	elo = -400 * math.Log10(1/mean-1)
	se = math.Sqrt(variance/n) / (kappa * mean * (1 - mean))
	return elo, se
}

// TestFit_TwoBotPentanomialIdentity checks that for two bots the sandwich standard
// error of the rating difference is exactly fastchess's pentanomial standard error,
// times √(C/(C−1)) for the small-sample factor, and the rating difference its Elo.
func TestFit_TwoBotPentanomialIdentity(t *testing.T) {
	seed := testSeed(t)
	s := newSim(seed, 0, []float64{60, 0})
	f := Expected(60)
	for _, pairs := range []int{7, 100, 2500} {
		var st Stats
		var games, points []float64
		for range pairs {
			r := s.duplicateBetween(Solo(0), Solo(1), f, 0.7)
			switch { // turn a quarter of the pairs' first won or lost game into a draw
			case s.rng.IntN(4) > 0:
			case r.GameScore < 2:
				r.GameScore += 0.5
			default:
				r.GameScore -= 0.5
			}
			r.Points = s.beta(6*f, 6*(1-f))
			// Half the pairs are recorded from bot 1's side.
			rec := r
			if s.rng.IntN(2) == 0 {
				rec = swapped(r)
			}
			mustAdd(t, &st, rec)
			games = append(games, r.GameScore/2)
			points = append(points, r.Points)
		}
		c := float64(pairs)
		for _, tc := range []struct {
			ch Channel
			x  []float64
		}{{Games, games}, {Points, points}} {
			fit := mustFit(t, &st, Options{Channel: tc.ch, PriorSD: math.Inf(1)})
			elo, se := pentanomialSE(tc.x)
			want := se * math.Sqrt(c/(c-1))
			if got := fit.Elo[0] - fit.Elo[1]; math.Abs(got-elo) > 1e-9*max(1, math.Abs(elo)) {
				t.Errorf("%d pairs, %v: Elo difference %.12f, pentanomial %.12f", pairs, tc.ch, got, elo)
			}
			if got := fit.DiffSE(0, 1); math.Abs(got-want) > 1e-9*want {
				t.Errorf("%d pairs, %v: sandwich SE %.12f, pentanomial SE·√(C/(C−1)) %.12f", pairs, tc.ch, got, want)
			}
			t.Logf("%d pairs, %v: %.3f ± %.4f (sandwich) = %.3f ± %.4f (pentanomial·√(C/(C−1)))",
				pairs, tc.ch, fit.Elo[0]-fit.Elo[1], fit.DiffSE(0, 1), elo, want)
		}
	}
}

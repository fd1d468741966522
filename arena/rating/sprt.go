package rating

import (
	"errors"
	"fmt"
	"math"
)

// Decision is the state of a sequential test. Its String is "continue", "H0" or "H1".
type Decision uint8

//go:generate go tool stringer -type=Decision -linecomment

const (
	// Continue means neither bound has been crossed: play another pair.
	Continue Decision = iota // continue
	// AcceptH0 means the lower bound was crossed: the difference is at most Elo0.
	AcceptH0 // H0
	// AcceptH1 means the upper bound was crossed: the difference is at least Elo1.
	AcceptH1 // H1
)

// ErrInvalidSPRT is wrapped by the errors NewSPRT and SPRT.Add return for a test
// configuration or a pair score they cannot use.
var ErrInvalidSPRT = errors.New("rating: invalid SPRT")

// SPRTConfig sets up a head-to-head sequential probability ratio test of
// H0: Elo difference = Elo0 against H1: Elo difference = Elo1.
type SPRTConfig struct {
	// Elo0 and Elo1 are the hypotheses' Elo differences, Elo0 < Elo1; in logistic Elo,
	// or in normalized Elo if Normalized is set.
	Elo0, Elo1 float64
	// Alpha is the probability of accepting H1 when H0 holds, Beta that of accepting H0
	// when H1 holds: both in (0, 1), with Alpha + Beta < 1.
	Alpha, Beta float64
	// Normalized reads Elo0 and Elo1 as normalized Elo (fastchess's nElo for game
	// pairs): the score excess over ½ in units of the per-play standard deviation,
	// nElo = (s − ½)/√(2·Var(pair score))·800/ln 10, which depends less on the draw
	// rate and the card luck than logistic Elo.
	Normalized bool
}

// validate reports why c cannot be used, or returns nil.
func (c *SPRTConfig) validate() error {
	switch {
	case !(c.Elo0 < c.Elo1) || math.IsInf(c.Elo0, 0) || math.IsInf(c.Elo1, 0):
		return fmt.Errorf("%w: need finite elo0 < elo1, have %v, %v", ErrInvalidSPRT, c.Elo0, c.Elo1)
	case !(c.Alpha > 0 && c.Alpha < 1 && c.Beta > 0 && c.Beta < 1 && c.Alpha+c.Beta < 1):
		return fmt.Errorf("%w: need alpha, beta in (0, 1) with alpha+beta < 1, have %v, %v", ErrInvalidSPRT, c.Alpha, c.Beta)
	}
	return nil
}

// SPRT is a generalised sequential probability ratio test (GSPRT) on pair outcomes, as
// fishtest and fastchess run it on pentanomial game pairs. Feed it one score per
// duplicate pair, from the point of view of the bot under test: the pair's points
// share, or its mean game score (0, ¼, ½, ¾ or 1 for two games). Stop at the first
// decision other than Continue; the error rates hold for that stopping rule.
//
// The log-likelihood ratio is fishtest's approximation to the generalised likelihood
// ratio (LLR_alt in its LLRcalc.py, after M. Van den Bergh):
// LLR = N/2·ln(σ̂0²/σ̂1²), where σ̂k² = (1/N)·Σ(x − s_k)² is the mean squared distance of
// the pair scores from the expected score s_k under hypothesis k. It only needs the
// count, sum and sum of squares of the pair scores, kept as exported fields so that a
// test can be stored and resumed.
//
// Like fishtest and fastchess, the LLR is computed from regularised data, here the pairs
// plus two pseudo-pairs scoring half a point below and above the pairs' mean. Without
// them a run of equal pairs (common in duplicate play, where a pair split one game each
// scores exactly ½) estimates the variance as 0 and ends the test at once. They leave
// the mean where it is and add ½/(N+2) to the variance, so the first pairs cannot decide
// the test and the effect fades as 1/N.
type SPRT struct {
	SPRTConfig
	Pairs int     // number of pair scores added
	Sum   float64 // Σ x
	SumSq float64 // Σ x²
}

// NewSPRT returns a test with no pairs, or an error wrapping ErrInvalidSPRT if c is not
// a valid configuration.
func NewSPRT(c SPRTConfig) (*SPRT, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &SPRT{SPRTConfig: c}, nil
}

// Add records one pair score x in [0, 1] and returns the decision after it. A score
// outside [0, 1] is not recorded and returns an error wrapping ErrInvalidSPRT.
func (t *SPRT) Add(x float64) (Decision, error) {
	if !(x >= 0 && x <= 1) {
		return t.Decision(), fmt.Errorf("%w: pair score %v outside [0, 1]", ErrInvalidSPRT, x)
	}
	t.Pairs++
	t.Sum += x
	t.SumSq += x * x
	return t.Decision(), nil
}

// Bounds returns the LLR bounds ln(β/(1−α)) and ln((1−β)/α): the test accepts H0 at or
// below lower and H1 at or above upper.
func (t *SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Decision returns the test's state from its LLR and bounds.
func (t *SPRT) Decision() Decision {
	llr := t.LLR()
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

// LLR returns the log-likelihood ratio of H1 against H0 after the pairs added so far: 0
// before the first pair.
func (t *SPRT) LLR() float64 {
	if t.Pairs == 0 {
		return 0
	}
	n := float64(t.Pairs)
	mean := t.Sum / n
	// Add the two regularising pseudo-pairs at mean ± ½.
	v := (max(0, t.SumSq-n*mean*mean) + 0.5) / (n + 2)
	n += 2
	s0, s1 := t.scores(v)
	r0 := v + (mean-s0)*(mean-s0)
	r1 := v + (mean-s1)*(mean-s1)
	if r0 == r1 {
		return 0
	}
	return n / 2 * math.Log(r0/r1)
}

// scores returns the expected pair scores under H0 and H1, given the pair scores'
// variance v (used by normalized bounds only).
func (t *SPRT) scores(v float64) (s0, s1 float64) {
	if !t.Normalized {
		return Expected(t.Elo0), Expected(t.Elo1)
	}
	u := math.Sqrt(2*v) * math.Ln10 / 800
	return 0.5 + t.Elo0*u, 0.5 + t.Elo1*u
}

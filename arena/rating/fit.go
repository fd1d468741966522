package rating

import (
	"errors"
	"fmt"
)

// DefaultPriorSD is the standard deviation, in Elo, of the weak Gaussian prior that Fit
// puts on each rating's distance from the pool mean when Options.PriorSD is zero.
const DefaultPriorSD = 500

// Options configure Fit. The zero value fits the points channel with the default prior
// and anchors the pool mean at 0.
type Options struct {
	// Channel is the channel to fit: Points (the default) or Games.
	Channel Channel
	// PriorSD is the standard deviation in Elo of the Gaussian prior on each rating's
	// distance from the pool mean, on the scale of the data's real precision (see Fit);
	// it keeps a perfect score from sending a rating to infinity. Zero means
	// DefaultPriorSD; math.Inf(1) turns the prior off, which gives the plain
	// maximum-likelihood fit (and ErrNoConvergence for a perfect score).
	PriorSD float64
	// Reference, if not nil, anchors the scale by fixing one bot's rating; nil anchors
	// the mean of all ratings at 0.
	Reference *Reference
}

// Reference fixes one bot's rating, typically a frozen reference bot.
type Reference struct {
	Bot int     // the bot's index
	Elo float64 // its rating
}

// ErrInvalidOptions is wrapped by the error Fit returns for options it cannot use.
var ErrInvalidOptions = errors.New("rating: invalid options")

// ErrNoConvergence is wrapped by the error Fit returns when Newton–Raphson does not
// converge. Without a prior this is what a perfect score gives: the maximum-likelihood
// ratings are then infinite.
var ErrNoConvergence = errors.New("rating: fit did not converge")

// ErrTooFewClusters is wrapped by the error Fit returns when there are no more pairs than
// free ratings, so that the cluster-robust covariance cannot be estimated.
var ErrTooFewClusters = errors.New("rating: too few pairs for the covariance")

// Fit computes the maximum a posteriori ratings of every bot in st, for one channel,
// with their cluster-robust and plain covariance.
//
// The model is logistic Elo: a pairing's expected score for team 1 is
// F(R(T1) − R(T2)) with F(d) = 1/(1+10^(−d/400)) and R(T) the mean of the team's two
// ratings. Fit maximises Σ w·[S·ln F + (n−S)·ln(1−F)] minus the prior penalty
// δ·Σ (r_i − r̄)²/(2σ²) by Newton–Raphson with step halving (the objective is concave);
// both terms are unchanged by a common shift of all ratings, so the anchor only chooses
// the representative and no rating difference depends on it. The ratings are those of
// bots 0 … st.Bots()−1.
//
// δ puts the prior on the scale of the data's real precision. The likelihood treats
// every game as an independent binomial trial, which understates the information in
// duplicate pairs about 2× and in points shares about 6×; with δ = 1 the prior would pull
// that much harder against the data than σ says. So Fit starts with δ = 1 and, once a
// Newton step moves no rating by more than 1 Elo (close to that first optimum, as Newton
// converges quadratically), measures the dispersion
// δ = Σ_c w_c²(S_c − n_c·F)² / Σ_c w_c·n_c·F(1−F) (about 1 for independent games) and
// iterates on to the optimum with it. For 100 bots this takes fewer than 10 iterations
// in all.
//
// Fit returns ErrNoData if the channel is empty, a *DisconnectedError naming the
// components if the comparison graph is not connected (including a bot index with no
// results at all), ErrNotIdentified if team results leave a rating undetermined, and
// errors wrapping ErrInvalidOptions, ErrInvalidResult, ErrTooFewClusters or
// ErrNoConvergence.
func Fit(st *Stats, opt Options) (*Ratings, error) {
	prec, err := opt.precision()
	if err != nil {
		return nil, err
	}
	d, err := newDesign(st, opt.Channel)
	if err != nil {
		return nil, err
	}
	if ref := opt.Reference; ref != nil && (ref.Bot < 0 || ref.Bot >= d.n) {
		return nil, fmt.Errorf("%w: reference bot %d not in [0, %d)", ErrInvalidOptions, ref.Bot, d.n)
	}
	if err := d.check(); err != nil {
		return nil, err
	}
	if free := d.n - 1; d.clusters <= free {
		return nil, fmt.Errorf("%w: %d pairs for %d free ratings", ErrTooFewClusters, d.clusters, free)
	}
	r, h, iters, err := d.newton(prec)
	if err != nil {
		return nil, err
	}
	mean := avg(r)
	for i := range r {
		r[i] -= mean
	}
	sandwich, plain, err := d.covariance(r, h)
	if err != nil {
		return nil, err
	}
	res := &Ratings{Elo: r, Cov: sandwich, PlainCov: plain, Clusters: d.clusters, Iterations: iters}
	if opt.Reference != nil {
		res.anchor(*opt.Reference)
	}
	return res, nil
}

// precision returns 1/σ² for the prior, 0 for none.
func (opt *Options) precision() (float64, error) {
	if opt.Channel != Points && opt.Channel != Games {
		return 0, fmt.Errorf("%w: %v", ErrInvalidOptions, opt.Channel)
	}
	sd := opt.PriorSD
	if sd == 0 {
		sd = DefaultPriorSD
	}
	if !(sd > 0) {
		return 0, fmt.Errorf("%w: prior standard deviation %v", ErrInvalidOptions, opt.PriorSD)
	}
	return 1 / (sd * sd), nil
}

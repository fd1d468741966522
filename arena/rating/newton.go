package rating

import (
	"fmt"
	"math"
)

// The Newton–Raphson iterations of Fit.
const (
	// maxNewton bounds the iterations.
	maxNewton = 100
	// newtonTol is the step, in Elo, below which the fit has converged: the remaining
	// error is then of the order of its square.
	newtonTol = 1e-7
	// dispersionTol is the step, in Elo, below which the dispersion is measured.
	dispersionTol = 1
	// safeStep is the largest step, in Elo, that is an ascent for sure (see newton).
	safeStep = math.Ln2 / (2 * kappa)
	// maxZ bounds the exponent of the logistic function, ±700 (±121,600 Elo), so that it
	// never overflows.
	maxZ = 700
)

// evaluation holds the likelihood part of the objective at some ratings: its value (if
// computed), gradient and negated Hessian.
type evaluation struct {
	obj    float64
	hasObj bool
	g      []float64 // gradient
	h      []float64 // negated Hessian, n×n
}

// evalChunk is the number of terms eval computes the logistic function for before it
// accumulates them.
const evalChunk = 256

// eval computes the gradient and negated Hessian of the log-likelihood at r; its value
// is left to objective.
func (d *design) eval(r []float64, e *evaluation) {
	lv := &d.lv
	lv.set(d.teams, r)
	d.acc.reset()
	var gam, v [evalChunk]float64
	for base := 0; base < len(d.terms); base += evalChunk {
		ts := d.terms[base:min(base+evalChunk, len(d.terms))]
		for i := range ts {
			t := &ts[i]
			_, ez := lv.logistic(t)
			f := 1 / (1 + ez)
			// Gradient κ(a − bF)·x, negated Hessian κ²·b·F(1−F)·x·xᵀ.
			gam[i] = kappa * (t.a - t.b*f)
			v[i] = kappa * kappa * t.b * ez * f * f
		}
		d.acc.accumulate(d.teams, ts, v[:len(ts)], gam[:len(ts)])
	}
	d.acc.expand(d.teams, e.h, e.g)
	e.hasObj = false
}

// objective sets e.obj, the log-likelihood at r, if it is not set yet.
func (d *design) objective(r []float64, e *evaluation) {
	if e.hasObj {
		return
	}
	lv := &d.lv
	lv.set(d.teams, r)
	obj := 0.0
	for i := range d.terms {
		t := &d.terms[i]
		z, ez := lv.logistic(t)
		// a·ln F + (b−a)·ln(1−F), with ln F = −ln(1+e^−z), ln(1−F) = −z − ln(1+e^−z).
		obj -= t.b*math.Log1p(ez) + (t.b-t.a)*z
	}
	e.obj, e.hasObj = obj, true
}

// posterior holds the objective with the prior: the likelihood's gradient and negated
// Hessian plus the prior's, for prior precision prec.
type posterior struct {
	g, h []float64
}

// set computes p from e at r.
func (p *posterior) set(e *evaluation, r []float64, prec float64) {
	n := len(r)
	copy(p.g, e.g)
	copy(p.h, e.h)
	if prec == 0 {
		return
	}
	mean := avg(r)
	for i, v := range r {
		p.g[i] -= prec * (v - mean)
		p.h[i*n+i] += prec
	}
	off := prec / float64(n)
	for i := range p.h {
		p.h[i] -= off
	}
}

// penalty returns the prior's term of the objective at r, −prec·Σ(r_i − r̄)²/2.
func penalty(r []float64, prec float64) float64 {
	mean, s := avg(r), 0.0
	for _, v := range r {
		s += (v - mean) * (v - mean)
	}
	return -prec * s / 2
}

// rising reports whether the log-posterior, for prior precision p, still rises along
// delta at the ratings r evaluated in e. The log-posterior being concave, it then rose
// all the way along the step to r, which is therefore an ascent.
func rising(e *evaluation, r []float64, p float64, delta []float64) bool {
	mean, slope := avg(r), 0.0
	for i, v := range r {
		slope += (e.g[i] - p*(v-mean)) * delta[i]
	}
	return slope >= 0
}

// newton maximises the log-posterior for prior precision prec·δ from all ratings 0, where
// δ is the dispersion (see Fit), and returns the ratings, the negated Hessian of the
// log-posterior there and the number of iterations.
//
// A step moving no team difference by more than Δ Elo changes the curvature κ²·F(1−F) of
// every pairing by at most a factor e^{κΔ}; a Newton step δ has Δ ≤ 2·max|δ_i| and is an
// ascent whenever e^{κΔ} < 2, that is max|δ_i| < safeStep (about 60 Elo). Only longer
// steps need checking: they are ascents if the log-posterior still rises at their end
// (it is concave); otherwise the step is halved until the objective says it ascends.
func (d *design) newton(prec float64) (r, h []float64, iters int, err error) {
	n := d.n
	cur := &evaluation{g: make([]float64, n), h: make([]float64, n*n)}
	next := &evaluation{g: make([]float64, n), h: make([]float64, n*n)}
	post := &posterior{g: make([]float64, n), h: make([]float64, n*n)}
	r = make([]float64, n)
	trial := make([]float64, n)
	delta := make([]float64, n)
	m := make([]float64, n*n)
	scale, measured := 1.0, prec == 0
	d.eval(r, cur)
	for iters = 1; iters <= maxNewton; iters++ {
		p := prec * scale
		post.set(cur, r, p)
		if err := shiftedSolve(post.h, post.g, n, m, delta); err != nil {
			return nil, nil, iters, fmt.Errorf("%w: Newton step: %v", ErrNoConvergence, err)
		}
		size := maxAbs(delta)
		addScaled(trial, r, delta, 1)
		d.eval(trial, next)
		if size >= safeStep && !rising(next, trial, p, delta) {
			d.objective(r, cur)
			before := cur.obj + penalty(r, p)
			for step := 1.0; ; {
				d.objective(trial, next)
				if after := next.obj + penalty(trial, p); after >= before-1e-12*(1+math.Abs(before)) {
					break
				}
				if step /= 2; step < 1e-12 {
					return nil, nil, iters, fmt.Errorf("%w: no ascent along the Newton step", ErrNoConvergence)
				}
				addScaled(trial, r, delta, step)
				d.eval(trial, next)
			}
		}
		r, trial = trial, r
		cur, next = next, cur
		// Both tolerances are below safeStep, so these steps were taken whole.
		switch {
		case !measured && size < dispersionTol:
			scale, measured = d.dispersion(r), true
		case measured && size < newtonTol:
			post.set(cur, r, prec*scale)
			return r, post.h, iters, nil
		}
	}
	return nil, nil, maxNewton, fmt.Errorf("%w in %d iterations", ErrNoConvergence, maxNewton)
}

// dispersion returns the ratio of the observed variance of the cluster scores around the
// model at r to the binomial variance the likelihood assumes:
// Σ_c w_c²(S_c − n_c·F)² / Σ_c w_c·n_c·F(1−F). It is about 1 for independent games,
// below 1 for duplicate pairs (the card luck cancels) and far below 1 for points shares.
func (d *design) dispersion(r []float64) float64 {
	lv := &d.lv
	lv.set(d.teams, r)
	var obs, model float64
	for i := range d.terms {
		t := &d.terms[i]
		_, ez := lv.logistic(t)
		f := 1 / (1 + ez)
		obs += t.sums.SS - 2*f*t.sums.NS + f*f*t.sums.NN
		model += t.b * ez * f * f // F(1−F) without cancellation
	}
	return max(0, obs/model)
}

// shiftedSolve solves (H + α·11ᵀ)·δ = g into delta, using m as scratch, with α > 0
// chosen for conditioning. H is singular along 1 (a common shift changes nothing) and
// g ⊥ 1, so δ ⊥ 1 and H·δ = g: this is the Newton step on the ratings modulo a shift.
func shiftedSolve(h, g []float64, n int, m, delta []float64) error {
	alpha := shift(h, n)
	for i, v := range h {
		m[i] = v + alpha
	}
	if err := cholesky(m, n); err != nil {
		return err
	}
	copy(delta, g)
	cholSolve(m, n, delta)
	return nil
}

// shift returns the α > 0 that shiftedSolve adds to every entry: trace(H)/n², which
// gives the direction 1 an eigenvalue equal to H's mean diagonal entry.
func shift(h []float64, n int) float64 {
	tr := 0.0
	for i := range n {
		tr += h[i*n+i]
	}
	return tr / float64(n*n)
}

// addScaled sets dst = a + s·b.
func addScaled(dst, a, b []float64, s float64) {
	for i := range dst {
		dst[i] = a[i] + s*b[i]
	}
}

// avg returns the mean of v.
func avg(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// maxAbs returns the largest absolute value in v.
func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}

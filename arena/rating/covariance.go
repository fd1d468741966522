package rating

import "fmt"

// covariance returns, for ratings r anchored at mean 0 and the negated Hessian h there,
// the cluster-robust covariance V = H⁺·J·H⁺·C/(C−p) and the plain one H⁺.
//
// H⁺ is the pseudo-inverse of H on the ratings modulo a shift, that is the covariance of
// r_i − r̄: (H + α·11ᵀ)⁻¹ − 11ᵀ/(α·n²). J = Σ_c u_c·u_cᵀ sums the outer products of the
// per-cluster score vectors, C counts the clusters (pairs) and p = n−1 the free ratings.
func (d *design) covariance(r, h []float64) (sandwich, plain []float64, err error) {
	n := d.n
	alpha := shift(h, n)
	m := make([]float64, n*n)
	for i, v := range h {
		m[i] = v + alpha
	}
	if err := cholesky(m, n); err != nil {
		return nil, nil, fmt.Errorf("%w: covariance: %v", ErrNoConvergence, err)
	}
	plain = cholInverse(m, n)
	off := 1 / (alpha * float64(n) * float64(n))
	for i := range plain {
		plain[i] -= off
	}
	j := make([]float64, n*n)
	lv := &d.lv
	lv.set(d.teams, r)
	d.acc.reset()
	var q [evalChunk]float64
	for base := 0; base < len(d.terms); base += evalChunk {
		ts := d.terms[base:min(base+evalChunk, len(d.terms))]
		for i := range ts {
			t := &ts[i]
			_, ez := lv.logistic(t)
			f, s := 1/(1+ez), t.sums
			// Σ_c w²(S_c − n_c·F)², times κ².
			q[i] = kappa * kappa * (s.SS - 2*f*s.NS + f*f*s.NN)
		}
		d.acc.accumulate(d.teams, ts, q[:len(ts)], nil)
	}
	d.acc.expand(d.teams, j, nil)
	sandwich = mul(mul(plain, j, n), plain, n)
	c := float64(d.clusters)
	factor := c / (c - float64(n-1))
	for a := range n {
		for b := a; b < n; b++ {
			v := (sandwich[a*n+b] + sandwich[b*n+a]) / 2 * factor
			sandwich[a*n+b], sandwich[b*n+a] = v, v
		}
	}
	return sandwich, plain, nil
}

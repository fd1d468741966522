package rating

import "math"

// levels holds, for some ratings, each team's rating R(T) and e^{∓κR(T)}, so that a
// term's e^{−z}, z = κ·(R(t1) − R(t2)), takes one product instead of an exponential.
type levels struct {
	r, e, inv []float64 // R(T), e^{−κR(T)}, e^{κR(T)}
	fast      bool      // every |κR(T)| ≤ maxZ/2, so that the products cannot overflow
}

// set computes the levels of ratings r.
func (lv *levels) set(teams [][2]uint16, r []float64) {
	lv.fast = true
	for i, t := range teams {
		v := (r[t[0]] + r[t[1]]) / 2
		lv.r[i] = v
		if math.Abs(kappa*v) > maxZ/2 {
			lv.fast = false
		}
	}
	if !lv.fast {
		return
	}
	for i, v := range lv.r {
		lv.e[i] = math.Exp(-kappa * v)
		lv.inv[i] = math.Exp(kappa * v)
	}
}

// logistic returns z = κ·(R(t1) − R(t2)) for term t, bounded by ±maxZ, and e^{−z}.
func (lv *levels) logistic(t *term) (z, ez float64) {
	z = kappa * (lv.r[t.t1] - lv.r[t.t2])
	if lv.fast {
		return z, lv.e[t.t1] * lv.inv[t.t2]
	}
	z = max(-maxZ, min(maxZ, z))
	return z, math.Exp(-z)
}

// outer accumulates Σ v·x·xᵀ and Σ g·x over terms, x being a term's design vector
// u(t1) − u(t2) (see term). x·xᵀ = u1·u1ᵀ + u2·u2ᵀ − u1·u2ᵀ − u2·u1ᵀ: the parts of one
// team are summed per team, so that a term costs two team entries and the four bot
// entries of the cross part; expand then writes the n×n matrix and the n-vector.
type outer struct {
	n     int
	v, g  []float64 // per team: Σ v over its terms, and Σ g as team 1 minus Σ g as team 2
	cross []float64 // n×n: Σ v at (a, c) for each bot a of team 1 and c of team 2
}

// reset empties the sums.
func (o *outer) reset() {
	clear(o.v)
	clear(o.g)
	clear(o.cross)
}

// accumulate adds v[i]·x·xᵀ and g[i]·x for each term ts[i]; g may be nil.
func (o *outer) accumulate(teams [][2]uint16, ts []term, v, g []float64) {
	n, cross := o.n, o.cross
	for i := range ts {
		t := &ts[i]
		vi := v[i]
		o.v[t.t1] += vi
		o.v[t.t2] += vi
		if g != nil {
			o.g[t.t1] += g[i]
			o.g[t.t2] -= g[i]
		}
		b1, b2 := teams[t.t1], teams[t.t2]
		a, b := int(b1[0])*n, int(b1[1])*n
		c, d := int(b2[0]), int(b2[1])
		cross[a+c] += vi
		cross[a+d] += vi
		cross[b+c] += vi
		cross[b+d] += vi
	}
}

// expand writes the accumulated Σ v·x·xᵀ into the n×n matrix h and, if g is not nil,
// Σ g·x into g.
func (o *outer) expand(teams [][2]uint16, h, g []float64) {
	n := o.n
	for i := range n {
		for j := i; j < n; j++ {
			c := -(o.cross[i*n+j] + o.cross[j*n+i]) / 4
			h[i*n+j], h[j*n+i] = c, c
		}
	}
	if g != nil {
		clear(g)
	}
	for k, t := range teams {
		a, b := int(t[0]), int(t[1])
		q := o.v[k] / 4 // u·uᵀ has 1/4 at (a, a), (a, b), (b, a), (b, b)
		h[a*n+a] += q
		h[a*n+b] += q
		h[b*n+a] += q
		h[b*n+b] += q
		if g != nil {
			g[a] += o.g[k] / 2
			g[b] += o.g[k] / 2
		}
	}
}

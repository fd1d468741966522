package rating

import "math"

// Ratings is the result of Fit.
type Ratings struct {
	// Elo holds each bot's rating, anchored as Options asked.
	Elo []float64
	// Cov is the cluster-robust (sandwich) covariance of the ratings, n×n in row-major
	// order: Cov[i*n+j]. It belongs to the anchor: with a Reference, that bot's row
	// and column are zero. Covariances of differences r_i − r_j do not depend on it.
	Cov []float64
	// PlainCov is the inverse-Hessian covariance in the same layout, the one BayesElo
	// reports. It assumes every game independent and binomial, so it is too wide for
	// duplicate pairs and far too wide for points shares; it is here for comparison.
	PlainCov []float64
	// Clusters is the number of pairs the fit used.
	Clusters int
	// Iterations is the number of Newton–Raphson iterations.
	Iterations int
}

// anchor moves the ratings from the mean anchor to the reference, and the covariances
// with them: V' = A·V·Aᵀ with A = I − 1·e_refᵀ.
func (r *Ratings) anchor(ref Reference) {
	n, b := len(r.Elo), ref.Bot
	d := ref.Elo - r.Elo[b]
	for i := range r.Elo {
		r.Elo[i] += d
	}
	r.Elo[b] = ref.Elo
	for _, v := range [][]float64{r.Cov, r.PlainCov} {
		col := make([]float64, n)
		for i := range n {
			col[i] = v[i*n+b]
		}
		vbb := v[b*n+b]
		for i := range n {
			for j := range n {
				v[i*n+j] += vbb - col[i] - col[j]
			}
		}
		for i := range n {
			v[i*n+b], v[b*n+i] = 0, 0
		}
	}
}

// SE returns the cluster-robust standard error of bot i's rating.
func (r *Ratings) SE(i int) float64 {
	return math.Sqrt(r.Cov[i*len(r.Elo)+i])
}

// HalfWidth95 returns the half-width of the 95% confidence interval of bot i's rating,
// from the cluster-robust standard error: the "±" beside a rating.
func (r *Ratings) HalfWidth95(i int) float64 {
	return z95 * r.SE(i)
}

// Interval returns the 95% confidence interval of bot i's rating, from the
// cluster-robust standard error.
func (r *Ratings) Interval(i int) (lo, hi float64) {
	h := r.HalfWidth95(i)
	return r.Elo[i] - h, r.Elo[i] + h
}

// DiffSE returns the cluster-robust standard error of r_i − r_j, using the covariance
// between the two ratings; it does not depend on the anchor.
func (r *Ratings) DiffSE(i, j int) float64 {
	n := len(r.Elo)
	return math.Sqrt(max(0, r.Cov[i*n+i]+r.Cov[j*n+j]-2*r.Cov[i*n+j]))
}

// DiffHalfWidth95 returns the half-width of the 95% confidence interval of r_i − r_j.
func (r *Ratings) DiffHalfWidth95(i, j int) float64 {
	return z95 * r.DiffSE(i, j)
}

// LOS returns the likelihood of superiority of bot i over bot j,
// Φ((r_i − r_j)/SE(r_i − r_j)): ½ for i == j.
func (r *Ratings) LOS(i, j int) float64 {
	if i == j {
		return 0.5
	}
	return normalCDF((r.Elo[i] - r.Elo[j]) / r.DiffSE(i, j))
}

// LOSMatrix returns LOS(i, j) for every pair of bots, as m[i][j].
func (r *Ratings) LOSMatrix() [][]float64 {
	n := len(r.Elo)
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		for j := range m[i] {
			m[i][j] = r.LOS(i, j)
		}
	}
	return m
}

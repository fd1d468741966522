package rating

import (
	"errors"
	"math"
)

// errNotPositiveDefinite is returned by cholesky for a matrix it cannot factor.
var errNotPositiveDefinite = errors.New("matrix not positive definite")

// The dense matrices below are n×n, stored row-major in a []float64 of length n·n.

// cholesky overwrites the lower triangle of the symmetric positive definite matrix a
// with its Cholesky factor L (a = L·Lᵀ); the strict upper triangle is left as it was.
// A pivot below 1e-13 of its column's diagonal entry counts as zero: the matrix is then
// singular to working precision, as when a rating has run off to infinity.
func cholesky(a []float64, n int) error {
	if semiCholesky(a, n, 1e-13) > 0 {
		return errNotPositiveDefinite
	}
	return nil
}

// semiCholesky factors the symmetric positive semidefinite matrix a as cholesky does,
// treating a pivot that is not above tol times its column's original diagonal entry as
// zero: it zeroes that column of L and goes on. It returns the number of such columns,
// which is the dimension of a's null space when tol suits the matrix's scale.
func semiCholesky(a []float64, n int, tol float64) int {
	zero := 0
	for j := 0; j < n; j++ {
		rj := a[j*n : j*n+j+1]
		d := rj[j]
		for _, v := range rj[:j] {
			d -= v * v
		}
		if !(d > 0 && d > tol*rj[j]) {
			zero++
			for i := j; i < n; i++ {
				a[i*n+j] = 0
			}
			continue
		}
		d = math.Sqrt(d)
		rj[j] = d
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+j+1]
			s := ri[j]
			for k, v := range rj[:j] {
				s -= ri[k] * v
			}
			ri[j] = s / d
		}
	}
	return zero
}

// cholSolve solves L·Lᵀ·x = b in place, with L from cholesky.
func cholSolve(l []float64, n int, b []float64) {
	for i := 0; i < n; i++ {
		s := b[i]
		for k, v := range l[i*n : i*n+i] {
			s -= v * b[k]
		}
		b[i] = s / l[i*n+i]
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for k := i + 1; k < n; k++ {
			s -= l[k*n+i] * b[k]
		}
		b[i] = s / l[i*n+i]
	}
}

// cholInverse returns the inverse of L·Lᵀ, with L from cholesky.
func cholInverse(l []float64, n int) []float64 {
	inv := make([]float64, n*n)
	col := make([]float64, n)
	for j := 0; j < n; j++ {
		clear(col)
		col[j] = 1
		cholSolve(l, n, col)
		for i, v := range col {
			inv[i*n+j] = v
		}
	}
	return inv
}

// mul returns the product a·b.
func mul(a, b []float64, n int) []float64 {
	c := make([]float64, n*n)
	for i := 0; i < n; i++ {
		ci := c[i*n : i*n+n]
		for k, aik := range a[i*n : i*n+n] {
			if aik == 0 {
				continue
			}
			for j, bkj := range b[k*n : k*n+n] {
				ci[j] += aik * bkj
			}
		}
	}
	return c
}

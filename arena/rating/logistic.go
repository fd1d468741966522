package rating

import "math"

// kappa is the slope of the logistic curve in Elo units: F'(d) = kappa·F(d)·(1−F(d)).
const kappa = math.Ln10 / 400

// z95 is the two-sided 95% quantile of the standard normal distribution.
const z95 = 1.959963984540054

// Expected returns F(d) = 1/(1+10^(−d/400)), the expected score of a side rated d Elo
// above its opponent.
func Expected(d float64) float64 {
	return 1 / (1 + math.Exp(-kappa*d))
}

// normalCDF returns Φ(z), the standard normal distribution function.
func normalCDF(z float64) float64 {
	return 0.5 * math.Erfc(-z/math.Sqrt2)
}

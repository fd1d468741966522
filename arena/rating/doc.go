// Package rating is the arena's rating mathematics: a static maximum-likelihood Elo fit
// over the whole history, its cluster-robust error bars and likelihood of superiority,
// and a head-to-head sequential test (its tests compare the fit with incremental Elo). It
// is pure: no I/O, no clocks, no randomness, standard library only.
//
// # Model
//
// Bots are fixed programs, so they have fixed strengths, fitted all at once. Ratings are
// logistic Elo: team 1 is expected to score F(R(T1) − R(T2)), F(d) = 1/(1+10^(−d/400)),
// where a team's rating R(T) is the mean of its two bots' ratings (a team of two copies
// of one bot is that bot). Fit maximises the log-likelihood
// Σ w·[S·ln F + (n−S)·ln(1−F)] with a weak Gaussian prior (σ = 500 Elo by default, on
// the scale of the data's real precision: see Fit) by Newton–Raphson. The result does
// not depend on the order of the results.
//
// # Duplicate pairs
//
// The unit of observation is a Result: one duplicate pair, the same deals played once
// with each seating so that the card luck cancels. It has two channels. Points, the
// primary one, is team 1's share of all points in the pair (one observation per pair).
// Games scores each game of the pair win 1, draw ½, loss 0, and keeps the pair's games
// together as one cluster.
//
// # Sufficient statistics
//
// Stats aggregates results per pairing of two teams into six running sums per channel
// (see Sums), normalised so that the order of the teams in a result does not matter.
// Fit and its covariance need nothing else, so a refit never rereads raw results, and
// Stats can be merged and stored as plain numbers.
//
// # Error bars
//
// Ratings.Cov is the cluster-robust ("sandwich") covariance V = H⁻¹·J·H⁻¹·C/(C−p), with
// clusters the pairs: J sums the outer products of per-pair score vectors, C counts the
// pairs and p the free ratings. It is right whatever the correlation within a pair;
// the plain inverse Hessian (Ratings.PlainCov, what BayesElo reports) is too wide for
// duplicate games and far too wide for points shares. For two bots and no prior the
// sandwich standard error is exactly fastchess's pentanomial one (the variance of the
// pair scores over N, carried to Elo by the slope of F) times √(C/(C−1)). Intervals are
// 95%; LOS(i, j) = Φ((r_i − r_j)/SE(r_i − r_j)) uses the covariance of the two.
//
// # Anchor
//
// Ratings have mean 0 by default, or one reference bot is fixed at a given rating
// (Options.Reference). Differences, and their errors, do not depend on the anchor.
//
// # Errors
//
// Fit refuses, with a *DisconnectedError naming the components, when the comparison
// graph is not connected, and with ErrNotIdentified when team results leave a rating
// undetermined (bots that only ever partner each other).
//
// # Head-to-head tests
//
// SPRT is a GSPRT on pair scores with bounds in logistic or normalized Elo, as fishtest
// and fastchess run it on pentanomial game pairs.
package rating

package rating

import (
	"testing"
)

// swapped returns r with team 1 and team 2 exchanged (and each team's bots listed the
// other way round), its scores now those of the other team: the same result.
func swapped(r Result) Result {
	r.Team1, r.Team2 = Team{r.Team2[1], r.Team2[0]}, Team{r.Team1[1], r.Team1[0]}
	r.Points = 1 - r.Points
	r.GameScore = float64(r.Games) - r.GameScore
	return r
}

// invarianceResults returns weighted duplicate results among random mixed teams, with
// draws, for the invariance tests.
func invarianceResults(s *sim, n int) []Result {
	rs := make([]Result, n)
	for i := range rs {
		t1, t2, f := s.teams()
		r := s.duplicateBetween(t1, t2, f, 0.6)
		if s.rng.IntN(8) == 0 { // a drawn game in place of one result
			r.GameScore = min(float64(r.Games), r.GameScore+0.5)
		}
		r.Points = s.beta(4*f, 4*(1-f))
		r.Weight = 0.5 + s.rng.Float64()
		rs[i] = r
	}
	return rs
}

func TestFit_PermutationAndOrientationInvariance(t *testing.T) {
	seed := testSeed(t)
	s := newSim(seed, 0, spread(12, -400, 400))
	rs := invarianceResults(s, 5000)

	var base Stats
	for _, r := range rs {
		mustAdd(t, &base, r)
	}
	variants := map[string]func([]Result) []Result{
		"permuted": func(rs []Result) []Result {
			s.rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
			return rs
		},
		"every record swapped": func(rs []Result) []Result {
			for i := range rs {
				rs[i] = swapped(rs[i])
			}
			return rs
		},
		"permuted and randomly swapped": func(rs []Result) []Result {
			s.rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
			for i := range rs {
				if s.rng.IntN(2) == 0 {
					rs[i] = swapped(rs[i])
				}
			}
			return rs
		},
	}
	for name, v := range variants {
		t.Run(name, func(t *testing.T) {
			var st Stats
			for _, r := range v(append([]Result(nil), rs...)) {
				mustAdd(t, &st, r)
			}
			for _, opt := range []Options{
				{Channel: Points},
				{Channel: Games},
				{Channel: Games, Reference: &Reference{Bot: 5, Elo: 2000}},
			} {
				assertSameFit(t, mustFit(t, &base, opt), mustFit(t, &st, opt), 1e-9)
			}
		})
	}
}

package rating

import (
	"testing"
)

// millionResults returns 1,000,000 duplicate pairs among 100 bots rated over −600…+600:
// with mixed, between random teams of two (nearly every result its own pairing);
// otherwise between random pairs of bots, each a team of one.
func millionResults(mixed bool) []Result {
	s := newSim(1, 0, spread(100, -600, 600))
	rs := make([]Result, 1_000_000)
	for i := range rs {
		t1, t2, f := s.solos()
		if mixed {
			t1, t2, f = s.teams()
		}
		rs[i] = s.duplicateBetween(t1, t2, f, 0.8)
		rs[i].Points = min(1, max(0, rs[i].Points+0.1*(s.rng.Float64()-0.5)))
	}
	return rs
}

// BenchmarkMillion aggregates 1,000,000 results among 100 bots into a Stats (with
// AddAll) and fits the points channel with its covariance: the whole refit from raw
// results.
func BenchmarkMillion(b *testing.B) {
	for _, bc := range []struct {
		name  string
		mixed bool
	}{{"solo", false}, {"mixed", true}} {
		rs := millionResults(bc.mixed)
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				var st Stats
				if err := st.AddAll(rs); err != nil {
					b.Fatal(err)
				}
				if _, err := Fit(&st, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAdd aggregates 1,000,000 results among 100 bots one at a time with Add, and
// all at once with AddAll.
func BenchmarkAdd(b *testing.B) {
	for _, bc := range []struct {
		name  string
		mixed bool
	}{{"solo", false}, {"mixed", true}} {
		rs := millionResults(bc.mixed)
		b.Run(bc.name+"/Add", func(b *testing.B) {
			for b.Loop() {
				var st Stats
				for _, r := range rs {
					if err := st.Add(r); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(bc.name+"/AddAll", func(b *testing.B) {
			for b.Loop() {
				var st Stats
				if err := st.AddAll(rs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFit fits from ready statistics of 1,000,000 results among 100 bots: the
// refit that never rereads raw results.
func BenchmarkFit(b *testing.B) {
	for _, bc := range []struct {
		name  string
		mixed bool
	}{{"solo", false}, {"mixed", true}} {
		var st Stats
		if err := st.AddAll(millionResults(bc.mixed)); err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportMetric(float64(len(st.Pairings)), "pairings")
			for b.Loop() {
				if _, err := Fit(&st, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

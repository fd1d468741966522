//go:build unix

package rating

import (
	"syscall"
	"testing"
	"time"
)

// processCPU returns the CPU time of the test process so far, all threads (the garbage
// collector's included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopCPU runs b.Loop with op and reports the process's CPU time per op as cpu-ns/op,
// the figure that holds on a loaded machine where ns/op (wall clock) does not.
func loopCPU(b *testing.B, op func()) {
	start, n := processCPU(), 0
	for b.Loop() {
		op()
		n++
	}
	b.ReportMetric(float64(processCPU()-start)/float64(n), "cpu-ns/op")
}

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
			loopCPU(b, func() {
				var st Stats
				if err := st.AddAll(rs); err != nil {
					b.Fatal(err)
				}
				if _, err := Fit(&st, Options{}); err != nil {
					b.Fatal(err)
				}
			})
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
			loopCPU(b, func() {
				var st Stats
				for _, r := range rs {
					if err := st.Add(r); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
		b.Run(bc.name+"/AddAll", func(b *testing.B) {
			loopCPU(b, func() {
				var st Stats
				if err := st.AddAll(rs); err != nil {
					b.Fatal(err)
				}
			})
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
			loopCPU(b, func() {
				if _, err := Fit(&st, Options{}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

package solver

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// BenchmarkSolve solves random positions (amsterdams, drie_spelers) at the start of trick
// 3 to 8 (the cards before played at random) and reports positions searched per second and
// the median and 99th percentile time per solve.
func BenchmarkSolve(b *testing.B) {
	for _, preset := range []string{"amsterdams", "rotterdams", "drie_spelers"} {
		rs, _ := rules.Preset(preset)
		for _, trick := range []int{3, 4, 5, 6} {
			b.Run(fmt.Sprintf("%s/trick%d", preset, trick), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(5, uint64(trick)))
				var positions []Position
				for len(positions) < 200 {
					d, ok := randomDealAt(rng, &rs, rs.HandSize()-trick+1)
					if ok {
						p, _ := FromDeal(d)
						positions = append(positions, p)
					}
				}
				s := New(20)
				var times []time.Duration
				nodes := s.Nodes()
				i := 0
				for b.Loop() {
					p := &positions[i%len(positions)]
					start := time.Now()
					s.Value(p, rs.SideOf(p.ToMove()))
					times = append(times, time.Since(start))
					i++
				}
				slices.Sort(times)
				b.ReportMetric(float64(s.Nodes()-nodes)/b.Elapsed().Seconds(), "positions/s")
				b.ReportMetric(float64(times[len(times)/2].Microseconds()), "median-µs")
				b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
			})
		}
	}
}

// randomDealAt is randomDeal at the start of a trick.
func randomDealAt(rng *rand.Rand, rs *rules.Ruleset, tricksLeft int) (*rules.Deal, bool) {
	for {
		d, ok := randomDeal(rng, rs, tricksLeft)
		if !ok {
			return nil, false
		}
		if d.Trick().N == 0 {
			return d, true
		}
	}
}

// BenchmarkMoves values every card of the seat to move as the PIMC bot does in one world
// (amsterdams): from the first trick's lead and from the second trick's third card with
// three tricks of look-ahead and the estimate after them, and exactly from the start of the
// fourth trick (five tricks left). It reports worlds (Moves calls) a second and positions a
// second.
func BenchmarkMoves(b *testing.B) {
	rs, _ := rules.Preset("amsterdams")
	for _, c := range []struct {
		name              string
		tricksLeft, depth int
	}{{"lead1/horizon3", 8, 3}, {"trick2/horizon3", 7, 3}, {"trick4/exact", 5, 0}} {
		b.Run(c.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(11, uint64(c.tricksLeft)))
			var positions []Position
			for len(positions) < 300 {
				d, ok := randomDeal(rng, &rs, c.tricksLeft)
				if ok && (c.tricksLeft == 8) == (d.Trick().N == 0) {
					p, _ := FromDeal(d)
					positions = append(positions, p)
				}
			}
			s := New(18) // as the PIMC bot
			s.Horizon = c.depth
			nodes, i := s.Nodes(), 0
			for b.Loop() {
				p := &positions[i%len(positions)]
				s.Moves(p, rs.SideOf(p.ToMove()))
				i++
			}
			b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "worlds/s")
			b.ReportMetric(float64(s.Nodes()-nodes)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

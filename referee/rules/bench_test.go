package rules

import (
	"math/rand/v2"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

// BenchmarkRandomDeal measures one whole random deal: shuffle, deal, choose trumps, play 32
// random legal cards, score. The figure to beat is 1,000,000 deals per second on one core.
func BenchmarkRandomDeal(b *testing.B) {
	for _, preset := range []string{"amsterdams", "rotterdams", "klaver_live", "drie_spelers"} {
		b.Run(preset, func(b *testing.B) {
			rs, _ := Preset(preset)
			rng := rand.New(rand.NewPCG(1, 2))
			var d Deal
			var pile []protocol.PileCard
			b.ReportAllocs()
			for b.Loop() {
				deck := Shuffle(rng)
				pile = ShufflePileInto(pile, &rs, rng)
				setup := Setup{Dealer: Seat(rng.IntN(rs.Players)), Pile: pile}
				setup.Hands, setup.Skart = DealHands(&rs, &deck, setup.Dealer)
				if err := d.Start(&rs, setup); err != nil {
					b.Fatal(err)
				}
				PlayOut(&d, rng)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "deals/s")
		})
	}
}

// BenchmarkLegal measures legal-move generation over the positions of random deals.
func BenchmarkLegal(b *testing.B) {
	for _, preset := range []string{"amsterdams", "rotterdams"} {
		b.Run(preset, func(b *testing.B) {
			rs, _ := Preset(preset)
			type position struct {
				trump Suit
				hand  CardSet
				trick Trick
			}
			rng := rand.New(rand.NewPCG(3, 4))
			var positions []position
			for len(positions) < 4096 {
				deck := Shuffle(rng)
				setup := Setup{Dealer: Seat(rng.IntN(4))}
				setup.Hands, _ = DealHands(&rs, &deck, setup.Dealer)
				d, _ := NewDeal(&rs, setup)
				for d.Phase() != PhaseDone {
					if d.Phase() == PhasePlay {
						positions = append(positions, position{d.Trump(), d.Hand(d.ToMove()), *d.Trick()})
					}
					RandomAction(d, rng)
				}
			}
			b.ResetTimer()
			var sink CardSet
			i := 0
			for b.Loop() {
				p := &positions[i&4095]
				sink |= Legal(&rs, p.trump, p.hand, &p.trick)
				i++
			}
			_ = sink
		})
	}
}

package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/examplebots/go/heuristic/strategy"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/solver"
)

// lowSpades is the share of worlds (each counted with its weight) in which East holds a
// spade below the king.
func lowSpades(k *knowledge, draw func() (world, float64), n int) float64 {
	low := protocol.SetOf(protocol.NewCard(protocol.Eight, protocol.Spades), protocol.NewCard(protocol.Nine, protocol.Spades),
		protocol.NewCard(protocol.Queen, protocol.Spades))
	east := k.index(protocol.East)
	var in, all float64
	for range n {
		w, weight := draw()
		all += weight
		if w.hands[east]&low != 0 {
			in += weight
		}
	}
	return in / all
}

// TestInferenceFromPlay builds a case where an opponent's card says much under the model of
// the heuristic bot: North leads the ace of spades and East follows with the king, which the
// heuristic plays under an ace only when it holds no lower spade. The sampler alone (voids
// and trump limits) gives East a lower spade in most worlds; weighted by the likelihood of
// the king under the model, in few; drawing among several worlds by likelihood, in fewer.
func TestInferenceFromPlay(t *testing.T) {
	rs, _ := rules.Preset("amsterdams")
	st := trickState(t, &rs, protocol.Hearts, "AC KC QC JC AH KH QH", "N AS KS 8D 7S")
	rng := rand.New(rand.NewPCG(3, 4))

	plain := newKnowledge(&rs, st, protocol.Hearts, 0)
	plain.observe(st, 0, 0)
	if len(plain.replays) != 0 {
		t.Fatalf("eps 0 keeps %d replays, want none", len(plain.replays))
	}
	before := lowSpades(plain, func() (world, float64) { return plain.sample(rng), 1 }, 4000)

	k := newKnowledge(&rs, st, protocol.Hearts, 0)
	k.observe(st, 0.1, 0)
	if len(k.replays) != 2 { // East's and West's cards; North is the partner, left out
		t.Fatalf("%d replays, want 2 (the opponents' cards)", len(k.replays))
	}
	weighted := lowSpades(k, func() (world, float64) { w := k.sample(rng); return w, k.likelihood(&w) }, 4000)
	p := NewPlayer(Config{InferDraws: 8, Seed: 5})
	drawn := lowSpades(k, func() (world, float64) { return p.draw(k) }, 4000)
	t.Logf("East holds a spade below the king: %.2f of the sampled worlds, %.2f weighted, %.2f drawn by likelihood", before, weighted, drawn)
	if before < 0.5 {
		t.Errorf("without inference East has a lower spade in %.2f of the worlds, want most", before)
	}
	// Under the model the share is about 0.22; eight draws a world come only part of the way.
	if weighted > before/2 {
		t.Errorf("weighted by likelihood East has a lower spade in %.2f of the worlds, want under half of %.2f", weighted, before)
	}
	if drawn > before*0.7 {
		t.Errorf("drawn by likelihood East has a lower spade in %.2f of the worlds, want under 0.7 of %.2f", drawn, before)
	}
}

// BenchmarkLikelihood times the sampling of a world and its likelihood after four tricks
// (twelve cards of the others to replay), against the sampling alone.
func BenchmarkLikelihood(b *testing.B) {
	rs, _ := rules.Preset("amsterdams")
	st := trickState(b, &rs, protocol.Hearts, "AC KC QC JC",
		"N AS KS 8D 7S", "N TS QS 7D 8S", "W 7C TC 9C 8C", "S TD JD QD KD")
	k := newKnowledge(&rs, st, protocol.Hearts, 0)
	k.observe(st, 0.2, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	b.Run("sample", func(b *testing.B) {
		for range b.N {
			k.sample(rng)
		}
	})
	b.Run("sample+likelihood", func(b *testing.B) {
		for range b.N {
			w := k.sample(rng)
			k.likelihood(&w)
		}
	})
}

// decision is a play decision of a bot with its state, as it was asked.
type decision struct {
	st bot.State
	d  bot.Decision
}

// capturePlays plays pairs duplicate pairs of four heuristic bots (amsterdams) and returns
// North's play decisions with more than one legal card, by tricks played before them.
func capturePlays(tb testing.TB, pairs int) [][]decision {
	tb.Helper()
	rs, _ := rules.Preset("amsterdams")
	byTrick := make([][]decision, rs.HandSize())
	rec := strategy.Bot()
	heuristic := rec.Decide
	rec.Decide = func(s *bot.State, d bot.Decision) bot.Answer {
		if d.Kind == bot.PlayKind && d.LegalCards.Len() > 1 {
			c := *s
			c.Tricks = slices.Clone(s.Tricks)
			c.Current = slices.Clone(s.Current)
			c.Bids = slices.Clone(s.Bids)
			byTrick[len(s.Tricks)] = append(byTrick[len(s.Tricks)], decision{st: c, d: d})
		}
		return heuristic(s, d)
	}
	e := []referee.Entrant{{Name: "north", Start: referee.NewInProcess(rec)}}
	for _, name := range []string{"east", "south", "west"} {
		e = append(e, referee.Entrant{Name: name, Start: referee.NewInProcess(strategy.Bot())})
	}
	if _, err := referee.Run(context.Background(), referee.Config{Rules: rs, Games: pairs, Duplicate: true, Seed: 7, Time: referee.DefaultTimeControl}, e); err != nil {
		tb.Fatal(err)
	}
	return byTrick
}

// BenchmarkWorld times one world of a decision, per phase of the deal (the first three
// tricks, searched Horizon deep with an estimate; the last five, solved exactly), on play
// decisions of real deals: drawing it without the inference, with it (weights), with it and
// eight or sixteen draws a world, and solving it (the shipped depths, and with the
// opponents' cards modelled, Config.ModelOpponents, 3 to 5 tricks deep).
func BenchmarkWorld(b *testing.B) {
	byTrick := capturePlays(b, 4)
	phases := []struct {
		name   string
		tricks []int
	}{{"tricks1-3", []int{0, 1, 2}}, {"tricks4-8", []int{3, 4, 5, 6, 7}}}
	for _, ph := range phases {
		var ds []decision
		for _, t := range ph.tricks {
			ds = append(ds, byTrick[t]...)
		}
		type prepared struct {
			k    *knowledge
			base solver.Position
			side int
			rs   *rules.Ruleset
			st   *bot.State
		}
		var ks []prepared
		for _, x := range ds {
			rs := strategy.Ruleset(x.st.Options)
			st := x.st
			req := x.d.Request.(*protocol.PlayRequest)
			k := newKnowledge(&rs, &x.st, req.Trump, 0)
			k.observe(&x.st, 0.2, 0)
			ks = append(ks, prepared{k: k, base: rootPosition(&rs, &x.st, x.d, k, req.Leader), side: rs.SideOf(protocol.Seat(k.me)), rs: &rs, st: &st})
		}
		for _, v := range []struct {
			name  string
			draws int
			eps   float64
		}{{"draw-plain", 1, 0}, {"draw-weighed", 1, 0.2}, {"draw-8", 8, 0.2}, {"draw-16", 16, 0.05}} {
			b.Run(ph.name+"/"+v.name, func(b *testing.B) {
				p := NewPlayer(Config{InferDraws: v.draws, Seed: 1})
				for i := range b.N {
					x := ks[i%len(ks)]
					replays := x.k.replays
					if v.eps == 0 {
						x.k.replays = nil
					}
					p.draw(x.k)
					x.k.replays = replays
				}
			})
		}
		for _, v := range []struct {
			name    string
			model   bool
			horizon int
		}{{"solve", false, 3}, {"solve-model-h3", true, 3}, {"solve-model-h4", true, 4}, {"solve-model-h5", true, 5}} {
			b.Run(ph.name+"/"+v.name, func(b *testing.B) {
				p := NewPlayer(DefaultConfig())
				p.solver.Deadline = time.Now().Add(time.Hour)
				for i := range b.N {
					x := ks[i%len(ks)]
					p.solver.Horizon, p.solver.Policy = 0, nil
					if x.base.Won[0]+x.base.Won[1] < 8-p.cfg.ExactTricks {
						p.solver.Horizon = v.horizon
						if v.model {
							p.solver.Policy = newOpponentModel(x.rs, x.k, x.st, x.side).card
						}
					}
					w := x.k.sample(p.rng)
					pos := x.base
					pos.Hands = w.hands
					p.solver.Moves(&pos, x.side)
				}
			})
		}
	}
}

// BenchmarkEffectiveWorlds measures, on North's play decisions of heuristic-only deals (the
// model is then exact for the opponents), how many of 50 sampled worlds carry the weight of
// the inference at each opponent eps: the effective sample size (the square of the sum of the
// weights over the sum of their squares), the share of the worlds in which the model plays
// every observed card, the share of the decisions with no such world among the 50, and the
// share of such worlds among 50 drawn by likelihood from 16 each (InferDraws 16), per phase
// of the deal. Run with -benchtime 1x.
func BenchmarkEffectiveWorlds(b *testing.B) {
	byTrick := capturePlays(b, 4)
	const n = 50
	for _, ph := range []struct {
		name     string
		from, to int
	}{{"trick2", 1, 1}, {"trick3-4", 2, 3}, {"trick5-6", 4, 5}, {"trick7-8", 6, 7}} {
		for _, eps := range []float64{0.2, 0.05, 0.01} {
			b.Run(ph.name+"/eps"+strconv.FormatFloat(eps, 'g', -1, 64), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 2))
				var ess, consistent float64
				var decisions, none int
				var drawn float64
				p := NewPlayer(Config{InferDraws: 16, Seed: 1})
				for range b.N {
					for t := ph.from; t <= ph.to; t++ {
						for _, x := range byTrick[t] {
							rs := strategy.Ruleset(x.st.Options)
							req := x.d.Request.(*protocol.PlayRequest)
							k := newKnowledge(&rs, &x.st, req.Trump, 0)
							k.observe(&x.st, eps, 0)
							var sum, sq float64
							before := consistent
							for range n {
								w := k.sample(rng)
								l := k.likelihood(&w)
								sum += l
								sq += l * l
								if l == 1 {
									consistent++
								}
							}
							for range n {
								w, _ := p.draw(k)
								if k.likelihood(&w) == 1 {
									drawn++
								}
							}
							if consistent == before {
								none++
							}
							ess += sum * sum / sq
							decisions++
						}
					}
				}
				b.ReportMetric(ess/float64(decisions), "ess/50")
				b.ReportMetric(consistent/float64(decisions*n), "consistent")
				b.ReportMetric(float64(none)/float64(decisions), "none-consistent")
				b.ReportMetric(drawn/float64(decisions*n), "consistent-of-16")
			})
		}
	}
}

package rating

import (
	"errors"
	"math"
	"testing"
)

func TestNewSPRT_ErrInvalidSPRT(t *testing.T) {
	for _, c := range []SPRTConfig{
		{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: 0, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: math.Inf(1), Alpha: 0.05, Beta: 0.05},
		{Elo0: math.NaN(), Elo1: 5, Alpha: 0.05, Beta: 0.05},
		{Elo0: 0, Elo1: 5, Alpha: 0, Beta: 0.05},
		{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 1},
		{Elo0: 0, Elo1: 5, Alpha: 0.6, Beta: 0.4},
	} {
		if _, err := NewSPRT(c); !errors.Is(err, ErrInvalidSPRT) {
			t.Errorf("NewSPRT(%+v) = %v, want ErrInvalidSPRT", c, err)
		}
	}
}

func TestSPRT_Bounds(t *testing.T) {
	sp, err := NewSPRT(SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	lower, upper := sp.Bounds()
	if math.Abs(lower-math.Log(0.1/0.95)) > 1e-15 || math.Abs(upper-math.Log(0.9/0.05)) > 1e-15 {
		t.Errorf("Bounds() = %v, %v", lower, upper)
	}
}

func TestSPRT_LLR(t *testing.T) {
	xs := []float64{0.5, 0.75, 0.5, 1, 0.25, 0.5, 0.75}
	for _, normalized := range []bool{false, true} {
		sp, err := NewSPRT(SPRTConfig{Elo0: -10, Elo1: 30, Alpha: 0.05, Beta: 0.05, Normalized: normalized})
		if err != nil {
			t.Fatal(err)
		}
		if sp.LLR() != 0 || sp.Decision() != Continue {
			t.Fatalf("empty test: LLR %v, %v", sp.LLR(), sp.Decision())
		}
		for _, x := range xs {
			if _, err := sp.Add(x); err != nil {
				t.Fatal(err)
			}
		}
		// By hand: the pairs and two pseudo-pairs at mean ± ½.
		n, mean := float64(len(xs)), 0.0
		for _, x := range xs {
			mean += x
		}
		mean /= n
		ss := 0.5
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		v := ss / (n + 2)
		s0, s1 := Expected(-10), Expected(30)
		if normalized {
			// fastchess's neloToScorePenta, with the regularised variance.
			s0 = -10*math.Sqrt(2*v)/(800/math.Ln10) + 0.5
			s1 = 30*math.Sqrt(2*v)/(800/math.Ln10) + 0.5
		}
		want := (n + 2) / 2 * math.Log((v+(mean-s0)*(mean-s0))/(v+(mean-s1)*(mean-s1)))
		if got := sp.LLR(); math.Abs(got-want) > 1e-12 {
			t.Errorf("normalized %v: LLR %.15f, want %.15f", normalized, got, want)
		}
	}
}

func TestSPRT_AddRejectsOutOfRange(t *testing.T) {
	sp, err := NewSPRT(SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []float64{-0.1, 1.5, math.NaN()} {
		if _, err := sp.Add(x); !errors.Is(err, ErrInvalidSPRT) {
			t.Errorf("Add(%v) = %v, want ErrInvalidSPRT", x, err)
		}
	}
	if sp.Pairs != 0 {
		t.Errorf("rejected scores were counted: %d pairs", sp.Pairs)
	}
}

func TestSPRT_EqualPairsDoNotDecide(t *testing.T) {
	// Ten split pairs in a row: the unregularised variance would be 0 and the LLR −∞.
	sp, err := NewSPRT(SPRTConfig{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if d, err := sp.Add(0.5); err != nil || d != Continue {
			t.Fatalf("after %d split pairs: %v, %v; want continue", sp.Pairs, d, err)
		}
	}
}

func TestDecision_String(t *testing.T) {
	for d, want := range map[Decision]string{Continue: "continue", AcceptH0: "H0", AcceptH1: "H1", 9: "Decision(9)"} {
		if got := d.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", d, got, want)
		}
	}
}

// TestAcceptance_SPRT runs head-to-head tests of H0: 0 Elo against H1: 20 Elo on
// duplicate pairs (luck correlation 0.8) between bots 0 and 20 Elo apart, α = β = 0.05,
// and checks P(accept H1 | elo0) ≤ 0.06 and P(accept H1 | elo1) ≥ 0.935. On the first
// runs under each hypothesis it also runs the same test fed the same games one by one,
// as if the two plays of a pair were independent, and checks that the pair test needs
// at most half its games on average.
func TestAcceptance_SPRT(t *testing.T) {
	t.Parallel()
	seed := testSeed(t)
	runs, compared := 4000, 500
	if full() {
		runs, compared = 20000, 2000
	}
	cfg := SPRTConfig{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}
	var pairGames, gameGames float64
	for hi, elo := range []float64{cfg.Elo0, cfg.Elo1} {
		var h1, h1Games, games, single, comparedGames float64
		for run := range runs {
			s := newSim(seed, uint64(hi)<<32|uint64(run), nil)
			pairTest, err := NewSPRT(cfg)
			if err != nil {
				t.Fatal(err)
			}
			gameTest, _ := NewSPRT(cfg)
			pd, gd := Continue, Continue
			if run >= compared {
				gd = AcceptH0 // not run
			}
			for pd == Continue || gd == Continue {
				g1, g2 := s.duplicateGames(Expected(elo), 0.8)
				if pd == Continue {
					pd, _ = pairTest.Add((g1 + g2) / 2)
				}
				for _, g := range []float64{g1, g2} {
					if gd == Continue {
						gd, _ = gameTest.Add(g)
					}
				}
			}
			if pd == AcceptH1 {
				h1++
			}
			games += 2 * float64(pairTest.Pairs)
			if run < compared {
				if gd == AcceptH1 {
					h1Games++
				}
				comparedGames += 2 * float64(pairTest.Pairs)
				single += float64(gameTest.Pairs)
			}
		}
		n, c := float64(runs), float64(compared)
		t.Logf("true Elo %v: P(accept H1) %.4f in pairs over %d runs, mean %.0f games; first %d runs: mean games %.0f in pairs, %.0f game by game (P(accept H1) %.4f)",
			elo, h1/n, runs, games/n, compared, comparedGames/c, single/c, h1Games/c)
		switch {
		case elo == cfg.Elo0 && h1/n > 0.06:
			t.Errorf("P(accept H1 | elo0) = %.4f, want at most 0.06", h1/n)
		case elo == cfg.Elo1 && h1/n < 0.935:
			t.Errorf("P(accept H1 | elo1) = %.4f, want at least 0.935", h1/n)
		}
		pairGames += comparedGames
		gameGames += single
	}
	ratio := pairGames / gameGames
	t.Logf("games in pairs / game by game: %.3f", ratio)
	if ratio > 0.5 {
		t.Errorf("the pair test used %.3f of the games of the game-by-game test, want at most 0.5", ratio)
	}
}

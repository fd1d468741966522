package rules

import (
	"math/rand/v2"
	"testing"
)

// TestReciprocals checks that the high word of x*reciprocals[n] is x/n for numbers up to the
// digit base, at both ends of the range and at random.
func TestReciprocals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for n := uint64(2); n <= 10; n++ {
		for _, x := range []uint64{0, 1, n - 1, n, n + 1, digitBase - 1, digitBase - n, digitBase / 2} {
			checkDivision(t, x, n)
		}
		for range 100000 {
			checkDivision(t, rng.Uint64N(digitBase), n)
		}
	}
}

func checkDivision(t *testing.T, x, n uint64) {
	t.Helper()
	g := digits{left: x, have: 1}
	r := uint64(g.intN(uint32(n)))
	if g.left != x/n || r != x%n {
		t.Fatalf("%d / %d: got %d rest %d, want %d rest %d", x, n, g.left, r, x/n, x%n)
	}
}

// TestDigitsUniform draws digits of mixed ranges and checks each range's counts with a
// chi-squared test (a bound far in the tail: the test fails only for a real bias).
func TestDigitsUniform(t *testing.T) {
	g := digits{rng: rand.New(rand.NewPCG(2, 3))}
	var counts [11][10]int
	const draws = 200000
	for i := range draws * 9 {
		n := uint32(2 + i%9)
		counts[n][g.intN(n)]++
	}
	for n := 2; n <= 10; n++ {
		want := float64(draws) / float64(n)
		chi := 0.0
		for k := range n {
			d := float64(counts[n][k]) - want
			chi += d * d / want
		}
		// 9 degrees of freedom at most: 40 is beyond the 99.99th percentile.
		if chi > 40 {
			t.Errorf("digits below %d: chi-squared %.1f, counts %v", n, chi, counts[n][:n])
		}
	}
}

// TestPlayOutMatchesPlay replays the cards of deals finished by PlayOut's fused loop through
// Play, which checks every card, on a fresh deal: every card must be legal and the tricks and
// the result must come out the same, under every preset and both stuk rules.
func TestPlayOutMatchesPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	for _, name := range AllPresetNames() {
		for _, stuk := range []StukScoring{StukInTrick, StukAnnouncedByHolder} {
			rs, _ := Preset(name)
			rs.StukScoring = stuk
			for range 300 {
				deck := Shuffle(rng)
				setup := Setup{Dealer: Seat(rng.IntN(rs.Players)), Pile: ShufflePile(&rs, rng)}
				setup.Hands, setup.Skart = DealHands(&rs, &deck, setup.Dealer)
				var d Deal
				if err := d.Start(&rs, setup); err != nil {
					t.Fatal(err)
				}
				PlayOut(&d, rng)
				replay, err := NewDeal(&rs, setup)
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range d.Bids() {
					if err := replay.Bid(b.Bid); err != nil {
						t.Fatalf("%s: bid %v: %v", name, b, err)
					}
				}
				if replay.Phase() == PhaseSkart {
					two := d.Discarded()
					if err := replay.Discard(two.Nth(0), two.Nth(1)); err != nil {
						t.Fatal(err)
					}
				}
				for _, tr := range d.Tricks() {
					for _, c := range tr.Cards[:tr.N] {
						if err := replay.Play(c); err != nil {
							t.Fatalf("%s: PlayOut played %s: %v", name, c, err)
						}
					}
					if replay.Phase() == PhaseClaim {
						if err := replay.Claim(tr.Scored); err != nil {
							t.Fatal(err)
						}
					}
				}
				if replay.Result() != d.Result() {
					t.Fatalf("%s: PlayOut result %+v, replayed %+v", name, d.Result(), replay.Result())
				}
				for i, tr := range d.Tricks() {
					if replay.Tricks()[i] != tr {
						t.Fatalf("%s: trick %d: PlayOut %+v, replayed %+v", name, i, tr, replay.Tricks()[i])
					}
				}
			}
		}
	}
}

func TestNthCardMatchesNth(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sets := []CardSet{1, 1 << 31, 0xFF, 0xFF00FF00, 0xFFFFFFFF, 0x80808080}
	for range 2000 {
		sets = append(sets, CardSet(rng.Uint32()&rng.Uint32()|1<<rng.IntN(32)))
	}
	for _, s := range sets {
		for r := range s.Len() {
			if got, want := nthCard(s, r), s.Nth(r); got != want {
				t.Fatalf("nthCard(%#08x, %d) = %v, want %v", uint32(s), r, got, want)
			}
		}
	}
}

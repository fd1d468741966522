package solver

import (
	"encoding/gob"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// sample is one position for the fit: the features of both sides, the exact difference of
// the points to come, and the points still out.
type sample struct {
	x    [numFeatures]float64 // side 0's features less side 1's
	y    float64
	rest int
	prop float64 // the proportional estimate's difference
}

// fitPosition is a position of the fit as TestFitEstimate caches it (SOLVER_FIT_CACHE): an
// amsterdams position at the start of a trick and its exact difference of the points to come.
type fitPosition struct {
	Hands                [4]protocol.CardSet
	Trump, Leader, Maker uint8
	Y                    int
}

// playedDeal is a random amsterdams deal (random bidding) played to the start of the trick
// with tricksLeft tricks left by the solver one trick deep with all cards open: positions
// like those the bot's search meets, rather than after random play.
func playedDeal(rng *rand.Rand, rs *rules.Ruleset, s *Solver, tricksLeft int) *rules.Deal {
	d := dealtDeal(rng, rs)
	for d.Phase() != rules.PhasePlay {
		rules.RandomAction(d, rng)
	}
	s.Horizon = 1
	defer func() { s.Horizon = 0 }()
	for d.Phase() != rules.PhaseDone {
		if d.Phase() != rules.PhasePlay {
			rules.RandomAction(d, rng)
			continue
		}
		if d.NumTricks()-len(d.Tricks()) == tricksLeft && d.Trick().N == 0 {
			return d
		}
		p, _ := FromDeal(d)
		c, _ := s.Best(&p)
		if rng.IntN(8) == 0 {
			c = d.Legal().Nth(rng.IntN(d.Legal().Len()))
		}
		d.PlayUnchecked(c)
	}
	return nil
}

// solvedAt returns deal d's position with its exact value, taken with the score so far set so
// that nat cannot happen and pit is out, so that it is the points to come alone.
func solvedAt(s *Solver, d *rules.Deal) fitPosition {
	p, _ := FromDeal(d)
	fp := fitPosition{Trump: uint8(p.Trump), Leader: uint8(p.Trick.Leader), Maker: uint8(p.Maker)}
	copy(fp.Hands[:], p.Hands[:4])
	p.Maker = protocol.North
	p.Cards, p.Roem, p.Won = [protocol.MaxSeats]int{300}, [protocol.MaxSeats]int{}, [protocol.MaxSeats]int{1, 1}
	fp.Y = s.Value(&p, 0) - 300
	return fp
}

// sampleOf returns the features of fp's position (with its real maker), its value and the
// proportional estimate's difference.
func sampleOf(s *Solver, rs *rules.Ruleset, fp *fitPosition) sample {
	p := Position{Rules: rs, Trump: protocol.Suit(fp.Trump), Maker: protocol.Seat(fp.Maker), Trick: rules.Trick{Leader: protocol.Seat(fp.Leader)}, StukSeat: protocol.NoSeat}
	copy(p.Hands[:4], fp.Hands[:])
	var sm sample
	sm.y = float64(fp.Y)
	st := s.begin(&p, 0)
	for i, v := range s.featureDiff(&st) {
		sm.x[i] = float64(v)
	}
	sm.rest = s.rs.LastTrickBonus
	var weight [2]int
	for i := range s.players {
		pts := rules.SetPoints(st.hands[i], s.trump)
		sm.rest += pts
		weight[s.rs.SideOf(protocol.Seat(i))] += pts + 10*(st.hands[i]&protocol.SuitMask(s.trump)).Len() + 1
	}
	sm.prop = float64(sm.rest) * float64(weight[0]-weight[1]) / float64(weight[0]+weight[1])
	return sm
}

// fitPositions returns n positions with l tricks left, the same for the same n and l: read
// from the directory SOLVER_FIT_CACHE if it holds them, else generated (and written there
// when it is set).
func fitPositions(t *testing.T, rs *rules.Ruleset, l, n int) []fitPosition {
	dir := os.Getenv("SOLVER_FIT_CACHE")
	file := filepath.Join(dir, fmt.Sprintf("fit-%d-%d.gob", l, n))
	var fps []fitPosition
	if dir != "" {
		if f, err := os.Open(file); err == nil {
			defer f.Close()
			if err := gob.NewDecoder(f).Decode(&fps); err == nil && len(fps) == n {
				return fps
			}
			fps = nil
		}
	}
	s := New(20)
	rng := rand.New(rand.NewPCG(11, uint64(l)))
	for len(fps) < n {
		if d := playedDeal(rng, rs, s, l); d != nil {
			fps = append(fps, solvedAt(s, d))
		}
	}
	if dir != "" {
		f, err := os.Create(file)
		if err == nil {
			err = gob.NewEncoder(f).Encode(fps)
			f.Close()
		}
		if err != nil {
			t.Error(err) // not Fatal: TestFitEstimate calls this on goroutines of its own
		}
	}
	return fps
}

// TestFitEstimate fits the weights of the estimate (estimateWeights) to SOLVER_FIT
// positions per number of tricks left (default: skipped), on four fifths of them, and
// reports the root mean square error of the fit, of the weights in use and of the
// proportional estimate on the rest. It prints the weights as Go. The positions are solved
// in parallel, one number of tricks left a goroutine; SOLVER_FIT_CACHE names a directory
// to keep them in between runs.
//
//	SOLVER_FIT=20000 SOLVER_FIT_CACHE=/var/tmp/fit go test -run TestFitEstimate -v ./referee/rules/solver
func TestFitEstimate(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("SOLVER_FIT"))
	if n == 0 {
		t.Skip("a tuning run: set SOLVER_FIT")
	}
	rs, _ := rules.Preset("amsterdams")
	positions := make([][]fitPosition, maxFitted+1)
	var wg sync.WaitGroup
	for l := minFitted; l <= maxFitted; l++ {
		wg.Go(func() { positions[l] = fitPositions(t, &rs, l, n) })
	}
	wg.Wait()
	s := New(10)
	var out strings.Builder
	for l := minFitted; l <= maxFitted; l++ {
		samples := make([]sample, n)
		for i := range positions[l] {
			samples[i] = sampleOf(s, &rs, &positions[l][i])
		}
		train, test := samples[:n*4/5], samples[n*4/5:]
		w := fit(train)
		var fitErr, propErr, curErr float64
		for _, sm := range test {
			fitErr += sq(predict(&w, &sm) - sm.y)
			curErr += sq(predict(&estimateWeights[l-minFitted], &sm) - sm.y)
			propErr += sq(sm.prop - sm.y)
		}
		m := float64(len(test))
		t.Logf("%d tricks left: rms error of the fit %.1f, of the weights in use %.1f, of the proportional estimate %.1f (points to come: %d)",
			l, math.Sqrt(fitErr/m), math.Sqrt(curErr/m), math.Sqrt(propErr/m), samples[0].rest)
		fmt.Fprintf(&out, "\t{")
		for i, x := range w {
			if i > 0 {
				out.WriteString(", ")
			}
			fmt.Fprintf(&out, "%.2f", x)
		}
		out.WriteString("},\n")
	}
	t.Logf("weights:\n%s", out.String())
}

func sq(x float64) float64 { return x * x }

func predict(w *[numFeatures]float64, sm *sample) float64 {
	d := 0.0
	for i := range numFeatures {
		d += w[i] * sm.x[i]
	}
	return d
}

// fit solves the least-squares weights of the feature differences for y (a little ridge
// keeps it regular), by Gaussian elimination.
func fit(samples []sample) [numFeatures]float64 {
	const k = numFeatures
	var a [k][k + 1]float64
	for _, sm := range samples {
		var x [k]float64
		for i := range k {
			x[i] = sm.x[i]
		}
		for i := range k {
			for j := range k {
				a[i][j] += x[i] * x[j]
			}
			a[i][k] += x[i] * sm.y
		}
	}
	for i := range k {
		a[i][i] += 1e-3 * float64(len(samples))
	}
	for c := range k {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		for r := range k {
			if r != c && a[c][c] != 0 {
				f := a[r][c] / a[c][c]
				for j := c; j <= k; j++ {
					a[r][j] -= f * a[c][j]
				}
			}
		}
	}
	var w [k]float64
	for i := range k {
		if a[i][i] != 0 {
			w[i] = a[i][k] / a[i][i]
		}
	}
	return w
}

// TestEstimateBeatsProportional wants the fitted estimate closer to the exact points to come
// than the proportional share, on positions it was not fitted to.
func TestEstimateBeatsProportional(t *testing.T) {
	rs, _ := rules.Preset("amsterdams")
	s := New(18)
	for _, l := range []int{3, 5} {
		rng := rand.New(rand.NewPCG(99, uint64(l)))
		var fitErr, propErr float64
		for n := 0; n < 150; {
			d := playedDeal(rng, &rs, s, l)
			if d == nil {
				continue
			}
			n++
			sm := sampleOf(s, &rs, new(solvedAt(s, d)))
			fitErr += sq(predict(&estimateWeights[l-minFitted], &sm) - sm.y)
			propErr += sq(sm.prop - sm.y)
		}
		if fitErr >= propErr*0.8 {
			t.Errorf("%d tricks left: squared error of the estimate %.0f, of the proportional share %.0f: want at most 80%%", l, fitErr, propErr)
		}
	}
}

// referenceFeatures adds the features of the cards of st to f, per side (a table of four),
// one by one as their definitions say: what featureDiff computes at once.
func (s *Solver) referenceFeatures(st *state, f *[2][numFeatures]float64) {
	var sideCards [2]protocol.CardSet
	for i := range 4 {
		sideCards[s.rs.SideOf(protocol.Seat(i))] |= st.hands[i]
	}
	for su := range protocol.Suit(protocol.NumSuits) {
		shift := 8 * uint(su)
		m := [2]uint8{uint8(sideCards[0] >> shift), uint8(sideCards[1] >> shift)}
		t := 0
		if su == s.trump {
			t = 1
		}
		pa, pb := byPowerMask[t][m[0]], byPowerMask[t][m[1]]
		for side := range 2 {
			f[side][fPoints] += float64(maskPoints[t][m[side]])
		}
		if pa|pb == 0 {
			continue
		}
		top := 0 // the side holding the suit's highest card
		if pb > pa {
			top = 1
		}
		pTop, pOther := [2]uint8{pa, pb}[top], [2]uint8{pb, pa}[top]
		if t == 1 {
			for side := range 2 {
				f[side][fTrumps] = float64(bits.OnesCount8(m[side]))
				f[side][fTrumpPts] = float64(maskPoints[1][m[side]])
			}
			f[top][fTopTrumps] = float64(bits.OnesCount8(pTop >> bits.Len8(pOther)))
			continue
		}
		f[top][fBoss]++
		k := bits.Len8(pTop) - 1
		f[top][fBossPoints] += float64(maskPoints[0][1<<byPower[0][k]])
	}
	trumpMask := protocol.SuitMask(s.trump)
	for i := range 4 {
		h := st.hands[i]
		if h&trumpMask == 0 {
			continue
		}
		side := s.rs.SideOf(protocol.Seat(i))
		for su := range protocol.Suit(protocol.NumSuits) {
			if su != s.trump && h&protocol.SuitMask(su) == 0 && sideCards[1-side]&protocol.SuitMask(su) != 0 {
				f[side][fRuffs]++
			}
		}
	}
	lead := s.rs.SideOf(st.trick.Leader)
	f[lead][fLead] = 1
	for i := range 4 {
		side := s.rs.SideOf(protocol.Seat(i))
		h := st.hands[i]
		if h.Has(protocol.NewCard(protocol.Jack, s.trump)) {
			f[side][fJack] = 1
		}
		if h.Has(protocol.NewCard(protocol.Nine, s.trump)) {
			f[side][fNine] = 1
		}
		f[side][fLongTrumps] = max(f[side][fLongTrumps], float64((h & trumpMask).Len()))
	}
	f[lead][fLeadTrumps] = f[lead][fTrumps]
	f[lead][fLeadBoss] = f[lead][fBoss]
	for side := range 2 {
		for su := range protocol.Suit(protocol.NumSuits) {
			if su != s.trump && sideCards[1-side]&protocol.SuitMask(su) == 0 {
				f[side][fVoidPoints] += float64(rules.SetPoints(sideCards[side]&protocol.SuitMask(su), s.trump))
			}
		}
	}
	f[s.makerSide][fMaker] = 1
}

// TestFeatureDiff: featureDiff is the difference of the sides' features as
// referenceFeatures counts them, on positions at the start of every trick, every trump suit.
func TestFeatureDiff(t *testing.T) {
	rs := rules.Default()
	s := New(10)
	rng := rand.New(rand.NewPCG(3, 4))
	n := 0
	for n < 5000 {
		d, ok := randomDeal(rng, &rs, 1+rng.IntN(rs.HandSize()))
		if !ok || d.Trick().N != 0 {
			continue
		}
		p, _ := FromDeal(d)
		st := s.begin(&p, 0)
		var f [2][numFeatures]float64
		s.referenceFeatures(&st, &f)
		got := s.featureDiff(&st)
		for i := range numFeatures {
			if float64(got[i]) != f[0][i]-f[1][i] {
				t.Fatalf("position %d (trumps %v, hands %v): feature %d is %d, the reference %v - %v", n, p.Trump, p.Hands, i, got[i], f[0][i], f[1][i])
			}
		}
		n++
	}
}

// TestSmoothedNat checks the expected score of smoothed against the rules' own scoring
// (rules.ScoreDeal) summed over a fine grid of errors in the predicted difference, for
// either side as makers and either side searched, with and without roem.
func TestSmoothedNat(t *testing.T) {
	rs, _ := rules.Preset("amsterdams")
	rng := rand.New(rand.NewPCG(19, 8))
	for range 200 {
		s := Solver{rs: &rs, players: 4, makerSide: rng.IntN(2), side: rng.IntN(2)}
		var cards, roem [protocol.MaxSeats]int
		cards[0] = rng.IntN(rs.TotalCardPoints() + 1)
		cards[1] = rs.TotalCardPoints() - cards[0]
		roem[0], roem[1] = 20*rng.IntN(3), 20*rng.IntN(2)
		sigma := 25 + 25*rng.Float64()
		// An error of e points of difference: half of it (rounded down) card points more for the
		// makers, the rest less for the others (ScoreDeal needs only the difference and the
		// total).
		var sum, weight float64
		for e := -800; e <= 800; e++ {
			w := math.Exp(-float64(e*e) / (2 * sigma * sigma))
			c := cards
			c[s.makerSide] += (e+1000)/2 - 500
			c[1-s.makerSide] -= (e+1000+1)/2 - 500
			res := rules.ScoreDeal(&rs, s.makerSide, c, roem, [protocol.MaxSeats]int{1, 1})
			sum += w * float64(s.valueOf(&res.Score))
			weight += w
		}
		want := sum / weight
		// A step of one point in the grid leaves up to about 1.6 points of error at the nat line.
		if got := s.smoothed(cards, roem, sigma); math.Abs(float64(got)-want) > 2.5 {
			t.Fatalf("makers %d, side %d, cards %v, roem %v, sigma %.1f: smoothed %d, the sum over the errors %.1f", s.makerSide, s.side, cards, roem, sigma, got, want)
		}
	}
}

// TestNatNoise checks that the horizon estimate uses NatNoise: with a vanishing noise it
// scores the prediction as without (but where the prediction ends level), and with the
// fitted noise a search of random amsterdams positions two tricks deep changes value.
func TestNatNoise(t *testing.T) {
	rs, _ := rules.Preset("amsterdams")
	rng := rand.New(rand.NewPCG(19, 9))
	s := New(16)
	s.Horizon = 2
	same, moved, n := 0, 0, 0
	for n < 200 {
		d, ok := randomDeal(rng, &rs, 6+rng.IntN(3))
		if !ok || d.Trick().N != 0 {
			continue
		}
		n++
		p, _ := FromDeal(d)
		side := rs.SideOf(p.ToMove())
		s.NatNoise = 0
		step := s.Value(&p, side)
		s.NatNoise = 1e-9
		if s.Value(&p, side) == step {
			same++
		}
		s.NatNoise = 1
		if s.Value(&p, side) != step {
			moved++
		}
	}
	if same < n*95/100 || moved < n/2 {
		t.Errorf("of %d positions, %d kept their value with a vanishing NatNoise (want nearly all), %d changed with NatNoise 1 (want most)", n, same, moved)
	}
}

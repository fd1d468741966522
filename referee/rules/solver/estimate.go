package solver

import (
	"math"
	"math/bits"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// The estimate at the search horizon. At a table of four it predicts how the points still
// out will be shared (their difference between the sides, roem in the tricks to come
// included) by a linear model of the cards left, fitted for each number of tricks left to
// the exact values of the solver (TestFitEstimate); then the deal is scored as if it ended
// so, nat rules included. At a table of three it shares the points in proportion to each
// side's strength (proportional).

// numFeatures is the number of features of a side's cards (features).
const numFeatures = 15

// The features of a side's cards, each counted over the side's hands.
const (
	fPoints     = iota // card points held
	fTrumps            // trumps held
	fTopTrumps         // trumps higher than every trump of the other side
	fTrumpPts          // card points in trumps
	fBoss              // plain cards that are the highest left in their suit
	fBossPoints        // card points of those
	fRuffs             // plain suits a hand with trumps is void in and the other side holds
	fLead              // 1 if the side leads the next trick
	fJack              // 1 if the side holds the jack of trumps
	fNine              // 1 if the side holds the nine of trumps
	fLongTrumps        // the trumps of the side's hand with the most
	fLeadTrumps        // trumps held, if the side leads
	fLeadBoss          // plain cards that are the highest left in their suit, if the side leads
	fVoidPoints        // card points in plain suits the other side is void in
	fMaker             // 1 if the side made trumps
)

// fittedTricks are the tricks left for which estimateWeights has a fit; outside them the
// nearest is used.
const minFitted, maxFitted = 2, 6

// estimateWeights[l-minFitted] are the weights, for l tricks left, of the difference
// between the two sides' features; their sum is the predicted difference of the points
// still to come. Fitted by TestFitEstimate (SOLVER_FIT=20000, amsterdams).
var estimateWeights = [maxFitted - minFitted + 1][numFeatures]float64{
	{0.00, -7.85, 10.67, 0.85, 1.21, 1.02, 4.79, -1.52, 7.31, 3.56, 13.86, -2.40, 7.74, -0.70, -0.54},
	{0.26, -0.76, 5.63, 0.64, 2.90, 0.78, 4.25, -1.90, 13.96, 5.41, 12.60, -0.30, 7.05, -0.56, -1.10},
	{0.48, 1.15, 4.04, 0.46, 4.30, 0.60, 5.14, -0.88, 16.06, 6.66, 12.27, 0.97, 6.21, -0.45, -2.46},
	{0.60, 2.79, 2.27, 0.43, 3.53, 0.60, 7.55, -4.13, 19.96, 6.35, 12.60, 0.86, 9.10, -0.35, -3.94},
	{0.64, 3.97, 0.89, 0.23, 4.48, 0.68, 11.89, -3.01, 27.78, 9.41, 13.49, 0.93, 8.19, -0.13, -5.23},
}

// byPowerMask[t][m] is the set m of a suit's ranks (bit r for natural rank r) with bit k
// for power k instead (t=1 as trumps), and maskPoints[t][m] their card points.
var (
	byPowerMask [2][256]uint8
	maskPoints  [2][256]int
)

func init() {
	for t := range 2 {
		su := protocol.Suit(t) // a trump suit for t=1, a plain suit for t=0
		trump := protocol.Suit(1)
		power := [2]*[protocol.NumRanks]uint8{&plainPower, &trumpPower}[t] // byPower is not set yet
		for m := range 256 {
			for r := range protocol.Rank(protocol.NumRanks) {
				if m&(1<<r) != 0 {
					byPowerMask[t][m] |= 1 << power[r]
					maskPoints[t][m] += rules.Points(protocol.NewCard(r, su), trump)
				}
			}
		}
	}
}

// featureDiff returns the features of side 0's cards less side 1's (a table of four, where a
// seat's side is its number mod 2).
func (s *Solver) featureDiff(st *state) (d [numFeatures]int) {
	sideCards := [2]protocol.CardSet{st.hands[0] | st.hands[2], st.hands[1] | st.hands[3]}
	var boss [2]int
	for su := range protocol.Suit(protocol.NumSuits) {
		shift := 8 * uint(su)
		m0, m1 := uint8(sideCards[0]>>shift), uint8(sideCards[1]>>shift)
		t := 0
		if su == s.trump {
			t = 1
		}
		d[fPoints] += maskPoints[t][m0] - maskPoints[t][m1]
		pTop, pOther := byPowerMask[t][m0], byPowerMask[t][m1]
		if pTop|pOther == 0 {
			continue
		}
		top := 0 // the side holding the suit's highest card
		if pOther > pTop {
			top, pTop, pOther = 1, pOther, pTop
		}
		sign := 1 - 2*top
		if t == 1 {
			d[fTrumps] = bits.OnesCount8(m0) - bits.OnesCount8(m1)
			d[fTrumpPts] = maskPoints[1][m0] - maskPoints[1][m1]
			d[fTopTrumps] = sign * bits.OnesCount8(pTop>>bits.Len8(pOther))
			d[fJack] = int(m0>>protocol.Jack&1) - int(m1>>protocol.Jack&1)
			d[fNine] = int(m0>>protocol.Nine&1) - int(m1>>protocol.Nine&1)
			h := [4]int{}
			for i := range 4 {
				h[i] = bits.OnesCount8(uint8(st.hands[i] >> shift))
			}
			d[fLongTrumps] = max(h[0], h[2]) - max(h[1], h[3])
			continue
		}
		boss[top]++
		d[fBossPoints] += sign * maskPoints[0][1<<byPower[0][bits.Len8(pTop)-1]]
		if pOther == 0 {
			d[fVoidPoints] += sign * maskPoints[0][m0|m1]
		}
	}
	d[fBoss] = boss[0] - boss[1]
	trumpBit := suitBits(protocol.SuitMask(s.trump))
	sideSuits := [2]uint{suitBits(sideCards[0]), suitBits(sideCards[1])}
	for i := range 4 {
		has := suitBits(st.hands[i])
		if has&trumpBit == 0 {
			continue
		}
		ruffs := bits.OnesCount(^has & sideSuits[1-i&1] &^ trumpBit & 0xF) // voids the other side can lead
		d[fRuffs] += ruffs * (1 - 2*(i&1))
	}
	lead := s.rs.SideOf(st.trick.Leader)
	d[fLead] = 1 - 2*lead
	d[fLeadTrumps] = d[fLead] * (sideCards[lead] & protocol.SuitMask(s.trump)).Len()
	d[fLeadBoss] = d[fLead] * boss[lead]
	d[fMaker] = 1 - 2*s.makerSide
	return d
}

// suitBits returns a bit for each suit of which c holds a card (bit 3-k for suit k).
func suitBits(c protocol.CardSet) uint {
	x := uint32(c)
	x |= x >> 4
	x |= x >> 2
	x |= x >> 1
	return uint((x&0x01010101)*0x08040201>>24) & 0xF
}

// predictedDiff returns the model's difference, side 0 less side 1, of the points still to
// come in st (a position at the start of a trick at a table of four).
func (s *Solver) predictedDiff(st *state) float64 {
	x := s.featureDiff(st)
	w := &estimateWeights[min(max(st.tricksLeft, minFitted), maxFitted)-minFitted]
	d := 0.0
	for i := range numFeatures {
		d += w[i] * float64(x[i])
	}
	return d
}

// estimate values a position at the search horizon (see the top of this file).
func (s *Solver) estimate(st *state) int {
	if s.players != 4 {
		return s.proportional(st)
	}
	cards := st.cards
	rest := s.rs.LastTrickBonus + rules.SetPoints(st.hands[0]|st.hands[1]|st.hands[2]|st.hands[3], s.trump)
	d := int(s.predictedDiff(st))
	d = min(max(d, -rest), rest)
	cards[0] += (rest + d) / 2
	cards[1] += rest - (rest+d)/2
	if s.NatNoise > 0 && s.rs.NatRule == rules.NatStrictlyMoreInclRoem {
		return s.smoothed(cards, st.roem, s.NatNoise*natSigma(st.tricksLeft))
	}
	won := [protocol.MaxSeats]int{1, 1} // no pit at the horizon: every side is taken to win a trick
	res := rules.ScoreDeal(s.rs, s.makerSide, cards, st.roem, won)
	return s.valueOf(&res.Score)
}

// natSigma is the typical error, in points, of the predicted difference of the points to
// come with l tricks left: about the root mean square error of the fitted weights on held-out
// positions (TestFitEstimate).
func natSigma(l int) float64 { return float64(16 + 4*l) }

// smoothed returns the expected value, for the side searched, of a deal at a table of four
// that ends with the makers' and the others' card points and roem as in cards and roem plus
// an error e ~ N(0, sigma²) in the difference (the makers' card points e/2 more, the others'
// e/2 less): with m the makers' margin (their points and roem less the others'), the makers
// make it when m+e > 0 and score the difference, else lose all the points and roem:
// E = m·Φ(m/σ) + σ·φ(m/σ) - T·(1-Φ(m/σ)), T the card points and all roem. Pit is not foreseen.
func (s *Solver) smoothed(cards, roem [protocol.MaxSeats]int, sigma float64) int {
	ms := s.makerSide
	m := float64(cards[ms] + roem[ms] - cards[1-ms] - roem[1-ms])
	total := float64(s.rs.TotalCardPoints() + roem[0] + roem[1])
	z := m / sigma
	cdf := 0.5 * math.Erfc(-z/math.Sqrt2)
	pdf := math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
	e := m*cdf + sigma*pdf - total*(1-cdf)
	v := int(math.Round(e))
	if s.side != ms {
		v = -v
	}
	return v
}

// proportional values a position at the search horizon by sharing the card points still
// out (with the last-trick bonus and any discards) in proportion to each side's strength in
// the remaining cards (their card points, plus 10 for each trump), and scoring the deal as
// if it ended so, nat rules included (pit is not foreseen).
func (s *Solver) proportional(st *state) int {
	cards := st.cards
	var weight [protocol.MaxSeats]int
	total := 0
	rest := s.rs.LastTrickBonus + rules.SetPoints(s.discard, s.trump)
	for i := range s.players {
		h := st.hands[i]
		pts := rules.SetPoints(h, s.trump)
		rest += pts
		w := pts + 10*(h&protocol.SuitMask(s.trump)).Len() + 1
		weight[s.rs.SideOf(protocol.Seat(i))] += w
		total += w
	}
	var won [protocol.MaxSeats]int
	for i := range s.rs.Sides() {
		cards[i] += rest * weight[i] / total
		won[i] = 1 // no pit at the horizon: every side is taken to win a trick
	}
	res := rules.ScoreDeal(s.rs, s.makerSide, cards, st.roem, won)
	return s.valueOf(&res.Score)
}

package search

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/examplebots/go/heuristic/strategy"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// TestStrength plays PIMC_PAIRS duplicate pairs (default: skipped) against the heuristic
// in process and logs the points share, and where the points were won and lost (see
// boards). A tuning aid; the figures in BENCHMARKS.md come from arena match with real
// processes. PIMC_WORLDS caps the worlds of a decision, so that the result does not depend
// on the load of the machine (the budget is then 10 s unless PIMC_BUDGET says otherwise);
// PIMC_SEED picks the deals (default 2026), PIMC_HORIZON, PIMC_BID_HORIZON, PIMC_EXACT and
// PIMC_PASS_BELOW override the configuration, PIMC_HEURISTIC_PASS and PIMC_PASS_VALUE
// (true or false) HeuristicPass and PassValue, PIMC_MODEL_OPPONENTS ModelOpponents,
// PIMC_BID_NAT_NOISE and PIMC_NAT_NOISE BidNatNoise and NatNoise, PIMC_INFER_EPS,
// PIMC_INFER_PARTNER_EPS and PIMC_INFER_DRAWS the inference, PIMC_PARTNER_THRESHOLD
// PartnerThreshold. PIMC_ORACLE=true gives the bot the true deal as its only
// world (Player.oracle, one world a decision): the same search with perfect information, the
// open-card ceiling of the method; PIMC_ORACLE=play does so for the card play only,
// PIMC_ORACLE=bid for the bids only (the other decisions value PIMC_WORLDS worlds, 50 by
// default). PIMC_TIME gives each decision that time, as the arena does, with the bot's
// shipped budget (unless PIMC_BUDGET or PIMC_WORLDS say otherwise). The test also logs the
// duplicate-pair Elo as arena match rates it, by trick the worlds and the time of the bot's
// decisions, its bids against the heuristic's on the same states, and the calibration of its
// bid values (see decisionLog).
//
//	PIMC_PAIRS=20 PIMC_WORLDS=50 go test -run TestStrength -v ./examplebots/go/pimc/search
func TestStrength(t *testing.T) {
	pairs, _ := strconv.Atoi(os.Getenv("PIMC_PAIRS"))
	if pairs == 0 {
		t.Skip("a tuning run: set PIMC_PAIRS")
	}
	cfg := DefaultConfig()
	cfg.Budget = 20 * time.Millisecond
	env := func(name string, v *int) {
		if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
			*v = n
		}
	}
	var hn harness
	if d, err := time.ParseDuration(os.Getenv("PIMC_TIME")); err == nil {
		hn.decision, cfg.Budget = d, DefaultConfig().Budget
	}
	oracleBids, oraclePlay := false, false
	switch o := os.Getenv("PIMC_ORACLE"); o {
	case "true":
		oracleBids, oraclePlay, cfg.Worlds = true, true, 1
	case "bid", "play":
		oracleBids, oraclePlay, cfg.Worlds = o == "bid", o == "play", 50
	case "", "false":
	default:
		t.Fatalf("PIMC_ORACLE=%s: want true, false, bid or play", o)
	}
	env("PIMC_WORLDS", &cfg.Worlds)
	if cfg.Worlds > 0 {
		cfg.Budget = 10 * time.Second
	}
	if b, err := time.ParseDuration(os.Getenv("PIMC_BUDGET")); err == nil {
		cfg.Budget = b
	}
	env("PIMC_HORIZON", &cfg.Horizon)
	env("PIMC_BID_HORIZON", &cfg.BidHorizon)
	env("PIMC_EXACT", &cfg.ExactTricks)
	env("PIMC_PASS_BELOW", &cfg.PassBelow)
	env("PIMC_INFER_DRAWS", &cfg.InferDraws)
	env("PIMC_PARTNER_THRESHOLD", &cfg.PartnerThreshold)
	for name, v := range map[string]*float64{"PIMC_INFER_EPS": &cfg.InferEps, "PIMC_INFER_PARTNER_EPS": &cfg.InferPartnerEps} {
		if x, err := strconv.ParseFloat(os.Getenv(name), 64); err == nil {
			*v = x
		}
	}
	if v, err := strconv.ParseBool(os.Getenv("PIMC_HEURISTIC_PASS")); err == nil {
		cfg.HeuristicPass = v
	}
	if v, err := strconv.ParseBool(os.Getenv("PIMC_PASS_VALUE")); err == nil {
		cfg.PassValue = v
	}
	for name, v := range map[string]*float64{"PIMC_BID_NAT_NOISE": &cfg.BidNatNoise, "PIMC_NAT_NOISE": &cfg.NatNoise} {
		if x, err := strconv.ParseFloat(os.Getenv(name), 64); err == nil {
			*v = x
		}
	}
	if v, err := strconv.ParseBool(os.Getenv("PIMC_MODEL_OPPONENTS")); err == nil {
		cfg.ModelOpponents = v
	}
	seed := uint64(2026)
	if n, err := strconv.ParseUint(os.Getenv("PIMC_SEED"), 10, 64); err == nil {
		seed = n
	}
	rs, _ := rules.Preset("amsterdams")
	var log decisionLog
	hn.wrap = func(p *Player) bot.Bot {
		if !oracleBids && !oraclePlay {
			return log.wrap(p)
		}
		p.oracle = oracleOf(t, &rs, seed, oracleBids, oraclePlay)
		b := log.wrap(p)
		decide := b.Decide
		b.Decide = func(s *bot.State, d bot.Decision) bot.Answer {
			// One world where it is the truth: more would be the same.
			p.cfg.Worlds = cfg.Worlds
			if d.Kind == bot.BidKind && oracleBids || d.Kind == bot.PlayKind && oraclePlay {
				p.cfg.Worlds = 1
			}
			return decide(s, d)
		}
		return b
	}
	var b boards
	res := match(t, rs, cfg, func(uint64) bot.Bot { return strategy.Bot() }, pairs, seed, &b, &hn)
	a, h := res.Sides[0], res.Sides[1]
	t.Logf("%d pairs, %d deals: pimc %d, heuristic %d: share %.1f%%; pimc made %d nat %d, heuristic made %d nat %d; pimc's slowest answer %v",
		pairs, res.Deals, a.Points, h.Points, 100*float64(a.Points)/float64(a.Points+h.Points), a.Made, a.Nat, h.Made, h.Nat, res.Bots[0].MaxWall)
	var st rating.Stats
	for _, pr := range res.Pairs() {
		if err := st.Add(rating.Result{Team1: rating.Solo(0), Team2: rating.Solo(1), Points: pr.Share, GameScore: pr.GameScore, Games: 2}); err != nil {
			t.Fatal(err)
		}
	}
	if r, err := rating.Fit(&st, rating.Options{Channel: rating.Points}); err == nil {
		t.Logf("duplicate pairs (as arena match rates them): pimc - heuristic = %+.1f Elo ± %.1f (95%%)", r.Elo[0]-r.Elo[1], r.DiffHalfWidth95(0, 1))
	}
	for _, c := range b.classes() {
		t.Logf("%-40s %4d boards, pimc's lead %+6d (%+.1f a board)", c.name, c.n, c.diff, float64(c.diff)/float64(max(c.n, 1)))
	}
	for _, line := range log.table() {
		t.Log(line)
	}
	for _, line := range log.calibration(&b) {
		t.Log(line)
	}
}

// decisionLog gathers the PIMC bot's bid and play decisions by trick (0 for the bids):
// how many, how many it searched (more than one choice), the worlds it valued in those
// (p.Worlds; a bid the heuristic's pass rule decides counts as searched), and the time of
// all of them.
type decisionLog struct {
	mu    sync.Mutex
	trick [16]struct {
		n             int
		worlds        []int // of each searched decision; 0: the time ran out (the heuristic's answer)
		time, maxTime time.Duration
	}
	bids map[bidKey]bidNote // the searched bids, for calibration
	// vsHeuristic counts the bids where the bot could pass, by its place in the bidding
	// (play-order index), its answer and the heuristic bot's on the same state (1: named a
	// suit): how the bot, as the partner that afterPass models, bids against that model.
	vsHeuristic [protocol.MaxSeats][2][2]int
}

// bidKey names a bid decision: game, deal and seat.
type bidKey struct{ game, deal, seat int }

// bidNote is a searched bid: the mean value the bot found for its answer, and whether that
// was a pass.
type bidNote struct {
	value  float64
	passed bool
}

// wrap returns p's bot, logging its decisions in l.
func (l *decisionLog) wrap(p *Player) bot.Bot {
	b := p.Bot()
	decide := b.Decide
	b.Decide = func(s *bot.State, d bot.Decision) bot.Answer {
		if d.Kind != bot.BidKind && d.Kind != bot.PlayKind {
			return decide(s, d)
		}
		p.Worlds = 0
		start := time.Now()
		a := decide(s, d)
		el := time.Since(start)
		i := 0
		if d.Kind == bot.PlayKind {
			i = len(s.Tricks) + 1
		}
		choices := d.LegalCards.Len()
		if d.Kind == bot.BidKind {
			choices = len(d.LegalBids.All())
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		e := &l.trick[min(i, len(l.trick)-1)]
		e.n++
		e.time += el
		e.maxTime = max(e.maxTime, el)
		if choices > 1 {
			e.worlds = append(e.worlds, p.Worlds)
		}
		if d.Kind == bot.BidKind && d.LegalBids.Has(protocol.BidPass) {
			if i := slices.Index(s.Playing, s.Seat); i >= 0 && i < len(l.vsHeuristic) {
				h := strategy.Decide(s, d).Bid
				l.vsHeuristic[i][b2i(a.Bid != protocol.BidPass)][b2i(h != protocol.BidPass)]++
			}
		}
		if d.Kind == bot.BidKind && p.bidSearched {
			if l.bids == nil {
				l.bids = map[bidKey]bidNote{}
			}
			l.bids[bidKey{s.Game, s.Deal, int(s.Seat)}] = bidNote{p.bidValue, a.Bid == protocol.BidPass}
		}
		return a
	}
	return b
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// table returns the log as lines of a table: the bids against the heuristic's, then the
// decisions by trick.
func (l *decisionLog) table() []string {
	out := []string{"bids that could pass, by place: pimc pass / heuristic pass, pimc pass / heuristic named, pimc named / heuristic pass, both named"}
	for i, v := range l.vsHeuristic {
		if n := v[0][0] + v[0][1] + v[1][0] + v[1][1]; n > 0 {
			out = append(out, fmt.Sprintf("  place %d: %d / %d / %d / %d", i, v[0][0], v[0][1], v[1][0], v[1][1]))
		}
	}
	out = append(out, "trick  decisions  searched (no world)  worlds: mean / median / min  time: mean / max")
	for i, e := range l.trick {
		if e.n == 0 {
			continue
		}
		slices.Sort(e.worlds)
		searched, sum, median, least := len(e.worlds), 0, 0, 0
		for _, w := range e.worlds {
			sum += w
		}
		if searched > 0 {
			median, least = e.worlds[searched/2], e.worlds[0]
		}
		none, _ := slices.BinarySearch(e.worlds, 1) // the decisions that valued no world
		name := strconv.Itoa(i)
		if i == 0 {
			name = "bids"
		}
		out = append(out, fmt.Sprintf("%5s  %9d  %8d (%d)  %6.1f / %d / %d  %v / %v", name, e.n, searched, none,
			float64(sum)/float64(max(searched, 1)), median, least, (e.time/time.Duration(e.n)).Round(10*time.Microsecond), e.maxTime.Round(10*time.Microsecond)))
	}
	return out
}

// calibration compares the values the bot's searched bids found for their answers with the
// scores of the deals (pimc's side less the other's; pimc is NS, side 0, at both tables of
// b's boards): by the answer (a suit, by the value found; or a pass, also by the side that
// then made trumps), how many, the mean value found, the mean score, and how often the deal
// went nat.
func (l *decisionLog) calibration(b *boards) []string {
	type bin struct {
		name             string
		lo, hi           float64
		n, nat           int
		value, score, sq float64
	}
	bins := []bin{{name: "named a suit, value < 0", lo: math.Inf(-1), hi: 0}, {name: "named a suit, value 0..30", lo: 0, hi: 30},
		{name: "named a suit, value 30..60", lo: 30, hi: 60}, {name: "named a suit, value 60..100", lo: 60, hi: 100},
		{name: "named a suit, value >= 100", lo: 100, hi: math.Inf(1)}, {name: "named a suit, all"},
		{name: "passed, own side then made"}, {name: "passed, the other side made"}, {name: "passed"}}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range b.pairs {
		for _, r := range p {
			for seat := range 4 {
				note, ok := l.bids[bidKey{r.Game, r.Deal, seat}]
				if !ok {
					continue
				}
				score := float64(r.Result.Score[0] - r.Result.Score[1])
				nat := r.Result.Outcome == rules.Nat.String()
				add := func(i int) {
					c := &bins[i]
					c.n++
					c.value += note.value
					c.score += score
					c.sq += (score - note.value) * (score - note.value)
					if nat {
						c.nat++
					}
				}
				if note.passed {
					add(len(bins) - 1)
					if m, err := protocol.ParseSeat(r.Result.Maker); err == nil && m%2 == 0 {
						add(len(bins) - 3)
					} else {
						add(len(bins) - 2)
					}
					continue
				}
				add(len(bins) - 4)
				for i := range len(bins) - 4 {
					if note.value >= bins[i].lo && note.value < bins[i].hi {
						add(i)
					}
				}
			}
		}
	}
	out := []string{"bids searched                    n   mean value  mean score  score-value  rms diff  nat (the deal's)"}
	for _, c := range bins {
		m := float64(max(c.n, 1))
		out = append(out, fmt.Sprintf("%-30s %4d  %+10.1f  %+10.1f  %+11.1f  %8.1f  %d", c.name, c.n, c.value/m, c.score/m, (c.score-c.value)/m, math.Sqrt(c.sq/m), c.nat))
	}
	return out
}

// boards pairs the two deals of each duplicate board (the same cards, the hands moved on one
// seat, pimc NS at both tables), to show where pimc wins and loses points against its
// opponent: in boards where the same hand chose the same trumps at both tables the
// difference is card play; elsewhere the bidding made it.
type boards struct {
	mu    sync.Mutex
	first map[[2]int]*referee.DealRecord
	pairs [][2]*referee.DealRecord
}

// Deal keeps rec until its duplicate arrives.
func (b *boards) Deal(rec *referee.DealRecord) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.first == nil {
		b.first = map[[2]int]*referee.DealRecord{}
	}
	k := [2]int{rec.Pair, rec.Deal}
	if f, ok := b.first[k]; ok {
		b.pairs = append(b.pairs, [2]*referee.DealRecord{f, rec})
		delete(b.first, k)
	} else {
		b.first[k] = rec
	}
	return nil
}

type boardClass struct {
	name    string
	n, diff int
}

// classes sums pimc's lead (its points less the opponent's, both tables) by kind of board.
func (b *boards) classes() []boardClass {
	cs := []boardClass{{name: "same contract (card play)"}, {name: "  of which pimc went nat"}, {name: "  of which the opponent went nat"},
		{name: "different contracts (bidding)"}, {name: "  pimc's side chose at both tables"},
		{name: "  the opponent's side chose at both"}, {name: "  the same side of the cards, other trump"}}
	for _, p := range b.pairs {
		diff, pimcNat, oppNat := 0, false, false
		makerHand := [2]string{}
		for i, r := range p {
			diff += r.Result.Score[0] - r.Result.Score[1]
			m, err := protocol.ParseSeat(r.Result.Maker)
			if err != nil {
				continue
			}
			makerHand[i] = r.Hands[m]
			if r.Result.Outcome == rules.Nat.String() {
				if m%2 == 0 {
					pimcNat = true
				} else {
					oppNat = true
				}
			}
		}
		same := makerHand[0] == makerHand[1] && p[0].Result.Trump == p[1].Result.Trump
		add := func(i int) { cs[i].n++; cs[i].diff += diff }
		if same {
			add(0)
			if pimcNat {
				add(1)
			}
			if oppNat {
				add(2)
			}
			continue
		}
		add(3)
		m0, _ := protocol.ParseSeat(p[0].Result.Maker)
		m1, _ := protocol.ParseSeat(p[1].Result.Maker)
		switch {
		case m0%2 == 0 && m1%2 == 0:
			add(4)
		case m0%2 == 1 && m1%2 == 1:
			add(5)
		case makerHand[0] == makerHand[1]:
			add(6)
		}
	}
	return cs
}

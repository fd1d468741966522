package search

import (
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

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
// (true or false) HeuristicPass and PassValue, PIMC_MODEL_OPPONENTS ModelOpponents, PIMC_INFER_EPS, PIMC_INFER_PARTNER_EPS and
// PIMC_INFER_DRAWS the inference.
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
	if v, err := strconv.ParseBool(os.Getenv("PIMC_MODEL_OPPONENTS")); err == nil {
		cfg.ModelOpponents = v
	}
	seed := uint64(2026)
	if n, err := strconv.ParseUint(os.Getenv("PIMC_SEED"), 10, 64); err == nil {
		seed = n
	}
	rs, _ := rules.Preset("amsterdams")
	var b boards
	res := match(t, rs, cfg, func(uint64) bot.Bot { return strategy.Bot() }, pairs, seed, &b)
	a, h := res.Sides[0], res.Sides[1]
	t.Logf("%d pairs, %d deals: pimc %d, heuristic %d: share %.1f%%; pimc made %d nat %d, heuristic made %d nat %d; pimc's slowest answer %v",
		pairs, res.Deals, a.Points, h.Points, 100*float64(a.Points)/float64(a.Points+h.Points), a.Made, a.Nat, h.Made, h.Nat, res.Bots[0].MaxWall)
	for _, c := range b.classes() {
		t.Logf("%-40s %4d boards, pimc's lead %+6d (%+.1f a board)", c.name, c.n, c.diff, float64(c.diff)/float64(max(c.n, 1)))
	}
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

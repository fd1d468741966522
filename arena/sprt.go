package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/referee"
)

// parseSPRT reads --sprt "elo0=0,elo1=10,alpha=0.05,beta=0.05[,normalized]".
func parseSPRT(text string) (rating.SPRTConfig, error) {
	cfg := rating.SPRTConfig{Alpha: 0.05, Beta: 0.05}
	seen := map[string]bool{}
	for part := range strings.SplitSeq(text, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		if k == "normalized" && v == "" {
			cfg.Normalized = true
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		dst := map[string]*float64{"elo0": &cfg.Elo0, "elo1": &cfg.Elo1, "alpha": &cfg.Alpha, "beta": &cfg.Beta}[k]
		if dst == nil || err != nil {
			return cfg, fmt.Errorf("--sprt %q: want elo0=X,elo1=Y[,alpha=A][,beta=B][,normalized], bad part %q", text, part)
		}
		*dst, seen[k] = x, true
	}
	if !seen["elo0"] || !seen["elo1"] {
		return cfg, fmt.Errorf("--sprt %q: elo0 and elo1 are required", text)
	}
	_, err := rating.NewSPRT(cfg)
	return cfg, err
}

// sprtRun feeds each finished duplicate pair's points share (A's team) to the test.
type sprtRun struct {
	test  *rating.SPRT
	pairs int
	stats rating.Stats
}

func newSPRTRun(cfg rating.SPRTConfig) *sprtRun {
	t, _ := rating.NewSPRT(cfg) // validated by parseSPRT
	return &sprtRun{test: t}
}

// stop is the match's Stop hook: true once the test has decided.
func (s *sprtRun) stop(res *referee.Result) bool {
	pairs := res.Pairs()
	for ; s.pairs < len(pairs); s.pairs++ {
		p := pairs[s.pairs]
		_, _ = s.test.Add(p.Share)
		_ = s.stats.Add(rating.Result{Team1: rating.Solo(0), Team2: rating.Solo(1), Points: p.Share, GameScore: p.GameScore, Games: 2})
	}
	return s.test.Decision() != rating.Continue
}

func (s *sprtRun) report(w io.Writer, a, b string) {
	lo, hi := s.test.Bounds()
	verdict := map[rating.Decision]string{
		rating.AcceptH1: fmt.Sprintf("H1 accepted: %s is better by at least elo1 = %g", a, s.test.Elo1),
		rating.AcceptH0: fmt.Sprintf("H0 accepted: %s is not better than elo0 = %g", a, s.test.Elo0),
		rating.Continue: "no decision yet (the match ran out of games)",
	}[s.test.Decision()]
	fmt.Fprintf(w, "\nSPRT %s after %d pairs (LLR %.2f, bounds %.2f .. %.2f)\n", verdict, s.pairs, s.test.LLR(), lo, hi)
	if r, err := rating.Fit(&s.stats, rating.Options{Channel: rating.Points}); err == nil {
		d, h := r.Elo[0]-r.Elo[1], r.DiffHalfWidth95(0, 1)
		fmt.Fprintf(w, "estimate: %s - %s = %+.1f Elo ± %.1f (95%%), LOS %.1f%%\n", a, b, d, h, 100*r.LOS(0, 1))
	}
}

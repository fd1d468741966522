package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/arena/view/textview"
	"github.com/klaverjas-arena/arena/protocol"
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

// matchProgress follows a match pair by pair: it feeds each finished duplicate pair's points
// share (A's team) to the rating fit and, with --sprt, to the sequential test, and writes a
// progress line after each pair (each game without duplicate). On a terminal it also keeps a
// live line below them, rewritten as deals finish (at most every liveEvery): the deals and
// games played, each side's running share of the points, and the last Elo and LLR.
type matchProgress struct {
	out   io.Writer // progress lines; io.Discard for none
	games int       // the most games the match plays
	test  *rating.SPRT
	pairs int
	stats rating.Stats

	live   bool       // out is a terminal
	width  func() int // the terminal's width (0: unknown)
	mu     sync.Mutex // the live line's state, fed by the tables of a parallel match
	deals  int
	played map[int]bool // the games (numbers in the match) with a finished deal
	points []int        // per side, over the finished deals
	shown  time.Time    // when the live line was last written
	status string       // the pair lines' Elo and LLR part, for the live line
}

// liveEvery is how often the live line is rewritten at most.
const liveEvery = 100 * time.Millisecond

// newMatchProgress follows a match of the given games (duplicate replays counted) between
// the given number of sides.
func newMatchProgress(out io.Writer, games int, sprt *rating.SPRTConfig, sides int) *matchProgress {
	p := &matchProgress{out: out, games: games, live: isTerminal(out), width: func() int { return terminalWidth(out) },
		played: map[int]bool{}, points: make([]int, sides)}
	if sprt != nil {
		p.test, _ = rating.NewSPRT(*sprt) // validated by parseSPRT
	}
	return p
}

// Deal counts a finished deal for the live line (a referee.DealConsumer; safe for the
// tables of a parallel match).
func (p *matchProgress) Deal(rec *referee.DealRecord) error {
	if !p.live {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.deals++
	p.played[rec.Game] = true
	for i, v := range rec.Result.Score {
		if i < len(p.points) {
			p.points[i] += v
		}
	}
	if time.Since(p.shown) >= liveEvery {
		p.writeLive()
	}
	return nil
}

// writeLive rewrites the live line; p.mu is held.
func (p *matchProgress) writeLive() {
	p.shown = time.Now()
	total := 0
	for _, v := range p.points {
		total += v
	}
	var b strings.Builder
	fmt.Fprintf(&b, "game %d/%d, %d deals", len(p.played), p.games, p.deals)
	for i, v := range p.points {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(&b, "%s%s %.1f%%", sep, sideName(i, len(p.points)), 100*float64(v)/float64(max(total, 1)))
	}
	b.WriteString(p.status)
	fmt.Fprint(p.out, "\r\033[K"+textview.Truncate(b.String(), p.width()-1))
}

// end clears the live line, before the match's result is printed.
func (p *matchProgress) end() {
	if p.live {
		p.mu.Lock()
		defer p.mu.Unlock()
		fmt.Fprint(p.out, "\r\033[K")
	}
}

// stop is the match's Stop hook, called after every pair: it writes the progress line, and
// is true once the test has decided.
func (p *matchProgress) stop(res *referee.Result) bool {
	pairs := res.Pairs()
	for ; p.pairs < len(pairs); p.pairs++ {
		pr := pairs[p.pairs]
		if p.test != nil {
			_, _ = p.test.Add(pr.Share)
		}
		_ = p.stats.Add(rating.Result{Team1: rating.Solo(0), Team2: rating.Solo(1), Points: pr.Share, GameScore: pr.GameScore, Games: 2})
	}
	p.line(res)
	return p.test != nil && p.test.Decision() != rating.Continue
}

// line writes one line of the match so far: the games, each side's share of the points, the
// Elo difference with its 95% interval once it can be estimated, and the test's LLR.
func (p *matchProgress) line(res *referee.Result) {
	total := 0
	for _, s := range res.Sides {
		total += s.Points
	}
	var b strings.Builder
	fmt.Fprintf(&b, "games %d/%d", len(res.Games), p.games)
	for t, s := range res.Sides {
		share := 0.0
		if total > 0 {
			share = 100 * float64(s.Points) / float64(total)
		}
		sep := ", "
		if t == 0 {
			sep = ": "
		}
		fmt.Fprintf(&b, "%s%s %s %.1f%%", sep, sideName(t, len(res.Sides)), res.Bots[t].Name, share)
	}
	status := len(b.String())
	if d, h, ok := p.elo(); ok {
		fmt.Fprintf(&b, ", Elo %+.1f ± %.1f", d, h)
	}
	if p.test != nil {
		lo, hi := p.test.Bounds()
		fmt.Fprintf(&b, ", LLR %.2f (%.2f, %.2f)", p.test.LLR(), lo, hi)
	}
	if !p.live {
		fmt.Fprintln(p.out, b.String())
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status = b.String()[status:]
	fmt.Fprintln(p.out, "\r\033[K"+b.String())
	p.writeLive()
}

// sideName is side i's name among n: a team (NS, EW) at four, a seat in the three-player game.
func sideName(i, n int) string {
	if n != 2 {
		return protocol.Seat(i).String()
	}
	return protocol.Team(i).String()
}

// elo returns A's Elo difference to B and the half-width of its 95% interval, once the pairs
// allow a fit.
func (p *matchProgress) elo() (d, half float64, ok bool) {
	r, err := rating.Fit(&p.stats, rating.Options{Channel: rating.Points})
	if err != nil {
		return 0, 0, false
	}
	return r.Elo[0] - r.Elo[1], r.DiffHalfWidth95(0, 1), true
}

// report says what the test decided, in words about the two bots, and the estimate.
func (p *matchProgress) report(w io.Writer, a, b string) {
	t := p.test
	lo, hi := t.Bounds()
	var verdict string
	switch t.Decision() {
	case rating.AcceptH1:
		verdict = fmt.Sprintf("%s (%s − %s > %g Elo; %s accepted: LLR %.2f reached %.2f)", above(a, b, t.Elo0), a, b, t.Elo0, t.Decision(), t.LLR(), hi)
	case rating.AcceptH0:
		verdict = fmt.Sprintf("%s (%s − %s < %g Elo; %s accepted: LLR %.2f reached %.2f)", below(a, b, t.Elo1), a, b, t.Elo1, t.Decision(), t.LLR(), lo)
	default:
		verdict = fmt.Sprintf("no decision (LLR %.2f, between %.2f and %.2f): the match ran out of games; play more with --games", t.LLR(), lo, hi)
	}
	fmt.Fprintf(w, "\nSPRT after %d pairs: %s\n", p.pairs, verdict)
	fmt.Fprintf(w, "  tested elo0 = %g against elo1 = %g, alpha = %g, beta = %g\n", t.Elo0, t.Elo1, t.Alpha, t.Beta)
	if d, h, ok := p.elo(); ok {
		r, _ := rating.Fit(&p.stats, rating.Options{Channel: rating.Points})
		fmt.Fprintf(w, "estimate: %s - %s = %+.1f Elo ± %.1f (95%%), LOS %.1f%%\n", a, b, d, h, 100*r.LOS(0, 1))
	}
}

// above says "a − b > x" in words: "A is stronger than B", "A is not weaker than B by more
// than 10 Elo".
func above(a, b string, x float64) string {
	switch {
	case x == 0:
		return fmt.Sprintf("%s is stronger than %s", a, b)
	case x > 0:
		return fmt.Sprintf("%s is stronger than %s by more than %g Elo", a, b, x)
	}
	return fmt.Sprintf("%s is not weaker than %s by more than %g Elo", a, b, -x)
}

// below says "a − b < y" in words: "A is not stronger than B by 5 Elo or more".
func below(a, b string, y float64) string {
	switch {
	case y == 0:
		return fmt.Sprintf("%s is not stronger than %s", a, b)
	case y > 0:
		return fmt.Sprintf("%s is not stronger than %s by %g Elo or more", a, b, y)
	}
	return fmt.Sprintf("%s is weaker than %s by more than %g Elo", a, b, -y)
}

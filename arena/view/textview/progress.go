package textview

import (
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
)

// ProgressPrinter shows a running league on a terminal: a live status line (Live), or
// plain lines every Every otherwise, and the standings every StandingsEvery matches. It is
// a league.Observer that passes every event on to Progress, whose status it prints.
type ProgressPrinter struct {
	Progress       *view.Progress
	Out            io.Writer
	Live           bool          // a terminal: rewrite one status line
	Width          func() int    // the terminal's columns, so that the live line never wraps; nil or 0: no limit
	Every          time.Duration // plain lines; default 30 s (1 s when Live)
	StandingsEvery int           // 0: never
	Standings      func(w io.Writer, t *store.Totals)

	mu   sync.Mutex // one writer of Out at a time
	quit chan struct{}
	wg   sync.WaitGroup
}

// Started passes the start on and starts the periodic status line.
func (p *ProgressPrinter) Started(total, done int, t *store.Totals) {
	p.Progress.Started(total, done, t)
	every := p.Every
	if every <= 0 {
		every = 30 * time.Second
		if p.Live {
			every = time.Second
		}
	}
	p.quit = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-p.quit:
				return
			case <-tick.C:
				p.mu.Lock()
				p.line()
				p.mu.Unlock()
			}
		}
	}()
}

// DealStored passes the deal on.
func (p *ProgressPrinter) DealStored() { p.Progress.DealStored() }

// MatchDone passes the match on, and prints the standings when it is their turn.
func (p *ProgressPrinter) MatchDone(t *store.Totals) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Progress.MatchDone(t)
	s := p.Progress.Status()
	if p.StandingsEvery > 0 && p.Standings != nil && (s.Done-s.Resumed)%p.StandingsEvery == 0 && s.Done < s.Total {
		if p.Live {
			fmt.Fprint(p.Out, "\r\033[K")
		}
		p.Standings(p.Out, t)
	}
}

// Stopped stops the periodic line and prints the last one.
func (p *ProgressPrinter) Stopped() {
	close(p.quit)
	p.wg.Wait()
	p.Progress.Stopped()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.line()
	if p.Live {
		fmt.Fprintln(p.Out)
	}
}

// line writes the status; p.mu is held.
func (p *ProgressPrinter) line() {
	text := StatusLine(p.Progress.Status())
	if p.Live {
		if p.Width != nil {
			text = Truncate(text, p.Width()-1)
		}
		fmt.Fprintf(p.Out, "\r\033[K%s", text)
		return
	}
	fmt.Fprintf(p.Out, "%s %s\n", time.Now().Format("15:04:05"), text)
}

// StatusLine is a league's progress on one line: matches done, deals per second, ETA,
// leader.
func StatusLine(s view.Status) string {
	eta := "-"
	if s.ETAKnown {
		eta = s.ETA.Round(time.Second).String()
	}
	leader := "-"
	if s.Leader != "" {
		leader = fmt.Sprintf("%s (%.1f%%)", s.Leader, 100*s.LeaderShare)
	}
	return fmt.Sprintf("matches %d/%d  %.0f deals/s  ETA %s  leader %s", s.Done, s.Total, s.Rate, eta, leader)
}

// Truncate cuts text to at most width characters (runes), ending it with "…" when cut; a
// width of 0 or less leaves it whole.
func Truncate(text string, width int) string {
	if width <= 0 || utf8.RuneCountInString(text) <= width {
		return text
	}
	r := []rune(text)
	return string(r[:width-1]) + "…"
}

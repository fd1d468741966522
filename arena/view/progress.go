package view

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
)

// Progress follows a running league: the league runner tells it of every stored deal and
// finished match (it is a league.Observer), and displays read its Status. It is safe for
// concurrent use.
type Progress struct {
	deals atomic.Int64 // stored in this run

	mu       sync.Mutex
	total    int
	done     int
	before   int // matches done before this run
	started  time.Time
	stopped  time.Time
	totals   *store.Totals
	changed  chan struct{} // closed and replaced at every change
	finished bool
	// leader is the standings' first bot for the totals leaderOf, worked out when a Status
	// is asked for after they changed (a rating fit, not worth doing for every match).
	leader      string
	leaderShare float64
	leaderOf    *store.Totals
}

// Status is a running league's progress at one moment (in JSON as the web viewer's API
// gives it: snake_case, durations in nanoseconds).
type Status struct {
	Total   int           `json:"total"`   // matches in the schedule
	Done    int           `json:"done"`    // matches done, this run and before
	Resumed int           `json:"resumed"` // matches that were done before this run started
	Deals   int64         `json:"deals"`   // deals stored in this run
	Elapsed time.Duration `json:"elapsed_ns"`
	Rate    float64       `json:"deals_per_second"` // in this run
	// ETA is the time left at this run's pace so far; ETAKnown is false until a match of
	// this run has finished.
	ETA      time.Duration `json:"eta_ns"`
	ETAKnown bool          `json:"eta_known"`
	// Leader is the bot ranked first in the standings so far ("" before any result), and
	// LeaderShare its points share.
	Leader      string        `json:"leader"`
	LeaderShare float64       `json:"leader_share"`
	Totals      *store.Totals `json:"totals,omitempty"` // the league's totals over its done matches
	Running     bool          `json:"running"`          // false before Started and after Stopped
}

// Started records the start of a run: total matches in the schedule, done of them already,
// and the totals over those.
func (p *Progress) Started(total, done int, t *store.Totals) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.done, p.before, p.totals, p.started = total, done, done, t, time.Now()
	p.notify()
}

// DealStored counts one more stored deal.
func (p *Progress) DealStored() { p.deals.Add(1) }

// MatchDone records a finished match and the league totals with it.
func (p *Progress) MatchDone(t *store.Totals) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.totals = t
	p.notify()
}

// Stopped records the end of the run.
func (p *Progress) Stopped() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished, p.stopped = true, time.Now()
	p.notify()
}

// Changed returns a channel that is closed at the next finished match, start or stop.
func (p *Progress) Changed() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.changed == nil {
		p.changed = make(chan struct{})
	}
	return p.changed
}

// notify wakes whoever waits on Changed; p.mu is held.
func (p *Progress) notify() {
	if p.changed != nil {
		close(p.changed)
		p.changed = nil
	}
}

// Status returns the progress now.
func (p *Progress) Status() Status {
	p.mu.Lock()
	defer p.mu.Unlock()
	end := time.Now()
	if p.finished {
		end = p.stopped
	}
	s := Status{Total: p.total, Done: p.done, Resumed: p.before, Deals: p.deals.Load(), Totals: p.totals,
		Running: !p.started.IsZero() && !p.finished}
	if !p.started.IsZero() {
		s.Elapsed = end.Sub(p.started)
	}
	if s.Elapsed > 0 {
		s.Rate = float64(s.Deals) / s.Elapsed.Seconds()
	}
	if n := p.done - p.before; n > 0 {
		s.ETA = time.Duration(float64(s.Elapsed) / float64(n) * float64(p.total-p.done))
		s.ETAKnown = true
	}
	if p.leaderOf != p.totals {
		p.leader, p.leaderShare = leader(p.totals)
		p.leaderOf = p.totals
	}
	s.Leader, s.LeaderShare = p.leader, p.leaderShare
	return s
}

// leader is the bot ranked first in the standings of t (by rating, by points share before
// there are ratings), and its points share; "" before any result.
func leader(t *store.Totals) (string, float64) {
	if t == nil {
		return "", 0
	}
	tab, err := ComputeStandings("", t, StandingsOptions{})
	if err != nil {
		return "", 0
	}
	for _, s := range tab.Standings {
		if b := t.Bots[s.Index]; b.PointsFor+b.PointsAgainst > 0 {
			return s.Bot, s.Share
		}
	}
	return "", 0
}

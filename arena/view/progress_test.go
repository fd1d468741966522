package view

import (
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
)

func TestProgress(t *testing.T) {
	var p Progress
	if s := p.Status(); s.Running || s.ETAKnown || s.Leader != "" {
		t.Errorf("before the start: %+v", s)
	}
	changed := p.Changed()
	p.Started(10, 2, &store.Totals{Bots: []store.BotTotals{{Name: "a"}, {Name: "b"}}})
	select {
	case <-changed:
	default:
		t.Error("Changed not closed by Started")
	}
	changed = p.Changed()
	for range 5 {
		p.DealStored()
	}
	if s := p.Status(); !s.Running || s.ETAKnown || s.Deals != 5 || s.Leader != "" || s.Done != 2 || s.Resumed != 2 {
		t.Errorf("after the start: %+v", s)
	}
	time.Sleep(20 * time.Millisecond)
	p.MatchDone(&store.Totals{Matches: 3, Bots: []store.BotTotals{{Name: "a", PointsFor: 40, PointsAgainst: 60}, {Name: "b", PointsFor: 60, PointsAgainst: 40}}})
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("Changed not closed by MatchDone")
	}
	s := p.Status()
	if !s.ETAKnown || s.ETA < 7*s.Elapsed-time.Millisecond || s.Done != 3 || s.Leader != "b" || s.LeaderShare != 0.6 || s.Rate <= 0 || s.Totals.Matches != 3 {
		t.Errorf("after a match: %+v", s)
	}
	p.Stopped()
	s1 := p.Status()
	time.Sleep(5 * time.Millisecond)
	if s2 := p.Status(); s1.Running || s2.Elapsed != s1.Elapsed {
		t.Errorf("after the stop: %+v then %+v", s1, s2)
	}
}

package view

import (
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
)

func TestSummarizeMatch(t *testing.T) {
	res := &referee.Result{ID: "m", Deals: 32,
		Sides: []referee.SideStats{{Bots: []string{"a", "a"}, Points: 300}, {Bots: []string{"b", "b"}, Points: 100}},
		Bots:  []referee.BotStats{{Name: "a", Decisions: 4, Wall: 10 * time.Millisecond, MaxWall: 5 * time.Millisecond}, {Name: "b"}},
		Games: []referee.GameResult{{Pair: 0, Totals: []int{100, 100}}, {Pair: 0, Mirror: true, Totals: []int{200, 0}}}}
	m := SummarizeMatch(res, 4)
	if m.Points != 400 || m.Percent(0) != 75 || m.Sides[1].Name != "EW" || m.Games != 2 || m.Pairs != 1 || m.PairShare != 0.75 {
		t.Errorf("%+v", m)
	}
	if b := m.Bots[0]; b.MeanMS != 2.5 || b.MaxMS != 5 || m.Bots[1].MeanMS != 0 || m.Bots[1].Seat.String() != "E" {
		t.Errorf("bots %+v", m.Bots)
	}
	three := &referee.Result{Sides: []referee.SideStats{{Bots: []string{"a"}, Points: 30}, {Bots: []string{"b"}, Points: 10}, {Bots: []string{"c"}}}}
	m = SummarizeMatch(three, 3)
	if len(m.Pairwise) != 3 || m.Pairwise[0].Share != 0.75 || m.Pairwise[2].Share != 1 || m.Sides[2].Name != "S" || m.Pairs != 0 {
		t.Errorf("three players: %+v", m.Pairwise)
	}
	if (&MatchSummary{Sides: make([]SideSummary, 2)}).Percent(1) != 0 {
		t.Error("Percent of a match without points")
	}
}

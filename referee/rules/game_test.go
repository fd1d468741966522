package rules

import (
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

func made(ns, ew int) Result { return Result{Outcome: Made, Score: sides(ns, ew)} }

// TestGameEnd is RULES.md §8: deals:N ends after N scored deals, target:N after the first
// deal that brings a side to N or more; the match score is the sum of the deal scores.
func TestGameEnd(t *testing.T) {
	tests := []struct {
		name   string
		opts   string
		deals  []Result
		overAt int // number of deals added when Over first reports true (0: never)
		total  [4]int
		leader int
		played int
		dealer string // dealer of the next deal; the first dealer is N
	}{
		{"deals:1", "game_end=deals:1", []Result{made(82, 80)}, 1, sides(82, 80), 0, 1, "E"},
		{"deals:2", "game_end=deals:2", []Result{made(82, 80), made(0, 162)}, 2, sides(82, 242), 1, 2, "S"},
		{"deals:8 not over", "game_end=deals:8", []Result{made(100, 62), made(100, 62), made(100, 62)}, 0, sides(300, 186), 0, 3, "W"},
		{"target:1500 reached exactly", "game_end=target:1500", []Result{made(800, 0), made(700, 100)}, 2, sides(1500, 100), 0, 2, "S"},
		{"target:1500 not yet", "game_end=target:1500", []Result{made(800, 0), made(699, 100)}, 0, sides(1499, 100), 0, 2, "S"},
		{"target:750 by EW", "game_end=target:750", []Result{made(0, 262), made(0, 262), made(100, 62), made(0, 262)}, 4, sides(100, 848), 1, 4, "N"},
		{"target: both over, higher leads", "game_end=target:200", []Result{made(100, 150), made(150, 62)}, 2, sides(250, 212), 0, 2, "S"},
		{"target: both over, tied: draw", "game_end=target:200", []Result{made(120, 100), made(100, 120)}, 2, sides(220, 220), -1, 2, "S"},
		{"deals: draw", "game_end=deals:2", []Result{made(82, 80), made(80, 82)}, 2, sides(162, 162), -1, 2, "S"},
		{"forfeits count", "game_end=deals:2", []Result{{Outcome: Forfeited, Score: sides(0, 262)}, {Outcome: Nat, Score: sides(162, 0)}}, 2, sides(162, 262), 1, 2, "S"},
		{"redeals do not count", "game_end=deals:2", []Result{{Outcome: Redeal}, made(82, 80), {Outcome: Redeal}, {Outcome: Redeal}, made(82, 80)}, 5, sides(164, 160), 0, 2, "S"},
		{"redeals keep the dealer", "", []Result{{Outcome: Redeal}, {Outcome: Redeal}}, 0, sides(0, 0), -1, 0, "N"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewGame(ruleset(t, tt.opts), protocol.North)
			if g.Over() || !g.FirstDeal() || g.Played() != 0 || g.Dealer() != protocol.North {
				t.Fatalf("new game: over %v first %v played %d dealer %v", g.Over(), g.FirstDeal(), g.Played(), g.Dealer())
			}
			overAt := 0
			for i, res := range tt.deals {
				if g.Over() {
					t.Fatalf("over before deal %d", i+1)
				}
				g.Add(res)
				if g.Over() && overAt == 0 {
					overAt = i + 1
				}
			}
			if overAt != tt.overAt || g.Total != tt.total || g.Leader() != tt.leader || g.Played() != tt.played || g.Dealer() != seatOf(t, tt.dealer) {
				t.Errorf("over at %d total %v leader %d played %d dealer %v, want %d %v %d %d %s",
					overAt, g.Total, g.Leader(), g.Played(), g.Dealer(), tt.overAt, tt.total, tt.leader, tt.played, tt.dealer)
			}
		})
	}
}

// TestGameBoompje: the default game is 16 deals, each player dealing four times, the dealer
// moving clockwise (RULES.md §3, §8).
func TestGameBoompje(t *testing.T) {
	g := NewGame(ruleset(t, ""), protocol.East)
	deals := map[Seat]int{}
	want := []string{"E", "S", "W", "N"}
	for i := range 16 {
		if g.Over() {
			t.Fatalf("over after %d deals", i)
		}
		if got := g.Dealer(); got != seatOf(t, want[i%4]) {
			t.Errorf("deal %d dealt by %v, want %s", i+1, got, want[i%4])
		}
		if g.FirstDeal() != (i == 0) {
			t.Errorf("deal %d: FirstDeal %v", i+1, g.FirstDeal())
		}
		deals[g.Dealer()]++
		g.Add(made(90, 72))
	}
	if !g.Over() || g.Played() != 16 || g.Total != sides(16*90, 16*72) || g.Leader() != 0 {
		t.Errorf("after 16 deals: over %v played %d total %v leader %d", g.Over(), g.Played(), g.Total, g.Leader())
	}
	for s, n := range deals {
		if n != 4 {
			t.Errorf("%v dealt %d times", s, n)
		}
	}
}

// TestGameRedealDeal: a redeal from draaikaart_opnieuw_schudden leaves the dealer, the count
// and the first-deal flag alone.
func TestGameRedealDeal(t *testing.T) {
	r := ruleset(t, "bidding=draaikaart_opnieuw_schudden")
	g := NewGame(r, protocol.South)
	d, err := NewDeal(r, Setup{Dealer: g.Dealer(), Hands: orderedHands(r, g.Dealer()), Pile: pile(t, false, "4H 3S"), FirstOfMatch: g.FirstDeal()})
	if err != nil {
		t.Fatal(err)
	}
	bid(t, d, pass8)
	g.Add(d.Result())
	if g.Dealer() != protocol.South || g.Played() != 0 || !g.FirstDeal() || g.Total != sides(0, 0) {
		t.Errorf("after a redeal: dealer %v played %d first %v total %v", g.Dealer(), g.Played(), g.FirstDeal(), g.Total)
	}
}

package rules

import (
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

// TestSitOutSeating: four at the table of the three-player game; the dealer sits out and the
// player on his left is the deal's seat 0 (voorhand), the deal's dealer being seat 2.
func TestSitOutSeating(t *testing.T) {
	for dealer := range Seat(4) {
		s := Seating{Table: 4, Players: 3, Dealer: dealer}
		if !s.SitsOut() || s.DealDealer() != 2 || s.DealSeat(dealer) != noSeat {
			t.Fatalf("dealer %s: sits out %v, deal dealer %s, dealer's deal seat %s", dealer, s.SitsOut(), s.DealDealer(), s.DealSeat(dealer))
		}
		for k := 1; k <= 3; k++ {
			table := dealer.Plus(k, 4)
			if d := s.DealSeat(table); d != Seat(k-1) || s.TableSeat(d) != table {
				t.Errorf("dealer %s: table seat %s is deal seat %s (back: %s), want %d", dealer, table, d, s.TableSeat(d), k-1)
			}
		}
		// Voorhand of the deal is left of the deal's dealer: the table player left of the dealer.
		if s.TableSeat(s.DealDealer().Next(3)) != dealer.Next(4) {
			t.Errorf("dealer %s: voorhand is %s", dealer, s.TableSeat(s.DealDealer().Next(3)))
		}
	}
	same := Seating{Table: 3, Players: 3, Dealer: protocol.East}
	if same.SitsOut() || same.DealSeat(protocol.South) != protocol.South || same.TableSeat(protocol.North) != protocol.North || same.DealDealer() != protocol.East {
		t.Error("a table of three is its own seating")
	}
}

// TestSitOutGame: totals per table seat, the dealer moving round all four seats, a redeal
// passing the deal on, game end and leader over the four.
func TestSitOutGame(t *testing.T) {
	rs := three(t, "game_end=deals:3")
	g, err := NewTableGame(rs, 4, protocol.North)
	if err != nil {
		t.Fatal(err)
	}
	scores := func(a, b, c int) Result { return Result{Outcome: Made, Score: [protocol.MaxSeats]int{a, b, c}} }
	g.Add(scores(90, 50, 20)) // N deals: E S W play
	if g.Total != [4]int{0, 90, 50, 20} || g.Dealer() != protocol.East {
		t.Fatalf("after deal 1: totals %v dealer %s", g.Total, g.Dealer())
	}
	g.Add(Result{Outcome: Redeal}) // E deals, all pass: S deals
	if g.Dealer() != protocol.South || g.Played() != 1 {
		t.Fatalf("after a redeal: dealer %s played %d", g.Dealer(), g.Played())
	}
	g.Add(scores(10, 20, 30)) // S deals: W N E play
	if g.Total != [4]int{20, 120, 50, 30} || g.Dealer() != protocol.West || g.Over() {
		t.Fatalf("after deal 2: totals %v dealer %s over %v", g.Total, g.Dealer(), g.Over())
	}
	g.Add(scores(0, 0, 100)) // W deals: N E S play
	if g.Total != [4]int{20, 120, 150, 30} || !g.Over() || g.Leader() != int(protocol.South) {
		t.Fatalf("after deal 3: totals %v over %v leader %d", g.Total, g.Over(), g.Leader())
	}

	target, _ := NewTableGame(three(t, "game_end=target:100"), 4, protocol.West)
	target.Add(scores(0, 0, 100)) // W deals: N E S play; S reaches 100
	if !target.Over() || target.Leader() != int(protocol.South) {
		t.Errorf("target: totals %v over %v leader %d", target.Total, target.Over(), target.Leader())
	}

	for _, bad := range []struct {
		rs    *Ruleset
		table int
	}{{ruleset(t, ""), 3}, {three(t, ""), 2}, {three(t, ""), 5}} {
		if _, err := NewTableGame(bad.rs, bad.table, protocol.North); err == nil {
			t.Errorf("a table of %d accepted for %d players", bad.table, bad.rs.Players)
		}
	}
	if _, err := NewTableGame(three(t, ""), 3, protocol.West); err == nil {
		t.Error("dealer W accepted at a table of three")
	}
}

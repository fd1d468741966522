package rules

import "fmt"

// Seating places a deal's players at the table. Usually the table and the deal have the same
// seats. The three-player game may also be played by four at the table (RULES.md §11): the
// dealer sits out, and the other three are the deal's seats 0, 1 and 2, starting left of the
// dealer; the deal's own dealer is then seat 2, so that the player left of the real dealer is
// voorhand (bids first and leads).
type Seating struct {
	Table   int  // seats at the table
	Players int  // seats in the deal: Table, or 3 when the dealer sits out
	Dealer  Seat // the dealer's table seat
}

// SitsOut reports whether the dealer sits out the deal.
func (s Seating) SitsOut() bool { return s.Table != s.Players }

// DealSeat returns the deal's seat of table seat t, or NoSeat for the dealer sitting out.
func (s Seating) DealSeat(t Seat) Seat {
	if !s.SitsOut() {
		return t
	}
	if t == s.Dealer {
		return noSeat
	}
	return Seat((int(t) - int(s.Dealer) + 3) % 4)
}

// TableSeat returns the table seat of the deal's seat d (NoSeat stays NoSeat).
func (s Seating) TableSeat(d Seat) Seat {
	if !s.SitsOut() || d == noSeat {
		return d
	}
	return s.Dealer.Plus(int(d)+1, 4)
}

// DealDealer returns the dealer seat of the deal: the table's dealer, or seat 2 when the
// dealer sits out.
func (s Seating) DealDealer() Seat {
	if s.SitsOut() {
		return 2
	}
	return s.Dealer
}

// NewTableGame starts a game at a table of the given size: the ruleset's number of players,
// or four for the three-player game, the dealer sitting out each deal. Totals, the game's end
// and the dealer are then per table seat.
func NewTableGame(r *Ruleset, table int, firstDealer Seat) (*Game, error) {
	if table != r.Players && (table != 4 || r.Players != 3) {
		return nil, fmt.Errorf("a table of %d cannot play a game for %d players (four may sit at a game for three: the dealer sits out)", table, r.Players)
	}
	if int(firstDealer) >= table {
		return nil, fmt.Errorf("dealer %s is not at a table of %d", firstDealer, table)
	}
	return &Game{rules: *r, table: table, dealer: firstDealer}, nil
}

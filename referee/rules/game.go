package rules

import "github.com/klaverjas-arena/arena/protocol"

// Game is the running score of one game: deals are added until the ruleset's game_end is
// reached (RULES.md §8). It tracks the dealer: the next dealer is left of the previous one
// (at a table of three: the previous voorhand), except after a redeal at a table of four, when
// the same dealer deals again. At a table of three a redeal (all passed) passes the deal to
// the next dealer (RULES.md §11); it is still not counted as a deal played.
//
// At a table of four playing the three-player game (NewTableGame) the dealer sits out each
// deal; Total is then per table seat and the dealer moves round the four seats.
type Game struct {
	rules  Ruleset
	table  int // seats at the table
	dealer Seat
	played int                    // deals scored, redeals excluded
	Total  [protocol.MaxSeats]int // per side (per table seat when the dealer sits out)
}

// NewGame starts a game whose first deal is dealt by firstDealer, at a table of the
// ruleset's number of players.
func NewGame(r *Ruleset, firstDealer Seat) *Game {
	return &Game{rules: *r, table: r.Players, dealer: firstDealer}
}

// Dealer returns the dealer of the next deal (a table seat).
func (g *Game) Dealer() Seat { return g.dealer }

// Seating returns the seating of the next deal.
func (g *Game) Seating() Seating {
	return Seating{Table: g.table, Players: g.rules.Players, Dealer: g.dealer}
}

// sides returns the number of scoring sides at the table.
func (g *Game) sides() int {
	if g.table != g.rules.Players {
		return g.table
	}
	return g.rules.Sides()
}

// Played returns the number of deals scored so far (redeals are not counted).
func (g *Game) Played() int { return g.played }

// FirstDeal reports whether the next deal is the game's first (a redeal of the first deal
// still is).
func (g *Game) FirstDeal() bool { return g.played == 0 }

// Add records the result of a finished deal (with the seating of Seating) and moves the
// deal to the next dealer.
func (g *Game) Add(res Result) {
	seating := g.Seating()
	if res.Outcome == Redeal {
		if g.rules.Players == 3 {
			g.dealer = g.dealer.Next(g.table)
		}
		return
	}
	for s := range g.rules.Sides() {
		g.Total[seating.TableSeat(Seat(s))] += res.Score[s]
	}
	g.played++
	g.dealer = g.dealer.Next(g.table)
}

// Over reports whether the game has ended: after game_end's number of deals, or after the
// first deal that brings a side to the target score.
func (g *Game) Over() bool {
	if g.rules.GameEnd.Kind == EndAfterDeals {
		return g.played >= g.rules.GameEnd.N
	}
	for s := range g.sides() {
		if g.Total[s] >= g.rules.GameEnd.N {
			return true
		}
	}
	return false
}

// Leader returns the side with the highest total, or -1 when the highest total is shared
// (a draw if the game is over).
func (g *Game) Leader() int {
	best, leader := -1, -1
	for s := range g.sides() {
		switch {
		case g.Total[s] > best:
			best, leader = g.Total[s], s
		case g.Total[s] == best:
			leader = -1
		}
	}
	return leader
}

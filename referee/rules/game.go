package rules

import "github.com/klaverjas-arena/arena/protocol"

// Game is the running score of one game: deals are added until the ruleset's game_end is
// reached (rules.md §8). It tracks the dealer: the next dealer is left of the previous one
// (at a table of three: the previous voorhand), except after a redeal at a table of four, when
// the same dealer deals again. At a table of three a redeal (all passed) passes the deal to
// the next dealer (Appendix A); it is still not counted as a deal played.
type Game struct {
	rules  Ruleset
	dealer Seat
	played int                    // deals scored, redeals excluded
	Total  [protocol.MaxSeats]int // per side
}

// NewGame starts a game whose first deal is dealt by firstDealer.
func NewGame(r *Ruleset, firstDealer Seat) *Game {
	return &Game{rules: *r, dealer: firstDealer}
}

// Dealer returns the dealer of the next deal.
func (g *Game) Dealer() Seat { return g.dealer }

// Played returns the number of deals scored so far (redeals are not counted).
func (g *Game) Played() int { return g.played }

// FirstDeal reports whether the next deal is the game's first (a redeal of the first deal
// still is).
func (g *Game) FirstDeal() bool { return g.played == 0 }

// Add records the result of a finished deal and moves the deal to the next dealer.
func (g *Game) Add(res Result) {
	if res.Outcome == Redeal {
		if g.rules.Players == 3 {
			g.dealer = g.dealer.Next(3)
		}
		return
	}
	for s := range g.rules.Sides() {
		g.Total[s] += res.Score[s]
	}
	g.played++
	g.dealer = g.dealer.Next(g.rules.Players)
}

// Over reports whether the game has ended: after game_end's number of deals, or after the
// first deal that brings a side to the target score.
func (g *Game) Over() bool {
	if g.rules.GameEnd.Kind == EndAfterDeals {
		return g.played >= g.rules.GameEnd.N
	}
	for s := range g.rules.Sides() {
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
	for s := range g.rules.Sides() {
		switch {
		case g.Total[s] > best:
			best, leader = g.Total[s], s
		case g.Total[s] == best:
			leader = -1
		}
	}
	return leader
}

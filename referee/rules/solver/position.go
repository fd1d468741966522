// Package solver solves the open-card Klaverjas play exactly: with every hand known, it finds
// the value of the rest of a deal when every seat plays perfectly, under any ruleset the
// rules engine accepts (both play rules, the undertrump options, roem in tricks or announced
// stuk, pit, the nat rules, the three-player game).
//
// The value is the deal's final score, as rules.ScoreDeal writes it down, seen from one side:
// at a table of four the side's score minus the other side's; at a table of three (each for
// himself) twice the player's score minus the two others' scores, both opponents playing
// against him ("paranoid" search), so that the game stays zero-sum.
//
// The search is alpha-beta with move ordering, a transposition table keyed on the remaining
// cards (and the score so far, which the final score depends on), and equivalent-card
// pruning: of cards of one hand that no other card separates, that are worth the same card
// points and that can take part in no roem, only one is searched.
package solver

import (
	"fmt"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Position is a deal in the play phase with every hand known.
type Position struct {
	Rules *rules.Ruleset
	Trump protocol.Suit
	Maker protocol.Seat
	// Hands holds every seat's cards now.
	Hands [protocol.MaxSeats]protocol.CardSet
	// Trick is the trick in progress; its Leader is set even when it is empty.
	Trick rules.Trick
	// Cards, Roem and Won are the card points (with any last-trick bonus), roem and tricks
	// taken so far, per side (rules.Ruleset.SideOf).
	Cards, Roem, Won [protocol.MaxSeats]int
	// Discard is the Player's two laid-away cards at a table of three (counted for the
	// winner of the last trick); empty at four.
	Discard protocol.CardSet
	// StukSeat is, under stuk_scoring = announced_by_holder, the seat that held king and
	// queen of trumps when play began and has not yet played both; else NoSeat.
	StukSeat protocol.Seat
}

// FromDeal returns the position of a deal in its play phase (or between a trick and its roem
// claim, when the claim is taken as exact).
func FromDeal(d *rules.Deal) (Position, error) {
	if d.Phase() != rules.PhasePlay && d.Phase() != rules.PhaseClaim {
		return Position{}, fmt.Errorf("solver: deal is in phase %s, not play", d.Phase())
	}
	rs := d.Rules()
	p := Position{Rules: rs, Trump: d.Trump(), Maker: d.Maker(), Discard: d.Discarded(), StukSeat: protocol.NoSeat}
	for s := range rs.Players {
		p.Hands[s] = d.Hand(protocol.Seat(s))
	}
	tricks := d.Tricks()
	if d.Phase() == rules.PhasePlay {
		p.Trick = *d.Trick()
	} else {
		p.Trick = rules.Trick{Leader: tricks[len(tricks)-1].Winner}
	}
	for i, t := range tricks {
		side := rs.SideOf(t.Winner)
		p.Cards[side] += t.Points
		p.Won[side]++
		if d.Phase() == rules.PhaseClaim && i == len(tricks)-1 {
			p.Roem[side] += t.Roem.Total()
		} else {
			p.Roem[side] += t.Scored
		}
	}
	if rs.StukScoring == rules.StukAnnouncedByHolder {
		stuk := stukOf(p.Trump)
		for s := range rs.Players {
			held := d.Dealt(protocol.Seat(s))
			if protocol.Seat(s) == p.Maker {
				held |= d.Skart() // at three the Player took the skart (he cannot discard stuk and still hold it)
				held &^= p.Discard
			}
			if held&stuk == stuk {
				if p.Hands[s]&stuk != 0 {
					p.StukSeat = protocol.Seat(s)
				} else {
					p.Roem[rs.SideOf(protocol.Seat(s))] += 20 // announced already
				}
			}
		}
	}
	return p, nil
}

// ToMove returns the seat to play.
func (p *Position) ToMove() protocol.Seat { return p.Trick.Seat(p.Trick.N, p.Rules.Players) }

// TricksLeft returns the tricks still to finish, the one in progress included.
func (p *Position) TricksLeft() int {
	n := 0
	for s := range p.Rules.Players {
		n += p.Hands[s].Len()
	}
	return (n + p.Trick.N) / p.Rules.Players
}

func stukOf(trump protocol.Suit) protocol.CardSet {
	return protocol.SetOf(protocol.NewCard(protocol.King, trump), protocol.NewCard(protocol.Queen, trump))
}

package view

import (
	"fmt"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Position is a stored or logged deal as it stood at one of its decisions, as a bot author
// looks at it when asking a bot about that decision again: the cards each seat still held,
// the bids so far, trump, the finished tricks, the trick being played and who was to move.
// Seats are table seats.
type Position struct {
	Where    string // where the record came from: "FILE:LINE" or "db LEAGUE/N"
	Match    string
	Game     int
	Number   int // the deal number in the game, from 1
	Dealer   string
	Decision int // the deal's decision this is the position of, from 1

	// Problem says why the position cannot be rebuilt (an unreadable record, an action
	// before the decision that the rules engine refuses); everything below is empty then.
	Problem string

	Seats  []Seat // each Hand is the cards the seat still held
	Bids   []Step // the bids so far, in order
	Trump  protocol.Suit
	Maker  protocol.Seat // NoSeat while no trump is made
	Tricks []Trick       // the tricks finished so far
	// Playing says cards are being played: Trick is the trick so far (empty when it is
	// about to be led).
	Playing bool
	Trick   []Play
	// ToMove is the seat to decide (NoSeat once the deal is over), and Request what it was
	// asked, as the protocol names it: bid, play, claim (roem) or discard.
	ToMove  protocol.Seat
	Request string
}

// requests names the request of each phase a seat is asked in.
var requests = map[rules.Phase]string{rules.PhaseBidding: "bid", rules.PhasePlay: "play", rules.PhaseClaim: "claim", rules.PhaseSkart: "discard"}

// PositionFromRecord rebuilds the deal at its decision (from 1) by re-refereeing the
// record's earlier actions with the rules engine. A record that cannot be read, or whose
// earlier actions the engine refuses, gives a Position with Problem set.
func PositionFromRecord(r *referee.DealRecord, where string, decision int) *Position {
	p := &Position{Where: where, Match: r.Match, Game: r.Game, Number: r.Deal, Dealer: r.Dealer, Decision: decision, Maker: protocol.NoSeat}
	deal, seating, err := r.Position(decision)
	if err != nil {
		p.Problem = fmt.Sprintf("cannot rebuild the position: %v", err)
		return p
	}
	for i, name := range r.Seats[:seating.Table] {
		s := Seat{Seat: protocol.Seat(i), Bot: name, SitsOut: true}
		if ds := seating.DealSeat(protocol.Seat(i)); ds != protocol.NoSeat {
			s.Hand, s.SitsOut = deal.Hand(ds), false
		}
		p.Seats = append(p.Seats, s)
	}
	for _, a := range r.Actions[:min(decision-1, len(r.Actions))] {
		if a.Bid != "" {
			p.Bids = append(p.Bids, Step{Kind: BidStep, Seat: a.Seat, Bid: a.Bid})
		}
	}
	if m := deal.Maker(); m != protocol.NoSeat {
		p.Trump, p.Maker = deal.Trump(), seating.TableSeat(m)
	}
	players := deal.Rules().Players
	for i, t := range deal.Tricks() {
		p.Tricks = append(p.Tricks, trick(i+1, &t, players, seating.TableSeat))
	}
	if deal.Phase() == rules.PhasePlay {
		p.Playing = true
		tr := deal.Trick()
		for j := range tr.N {
			p.Trick = append(p.Trick, Play{Seat: seating.TableSeat(tr.Seat(j, players)), Card: tr.Cards[j]})
		}
	}
	p.ToMove, p.Request = seating.TableSeat(deal.ToMove()), requests[deal.Phase()]
	return p
}

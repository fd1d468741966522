package view

import (
	"fmt"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Deal is one deal as people look at it: who sat where with which cards, every action in
// order with the tricks it finished, the result and the faults. Seats are table seats
// throughout (at a three-player game with four at the table, the dealer sits out).
type Deal struct {
	Where    string // where the record came from: "FILE:LINE" or "db LEAGUE/N"
	Match    string
	Game     int
	Number   int // the deal number in the game, from 1
	Attempt  int // redeals of this deal so far
	Mirror   bool
	Rotation int // seats the hands moved on in the duplicate set
	Dealer   string
	Players  int // of the ruleset: 3 or 4

	// Problem says why the deal cannot be shown past its header (an unreadable record);
	// everything below is empty then.
	Problem string

	Seats  []Seat
	Skart  protocol.CardSet // the three-player game's two undealt cards
	Pile   []string         // the pile below the deck, as recorded
	Turned []protocol.PileCard
	Steps  []Step
	Tricks []Trick
	// Unfinished lists the cards played after the last finished trick, as recorded: a
	// deal that was forfeited, or whose actions stopped being legal.
	Unfinished []string
	Result     referee.RecordResult
	Rejected   []referee.Rejection
	Faults     []referee.FaultRecord
}

// Seat is one table seat and the hand dealt to it.
type Seat struct {
	Seat    protocol.Seat
	Bot     string
	Hand    protocol.CardSet
	SitsOut bool // the dealer at a three-player game of four
}

// StepKind is what an action of a deal was.
type StepKind uint8

const (
	// BidStep is a bid: a suit or a pass.
	BidStep StepKind = iota
	// CardStep is a card played.
	CardStep
	// DiscardStep is the three-player game's discard of two cards after taking the skart.
	DiscardStep
	// ClaimStep is a roem claim.
	ClaimStep
)

// Step is one action of the deal, in order.
type Step struct {
	Kind    StepKind
	Seat    string // the table seat that acted, as recorded
	Bid     string // BidStep: "pass" or a suit letter
	Card    string // CardStep
	Discard string // DiscardStep: two cards separated by a space
	Claim   int    // ClaimStep: the roem claimed
	// Illegal says why the rules engine refused this action ("action N (SEAT) is not
	// legal here: …"); the deal is not followed further than it.
	Illegal string
	// Tricks is how many tricks this action finished (their details are in Deal.Tricks,
	// in order).
	Tricks int
}

// Trick is a finished trick.
type Trick struct {
	Number int // from 1
	Leader protocol.Seat
	Plays  []Play
	Winner protocol.Seat
	Points int              // card points, with the last-trick bonus
	Roem   []rules.RoemItem // the roem in the trick
	Scored int              // the roem scored for it (what was claimed, where claims are required)
}

// Play is one card of a trick and the table seat that played it.
type Play struct {
	Seat protocol.Seat
	Card protocol.Card
}

// DealFromRecord builds the view of a stored or logged deal by re-refereeing it with the
// rules engine: each action is applied in turn, and the tricks come from the engine, not
// from the record. A record that cannot be read gives a Deal with Problem set; an action
// the engine refuses is marked Illegal and the rest of the actions are listed unfollowed.
func DealFromRecord(r *referee.DealRecord, where string) *Deal {
	d := &Deal{Where: where, Match: r.Match, Game: r.Game, Number: r.Deal, Attempt: r.Attempt,
		Mirror: r.Mirror, Rotation: r.Rotation, Dealer: r.Dealer, Players: r.Rules.Players,
		Result: r.Result, Rejected: r.Rejected, Faults: r.Faults}
	setup, err := r.Setup()
	if err != nil {
		d.Problem = fmt.Sprintf("cannot read the deal: %v", err)
		return d
	}
	seating, _ := r.Seating() // checked by Setup
	for i, name := range r.Seats[:seating.Table] {
		s := Seat{Seat: protocol.Seat(i), Bot: name, SitsOut: true}
		if ds := seating.DealSeat(protocol.Seat(i)); ds != protocol.NoSeat {
			s.Hand, s.SitsOut = setup.Hands[ds], false
		}
		d.Seats = append(d.Seats, s)
	}
	d.Skart, d.Pile = setup.Skart, r.Pile
	deal, err := rules.NewDeal(&r.Rules, setup)
	if err != nil {
		deal = nil // the setup breaks the rules: show the actions as recorded
	}
	for i, a := range r.Actions {
		st := Step{Seat: a.Seat}
		switch {
		case a.Bid != "":
			st.Kind, st.Bid = BidStep, a.Bid
		case a.Card != "":
			st.Kind, st.Card = CardStep, a.Card
			d.Unfinished = append(d.Unfinished, a.Card)
		case a.Discard != "":
			st.Kind, st.Discard = DiscardStep, a.Discard
		case a.Claim != nil:
			st.Kind, st.Claim = ClaimStep, *a.Claim
		}
		if deal != nil {
			if aerr := a.Apply(deal, seating); aerr != nil {
				st.Illegal = fmt.Sprintf("action %d (%s) is not legal here: %v", i+1, a.Seat, aerr)
				deal = nil
			} else {
				st.Tricks = d.addTricks(deal, seating)
				if st.Kind == ClaimStep {
					d.claimed(deal)
				}
			}
		}
		d.Steps = append(d.Steps, st)
	}
	if deal != nil {
		d.Turned = deal.Turned()
	}
	return d
}

// addTricks appends the tricks the engine finished since the last call, at table seats,
// and returns how many.
func (d *Deal) addTricks(deal *rules.Deal, seating rules.Seating) int {
	done := deal.Tricks()[len(d.Tricks):]
	for _, t := range done {
		d.Tricks = append(d.Tricks, trick(len(d.Tricks)+1, &t, deal.Rules().Players, seating.TableSeat))
		d.Unfinished = d.Unfinished[:0]
	}
	return len(done)
}

// claimed updates the last finished trick with the roem scored for it: where claims are
// required, a trick's roem is claimed after the trick is finished.
func (d *Deal) claimed(deal *rules.Deal) {
	if n := len(d.Tricks); n > 0 && n <= len(deal.Tricks()) {
		d.Tricks[n-1].Scored = deal.Tricks()[n-1].Scored
	}
}

// trick converts an engine trick, placing its seats with table.
func trick(n int, t *rules.TrickRecord, players int, table func(protocol.Seat) protocol.Seat) Trick {
	out := Trick{Number: n, Leader: table(t.Leader), Winner: table(t.Winner), Points: t.Points, Roem: t.Roem.List(), Scored: t.Scored}
	for i := range t.N {
		out.Plays = append(out.Plays, Play{Seat: table(t.Seat(i, players)), Card: t.Cards[i]})
	}
	return out
}

// DealFromPlay builds the view of a deal the rules engine played in-process (arena demo):
// no names, deal seats as table seats, bids and tricks from the engine.
func DealFromPlay(deal *rules.Deal, number int) *Deal {
	rs := deal.Rules()
	d := &Deal{Number: number, Dealer: deal.Dealer().String(), Players: rs.Players,
		Skart: deal.Skart(), Turned: deal.Turned()}
	for s := range protocol.Seat(rs.Players) {
		d.Seats = append(d.Seats, Seat{Seat: s, Hand: deal.Dealt(s)})
	}
	for _, b := range deal.Bids() {
		d.Steps = append(d.Steps, Step{Kind: BidStep, Seat: b.Seat.String(), Bid: b.Bid.String()})
	}
	same := func(s protocol.Seat) protocol.Seat { return s }
	for i, t := range deal.Tricks() {
		d.Tricks = append(d.Tricks, trick(i+1, &t, rs.Players, same))
		for _, p := range d.Tricks[i].Plays {
			d.Steps = append(d.Steps, Step{Kind: CardStep, Seat: p.Seat.String(), Card: p.Card.String()})
		}
		d.Steps[len(d.Steps)-1].Tricks = 1
	}
	d.Result = resultOf(deal)
	return d
}

// resultOf is the engine's result in the record's form (per side; seats as deal seats).
func resultOf(deal *rules.Deal) referee.RecordResult {
	res := deal.Result()
	sides := 2
	if deal.Rules().Players == 3 {
		sides = 3
	}
	r := referee.RecordResult{Outcome: res.Outcome.String(),
		Score: res.Score[:sides], Cards: res.CardPoints[:sides], Roem: res.Roem[:sides], Tricks: res.TricksWon[:sides]}
	if res.Maker != protocol.NoSeat {
		r.Trump, r.Maker = res.Trump.String(), res.Maker.String()
	}
	if res.PitSide >= 0 {
		r.Pit = protocol.Team(res.PitSide).String()
		if sides == 3 {
			r.Pit = protocol.Seat(res.PitSide).String()
		}
	}
	if res.Offender != protocol.NoSeat {
		r.Offender = res.Offender.String()
	}
	return r
}

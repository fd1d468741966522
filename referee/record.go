package referee

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// LogVersion is the version of the deal-log format (spec.md, "Deal logs").
const LogVersion = 1

// DealRecord is one line of a match log: a self-contained account of one deal, enough to
// replay and re-referee it with nothing else.
type DealRecord struct {
	V       int           `json:"v"`
	Match   string        `json:"match"`
	Pair    int           `json:"pair"`    // the deal set (board) number, from 0
	Mirror  bool          `json:"mirror"`  // the duplicate replay, with the hands moved one seat on
	Game    int           `json:"game"`    // the game number in the match, from 1
	Deal    int           `json:"deal"`    // the deal number in the game, from 1
	Attempt int           `json:"attempt"` // redeals of this deal so far
	Rules   rules.Ruleset `json:"rules"`
	Seed    uint64        `json:"seed"`
	Seats   [4]string     `json:"seats"` // bot names, N E S W
	Dealer  string        `json:"dealer"`
	First   bool          `json:"first"` // the game's first deal (draaikaart_first_deal_clubs)
	Hands   [4]string     `json:"hands"` // N E S W, cards separated by spaces
	Pile    []string      `json:"pile,omitempty"`
	Actions []Action      `json:"actions"`
	Result  RecordResult  `json:"result"`
	Faults  []FaultRecord `json:"faults,omitempty"`
}

// Action is one decision in a deal: a bid, a card or a claim, with what it cost.
type Action struct {
	Seat  string  `json:"seat"`
	Bid   string  `json:"bid,omitempty"`
	Card  string  `json:"card,omitempty"`
	Claim *int    `json:"claim,omitempty"`
	MS    float64 `json:"ms"`            // wall time
	CPUMS float64 `json:"cpu,omitempty"` // the bot's CPU time, where measured
}

// RecordResult is a deal's outcome and score breakdown; lists are per side (NS, EW).
type RecordResult struct {
	Outcome  string `json:"outcome"`
	Trump    string `json:"trump,omitempty"`
	Maker    string `json:"maker,omitempty"`
	Score    []int  `json:"score"`
	Cards    []int  `json:"cards"`
	Roem     []int  `json:"roem"`
	Tricks   []int  `json:"tricks"`
	Winners  string `json:"winners,omitempty"` // trick winners in order, e.g. "NNESWWSN"
	Pit      string `json:"pit,omitempty"`
	Offender string `json:"offender,omitempty"`
}

// FaultRecord is a bot failure as logged.
type FaultRecord struct {
	Seat   string    `json:"seat"`
	Bot    string    `json:"bot"`
	Kind   FaultKind `json:"kind"`
	Detail string    `json:"detail"`
	Stderr string    `json:"stderr,omitempty"`
}

// resultRecord converts an engine result.
func resultRecord(d *rules.Deal) RecordResult {
	res := d.Result()
	sides := d.Rules().Sides()
	r := RecordResult{Outcome: res.Outcome.String(), Score: res.Score[:sides], Cards: res.CardPoints[:sides],
		Roem: res.Roem[:sides], Tricks: res.TricksWon[:sides]}
	if res.Maker != protocol.NoSeat {
		r.Trump, r.Maker = res.Trump.String(), res.Maker.String()
	}
	for _, t := range d.Tricks() {
		r.Winners += t.Winner.String()
	}
	if res.PitSide >= 0 {
		r.Pit = protocol.Team(res.PitSide).String()
	}
	if res.Offender != protocol.NoSeat {
		r.Offender = res.Offender.String()
	}
	return r
}

// Setup returns the deal's starting position as recorded.
func (r *DealRecord) Setup() (rules.Setup, error) {
	var s rules.Setup
	var err error
	if s.Dealer, err = protocol.ParseSeat(r.Dealer); err != nil {
		return s, fmt.Errorf("dealer: %w", err)
	}
	for i, h := range r.Hands[:r.Rules.Players] {
		if s.Hands[i], err = protocol.ParseCardSet(h); err != nil {
			return s, fmt.Errorf("hand %s: %w", protocol.Seat(i), err)
		}
	}
	for _, p := range r.Pile {
		c, err := protocol.ParsePileCard(p)
		if err != nil {
			return s, fmt.Errorf("pile: %w", err)
		}
		s.Pile = append(s.Pile, c)
	}
	s.FirstOfMatch = r.First
	return s, nil
}

// ErrInconsistent is wrapped by every error Verify reports about a record.
var ErrInconsistent = errors.New("deal record is inconsistent with the rules")

// Verify re-referees the record with the rules engine: every action must be the legal move
// of the seat to move, and the recorded result must be the engine's. A forfeited deal must
// end at the recorded offender's turn (or in the bidding of a disabled bot).
func (r *DealRecord) Verify() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInconsistent, fmt.Sprintf(format, args...))
	}
	if r.V != LogVersion {
		return fmt.Errorf("deal record version %d: this arena reads version %d", r.V, LogVersion)
	}
	if err := r.Rules.Validate(); err != nil {
		return fail("ruleset: %v", err)
	}
	setup, err := r.Setup()
	if err != nil {
		return fail("%v", err)
	}
	d, err := rules.NewDeal(&r.Rules, setup)
	if err != nil {
		return fail("%v", err)
	}
	for i, a := range r.Actions {
		if err := a.Apply(d); err != nil {
			return fail("action %d (%s): %v", i+1, a.Seat, err)
		}
	}
	if r.Result.Outcome == rules.Forfeited.String() {
		off, err := protocol.ParseSeat(r.Result.Offender)
		if err != nil {
			return fail("offender: %v", err)
		}
		if d.Phase() == rules.PhaseDone {
			return fail("deal was finished before the forfeit by %s", off)
		}
		d.Forfeit(off)
	}
	if d.Phase() != rules.PhaseDone {
		return fail("deal is not finished after the recorded actions (phase %s)", d.Phase())
	}
	got, _ := json.Marshal(resultRecord(d))
	want, _ := json.Marshal(r.Result)
	if string(got) != string(want) {
		return fail("result %s, but the rules give %s", want, got)
	}
	return nil
}

// Apply performs the recorded action on the deal: the action's seat must be the one to move,
// and the bid, card or claim must be legal.
func (a Action) Apply(d *rules.Deal) error {
	seat, err := protocol.ParseSeat(a.Seat)
	if err != nil {
		return err
	}
	if seat != d.ToMove() {
		return fmt.Errorf("%s acted, but %s was to move", seat, d.ToMove())
	}
	switch {
	case a.Bid != "":
		b, err := protocol.ParseBid(a.Bid)
		if err != nil {
			return err
		}
		return d.Bid(b)
	case a.Card != "":
		c, err := protocol.ParseCard(a.Card)
		if err != nil {
			return err
		}
		return d.Play(c)
	case a.Claim != nil:
		return d.Claim(*a.Claim)
	}
	return errors.New("action has no bid, card or claim")
}

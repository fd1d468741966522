package web

import (
	"strconv"

	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// DealJSON is a deal as /api/…/deal/K serves it and the deal viewer steps through it:
// view.Deal with cards as protocol strings ("7C", "JH").
type DealJSON struct {
	League   string     `json:"league,omitempty"`
	Match    string     `json:"match"`
	N        int        `json:"n"` // the deal's place in the match, from 1
	Of       int        `json:"of"`
	Where    string     `json:"where"`
	Game     int        `json:"game"`
	Deal     int        `json:"deal"`
	Attempt  int        `json:"attempt"`
	Rotation int        `json:"rotation"`
	Dealer   string     `json:"dealer"`
	Players  int        `json:"players"`
	Problem  string     `json:"problem,omitempty"`
	Seats    []SeatJSON `json:"seats"`
	Skart    []string   `json:"skart,omitempty"`
	Pile     []string   `json:"pile,omitempty"`
	Turned   []string   `json:"turned,omitempty"`
	Bids     []BidJSON  `json:"bids"`
	Discards []BidJSON  `json:"discards,omitempty"` // Bid holds the two cards
	Claims   []Claim    `json:"claims,omitempty"`
	Tricks   []Trick    `json:"tricks"`
	// Illegal is the first action the rules refused (the deal is not followed past it),
	// and Unfinished the cards played after the last finished trick.
	Illegal    string                `json:"illegal,omitempty"`
	Unfinished []string              `json:"unfinished,omitempty"`
	Result     referee.RecordResult  `json:"result"`
	Faults     []referee.FaultRecord `json:"faults,omitempty"`
	Rejected   []referee.Rejection   `json:"rejected,omitempty"`
}

// SeatJSON is a table seat, its bot and the hand dealt to it.
type SeatJSON struct {
	Seat    string   `json:"seat"`
	Bot     string   `json:"bot"`
	Hand    []string `json:"hand"`
	SitsOut bool     `json:"sits_out,omitempty"`
}

// BidJSON is one bid (or discard) and who made it.
type BidJSON struct {
	Seat string `json:"seat"`
	Bid  string `json:"bid"`
}

// Claim is a roem claim for trick Trick (from 1), made when that trick was finished.
type Claim struct {
	Seat  string `json:"seat"`
	Roem  int    `json:"roem"`
	Trick int    `json:"trick"`
}

// Trick is a finished trick: its cards in the order played, the winner, the card points
// and the roem scored.
type Trick struct {
	Number int        `json:"number"`
	Leader string     `json:"leader"`
	Plays  []PlayJSON `json:"plays"`
	Winner string     `json:"winner"`
	Points int        `json:"points"`
	Roem   int        `json:"roem"`
	// RoemItems names each combination, e.g. "sequence of 3", "stuk".
	RoemItems []string `json:"roem_items,omitempty"`
}

// PlayJSON is one card of a trick.
type PlayJSON struct {
	Seat string `json:"seat"`
	Card string `json:"card"`
}

// dealJSON converts a deal view.
func dealJSON(d *view.Deal) *DealJSON {
	out := &DealJSON{Match: d.Match, Where: d.Where, Game: d.Game, Deal: d.Number, Attempt: d.Attempt, Rotation: d.Rotation,
		Dealer: d.Dealer, Players: d.Players, Problem: d.Problem, Skart: cards(d.Skart), Pile: d.Pile,
		Unfinished: d.Unfinished, Result: d.Result, Faults: d.Faults, Rejected: d.Rejected,
		Bids: []BidJSON{}, Tricks: []Trick{}, Seats: []SeatJSON{}}
	if d.Mirror && d.Rotation == 0 {
		out.Rotation = 1
	}
	for _, s := range d.Seats {
		out.Seats = append(out.Seats, SeatJSON{Seat: s.Seat.String(), Bot: s.Bot, Hand: cards(s.Hand), SitsOut: s.SitsOut})
	}
	for _, t := range d.Turned {
		out.Turned = append(out.Turned, t.String())
	}
	tricks := 0
	for _, s := range d.Steps {
		switch s.Kind {
		case view.BidStep:
			out.Bids = append(out.Bids, BidJSON{Seat: s.Seat, Bid: s.Bid})
		case view.DiscardStep:
			out.Discards = append(out.Discards, BidJSON{Seat: s.Seat, Bid: s.Discard})
		case view.ClaimStep:
			// A claim is made for the trick just finished (RULES.md: claim_required).
			out.Claims = append(out.Claims, Claim{Seat: s.Seat, Roem: s.Claim, Trick: max(1, tricks+s.Tricks)})
		}
		if s.Illegal != "" && out.Illegal == "" {
			out.Illegal = s.Illegal
		}
		tricks += s.Tricks
	}
	for _, t := range d.Tricks {
		tj := Trick{Number: t.Number, Leader: t.Leader.String(), Winner: t.Winner.String(), Points: t.Points, Roem: t.Scored}
		for _, p := range t.Plays {
			tj.Plays = append(tj.Plays, PlayJSON{Seat: p.Seat.String(), Card: p.Card.String()})
		}
		for _, it := range t.Roem {
			tj.RoemItems = append(tj.RoemItems, roemName(it))
		}
		out.Tricks = append(out.Tricks, tj)
	}
	return out
}

func cards(s protocol.CardSet) []string {
	out := []string{}
	for c := range s.All() {
		out = append(out, c.String())
	}
	return out
}

func roemName(it rules.RoemItem) string {
	switch it.Kind {
	case rules.RoemSequence:
		return "sequence of " + strconv.Itoa(int(it.Length))
	case rules.RoemStuk:
		return "stuk"
	case rules.RoemSameRank:
		return strconv.Itoa(int(it.Length)) + " of a rank"
	}
	return "roem"
}

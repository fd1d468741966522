package referee

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/rulesfile"
)

// LogVersion is the version of the deal-log format (spec.md, "Deal logs").
const LogVersion = 1

// DealRecord is one line of a match log: a self-contained account of one deal, enough to
// replay and re-referee it with nothing else.
type DealRecord struct {
	V      int    `json:"v"`
	Match  string `json:"match"`
	Pair   int    `json:"pair"`   // the deal set (board) number, from 0
	Mirror bool   `json:"mirror"` // a duplicate replay, with the hands moved on
	// Rotation is the seats the hands moved on in the duplicate set: 1 for the four-player
	// game's replay, 0 to 3 in the three-player game's (absent in logs written before it).
	Rotation int           `json:"rotation,omitempty"`
	Game     int           `json:"game"`    // the game number in the match, from 1
	Deal     int           `json:"deal"`    // the deal number in the game, from 1
	Attempt  int           `json:"attempt"` // redeals of this deal so far
	Rules    rules.Ruleset `json:"rules"`
	Seed     uint64        `json:"seed"`
	// Keyed is true when the cards were derived with a secret key besides the seed
	// (Config.Key): the seed alone does not reproduce them (absent otherwise).
	Keyed bool `json:"keyed,omitempty"`
	// Table is 4 when four sit at a three-player game, the dealer sitting out; else omitted.
	Table   int           `json:"table,omitempty"`
	Seats   [4]string     `json:"seats"` // bot names per table seat, N E S W
	Dealer  string        `json:"dealer"`
	First   bool          `json:"first"`           // the game's first deal (draaikaart_first_deal_clubs)
	Hands   [4]string     `json:"hands"`           // per table seat, cards separated by spaces ("" for nobody)
	Skart   string        `json:"skart,omitempty"` // the three-player game's two undealt cards
	Pile    []string      `json:"pile,omitempty"`
	Actions []Action      `json:"actions"`
	Result  RecordResult  `json:"result"`
	Faults  []FaultRecord `json:"faults,omitempty"`
	// Rejected lists the answers that fault_policy = retry rejected, each followed by the
	// same request again (absent in logs written before it).
	Rejected []Rejection `json:"rejected,omitempty"`
}

// MarshalJSON writes the record as the object of a deal-log line (spec.md §12), the ruleset
// as package rulesfile writes it.
func (r DealRecord) MarshalJSON() ([]byte, error) {
	type plain DealRecord // the fields without these methods
	return json.Marshal(struct {
		*plain
		Rules rulesfile.Value `json:"rules"`
	}{(*plain)(&r), rulesfile.Value(r.Rules)})
}

// UnmarshalJSON reads the object of a deal-log line, the ruleset as rulesfile reads it.
func (r *DealRecord) UnmarshalJSON(data []byte) error {
	type plain DealRecord
	return json.Unmarshal(data, &struct {
		*plain
		Rules *rulesfile.Value `json:"rules"`
	}{(*plain)(r), (*rulesfile.Value)(&r.Rules)})
}

// Rejection is an answer rejected under fault_policy = retry: an illegal or garbage reply
// that was answered with "fault rejected" and the same request again.
type Rejection struct {
	Seat string `json:"seat"`
	Bot  string `json:"bot"`
	// Decision is the decision the answer was for, from 1: the number of the action in
	// Actions that answered it at last (one more than the actions, when the deal was then
	// forfeited).
	Decision int       `json:"decision"`
	Request  string    `json:"request"` // bid, play, claim or discard
	Kind     FaultKind `json:"kind"`
	Detail   string    `json:"detail"` // offending text escaped
}

// Action is one decision in a deal: a bid, a card, a claim or the three-player game's
// discard, with what it cost. Seat is a table seat.
type Action struct {
	Seat    string  `json:"seat"`
	Bid     string  `json:"bid,omitempty"`
	Card    string  `json:"card,omitempty"`
	Claim   *int    `json:"claim,omitempty"`
	Discard string  `json:"discard,omitempty"` // two cards separated by a space
	MS      float64 `json:"ms"`                // wall time
	CPUMS   float64 `json:"cpu,omitempty"`     // the bot's CPU time since its previous reading, where measured (see CPUMeter)
}

// RecordResult is a deal's outcome and score breakdown; lists are per side: per team (NS,
// EW) at four, per table seat in the three-player game. Seats are table seats.
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

// Equal says whether r and o record the same result (a nil and an empty list are the same).
func (r *RecordResult) Equal(o *RecordResult) bool {
	return r.Outcome == o.Outcome && r.Trump == o.Trump && r.Maker == o.Maker && r.Winners == o.Winners &&
		r.Pit == o.Pit && r.Offender == o.Offender && slices.Equal(r.Score, o.Score) &&
		slices.Equal(r.Cards, o.Cards) && slices.Equal(r.Roem, o.Roem) && slices.Equal(r.Tricks, o.Tricks)
}

// FaultRecord is a bot failure as logged.
type FaultRecord struct {
	Seat   string    `json:"seat"`
	Bot    string    `json:"bot"`
	Kind   FaultKind `json:"kind"`
	Detail string    `json:"detail"`
	Stderr string    `json:"stderr,omitempty"`
}

// ResultRecord converts the result of a finished deal of the engine into the record's,
// placing the deal's seats at the table: what the referee records, and what a store that
// keeps only the actions derives again.
func ResultRecord(d *rules.Deal, seating rules.Seating) RecordResult {
	var r RecordResult
	(&ResultMemory{chunk: 1}).Fill(&r, d, seating)
	return r
}

// ResultMemory is the memory of many deals' results (their lists and trick winners), taken
// a chunk of results at a time, for a reader that makes a record of every deal of a league:
// made one by one, each result's lists would be an allocation and its winners another.
// Memory handed out is never handed out again, so a result stays valid as long as it is
// kept. The zero value is ready to use.
type ResultMemory struct {
	chunk int    // results a chunk holds (default resultChunk)
	ints  []int  // the rest of the lists' chunk
	text  []byte // the winners' chunk: text up to len has been handed out
}

// resultChunk is how many results' memory a ResultMemory allocates at a time.
const resultChunk = 64

// Fill sets r to the result of the finished deal d, as ResultRecord returns it, its lists
// and winners in m's memory.
func (m *ResultMemory) Fill(r *RecordResult, d *rules.Deal, seating rules.Seating) {
	res := d.Result()
	table := func(s protocol.Seat) string { return seating.TableSeat(s).String() }
	*r = RecordResult{}
	if d.Rules().Players == 4 {
		sums := m.lists(8)
		sums[0], sums[1], sums[2], sums[3] = res.Score[0], res.Score[1], res.CardPoints[0], res.CardPoints[1]
		sums[4], sums[5], sums[6], sums[7] = res.Roem[0], res.Roem[1], res.TricksWon[0], res.TricksWon[1]
		r.Score, r.Cards, r.Roem, r.Tricks = sums[0:2:2], sums[2:4:4], sums[4:6:6], sums[6:8:8]
		if res.PitSide >= 0 {
			r.Pit = protocol.Team(res.PitSide).String()
		}
	} else {
		n := seating.Table
		sums := m.lists(4 * n)
		r.Score, r.Cards, r.Roem, r.Tricks = sums[0:n:n], sums[n:2*n:2*n], sums[2*n:3*n:3*n], sums[3*n:4*n:4*n]
		for s := range protocol.Seat(3) {
			t := seating.TableSeat(s)
			r.Score[t], r.Cards[t], r.Roem[t], r.Tricks[t] = res.Score[s], res.CardPoints[s], res.Roem[s], res.TricksWon[s]
		}
		if res.PitSide >= 0 {
			r.Pit = table(protocol.Seat(res.PitSide))
		}
	}
	r.Outcome = res.Outcome.String()
	if res.Maker != protocol.NoSeat {
		r.Trump, r.Maker = res.Trump.String(), table(res.Maker)
	}
	if tricks := d.Tricks(); len(tricks) > 0 {
		r.Winners = m.winners(tricks, seating)
	}
	if res.Offender != protocol.NoSeat {
		r.Offender = table(res.Offender)
	}
}

// lists returns n ints of m's memory.
func (m *ResultMemory) lists(n int) []int {
	if len(m.ints) < n {
		m.ints = make([]int, n*m.results())
	}
	s := m.ints[:n:n]
	m.ints = m.ints[n:]
	return s
}

// winners returns the tricks' winners at the table as one string in m's memory: its bytes
// are appended to text's chunk and never written again.
func (m *ResultMemory) winners(tricks []rules.TrickRecord, seating rules.Seating) string {
	n := len(tricks)
	if cap(m.text)-len(m.text) < n {
		m.text = make([]byte, 0, max(n, protocol.NumCards/3)*m.results())
	}
	start := len(m.text)
	m.text = m.text[:start+n]
	text := m.text[start:]
	for i := range text {
		text[i] = seatLetters[seating.TableSeat(tricks[i].Winner)&3]
	}
	return unsafe.String(&text[0], n)
}

// seatLetters[s] is the letter of table seat s (Seat.String).
const seatLetters = "NESW"

// results is how many results m's chunks hold.
func (m *ResultMemory) results() int {
	if m.chunk == 0 {
		return resultChunk
	}
	return m.chunk
}

// Seating returns the seating of the recorded deal.
func (r *DealRecord) Seating() (rules.Seating, error) {
	dealer, err := protocol.ParseSeat(r.Dealer)
	if err != nil {
		return rules.Seating{}, fmt.Errorf("dealer: %w", err)
	}
	s := rules.Seating{Table: r.Rules.Players, Players: r.Rules.Players, Dealer: dealer}
	if r.Table != 0 {
		if r.Table != 4 || r.Rules.Players != 3 {
			return s, fmt.Errorf("table of %d for a game of %d players", r.Table, r.Rules.Players)
		}
		s.Table = r.Table
	}
	if int(dealer) >= s.Table {
		return s, fmt.Errorf("dealer %s is not at a table of %d", dealer, s.Table)
	}
	return s, nil
}

// Setup returns the deal's starting position as recorded, in the deal's seats.
func (r *DealRecord) Setup() (rules.Setup, error) {
	var s rules.Setup
	seating, err := r.Seating()
	if err != nil {
		return s, err
	}
	s.Dealer = seating.DealDealer()
	for i, h := range r.Hands[:seating.Table] {
		d := seating.DealSeat(protocol.Seat(i))
		if d == protocol.NoSeat {
			if h != "" {
				return s, fmt.Errorf("the dealer %s sits out but holds cards", protocol.Seat(i))
			}
			continue
		}
		if s.Hands[d], err = protocol.ParseCardSet(h); err != nil {
			return s, fmt.Errorf("hand %s: %w", protocol.Seat(i), err)
		}
	}
	if r.Skart != "" {
		if s.Skart, err = protocol.ParseCardSet(r.Skart); err != nil {
			return s, fmt.Errorf("skart: %w", err)
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
	_, _, err := r.replay()
	return err
}

// replay re-referees the record as Verify does and returns the finished deal and its seating.
func (r *DealRecord) replay() (*rules.Deal, rules.Seating, error) {
	fail := func(format string, args ...any) (*rules.Deal, rules.Seating, error) {
		return nil, rules.Seating{}, fmt.Errorf("%w: %s", ErrInconsistent, fmt.Sprintf(format, args...))
	}
	if r.V != LogVersion {
		return nil, rules.Seating{}, fmt.Errorf("deal record version %d: this arena reads version %d", r.V, LogVersion)
	}
	if err := r.Rules.Validate(); err != nil {
		return fail("ruleset: %v", err)
	}
	setup, err := r.Setup()
	if err != nil {
		return fail("%v", err)
	}
	seating, _ := r.Seating() // checked by Setup
	d, err := rules.NewDeal(&r.Rules, setup)
	if err != nil {
		return fail("%v", err)
	}
	for i, a := range r.Actions {
		if !validTime(a.MS) || !validTime(a.CPUMS) {
			return fail("action %d (%s): time %v ms, CPU %v ms: a time is a finite number, not below 0", i+1, a.Seat, a.MS, a.CPUMS)
		}
		if err := a.Apply(d, seating); err != nil {
			return fail("action %d (%s): %v", i+1, a.Seat, err)
		}
	}
	if err := r.verifyRejected(); err != nil {
		return fail("%v", err)
	}
	if r.Result.Outcome == rules.Forfeited.String() {
		off, err := protocol.ParseSeat(r.Result.Offender)
		if err != nil {
			return fail("offender: %v", err)
		}
		if d.Phase() == rules.PhaseDone {
			return fail("deal was finished before the forfeit by %s", off)
		}
		if off = seating.DealSeat(off); off == protocol.NoSeat {
			return fail("the forfeit is by the dealer sitting out")
		}
		d.Forfeit(off)
	}
	if d.Phase() != rules.PhaseDone {
		return fail("deal is not finished after the recorded actions (phase %s)", d.Phase())
	}
	got, _ := json.Marshal(ResultRecord(d, seating))
	want, _ := json.Marshal(r.Result)
	if string(got) != string(want) {
		return fail("result %s, but the rules give %s", want, got)
	}
	return d, seating, nil
}

// validTime says whether ms can be a measured time: finite and not below 0.
func validTime(ms float64) bool { return ms >= 0 && !math.IsInf(ms, 1) }

// verifyRejected checks that every rejected answer is an illegal or garbage reply of the
// seat that then made the decision it was for (or of the offender, when the deal was
// forfeited at that decision), in the order of the decisions.
func (r *DealRecord) verifyRejected() error {
	last := 0
	for i, x := range r.Rejected {
		if x.Kind != FaultIllegal && x.Kind != FaultGarbage {
			return fmt.Errorf("rejected answer %d: kind %s, but only illegal and garbage answers are rejected", i+1, x.Kind)
		}
		switch {
		case x.Decision < max(last, 1) || x.Decision > len(r.Actions)+1:
			return fmt.Errorf("rejected answer %d: decision %d, want %d to %d", i+1, x.Decision, max(last, 1), len(r.Actions)+1)
		case x.Decision <= len(r.Actions) && r.Actions[x.Decision-1].Seat != x.Seat:
			return fmt.Errorf("rejected answer %d by %s, but decision %d was made by %s", i+1, x.Seat, x.Decision, r.Actions[x.Decision-1].Seat)
		case x.Decision > len(r.Actions) && r.Result.Offender != x.Seat:
			return fmt.Errorf("rejected answer %d by %s after the last decision, but the deal was not forfeited by %s", i+1, x.Seat, x.Seat)
		}
		last = x.Decision
	}
	return nil
}

// Apply performs the recorded action on the deal, seated as given: the action's seat must be
// the one to move, and the bid, card, claim or discard must be legal.
func (a Action) Apply(d *rules.Deal, seating rules.Seating) error {
	seat, err := protocol.ParseSeat(a.Seat)
	if err != nil {
		return err
	}
	if toMove := seating.TableSeat(d.ToMove()); seat != toMove {
		return fmt.Errorf("%s acted, but %s was to move", seat, toMove)
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
	case a.Discard != "":
		c1, c2, err := protocol.ParseDiscardReply(a.Discard)
		if err != nil {
			return err
		}
		return d.Discard(c1, c2)
	}
	return errors.New("action has no bid, card, claim or discard")
}

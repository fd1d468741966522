package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/rs/zerolog"
)

// Exchange is one write of the referee to a seat's bot, as Transcript rebuilds it from a
// deal record: the lines written and, when an answer was wanted, the answer the log holds.
type Exchange struct {
	Lines []byte // newline-terminated lines, exactly as the referee writes them
	Want  bool   // an answer is wanted: the last line is a handshake line or a request
	// Decision is, for a request, the deal's decision it asks for, from 1: the action of the
	// record that answered it is Actions[Decision-1] (none, when the deal was forfeited at
	// it). 0 for the handshake and for lines that want no answer.
	Decision int
	Reply    string     // the logged answer: the reply line ("" for a fault or a rejection)
	MS       float64    // the logged answer's wall time
	Fault    *Fault     // the logged fault of this answer, which forfeited the deal
	Rejected *Rejection // the logged answer that fault_policy = retry rejected
	Request  string     // for a request: bid, play, claim or discard
}

// Transcript re-referees a logged deal and returns, per table seat, every exchange the
// referee has with that seat's bot when the bot is started for this deal: the handshake, the
// ruleset, the game's start, the deal and its events, and every request with the answer the
// log gives, up to the end of the deal (the final score is not sent until the next request).
// These are the lines a bot restarted for this deal receives, under the time control tc
// (the record does not hold the match's; a game clock starts full). A seat the record shows
// disabled receives nothing. The record must verify.
//
// The detail of an answer rejected under fault_policy = retry is logged, not its text: the
// transcript's "fault rejected" line is rebuilt from the logged kind and detail.
func Transcript(rec *DealRecord, tc TimeControl) ([][]Exchange, error) {
	if err := rec.Verify(); err != nil {
		return nil, err
	}
	setup, _ := rec.Setup()     // checked by Verify
	seating, _ := rec.Seating() // checked by Verify
	if tc == (TimeControl{}) {
		tc = DefaultTimeControl
	}
	cfg := Config{ID: rec.Match, Rules: rec.Rules, Seed: rec.Seed, Time: tc, MaxFaults: 1 << 30, MaxRetries: len(rec.Rejected) + 1, Logger: zerolog.Nop()}
	entrants := make([]Entrant, seating.Table)
	for i := range entrants {
		entrants[i] = Entrant{Name: rec.Seats[i]}
	}
	m := &match{ctx: context.Background(), cfg: cfg, result: newResult(cfg, entrants), rooms: 1, trace: newTracer(nil, nil, len(entrants)), specs: &specCursor{}, seating: seating}
	sc := &script{rec: rec, exchanges: make([][]Exchange, seating.Table)}
	for i, e := range entrants {
		s := &seat{pos: protocol.Seat(i), entrant: e, name: e.Name, stats: &m.result.Bots[i]}
		m.seats = append(m.seats, s)
		if sc.disabled(s.pos) {
			s.disabled = true
			continue
		}
		s.conn = &scripted{script: sc, seat: s.pos}
		if err := m.handshake(s); err != nil {
			return nil, fmt.Errorf("transcript: handshake: %w", err)
		}
		s.bank = tc.Bank
		s.game = gameStart(rec.Game, s.pos, tc)
		s.queue(&s.game)
	}
	if err := m.playDeal(setup, rec.Pair, rec.Rotation, rec.Game, rec.Deal, rec.Attempt); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	if sc.err != nil {
		return nil, fmt.Errorf("transcript: %w", sc.err)
	}
	got, _ := json.Marshal(m.rec.Result)
	want, _ := json.Marshal(rec.Result)
	if !bytes.Equal(got, want) || len(m.rec.Actions) != len(rec.Actions) {
		return nil, fmt.Errorf("transcript: the re-refereed deal ends in %s after %d decisions, the log in %s after %d", got, len(m.rec.Actions), want, len(rec.Actions))
	}
	return sc.exchanges, nil
}

// Position returns the deal as it stood at its decision (from 1), after the first
// decision-1 actions of the record, re-refereed with the rules engine, and its seating.
func (r *DealRecord) Position(decision int) (*rules.Deal, rules.Seating, error) {
	setup, err := r.Setup()
	if err != nil {
		return nil, rules.Seating{}, err
	}
	seating, _ := r.Seating() // checked by Setup
	deal, err := rules.NewDeal(&r.Rules, setup)
	if err != nil {
		return nil, seating, err
	}
	for i, a := range r.Actions[:max(0, min(decision-1, len(r.Actions)))] {
		if err := a.Apply(deal, seating); err != nil {
			return nil, seating, fmt.Errorf("action %d: %w", i+1, err)
		}
	}
	return deal, seating, nil
}

// gameStart is the game line that starts game number for the bot at seat pos.
func gameStart(number int, pos protocol.Seat, tc TimeControl) protocol.Game {
	return protocol.Game{Number: number, Seat: pos, DecisionMS: ms(tc.Decision), BankMS: ms(tc.Bank), IncrementMS: ms(tc.Increment)}
}

// script answers for every seat of a re-refereed deal from its record.
type script struct {
	rec       *DealRecord
	next      int          // the next action of the record to answer with
	rejected  int          // the rejections of the record answered so far
	reject    *Rejection   // the rejection whose "fault rejected" line is to be sent next
	exchanges [][]Exchange // per table seat
	err       error
}

// disabled reports whether the record shows the seat's bot disabled in this deal.
func (sc *script) disabled(pos protocol.Seat) bool {
	for _, f := range sc.rec.Faults {
		if f.Seat == pos.String() && f.Kind == FaultDisabled {
			return true
		}
	}
	return false
}

// scripted is the Conn of one seat in a re-refereed deal: it records what it is written and
// answers as the log says.
type scripted struct {
	script *script
	seat   protocol.Seat
}

// rejectedGarbage is the answer Transcript gives for a logged rejected answer, whose text
// the log does not keep: the referee rejects it as garbage.
const rejectedGarbage = "?"

func (c *scripted) Exchange(out []byte, want bool, _ time.Duration) (Reply, error) {
	sc := c.script
	lines := bytes.Clone(out)
	if sc.reject != nil {
		lines = replaceRejectedLine(lines, sc.reject)
		sc.reject = nil
	}
	ex := Exchange{Lines: lines, Want: want}
	reply, err := c.answer(&ex)
	sc.exchanges[c.seat] = append(sc.exchanges[c.seat], ex)
	return reply, err
}

// answer fills in the exchange's logged answer and returns it as the bot's reply.
func (c *scripted) answer(ex *Exchange) (Reply, error) {
	sc := c.script
	if !ex.Want {
		return Reply{}, nil
	}
	last := ex.Lines[:len(ex.Lines)-1]
	if i := bytes.LastIndexByte(last, '\n'); i >= 0 {
		last = last[i+1:]
	}
	kind, _, _ := strings.Cut(string(last), " ")
	switch kind {
	case "klaverjas":
		ex.Reply = (&protocol.Hello{Version: protocol.Version, Name: "logged"}).Line()
		return Reply{Line: ex.Reply}, nil
	case "rules":
		ex.Reply = "ok"
		return Reply{Line: ex.Reply}, nil
	}
	ex.Request, ex.Decision = kind, sc.next+1
	rec := sc.rec
	if sc.rejected < len(rec.Rejected) {
		if x := &rec.Rejected[sc.rejected]; x.Decision == ex.Decision && x.Seat == c.seat.String() {
			sc.rejected++
			sc.reject, ex.Rejected = x, x
			return Reply{Line: rejectedGarbage}, nil
		}
	}
	if sc.next < len(rec.Actions) {
		a := rec.Actions[sc.next]
		if a.Seat != c.seat.String() {
			sc.err = fmt.Errorf("decision %d: the log has %s answer, the referee asks %s", ex.Decision, a.Seat, c.seat)
			return Reply{}, &Fault{Kind: FaultCrash, Detail: sc.err.Error()}
		}
		sc.next++
		ex.Reply, ex.MS = a.Reply(), a.MS
		return Reply{Line: ex.Reply, Wall: time.Duration(a.MS * float64(time.Millisecond))}, nil
	}
	for i := len(rec.Faults) - 1; i >= 0; i-- {
		if f := rec.Faults[i]; f.Seat == c.seat.String() {
			ex.Fault = &Fault{Kind: f.Kind, Detail: f.Detail, StderrTail: f.Stderr}
			return Reply{}, ex.Fault
		}
	}
	sc.err = fmt.Errorf("decision %d of %s: the log has no answer and no fault", ex.Decision, c.seat)
	return Reply{}, &Fault{Kind: FaultCrash, Detail: sc.err.Error()}
}

// replaceRejectedLine puts the logged detail into the "fault rejected" line the referee
// wrote for a rejected answer.
func replaceRejectedLine(lines []byte, x *Rejection) []byte {
	var out []byte
	for line := range bytes.Lines(lines) {
		if bytes.HasPrefix(line, []byte("fault rejected ")) {
			line = append((&protocol.Fault{Kind: "rejected", Detail: string(x.Kind) + " " + oneLine(x.Detail)}).AppendLine(nil), '\n')
		}
		out = append(out, line...)
	}
	return out
}

func (c *scripted) Stop(time.Duration) error { return nil }

func (c *scripted) StderrTail() string { return "" }

// Reply is the action as the bot's reply line: the bid, the card, the roem claimed, or the
// two cards discarded.
func (a Action) Reply() string {
	switch {
	case a.Bid != "":
		return a.Bid
	case a.Card != "":
		return a.Card
	case a.Claim != nil:
		return strconv.Itoa(*a.Claim)
	}
	return a.Discard
}

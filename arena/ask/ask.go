// Package ask puts logged decisions to a bot again: it starts the bot, replays to it exactly
// the lines a seat received in a logged deal (referee.Transcript), and sets each of its
// answers beside the logged one. A bot author uses it to find where a new build decides
// differently from the build that played.
package ask

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
)

// Outcome is how an answer compares with the logged one.
type Outcome string

// Outcomes of a decision put to the bot.
const (
	Same      Outcome = "same"      // the answer the log holds
	Different Outcome = "different" // another legal answer (or a legal one where the log has a fault)
	Faulted   Outcome = "fault"     // the bot faulted when asked: crash, timeout, garbage, an illegal answer...
	Skipped   Outcome = "skipped"   // not asked: the bot faulted at an earlier decision of this deal
)

// Decision is one logged decision and the bot's answer to it now.
type Decision struct {
	Match   string `json:"match"`
	Game    int    `json:"game"`
	Deal    int    `json:"deal"`
	Attempt int    `json:"attempt,omitempty"`
	Seat    string `json:"seat"`
	// N is the decision's number among the seat's decisions in the deal, from 1 (SEAT#N);
	// Index is its number among all the deal's decisions, from 1.
	N        int     `json:"n"`
	Index    int     `json:"index"`
	Request  string  `json:"request"`         // bid, play, claim or discard
	Line     string  `json:"line"`            // the request line the bot was sent
	Logged   string  `json:"logged"`          // the logged answer, or "fault KIND" / "rejected KIND"
	LoggedMS float64 `json:"logged_ms"`       // its wall time
	Answer   string  `json:"answer"`          // the answer now, as the log would write it ("" on a fault)
	MS       float64 `json:"ms"`              // its wall time
	CPUMS    float64 `json:"cpu_ms"`          // the bot's CPU time for it, where measured
	Fault    string  `json:"fault,omitempty"` // the fault now: "KIND: detail"
	Outcome  Outcome `json:"outcome"`
	timed    bool    // answered now and in the log: the times compare
}

// Options are how to ask.
type Options struct {
	Time referee.TimeControl // the time control: the game line, each request's time, the timeouts
	// Only, if positive, asks the seat's decisions up to its Only-th (the earlier ones are
	// asked too, as in the match, but not returned).
	Only int
}

// Deal puts every decision of the seat in the logged deal to a bot started fresh with start,
// in order, and returns each with the bot's answer. After a fault the bot is stopped and the
// seat's later decisions in the deal are Skipped. The error is for the arena's failures: a
// record that does not re-referee, a cancelled context.
func Deal(ctx context.Context, start referee.Starter, rec *referee.DealRecord, seat protocol.Seat, opt Options) ([]Decision, error) {
	transcripts, err := referee.Transcript(rec, opt.Time)
	if err != nil {
		return nil, err
	}
	if int(seat) >= len(transcripts) {
		return nil, fmt.Errorf("seat %s is not at this table of %d", seat, len(transcripts))
	}
	b := &asked{ctx: ctx, start: start, tc: opt.Time}
	if b.tc == (referee.TimeControl{}) {
		b.tc = referee.DefaultTimeControl
	}
	defer b.stop()
	var out []Decision
	faulted, n, index := false, 0, 0
	for _, ex := range transcripts[seat] {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if ex.Decision > 0 && ex.Decision != index { // a rejected answer's request comes again
			n, index = n+1, ex.Decision
			if opt.Only > 0 && n > opt.Only {
				break
			}
		}
		wanted := ex.Decision > 0 && (opt.Only == 0 || n == opt.Only) // a decision to return
		d := Decision{Match: rec.Match, Game: rec.Game, Deal: rec.Deal, Attempt: rec.Attempt, Seat: seat.String(), N: n, Index: ex.Decision,
			Request: ex.Request, Logged: logged(&ex), LoggedMS: ex.MS}
		if ex.Decision > 0 {
			d.Line = lastLine(ex.Lines)
		}
		switch {
		case faulted:
			if wanted {
				d.Outcome = Skipped
				out = append(out, d)
			}
			continue
		case !ex.Want: // lines that want no answer, such as the fault that forfeited the deal
			b.send(ex.Lines)
			continue
		}
		reply, fault := b.exchange(&ex)
		switch {
		case fault != nil:
			faulted = true
			d.Fault, d.Outcome = fault.Error(), Faulted
			if fault.StderrTail != "" {
				d.Fault += " (stderr: " + fault.StderrTail + ")"
			}
			if ex.Decision == 0 {
				d.Request, d.Logged = "handshake", ""
			}
			if ex.Decision == 0 || wanted {
				out = append(out, d)
			}
		case wanted:
			d.MS, d.CPUMS = millis(reply.Wall), millis(reply.CPU)
			judge(rec, &ex, reply.Line, &d)
			out = append(out, d)
		}
	}
	return out, nil
}

// asked is the bot being asked, started when first needed.
type asked struct {
	ctx   context.Context
	start referee.Starter
	tc    referee.TimeControl
	conn  referee.Conn
}

// exchange writes the exchange's lines and reads the bot's answer, starting the bot first if
// it is not running; a fault stops it.
func (b *asked) exchange(ex *referee.Exchange) (referee.Reply, *referee.Fault) {
	if b.conn == nil {
		conn, err := b.start(b.ctx)
		if err != nil {
			return referee.Reply{}, &referee.Fault{Kind: referee.FaultStart, Detail: err.Error()}
		}
		b.conn = conn
	}
	timeout := b.tc.Startup
	if ex.Decision > 0 {
		timeout = b.tc.Decision + b.tc.Grace
	}
	reply, err := b.conn.Exchange(ex.Lines, true, timeout)
	if err == nil && ex.Decision == 0 {
		err = handshakeFault(*ex, reply.Line)
	}
	if err == nil {
		return reply, nil
	}
	var f *referee.Fault
	if !errors.As(err, &f) {
		f = &referee.Fault{Kind: referee.FaultCrash, Detail: err.Error()}
	}
	if f.StderrTail == "" {
		f.StderrTail = b.conn.StderrTail()
	}
	_ = b.conn.Stop(time.Second)
	b.conn = nil
	return reply, f
}

// send writes lines that want no answer; like the referee, it does not hold it against the
// bot if they cannot be written.
func (b *asked) send(lines []byte) {
	if b.conn != nil {
		_, _ = b.conn.Exchange(lines, false, b.tc.Startup)
	}
}

// stop ends the bot, with quit first.
func (b *asked) stop() {
	if b.conn != nil {
		b.send([]byte("quit\n"))
		_ = b.conn.Stop(time.Second)
		b.conn = nil
	}
}

// handshakeFault checks the bot's hello and its answer to the ruleset.
func handshakeFault(ex referee.Exchange, line string) error {
	if ex.Reply == "ok" { // the ruleset
		r, err := protocol.ParseRulesReply(line)
		switch {
		case err != nil:
			return &referee.Fault{Kind: referee.FaultStart, Detail: "rules: " + err.Error()}
		case r.Refuse:
			return &referee.Fault{Kind: referee.FaultStart, Detail: "the bot refuses the ruleset: " + r.Reason}
		}
		return nil
	}
	h, err := protocol.ParseHello(line)
	if err != nil {
		return &referee.Fault{Kind: referee.FaultStart, Detail: "handshake: " + err.Error()}
	}
	if h.Version != protocol.Version {
		return &referee.Fault{Kind: referee.FaultStart, Detail: fmt.Sprintf("handshake: bot chose protocol version %d; the arena speaks %d", h.Version, protocol.Version)}
	}
	return nil
}

// logged is the logged answer of an exchange as Decision.Logged shows it.
func logged(ex *referee.Exchange) string {
	switch {
	case ex.Fault != nil:
		return "fault " + string(ex.Fault.Kind)
	case ex.Rejected != nil:
		return "rejected " + string(ex.Rejected.Kind)
	}
	return ex.Reply
}

// judge reads the bot's reply to the request, checks it against the position of the deal
// and compares it with the logged answer.
func judge(rec *referee.DealRecord, ex *referee.Exchange, line string, d *Decision) {
	a := referee.Action{Seat: d.Seat}
	var err error
	switch ex.Request {
	case "bid":
		var b protocol.Bid
		if b, err = protocol.ParseBidReply(line); err == nil {
			a.Bid = b.String()
		}
	case "play":
		var c protocol.Card
		if c, err = protocol.ParseCardReply(line); err == nil {
			a.Card = c.String()
		}
	case "claim":
		var n int
		if n, err = protocol.ParseClaimReply(line); err == nil {
			a.Claim = &n
		}
	case "discard":
		var c1, c2 protocol.Card
		if c1, c2, err = protocol.ParseDiscardReply(line); err == nil {
			a.Discard = c1.String() + " " + c2.String()
		}
	default:
		err = fmt.Errorf("unknown request %q", ex.Request)
	}
	if err != nil {
		d.Fault, d.Outcome = string(referee.FaultGarbage)+": "+err.Error(), Faulted
		return
	}
	d.Answer = a.Reply()
	if err := legalHere(rec, ex.Decision, a); err != nil {
		d.Fault, d.Outcome = string(referee.FaultIllegal)+": "+err.Error(), Faulted
		return
	}
	d.Outcome, d.timed = Different, ex.Fault == nil && ex.Rejected == nil
	if d.timed && sameAnswer(ex.Request, d.Answer, ex.Reply) {
		d.Outcome = Same
	}
}

// legalHere reports whether the action is legal at the deal's decision index (from 1).
func legalHere(rec *referee.DealRecord, index int, a referee.Action) error {
	deal, seating, err := rec.Position(index)
	if err != nil {
		return err
	}
	return a.Apply(deal, seating)
}

// sameAnswer compares two answers to a request: a discard's two cards in either order.
func sameAnswer(request, a, b string) bool {
	if request != "discard" || a == b {
		return a == b
	}
	a1, a2, errA := protocol.ParseDiscardReply(a)
	b1, b2, errB := protocol.ParseDiscardReply(b)
	return errA == nil && errB == nil && protocol.SetOf(a1, a2) == protocol.SetOf(b1, b2)
}

// lastLine is the last of newline-terminated lines, without its newline.
func lastLine(lines []byte) string {
	s := string(lines[:len(lines)-1])
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '\n' {
			return s[i+1:]
		}
	}
	return s
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Summary counts the outcomes of asked decisions and compares their times with the log's.
type Summary struct {
	Asked     int `json:"asked"` // decisions put to the bot (skipped ones not included)
	Same      int `json:"same"`
	Different int `json:"different"`
	Faults    int `json:"faults"`
	Skipped   int `json:"skipped"`
	// MeanMS and LoggedMeanMS are the mean wall time per answered decision, now and in the
	// log, over the decisions answered both times.
	MeanMS       float64 `json:"mean_ms"`
	LoggedMeanMS float64 `json:"logged_mean_ms"`
	MaxMS        float64 `json:"max_ms"`
	LoggedMaxMS  float64 `json:"logged_max_ms"`
}

// Summarize counts the decisions' outcomes.
func Summarize(ds []Decision) Summary {
	var s Summary
	timed := 0
	for _, d := range ds {
		switch d.Outcome {
		case Same:
			s.Same++
		case Different:
			s.Different++
		case Faulted:
			s.Faults++
		case Skipped:
			s.Skipped++
			continue
		}
		s.Asked++
		if d.timed {
			timed++
			s.MeanMS += d.MS
			s.LoggedMeanMS += d.LoggedMS
			s.MaxMS, s.LoggedMaxMS = max(s.MaxMS, d.MS), max(s.LoggedMaxMS, d.LoggedMS)
		}
	}
	if timed > 0 {
		s.MeanMS /= float64(timed)
		s.LoggedMeanMS /= float64(timed)
	}
	return s
}

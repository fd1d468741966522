package referee

import (
	"strings"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// lastAction is the last bid or card, as the event that announces it.
type lastAction struct {
	said   protocol.Said
	played protocol.Played
}

// announced counts what the seats have been told of the current deal.
type announced struct {
	actions, turned, tricks int
	trump                   bool
}

// announce queues, for every seat, the public events of the deal not yet told: the last bid
// or card, turned pile cards, the trump, finished tricks (after their roem claim).
func (m *match) announce() {
	d, seen := &m.deal, &m.seen
	events := m.events[:0]
	if n := len(m.rec.Actions); n > seen.actions {
		switch {
		case m.last.said.Seat != protocol.NoSeat:
			events = append(events, &m.last.said)
		case m.last.played.Seat != protocol.NoSeat:
			events = append(events, &m.last.played)
		}
		seen.actions = n
	}
	for _, c := range d.Turned()[seen.turned:] {
		events = append(events, &protocol.Turned{Card: c})
	}
	seen.turned = len(d.Turned())
	if !seen.trump && d.Maker() != protocol.NoSeat {
		events = append(events, &protocol.Trump{Suit: d.Trump(), Maker: m.seating.TableSeat(d.Maker())})
		seen.trump = true
	}
	if d.Phase() != rules.PhaseClaim {
		for _, t := range d.Tricks()[seen.tricks:] {
			events = append(events, &protocol.TrickDone{Winner: m.seating.TableSeat(t.Winner), Points: t.Points, Roem: t.Scored})
		}
		seen.tricks = len(d.Tricks())
	}
	for _, s := range m.seats {
		for _, e := range events {
			s.queue(e)
		}
	}
	m.events = events
}

// decide asks the seat to move for its decision and applies it; a non-nil fault forfeits.
func (m *match) decide(s *seat) *Fault {
	d := &m.deal
	for retry := 0; ; retry++ {
		req, timeLeft := m.request(s)
		timeout := timeLeft + m.cfg.Time.Grace
		s.queue(req)
		out := s.pending
		m.trace.out(s, out)
		reply, err := s.conn.Exchange(out, true, timeout)
		s.pending = out[:0] // connections do not keep what they were given
		if err != nil {
			return asFault(err, s.conn)
		}
		m.trace.in(s, reply)
		m.charge(s, reply)
		a := Action{Seat: s.pos.String(), MS: float64(reply.Wall.Microseconds()) / 1000, CPUMS: float64(reply.CPU.Microseconds()) / 1000}
		fault := m.apply(d, s.pos, reply.Line, &a)
		if fault == nil {
			s.lastAnswer = reply.Line
			m.rec.Actions = append(m.rec.Actions, a)
			return nil
		}
		if reply.Line == s.lastAnswer && reply.Line != "" {
			fault.Detail += "; it is the line of its previous answer again: a line written twice is taken as the answer to the next request (spec.md §2: one answer per request)"
		}
		if m.cfg.Rules.FaultPolicy != rules.FaultRetry || retry >= m.cfg.MaxRetries || fault.Kind == FaultTimeout {
			return fault
		}
		m.reject(s, req, fault)
	}
}

// reject records an answer rejected under fault_policy = retry, in the deal record and the
// log, and queues the bot's "fault rejected" before the request is sent again.
func (m *match) reject(s *seat, req protocol.Message, f *Fault) {
	request, _, _ := strings.Cut(protocol.Line(req), " ")
	x := Rejection{Seat: s.pos.String(), Bot: s.name, Decision: len(m.rec.Actions) + 1, Request: request, Kind: f.Kind, Detail: f.Detail}
	m.rec.Rejected = append(m.rec.Rejected, x)
	m.cfg.Logger.Warn().Str("bot", s.name).Str("seat", x.Seat).Int("game", m.rec.Game).Int("deal", m.rec.Deal).
		Int("decision", x.Decision).Str("request", request).Str("kind", string(f.Kind)).Str("detail", f.Detail).Msg("answer rejected: asked again")
	s.queue(&protocol.Fault{Kind: "rejected", Detail: string(f.Kind) + " " + oneLine(f.Detail)})
}

// request builds the request for the seat to move, with the time it may take.
func (m *match) request(s *seat) (protocol.Message, time.Duration) {
	d := &m.deal
	left := m.cfg.Time.Decision
	if m.cfg.Time.Bank > 0 {
		left = min(left, max(s.bank, 0))
	}
	t := ms(left)
	r := &m.requests
	switch d.Phase() {
	case rules.PhaseBidding:
		r.bid = protocol.BidRequest{TimeMS: t, Hand: d.Hand(d.ToMove()), Legal: d.LegalBids()}
		return &r.bid, left
	case rules.PhaseClaim:
		last := &d.Tricks()[len(d.Tricks())-1]
		r.claim = protocol.ClaimRequest{TimeMS: t, Trump: d.Trump(), Trick: last.Cards[:last.N]}
		return &r.claim, left
	case rules.PhaseSkart:
		r.discard = protocol.DiscardRequest{TimeMS: t, Trump: d.Trump(), Skart: d.Skart(), Hand: d.Hand(d.ToMove())}
		return &r.discard, left
	}
	tr := d.Trick()
	r.play = protocol.PlayRequest{TimeMS: t, Trump: d.Trump(), Leader: m.seating.TableSeat(tr.Leader), Trick: tr.Cards[:tr.N], Hand: d.Hand(d.ToMove()), Legal: d.Legal()}
	return &r.play, left
}

// requests holds the match's request messages, reused from decision to decision.
type requests struct {
	bid     protocol.BidRequest
	play    protocol.PlayRequest
	claim   protocol.ClaimRequest
	discard protocol.DiscardRequest
}

// apply parses a reply of the bot at table seat seat and applies it to the deal, filling in
// the action.
func (m *match) apply(d *rules.Deal, seat protocol.Seat, line string, a *Action) *Fault {
	garbage := func(err error) *Fault { return &Fault{Kind: FaultGarbage, Detail: err.Error()} }
	switch d.Phase() {
	case rules.PhaseBidding:
		b, err := protocol.ParseBidReply(line)
		if err != nil {
			return garbage(err)
		}
		if err := d.Bid(b); err != nil {
			return &Fault{Kind: FaultIllegal, Detail: err.Error()}
		}
		a.Bid = b.String()
		m.last = lastAction{said: protocol.Said{Seat: seat, Bid: b}, played: protocol.Played{Seat: protocol.NoSeat}}
	case rules.PhaseClaim:
		n, err := protocol.ParseClaimReply(line)
		if err != nil {
			return garbage(err)
		}
		if err := d.Claim(n); err != nil {
			return &Fault{Kind: FaultIllegal, Detail: err.Error()}
		}
		a.Claim = &n
		m.last = lastAction{said: protocol.Said{Seat: protocol.NoSeat}, played: protocol.Played{Seat: protocol.NoSeat}}
	case rules.PhaseSkart:
		c1, c2, err := protocol.ParseDiscardReply(line)
		if err != nil {
			return garbage(err)
		}
		if err := d.Discard(c1, c2); err != nil {
			return &Fault{Kind: FaultIllegal, Detail: err.Error()}
		}
		a.Discard = c1.String() + " " + c2.String()
		m.last = lastAction{said: protocol.Said{Seat: protocol.NoSeat}, played: protocol.Played{Seat: protocol.NoSeat}}
	default:
		c, err := protocol.ParseCardReply(line)
		if err != nil {
			return garbage(err)
		}
		if err := d.Play(c); err != nil {
			return &Fault{Kind: FaultIllegal, Detail: err.Error()}
		}
		a.Card = c.String()
		m.last = lastAction{said: protocol.Said{Seat: protocol.NoSeat}, played: protocol.Played{Seat: seat, Card: c}}
	}
	return nil
}

// charge records the decision's time and runs the game clock.
func (m *match) charge(s *seat, r Reply) {
	s.stats.addDecision(r)
	if m.cfg.Time.Bank > 0 {
		s.bank += m.cfg.Time.Increment - r.Wall
	}
}

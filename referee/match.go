package referee

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/rs/zerolog"
)

// TimeControl is a match's time limits.
type TimeControl struct {
	Startup   time.Duration // for each handshake reply
	Decision  time.Duration // for each decision
	Grace     time.Duration // tolerated on top of Decision before a timeout
	Bank      time.Duration // optional game clock per seat (0 = none)
	Increment time.Duration // added to the bank after each decision
}

// DefaultTimeControl is 10 s to start, 1 s per decision with a 50 ms grace, no game clock.
var DefaultTimeControl = TimeControl{Startup: 10 * time.Second, Decision: time.Second, Grace: 50 * time.Millisecond}

// Config describes a match.
type Config struct {
	ID         string
	Rules      rules.Ruleset
	Games      int  // deal sets; with Duplicate each is played twice
	Duplicate  bool // replay every game with the hands moved one seat on
	Seed       uint64
	Key        []byte     // secret deal key of KeySize bytes, never logged (DealRand); nil: cards from the seed alone
	Deals      []DealSpec // predefined deals, used instead of shuffling (see DealSpec)
	Time       TimeControl
	MaxFaults  int // faults of one bot after which it is not restarted (default 3)
	MaxRetries int // fault_policy = retry: rejected replies per decision before a forfeit (default 3)
	// Stop, if set, is asked after every duplicate pair whether the match should end early
	// (an SPRT, for instance); it gets the result so far.
	Stop   func(*Result) bool
	Log    io.Writer // deal records, one JSON line per deal (may be nil)
	Trace  io.Writer // protocol trace, every line to and from every bot (may be nil)
	Logger zerolog.Logger
}

// RefusedError reports a bot that declined the ruleset at the handshake.
type RefusedError struct {
	Bot    string
	Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("bot %s does not play this ruleset: %s", e.Bot, e.Reason)
}

// seat is the referee's state for one seat.
type seat struct {
	pos      protocol.Seat
	entrant  Entrant
	name     string // from hello; the entrant's name until then
	conn     Conn
	pending  []byte        // lines the bot has not been sent yet
	game     protocol.Game // the current game's start, told again to a restarted bot
	faults   int
	disabled bool
	bank     time.Duration
	stats    *BotStats
}

// match is one running match.
type match struct {
	ctx      context.Context
	cfg      Config
	seats    []*seat       // per table seat
	seating  rules.Seating // the current deal's
	result   *Result
	trace    *tracer
	deal     rules.Deal
	rec      *DealRecord
	seen     announced
	last     lastAction // the decision just made, for announce
	requests requests
	events   []protocol.Message // announce's buffer
	specs    *specCursor
}

// Run plays a match between the entrants, one per table seat from North clockwise, and
// returns its result. A four-player ruleset takes four entrants; the three-player game three,
// or four when the dealer sits out each deal. Bot failures are faults recorded in the result,
// never errors; an error means the match could not be played (a refused ruleset, a bad
// configuration, a failing log writer, a cancelled context).
func Run(ctx context.Context, cfg Config, entrants []Entrant) (*Result, error) {
	if cfg.Games < 1 {
		return nil, errors.New("a match needs at least one game")
	}
	if err := cfg.Rules.Validate(); err != nil {
		return nil, err
	}
	if err := checkKey(cfg.Key); err != nil {
		return nil, err
	}
	if _, err := rules.NewTableGame(&cfg.Rules, len(entrants), protocol.North); err != nil {
		return nil, fmt.Errorf("%d bots: %w", len(entrants), err)
	}
	if cfg.Rules.Players == 3 && len(cfg.Deals) > 0 {
		return nil, errors.New("predefined deals are for the four-player game")
	}
	if cfg.Time == (TimeControl{}) {
		cfg.Time = DefaultTimeControl
	}
	if cfg.MaxFaults == 0 {
		cfg.MaxFaults = 3
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 3
	}
	m := &match{ctx: ctx, cfg: cfg, result: newResult(cfg, entrants), trace: newTracer(cfg.Trace), specs: &specCursor{specs: cfg.Deals}}
	for i, e := range entrants {
		m.seats = append(m.seats, &seat{pos: protocol.Seat(i), entrant: e, name: e.Name, stats: &m.result.Bots[i]})
	}
	defer m.stopAll()
	err := m.startAll()
	if err == nil {
		err = m.play()
	}
	m.result.finish()
	return m.result, err
}

func (m *match) stopAll() {
	var wg sync.WaitGroup
	for _, s := range m.seats {
		if s.conn != nil {
			wg.Add(1)
			go func(s *seat) {
				defer wg.Done()
				m.flush(s, (&protocol.Quit{}).AppendLine(nil))
				_ = s.conn.Stop(time.Second)
				s.conn = nil
			}(s)
		}
	}
	wg.Wait()
}

// startAll starts every bot before the first deal, so that a bot refusing the ruleset, or
// one that cannot start or fails its handshake twice in a row (a *StartError), ends the
// match before anything is played. (The second try keeps a passing hiccup of the machine
// from ending a match or a league.) Later, a bot that fails to restart forfeits its deals.
func (m *match) startAll() error {
	for _, s := range m.seats {
		var err error
		for range 2 {
			if err = m.startSeat(s); err == nil {
				break
			}
			var refused *RefusedError
			if m.ctx.Err() != nil || errors.As(err, &refused) {
				return cmp.Or(m.ctx.Err(), err)
			}
		}
		if err != nil {
			return err
		}
	}
	return m.ctx.Err()
}

// startSeat starts the seat's bot and does the handshake; it returns a *RefusedError, a
// *StartError or the context's error.
func (m *match) startSeat(s *seat) error {
	conn, err := s.entrant.Start(m.ctx)
	if err != nil {
		return cmp.Or(m.ctx.Err(), error(&StartError{Bot: s.name, Seat: s.pos, Fault: asFault(err, nil)}))
	}
	s.conn = conn
	if err := m.handshake(s); err != nil {
		var refused *RefusedError
		if errors.As(err, &refused) || m.ctx.Err() != nil {
			return cmp.Or(m.ctx.Err(), err)
		}
		f := asFault(err, s.conn)
		_ = s.conn.Stop(500 * time.Millisecond)
		if tail := s.conn.StderrTail(); len(tail) > len(f.StderrTail) {
			f.StderrTail = tail // what the bot wrote until it ended
		}
		s.conn = nil
		return &StartError{Bot: s.name, Seat: s.pos, Fault: f}
	}
	return nil
}

func (m *match) play() error {
	table := len(m.seats)
	plays := 1
	if m.cfg.Duplicate {
		plays = DuplicateGames(&m.cfg.Rules, table)
	}
	game := 0
	for pair := range m.cfg.Games {
		firstDealer := FirstDealer(m.cfg.Key, m.cfg.Seed, pair, table)
		start := m.specs.pos
		for play := range plays {
			if err := m.ctx.Err(); err != nil {
				return err
			}
			game++
			m.specs.pos = start
			if err := m.playGame(pair, play, game, firstDealer.Plus(play, table)); err != nil {
				return err
			}
		}
		if m.cfg.Stop != nil && m.cfg.Stop(m.result) {
			m.result.Stopped = true
			return nil
		}
	}
	return nil
}

// FirstDealer returns the table seat that deals first in the first game of deal set pair:
// drawn from the deal key and the match seed (FirstDealerRand), so that a replayed match
// seats the same dealers. A duplicate set's later games start one seat further on each
// (rotation). A nil key is the unkeyed derivation, from the seed alone.
func FirstDealer(key []byte, seed uint64, pair, table int) protocol.Seat {
	return protocol.Seat(FirstDealerRand(key, seed, pair).IntN(table))
}

// DuplicateGames returns how many games a duplicate set has at a table of the given size:
// two at four (the second with the hands moved one seat on, so each team holds the other's
// cards), and one per seat in the three-player game (each bot holds every hand).
func DuplicateGames(rs *rules.Ruleset, table int) int {
	if rs.Players == 4 {
		return 2
	}
	return table
}

// playGame plays one game; the duplicate set's later games (rotation > 0) replay the same
// deals from the next dealer.
func (m *match) playGame(pair, rotation, number int, firstDealer protocol.Seat) error {
	g, err := rules.NewTableGame(&m.cfg.Rules, len(m.seats), firstDealer)
	if err != nil {
		return err
	}
	for _, s := range m.seats {
		s.bank = m.cfg.Time.Bank
		s.game = protocol.Game{Number: number, Seat: s.pos, DecisionMS: ms(m.cfg.Time.Decision), BankMS: ms(m.cfg.Time.Bank), IncrementMS: ms(m.cfg.Time.Increment)}
		s.queue(&s.game)
	}
	sides := len(m.result.Sides)
	gr := GameResult{Pair: pair, Mirror: rotation > 0, Rotation: rotation, Number: number,
		Totals: make([]int, sides), Made: make([]int, sides), Nat: make([]int, sides), Pit: make([]int, sides)}
	for dealNo, attempt := 1, 0; !g.Over(); {
		if err := m.ctx.Err(); err != nil {
			return err
		}
		m.seating = g.Seating()
		setup := m.dealSetup(pair, dealNo, attempt, g)
		if err := m.playDeal(setup, pair, rotation, number, dealNo, attempt); err != nil {
			return err
		}
		res := m.deal.Result()
		g.Add(res)
		gr.add(res, m.sideOf)
		if res.Outcome == rules.Redeal {
			attempt++
			continue
		}
		dealNo, attempt = dealNo+1, 0
	}
	copy(gr.Totals, g.Total[:sides])
	gr.Winner = g.Leader()
	m.result.addGame(gr)
	for _, s := range m.seats {
		s.queue(&protocol.GameOver{Totals: gr.Totals[:]})
		m.flush(s, nil)
	}
	return nil
}

// dealSetup returns the cards for a deal: a predefined deal, or a shuffle determined by the
// key, the seed, the pair, the deal number and the attempt (DealRand). Every game of a
// duplicate set gets the same cards, dealt from its own dealer, so the hands move one seat
// on from game to game.
func (m *match) dealSetup(pair, dealNo, attempt int, g *rules.Game) rules.Setup {
	rs := &m.cfg.Rules
	rng := DealRand(m.cfg.Key, m.cfg.Seed, pair, dealNo, attempt)
	setup := rules.Setup{Dealer: m.seating.DealDealer(), FirstOfMatch: g.FirstDeal()}
	if spec, ok := m.specs.next(attempt); ok {
		spec.apply(rs, &setup, rng)
		return setup
	}
	deck := rules.Shuffle(rng)
	setup.Hands, setup.Skart = rules.DealHands(rs, &deck, setup.Dealer)
	setup.Pile = rules.ShufflePile(rs, rng)
	return setup
}

// playDeal plays one deal to its end, forfeits included.
func (m *match) playDeal(setup rules.Setup, pair, rotation int, game, dealNo, attempt int) error {
	rs := &m.cfg.Rules
	if err := m.deal.Start(rs, setup); err != nil {
		return fmt.Errorf("deal %d of game %d: %w", dealNo, game, err)
	}
	d := &m.deal
	m.rec = &DealRecord{V: LogVersion, Match: m.cfg.ID, Pair: pair, Mirror: rotation > 0, Rotation: rotation, Game: game, Deal: dealNo, Attempt: attempt,
		Rules: *rs, Seed: m.cfg.Seed, Keyed: m.cfg.Key != nil, Dealer: m.seating.Dealer.String(), First: setup.FirstOfMatch}
	if m.seating.SitsOut() {
		m.rec.Table = m.seating.Table
	}
	if setup.Skart != 0 {
		m.rec.Skart = setup.Skart.String()
	}
	var active protocol.Active // who plays, when the dealer sits out
	for i := range active.Seats {
		active.Seats[i] = m.seating.TableSeat(protocol.Seat(i))
	}
	for i, s := range m.seats {
		var hand protocol.CardSet
		if ds := m.seating.DealSeat(s.pos); ds != protocol.NoSeat {
			hand = setup.Hands[ds]
			m.rec.Hands[i] = hand.String()
		}
		m.rec.Seats[i] = s.name
		s.queue(&protocol.Dealt{Number: dealNo, Dealer: m.seating.Dealer, Hand: hand})
		if m.seating.SitsOut() {
			s.queue(&active)
		}
	}
	for _, c := range setup.Pile {
		m.rec.Pile = append(m.rec.Pile, c.String())
	}
	m.seen = announced{}
	m.announce()
	for d.Phase() != rules.PhaseDone {
		s := m.seats[m.seating.TableSeat(d.ToMove())]
		if err := m.ensureRunning(s); err != nil {
			return err // interrupted (the deal is not recorded, nobody is at fault), or worse
		}
		if d.Phase() == rules.PhaseDone {
			break // the bot could not be started: the deal is forfeited
		}
		if s.disabled {
			m.forfeit(s, &Fault{Kind: FaultDisabled, Detail: fmt.Sprintf("%d faults in this match: its deals are forfeited", s.faults)})
			break
		}
		if fault := m.decide(s); fault != nil {
			if err := m.ctx.Err(); err != nil {
				return err // the bot was stopped by the interruption, not at fault
			}
			m.forfeit(s, fault)
			break
		}
		m.announce()
	}
	for i, s := range m.seats {
		m.rec.Seats[i] = s.name
	}
	m.rec.Result = resultRecord(d, m.seating)
	r := &m.rec.Result
	sc := &protocol.Scored{Outcome: r.Outcome, Score: r.Score, Cards: r.Cards, Roem: r.Roem, Pit: cmp.Or(r.Pit, "-"), Offender: protocol.NoSeat}
	if r.Offender != "" {
		sc.Offender = m.seating.TableSeat(d.Result().Offender)
	}
	for _, s := range m.seats {
		s.queue(sc)
	}
	return m.writeRecord()
}

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
			m.rec.Actions = append(m.rec.Actions, a)
			return nil
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

// forfeit ends the deal for the fault of seat s: the bot is told why, stopped, and will be
// restarted (or not, after too many faults) for the next deal.
func (m *match) forfeit(s *seat, f *Fault) {
	m.deal.Forfeit(m.seating.DealSeat(s.pos))
	m.rec.Faults = append(m.rec.Faults, FaultRecord{Seat: s.pos.String(), Bot: s.name, Kind: f.Kind, Detail: f.Detail, Stderr: f.StderrTail})
	m.result.addFault(s.pos, m.sideOf(m.seating.DealSeat(s.pos)), f)
	m.cfg.Logger.Warn().Str("bot", s.name).Str("seat", s.pos.String()).Str("kind", string(f.Kind)).Str("detail", f.Detail).Msg("fault: deal forfeited")
	if f.Kind == FaultDisabled {
		return
	}
	s.faults++
	if s.conn != nil {
		s.queue(&protocol.Fault{Kind: string(f.Kind), Detail: oneLine(f.Detail)})
		m.flush(s, nil)
		_ = s.conn.Stop(500 * time.Millisecond)
		s.conn = nil
	}
	if s.faults >= m.cfg.MaxFaults {
		s.disabled = true
	}
	// The next start of the bot begins with the game it is in.
	s.pending = s.pending[:0]
	s.queue(&s.game)
}

// ensureRunning starts the seat's bot if it is not running, with the handshake and the
// current game's start. A bot that fails to start is a fault; a refusal is an error.
func (m *match) ensureRunning(s *seat) error {
	if s.conn != nil || s.disabled {
		return nil
	}
	conn, err := s.entrant.Start(m.ctx)
	if m.ctx.Err() != nil {
		if err == nil {
			_ = conn.Stop(0)
		}
		return m.ctx.Err() // interrupted: not the bot's fault
	}
	if err != nil {
		m.startFault(s, &Fault{Kind: FaultStart, Detail: err.Error()})
		return nil
	}
	s.conn = conn
	if err := m.handshake(s); err != nil {
		var f *Fault
		if m.ctx.Err() != nil {
			return m.ctx.Err()
		}
		if errors.As(err, &f) {
			m.startFault(s, f)
			return nil
		}
		return err
	}
	return nil
}

// startFault records a bot that could not be started; its deals are forfeited when it is
// to move.
func (m *match) startFault(s *seat, f *Fault) {
	if s.conn != nil {
		f.StderrTail = s.conn.StderrTail()
		_ = s.conn.Stop(500 * time.Millisecond)
		s.conn = nil
	}
	m.forfeit(s, f)
}

func (m *match) handshake(s *seat) error {
	ask := func(msg protocol.Message) (string, error) {
		out := append(msg.AppendLine(nil), '\n')
		m.trace.out(s, out)
		r, err := s.conn.Exchange(out, true, m.cfg.Time.Startup)
		if err != nil {
			return "", asFault(err, s.conn)
		}
		m.trace.in(s, r)
		return r.Line, nil
	}
	line, err := ask(&protocol.Klaverjas{Versions: []int{protocol.Version}})
	if err != nil {
		return err
	}
	hello, err := protocol.ParseHello(line)
	if err != nil {
		return &Fault{Kind: FaultStart, Detail: "handshake: " + err.Error()}
	}
	if hello.Version != protocol.Version {
		return &Fault{Kind: FaultStart, Detail: fmt.Sprintf("handshake: bot chose protocol version %d; the arena speaks %d", hello.Version, protocol.Version)}
	}
	if s.name == "" || s.entrant.HelloName {
		s.name = hello.Name
	}
	s.stats.Name, s.stats.Author = s.name, hello.Author
	line, err = ask(&protocol.Rules{Options: m.cfg.Rules.Options()})
	if err != nil {
		return err
	}
	reply, err := protocol.ParseRulesReply(line)
	if err != nil {
		return &Fault{Kind: FaultStart, Detail: "rules: " + err.Error()}
	}
	if reply.Refuse {
		return &RefusedError{Bot: s.name, Reason: reply.Reason}
	}
	return nil
}

// flush sends the seat's pending lines (and extra) without waiting for an answer.
func (m *match) flush(s *seat, extra []byte) {
	out := s.pending
	if len(extra) > 0 {
		out = append(append(out, extra...), '\n')
	}
	s.pending = nil
	if s.conn == nil || len(out) == 0 {
		return
	}
	m.trace.out(s, out)
	if _, err := s.conn.Exchange(out, false, m.cfg.Time.Startup); err != nil {
		m.cfg.Logger.Debug().Str("bot", s.name).Err(err).Msg("bot did not take its last lines")
	}
}

func (m *match) writeRecord() error {
	m.result.addDeal(m.rec)
	if m.cfg.Log == nil {
		return nil
	}
	line, err := marshalLine(m.rec)
	if err != nil {
		return err
	}
	if _, err := m.cfg.Log.Write(line); err != nil {
		return fmt.Errorf("write deal log: %w", err)
	}
	return nil
}

func (s *seat) queue(msg protocol.Message) {
	if s.disabled {
		return // it will not be started again
	}
	s.pending = append(msg.AppendLine(s.pending), '\n')
}

func asFault(err error, c Conn) *Fault {
	var f *Fault
	if !errors.As(err, &f) {
		f = &Fault{Kind: FaultCrash, Detail: err.Error()}
	}
	if f.StderrTail == "" && c != nil {
		f.StderrTail = c.StderrTail()
	}
	return f
}

// sideOf returns the scoring side, in the result's Sides, of the deal's seat d: its team at
// four, its table seat in the three-player game.
func (m *match) sideOf(d protocol.Seat) int {
	if m.cfg.Rules.Players == 4 {
		return m.cfg.Rules.SideOf(d)
	}
	return int(m.seating.TableSeat(d))
}

func ms(d time.Duration) int { return int(d / time.Millisecond) }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

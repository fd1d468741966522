package referee

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
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
	Stop    func(*Result) bool
	Records DealConsumer // takes every finished deal's record (may be nil)
	// FirstPair is the number of the match's first deal set (game pair): a match split into
	// parts run side by side, each part its own Run, plays and records the deals that the
	// whole would, numbered alike. (Not with predefined Deals, whose order runs across pairs.)
	FirstPair int
	// Resume holds the records of the deals an interrupted run of this match recorded, in the
	// order played: the match goes on after the last of them as the uninterrupted run would
	// have, with the same deals and dealers, game totals, faults and disabled bots, and game
	// clocks charged with the recorded times; the bots are started afresh and told their game
	// as after a fault (spec.md §4). Each record must be the deal the match deals next, and
	// verify. They count in the Result (not in its bots' decision times) and are not passed
	// to Records again. Not with predefined Deals.
	Resume []DealRecord
	Trace  io.Writer // protocol trace, every line to and from every bot (may be nil)
	Logger zerolog.Logger

	// SeatTraces, per table seat and room, receive the protocol lines of that seat's process
	// alone: "< " and each line to the bot, "> " and each line from it (nil, or a nil entry:
	// none). Entry r×table+i is seat i of room r (Rooms: a duplicate set's game of rotation r
	// has processes of its own).
	SeatTraces []io.Writer
}

// RefusedError reports a bot that declined the ruleset at the handshake.
type RefusedError struct {
	Bot    string
	Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("bot %s does not play this ruleset: %s", e.Bot, e.Reason)
}

// match is one running match.
type match struct {
	ctx        context.Context
	cfg        Config
	greetedAll bool          // startAll is done: a later greeting distinguishes names at once
	seats      []*seat       // per table seat
	rooms      int           // the games of a duplicate set, each played by processes of its own
	seating    rules.Seating // the current deal's
	result     *Result
	trace      *tracer
	deal       rules.Deal
	rec        *DealRecord
	seen       announced
	last       lastAction // the decision just made, for announce
	requests   requests
	events     []protocol.Message // announce's buffer
	specs      *specCursor
	resumed    int // the records of Config.Resume taken so far
}

// Run plays a match between the entrants, one per table seat from North clockwise, and
// returns its result. A four-player ruleset takes four entrants; the three-player game three,
// or four when the dealer sits out each deal. Bot failures are faults recorded in the result,
// never errors; an error means the match could not be played (a refused ruleset, a bad
// configuration, a failing deal consumer, a cancelled context).
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
	m := &match{ctx: ctx, cfg: cfg, rooms: Rooms(&cfg, len(entrants)), result: newResult(cfg, entrants), trace: newTracer(cfg.Trace, cfg.SeatTraces, len(entrants)), specs: &specCursor{specs: cfg.Deals}}
	for i, e := range entrants {
		m.seats = append(m.seats, &seat{pos: protocol.Seat(i), entrant: e, name: e.Name, stats: &m.result.Bots[i]})
	}
	if err := m.resumeSeats(); err != nil {
		return nil, err
	}
	finished := false
	defer func() { m.stopAll(finished) }()
	m.enterRoom(m.firstRoom())
	err := m.startAll()
	if err == nil {
		err = m.play()
	}
	if err == nil && m.resumed < len(m.cfg.Resume) {
		rec := &m.cfg.Resume[m.resumed]
		err = fmt.Errorf("resume: game %d deal %d attempt %d is not a deal of this match, in the order played", rec.Game, rec.Deal, rec.Attempt)
	}
	finished = err == nil
	m.result.finish()
	return m.result, err
}

func (m *match) play() error {
	table, plays := len(m.seats), m.rooms
	game := m.cfg.FirstPair * plays
	for i := range m.cfg.Games {
		pair := m.cfg.FirstPair + i
		firstDealer := FirstDealer(m.cfg.Key, m.cfg.Seed, pair, table)
		start := m.specs.pos
		for play := range plays {
			if err := m.ctx.Err(); err != nil {
				return err
			}
			game++
			m.specs.pos = start
			m.enterRoom(play)
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

// Rooms returns how many rooms a match of cfg at a table of the given size plays in: one per
// game of a duplicate set (each with bot processes of its own), or one.
func Rooms(cfg *Config, table int) int {
	if cfg.Duplicate {
		return DuplicateGames(&cfg.Rules, table)
	}
	return 1
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
	sides := len(m.result.Sides)
	gr := GameResult{Pair: pair, Mirror: rotation > 0, Rotation: rotation, Number: number,
		Totals: make([]int, sides), Made: make([]int, sides), Nat: make([]int, sides), Pit: make([]int, sides)}
	for _, s := range m.seats {
		s.bank = m.cfg.Time.Bank
		s.game = gameStart(number, s.pos, m.cfg.Time)
	}
	dealNo, attempt, err := m.resumeGame(pair, rotation, number, g, &gr)
	if err != nil {
		return err
	}
	told := !g.Over() // a game resumed to its end is not played again: the bots never hear of it
	if told {
		for _, s := range m.seats {
			s.queue(&s.game)
		}
	}
	for !g.Over() {
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
	if !told {
		return nil
	}
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
		m.chargeCPU(s, false)
	}
	m.rec.Result = ResultRecord(d, m.seating)
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

func (m *match) writeRecord() error {
	m.result.addDeal(m.rec)
	if m.cfg.Records == nil {
		return nil
	}
	return m.cfg.Records.Deal(m.rec)
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

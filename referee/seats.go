package referee

import (
	"cmp"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
)

// seat is the referee's state for one seat.
type seat struct {
	pos     protocol.Seat
	entrant Entrant
	name    string // from hello; the entrant's name until then
	greeted bool   // name and author are from the first hello
	// helloName is the name it gave in that hello (name may have "-2" added: distinguishNames)
	helloName string
	conn      Conn // the bot process of the room in play
	room      int  // which room that is
	// away holds the processes of the other rooms while this one plays (nil, or a nil entry:
	// none running), one entry per room of the match.
	away    []Conn
	pending []byte // lines the bot has not been sent yet
	// lastAnswer is the process's last accepted answer line, which a fault names when the
	// next answer is the same line (written twice, most likely; a rejected answer tried
	// again under fault_policy=retry is not that)
	lastAnswer string
	game       protocol.Game // the current game's start, told again to a restarted bot
	faults     int
	disabled   bool
	bank       time.Duration
	stats      *BotStats
}

// Rooms. The games of a duplicate set deal the same cards again, the hands moved on; a bot
// process that played one of them would know, in the next, where every card is (at the end
// of a deal every card has been played). So each game of a set is played in a room of its
// own, as duplicate bridge plays its two rooms: the game of rotation r has processes of its
// own (room r), started when it first plays and kept for the same rotation of the match's
// later sets, so that no process sees a deal set twice. The seats' faults, disabling,
// statistics and names are the bot's at that seat in every room.

// enterRoom makes room r's processes the seats' current ones; a room not yet entered has
// none, and its bots start at their first decision (told the game, as after a fault). The
// processes of the room left are paused (a Pauser) until their room is entered again: they
// know every card of the deals the next room replays, and a process left running could
// signal them through the load it puts on the machine (on the table's own CPU) to a process
// of the room in play. Pausing is best effort: a Conn that cannot be paused runs on.
func (m *match) enterRoom(r int) {
	for _, s := range m.seats {
		if s.room == r {
			continue
		}
		if s.away == nil {
			s.away = make([]Conn, m.rooms)
		}
		setPaused(s.conn, true)
		s.away[s.room], s.conn, s.away[r], s.lastAnswer = s.conn, s.away[r], nil, ""
		s.room = r
		setPaused(s.conn, false)
	}
}

// setPaused pauses or resumes c if it is a Pauser; a failure leaves it as it was.
func setPaused(c Conn, on bool) {
	p, ok := c.(Pauser)
	if !ok {
		return
	}
	if on {
		_ = p.Pause()
	} else {
		_ = p.Resume()
	}
}

// stopAll ends every seat's bot in every room: a KeptConn of a match played to its end is
// released for a later match, any other bot told to quit and stopped.
func (m *match) stopAll(finished bool) {
	for r := range m.rooms {
		m.enterRoom(r)
		m.stopRoom(finished)
	}
}

// stopRoom ends the bots of the room in play, as stopAll.
func (m *match) stopRoom(finished bool) {
	var wg sync.WaitGroup
	for _, s := range m.seats {
		if s.conn == nil {
			continue
		}
		if k, ok := s.conn.(KeptConn); ok && finished {
			m.flush(s, nil)
			k.Release()
			s.conn = nil
			continue
		}
		wg.Add(1)
		go func(s *seat) {
			defer wg.Done()
			m.flush(s, (&protocol.Quit{}).AppendLine(nil))
			_ = s.conn.Stop(time.Second)
			s.conn = nil
		}(s)
	}
	wg.Wait()
}

// startAll starts every bot before the first deal, all at once, so that a bot refusing the
// ruleset, or one that cannot start or fails its handshake twice in a row (a *StartError),
// ends the match before anything is played (the first such error in seat order is the
// error), unless the bot is Proven: then it is started again at its first decision, where not
// starting (or refusing) forfeits its deals. (The second try keeps a passing hiccup of the
// machine from ending a match or a league.) Later, a bot that fails to restart forfeits its
// deals.
func (m *match) startAll() error {
	errs := make([]error, len(m.seats))
	var wg sync.WaitGroup
	for i, s := range m.seats {
		if s.disabled {
			continue // disabled before a resume (Config.Resume): never started again
		}
		wg.Go(func() {
			for range 2 {
				errs[i] = m.startSeat(s)
				var refused *RefusedError
				if errs[i] == nil || m.ctx.Err() != nil || errors.As(errs[i], &refused) {
					return
				}
			}
		})
	}
	wg.Wait()
	m.greetedAll = true
	m.distinguishNames(nil)
	if err := m.ctx.Err(); err != nil {
		return err
	}
	for i, err := range errs {
		var notStarted *StartError
		var refused *RefusedError
		if s := m.seats[i]; s.entrant.Proven && (errors.As(err, &notStarted) || errors.As(err, &refused)) {
			// Started again at its first decision, where not starting forfeits the deal. A
			// process that refused is running still: it must not play.
			if s.conn != nil {
				_ = s.conn.Stop(500 * time.Millisecond)
				s.conn = nil
			}
			m.cfg.Logger.Warn().Str("bot", s.name).Str("seat", s.pos.String()).Err(err).
				Msg("bot did not start: its deals are forfeited while it does not")
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// setConn seats a freshly started connection; a CPUMeter has its CPU time read once a deal.
func (s *seat) setConn(c Conn) {
	s.conn, s.lastAnswer = c, ""
	if cm, ok := c.(CPUMeter); ok {
		cm.MeterCPU()
	}
}

// chargeCPU counts a CPUMeter bot's CPU time since the last reading on its last decision of
// the deal in play. A bot that has not decided in this deal is read later, when it has, unless
// stopping (its process is about to end): then the time counts in its match total only, as
// the CPU of an answer that was a fault does.
func (m *match) chargeCPU(s *seat, stopping bool) {
	cm, ok := s.conn.(CPUMeter)
	if !ok {
		return
	}
	seat := s.pos.String()
	for i := len(m.rec.Actions) - 1; i >= 0; i-- {
		if a := &m.rec.Actions[i]; a.Seat == seat {
			d := cm.CPUSinceMark()
			a.CPUMS += float64(d.Microseconds()) / 1000
			s.stats.CPU += d
			return
		}
	}
	if stopping {
		s.stats.CPU += cm.CPUSinceMark()
	}
}

// startSeat starts the seat's bot and does the handshake; it returns a *RefusedError, a
// *StartError or the context's error.
func (m *match) startSeat(s *seat) error {
	conn, err := s.entrant.Start(m.ctx)
	if err != nil {
		return cmp.Or(m.ctx.Err(), error(&StartError{Bot: s.name, Seat: s.pos, Fault: asFault(err, nil)}))
	}
	s.setConn(conn)
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
		m.chargeCPU(s, true) // before the process and its CPU time are gone
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
// current game's start. A bot that fails to start is a fault, and so is a refusal: the bot
// accepted the ruleset before the first deal (startAll), and a process of it that declines
// it now (a restart, or the first process of another room) must cost its own side the deal,
// not end the match (or the league) for everyone.
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
	s.setConn(conn)
	if err := m.handshake(s); err != nil {
		var f *Fault
		var refused *RefusedError
		if m.ctx.Err() != nil {
			return m.ctx.Err()
		}
		if errors.As(err, &refused) {
			f = &Fault{Kind: FaultStart, Detail: "rules: declined the ruleset it had accepted: " + refused.Reason}
		}
		if f != nil || errors.As(err, &f) {
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

// NoHelloHint follows the detail of a timeout waiting for a bot's hello: most often the hello
// sits in the bot's output buffer, the first mistake of many a bot.
const NoHelloHint = "; no hello: does the bot flush its output after each line (spec.md §2)?"

// handshake greets a freshly started bot: hello, then the ruleset. A KeptConn greeted in an
// earlier match is not greeted again: its hello is taken as it was.
func (m *match) handshake(s *seat) error {
	kept, _ := s.conn.(KeptConn)
	if kept != nil {
		if hello := kept.Greeted(); hello != nil {
			m.greeted(s, hello)
			return nil
		}
	}
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
	if f := (*Fault)(nil); errors.As(err, &f) && f.Kind == FaultTimeout {
		f.Detail += NoHelloHint
	}
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
	m.greeted(s, hello)
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
	if kept != nil {
		kept.SetGreeted(hello)
	}
	return nil
}

// greeted takes the bot's name and author from its first hello: a process started later (after
// a fault, in another room) cannot rename the bot in the middle of the match (as its
// opponent, say, to whom its faults would then seem to belong).
func (m *match) greeted(s *seat, hello *protocol.Hello) {
	if s.greeted {
		return
	}
	s.greeted = true
	if s.name == "" || s.entrant.HelloName {
		s.name = hello.Name
	}
	s.helloName = hello.Name
	s.stats.Name, s.stats.Author = s.name, hello.Author
	if m.greetedAll { // a bot that did not start with the others (startAll greets in parallel)
		m.distinguishNames(s)
	}
}

// distinguishNames keeps different entrants (by Entrant.Name) from being shown by one name,
// as two builds of a bot that say the same name in hello would be: a seat shown by its hello
// name that another entrant already has gets "-2" added (or "-3", ...); the seats of one
// entrant get the same name. With only nil it names every seat, in seat order (after
// startAll); otherwise only the seat only, greeted late, whose name the others keep.
func (m *match) distinguishNames(only *seat) {
	owner := map[string]string{} // shown name → entrant
	if only != nil {
		for _, s := range m.seats {
			if s != only && owner[s.name] == "" {
				owner[s.name] = s.entrant.Name
			}
		}
	}
	for _, s := range m.seats {
		if only != nil && s != only {
			continue
		}
		if s.greeted && s.entrant.HelloName {
			name := s.helloName
			for n := 2; owner[name] != "" && owner[name] != s.entrant.Name; n++ {
				name = fmt.Sprintf("%s-%d", s.helloName, n)
			}
			s.name, s.stats.Name = name, name
		}
		if owner[s.name] == "" {
			owner[s.name] = s.entrant.Name
		}
	}
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

package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/examplebots/go/heuristic/strategy"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/rs/zerolog"
)

// UnknownEvent is the event line of a later protocol revision sent in the unknown-event item.
const UnknownEvent = "note future-event 1"

// handshakeItems checks the hello and the default ruleset on one start of the bot.
func (c *checker) handshakeItems() []Item {
	hsName, rulesName := "handshake", "ruleset amsterdams (the default) accepted"
	s, f := c.start()
	if f != nil {
		return []Item{f.item(hsName), {Name: rulesName, Status: Skip, Detail: "not run: the handshake failed"}}
	}
	def := rules.Default()
	hello, refused, f := s.handshake(def.Options())
	if hello == nil {
		return []Item{f.item(hsName), {Name: rulesName, Status: Skip, Detail: "not run: the handshake failed"}}
	}
	c.report.Name, c.report.Author = hello.Name, hello.Author
	hs := Item{Name: hsName, Status: Pass, Detail: fmt.Sprintf("%q: protocol 1, name %s, author %q", hello.Line(), hello.Name, hello.Author)}
	switch {
	case f != nil:
		return []Item{hs, f.item(rulesName)}
	case refused != "":
		return []Item{hs, {Name: rulesName, Status: Fail, Detail: "refuses the default ruleset: " + refused,
			Sent: protocol.Line(&protocol.Rules{Options: def.Options()}), Got: "refuse " + refused, Want: "ok: every bot must play the default ruleset"}}
	}
	s.quit()
	return []Item{hs, {Name: rulesName, Status: Pass, Detail: `answered "ok"`}}
}

// versionItem offers protocol versions 1 and 2, as an arena that speaks both will (spec.md
// §10): a version-1 bot must answer hello 1.
func (c *checker) versionItem() Item {
	const name = "version negotiation: offered \"klaverjas 1 2\", answers hello 1"
	s, f := c.start()
	if f != nil {
		return f.item(name)
	}
	defer s.quit()
	offer := &protocol.Klaverjas{Versions: []int{protocol.Version, protocol.Version + 1}}
	want := "hello 1 <name> <author...>: the bot speaks version 1, so it chooses 1 (spec.md §10)"
	line, f := s.ask(offer, "hello", c.opts.Time.Startup, want)
	if f != nil {
		return f.item(name)
	}
	hello, err := protocol.ParseHello(line)
	if err == nil && hello.Version != protocol.Version {
		err = fmt.Errorf("the bot chose version %d", hello.Version)
	}
	if err != nil {
		return Item{Name: name, Status: Fail, Detail: "bad hello: " + err.Error(), Sent: protocol.Line(offer), Got: line, Want: want, Stderr: lastLines(s.conn.StderrTail(), 5)}
	}
	return Item{Name: name, Status: Pass, Detail: fmt.Sprintf("answered %q", line)}
}

// rulesetsItem offers every preset and notes which the bot declines.
func (c *checker) rulesetsItem() Item {
	const name = "rulesets: answers every preset with ok or refuse"
	var played, declined []string
	for _, preset := range rules.PresetNames() {
		rs, _ := rules.Preset(preset)
		s, f := c.start()
		if f != nil {
			return f.item(name)
		}
		_, refused, f := s.handshake(rs.Options())
		if f != nil {
			f.detail = "preset " + preset + ": " + f.detail
			return f.item(name)
		}
		if refused != "" {
			if preset == "amsterdams" {
				return Item{Name: name, Status: Fail, Detail: "refuses the default ruleset: " + refused, Got: "refuse " + refused, Want: "ok"}
			}
			declined = append(declined, fmt.Sprintf("declines ruleset %s: %s", preset, refused))
			continue
		}
		s.quit()
		played = append(played, preset)
	}
	if len(declined) > 0 {
		return Item{Name: name, Status: Info, Detail: "plays " + strings.Join(played, ", ") + "; " + strings.Join(declined, "; ")}
	}
	return Item{Name: name, Status: Pass, Detail: "plays every preset: " + strings.Join(played, ", ")}
}

func (c *checker) scenarioItems(list []scenario) []Item {
	var items []Item
	for i := range list {
		if c.ctx.Err() != nil {
			break
		}
		items = append(items, c.runScenario(&list[i]))
	}
	return items
}

// unknownEventItem sends an event of a later protocol revision before a request. The spec
// (§5, §10) promises version 1 only ever gains new events, which v1 bots ignore: a bot that
// does not would fault in every deal as soon as the arena sends one, so this item fails, not
// warns.
func (c *checker) unknownEventItem() Item {
	sc := biddingScenarios()[0]
	sc.item = "unknown event: ignores \"" + UnknownEvent + "\""
	sc.extra = UnknownEvent
	it := c.runScenario(&sc)
	if it.Status == Fail { // at the request right after the unknown event
		it.Detail = "spec.md §5 and §10: a v1 bot must ignore event lines it does not know, or it breaks when the arena adds one; " + it.Detail
	}
	return it
}

// runScenario plays one scripted deal with the bot at its seat.
func (c *checker) runScenario(sc *scenario) Item {
	s, f := c.start()
	if f != nil {
		return f.item(sc.item)
	}
	_, refused, f := s.handshake(sc.rules.Options())
	if f != nil {
		return f.item(sc.item)
	}
	if refused != "" {
		if sc.rules == rules.Default() {
			return Item{Name: sc.item, Status: Fail, Detail: "refuses the default ruleset: " + refused, Got: "refuse " + refused, Want: "ok"}
		}
		return Item{Name: sc.item, Status: Info, Detail: fmt.Sprintf("declines ruleset %s: %s", rulesetName(&sc.rules), refused)}
	}
	defer s.quit()
	d, err := rules.NewDeal(&sc.rules, sc.setup)
	if err != nil {
		panic(fmt.Sprintf("check: scenario %s: %v", sc.item, err))
	}
	decision := c.opts.Time.Decision
	s.queue(&protocol.Game{Number: 1, Seat: sc.seat, DecisionMS: int(decision / time.Millisecond)})
	s.queue(&protocol.Dealt{Number: 1, Dealer: sc.setup.Dealer, Hand: sc.setup.Hands[sc.seat]})
	var ann announcer
	ann.announce(s, d, nil)
	for _, tok := range sc.prefix {
		ev, err := applyText(d, d.ToMove(), tok)
		if err != nil {
			panic(fmt.Sprintf("check: scenario %s: prefix %s: %v", sc.item, tok, err))
		}
		ann.announce(s, d, ev)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	var first string
	var claims []string
	decisions := 0
	keyDone := false // the decision the scenario is named after has been answered
	for d.Phase() != rules.PhaseDone {
		mover := d.ToMove()
		if mover != sc.seat {
			ann.announce(s, d, otherAction(d, rng))
			continue
		}
		req, kind, legal := request(d, mover, int(decision/time.Millisecond))
		want := "one of the legal choices: " + legal
		isKey := !keyDone && (sc.keyKind == "" || kind == sc.keyKind)
		if isKey {
			if sc.want != "" && !strings.HasPrefix(sc.want, "no ") {
				want = sc.want + "; legal: " + legal
			}
		}
		reqLine := protocol.Line(req) // before the deal moves on: req shares the deal's trick
		if decisions == 0 && sc.extra != "" {
			s.queueLine(sc.extra)
		}
		line, f := s.ask(req, kind, decision+c.opts.Time.Grace, want)
		if f != nil {
			if decisions == 0 && sc.extra != "" {
				f.sent = sc.extra + "\n" + f.sent
			}
			return c.scenarioFailure(sc, decisions, isKey, keyDone, first, f)
		}
		ev, err := applyText(d, mover, line)
		if err != nil {
			s.stop()
			return c.scenarioFailure(sc, decisions, isKey, keyDone, first, &failure{detail: err.Error(), sent: reqLine, got: line, want: want, stderr: s.conn.StderrTail()})
		}
		if isKey {
			first, keyDone = fmt.Sprintf("answered %q to %q", line, reqLine), true
		}
		if kind == "claim" {
			last := d.Tricks()[len(d.Tricks())-1]
			claims = append(claims, fmt.Sprintf("%q with %d roem in the trick", line, last.Roem.Total()))
		}
		decisions++
		ann.announce(s, d, ev)
	}
	s.queue(scored(d))
	res := d.Result()
	s.queue(&protocol.GameOver{Totals: res.Score[:2]})
	detail := fmt.Sprintf("%s; %d decisions in the deal, all legal", first, decisions)
	if len(claims) > 0 {
		detail += "; claimed " + strings.Join(claims, ", ")
	}
	if decisions == 0 {
		detail = "the bot was not asked; the deal was played by the others"
	}
	return Item{Name: sc.item, Status: Pass, Detail: detail}
}

// laterName is the item that collects failures after the first decision of a scripted deal.
const laterName = "scripted deals played out: every other decision legal"

// laterFailure is a failure after the decision a scenario is named after.
type laterFailure struct {
	scenario string
	f        *failure
}

// scenarioFailure reports a failure in a scripted deal. The item is judged on its first
// decision, the situation it is named after; a failure later in the deal goes to the
// laterName item, so each failure is reported under the situation that caused it.
func (c *checker) scenarioFailure(sc *scenario, decisions int, isKey, keyDone bool, first string, f *failure) Item {
	f.detail = fmt.Sprintf("decision %d of the deal: %s", decisions+1, f.detail)
	if isKey {
		return f.item(sc.item)
	}
	c.later = append(c.later, laterFailure{scenario: sc.item, f: f})
	if !keyDone {
		return Item{Name: sc.item, Status: Skip, Detail: fmt.Sprintf("not reached: %s (see %q)", f.detail, laterName)}
	}
	return Item{Name: sc.item, Status: Pass, Detail: fmt.Sprintf("%s; later in the deal, %s (see %q)", first, f.detail, laterName)}
}

// laterItem sums up the failures after the first decision of the scripted deals.
func (c *checker) laterItem() Item {
	if len(c.later) == 0 {
		return Item{Name: laterName, Status: Pass, Detail: "every scripted deal was played to its end"}
	}
	var names []string
	for _, l := range c.later {
		names = append(names, l.scenario)
	}
	first := c.later[0]
	it := first.f.item(laterName)
	it.Detail = fmt.Sprintf("%d scripted deals failed at a decision they are not named after (%s); the first, in %q: %s", len(c.later), strings.Join(names, "; "), first.scenario, first.f.detail)
	return it
}

func rulesetName(rs *rules.Ruleset) string {
	for _, name := range rules.PresetNames() {
		if p, _ := rules.Preset(name); p == *rs {
			return name
		}
	}
	def := rules.Default()
	var diff []string
	for i, kv := range rs.Options() {
		if kv[1] != def.Options()[i][1] {
			diff = append(diff, kv[0]+"="+kv[1])
		}
	}
	return "amsterdams with " + strings.Join(diff, " ")
}

// announcer queues the public events of a deal not yet told to the bot, in the referee's
// order: the last bid or card, turned pile cards, the trump, finished tricks (after their
// roem claim).
type announcer struct {
	turned, tricks int
	trump          bool
}

func (a *announcer) announce(s *session, d *rules.Deal, ev protocol.Message) {
	if ev != nil {
		s.queue(ev)
	}
	for _, c := range d.Turned()[a.turned:] {
		s.queue(&protocol.Turned{Card: c})
	}
	a.turned = len(d.Turned())
	if !a.trump && d.Maker() != protocol.NoSeat {
		s.queue(&protocol.Trump{Suit: d.Trump(), Maker: d.Maker()})
		a.trump = true
	}
	if d.Phase() != rules.PhaseClaim {
		for _, t := range d.Tricks()[a.tricks:] {
			s.queue(&protocol.TrickDone{Winner: t.Winner, Points: t.Points, Roem: t.Scored})
		}
		a.tricks = len(d.Tricks())
	}
}

// request builds the request for the seat to move: the message, its kind and the legal
// choices as text.
func request(d *rules.Deal, seat protocol.Seat, ms int) (protocol.Message, string, string) {
	switch d.Phase() {
	case rules.PhaseBidding:
		legal := d.LegalBids()
		return &protocol.BidRequest{TimeMS: ms, Hand: d.Hand(seat), Legal: legal}, "bid", legal.String()
	case rules.PhaseClaim:
		last := &d.Tricks()[len(d.Tricks())-1]
		return &protocol.ClaimRequest{TimeMS: ms, Trump: d.Trump(), Trick: last.Cards[:last.N]}, "claim", "a whole number, 0 or more"
	}
	t := d.Trick()
	legal := d.Legal()
	return &protocol.PlayRequest{TimeMS: ms, Trump: d.Trump(), Leader: t.Leader, Trick: t.Cards[:t.N], Hand: d.Hand(seat), Legal: legal}, "play",
		strings.ReplaceAll(legal.String(), ",", " ")
}

// applyText applies a bid, card or claim given as the bot would write it, and returns the
// event that announces it (nil for a claim).
func applyText(d *rules.Deal, seat protocol.Seat, line string) (protocol.Message, error) {
	switch d.Phase() {
	case rules.PhaseBidding:
		b, err := protocol.ParseBidReply(line)
		if err != nil {
			return nil, fmt.Errorf("garbage: %w", err)
		}
		if err := d.Bid(b); err != nil {
			return nil, fmt.Errorf("illegal bid: %w", err)
		}
		return &protocol.Said{Seat: seat, Bid: b}, nil
	case rules.PhaseClaim:
		n, err := protocol.ParseClaimReply(line)
		if err != nil {
			return nil, fmt.Errorf("garbage: %w", err)
		}
		if err := d.Claim(n); err != nil {
			return nil, fmt.Errorf("illegal claim: %w", err)
		}
		return nil, nil
	}
	card, err := protocol.ParseCardReply(line)
	if err != nil {
		return nil, fmt.Errorf("garbage: %w", err)
	}
	if err := d.Play(card); err != nil {
		return nil, fmt.Errorf("illegal card: %w", err)
	}
	return &protocol.Played{Seat: seat, Card: card}, nil
}

// otherAction makes the move of a seat other than the bot's: pass when it may (so the bot
// meets the later rounds of the bidding), a random legal card, an honest claim.
func otherAction(d *rules.Deal, rng *rand.Rand) protocol.Message {
	seat := d.ToMove()
	switch d.Phase() {
	case rules.PhaseBidding:
		b := rules.BidPass
		if legal := d.LegalBids(); !legal.Has(b) {
			b = legal.All()[0]
		}
		_ = d.Bid(b)
		return &protocol.Said{Seat: seat, Bid: b}
	case rules.PhaseClaim:
		_ = d.Claim(d.Tricks()[len(d.Tricks())-1].Roem.Total())
		return nil
	}
	legal := d.Legal()
	card := legal.Nth(rng.IntN(legal.Len()))
	_ = d.Play(card)
	return &protocol.Played{Seat: seat, Card: card}
}

func scored(d *rules.Deal) *protocol.Scored {
	res := d.Result()
	sc := &protocol.Scored{Outcome: res.Outcome.String(), Score: res.Score[:2], Cards: res.CardPoints[:2], Roem: res.Roem[:2], Pit: "-", Offender: res.Offender}
	if res.PitSide >= 0 {
		sc.Pit = protocol.Team(res.PitSide).String()
	}
	return sc
}

// gameConn is the bot's connection in the full game: it counts the bot's stderr and notes,
// when the referee stops the bot (after a fault, or at the end), the last request and answer.
type gameConn struct {
	referee.Conn
	g         *gameWatch
	seat      string
	sent, got string
}

// gameWatch collects what the bot's connections in the full game saw when they were stopped.
type gameWatch struct {
	c     *checker
	mu    sync.Mutex
	stops []stopRecord
}

type stopRecord struct{ seat, sent, got string }

func (gc *gameConn) Exchange(out []byte, wantReply bool, timeout time.Duration) (referee.Reply, error) {
	if wantReply {
		gc.sent, gc.got = lastLine(out), ""
	}
	r, err := gc.Conn.Exchange(out, wantReply, timeout)
	if err == nil && wantReply {
		gc.got = r.Line
	}
	return r, err
}

func (gc *gameConn) Stop(grace time.Duration) error {
	err := gc.Conn.Stop(grace)
	gc.g.mu.Lock()
	gc.g.stops = append(gc.g.stops, stopRecord{seat: gc.seat, sent: gc.sent, got: gc.got})
	gc.g.mu.Unlock()
	if gc.g.c.opts.StderrFile == "" {
		gc.g.c.mu.Lock()
		gc.g.c.stderr += len(gc.Conn.StderrTail())
		gc.g.c.mu.Unlock()
	}
	return err
}

// gameItem plays a full game under the default ruleset through the referee, the bot at
// North and South against the heuristic example bot, and requires every deal to finish
// without a fault of the bot.
func (c *checker) gameItem() Item {
	const name = "full game: 16 deals under the default ruleset, no faults"
	watch := &gameWatch{c: c}
	bot := func(seat string) referee.Entrant {
		return referee.Entrant{Name: "bot", Start: func(ctx context.Context) (referee.Conn, error) {
			conn, err := c.opts.Start(ctx)
			if err != nil {
				return nil, err
			}
			return &gameConn{Conn: conn, g: watch, seat: seat}, nil
		}}
	}
	opp := referee.Entrant{Name: "heuristic", Start: referee.NewInProcess(strategy.Bot())}
	var log bytes.Buffer
	cfg := referee.Config{ID: "check", Rules: rules.Default(), Games: 1, Seed: c.opts.Seed, Time: c.opts.Time, Log: &log, Logger: zerolog.Nop()}
	res, err := referee.Run(c.ctx, cfg, []referee.Entrant{bot("N"), opp, bot("S"), opp})
	if err != nil {
		var refused *referee.RefusedError
		if errors.As(err, &refused) {
			return Item{Name: name, Status: Fail, Detail: "refuses the default ruleset: " + refused.Reason, Got: "refuse " + refused.Reason, Want: "ok"}
		}
		return Item{Name: name, Status: Fail, Detail: "the game could not be played: " + err.Error()}
	}
	kinds := map[referee.FaultKind]int{}
	var order []referee.FaultKind
	var firstFault *referee.FaultRecord
	var firstDeal, deals, forfeited int
	for line := range bytes.Lines(log.Bytes()) {
		var rec referee.DealRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return Item{Name: name, Status: Fail, Detail: "unreadable deal log: " + err.Error()}
		}
		deals++
		for _, a := range rec.Actions {
			if a.Seat != "N" && a.Seat != "S" {
				continue
			}
			kind := "play"
			switch {
			case a.Bid != "":
				kind = "bid"
			case a.Claim != nil:
				kind = "claim"
			}
			c.record(kind, time.Duration(a.MS*float64(time.Millisecond)))
		}
		for i, f := range rec.Faults {
			if f.Seat != "N" && f.Seat != "S" {
				continue
			}
			forfeited++
			if kinds[f.Kind] == 0 {
				order = append(order, f.Kind)
			}
			kinds[f.Kind]++
			if f.Kind == referee.FaultTimeout {
				c.timedOut("game")
			}
			if firstFault == nil && f.Kind != referee.FaultDisabled {
				firstFault, firstDeal = &rec.Faults[i], rec.Deal
			}
		}
	}
	if forfeited > 0 {
		var counts []string
		for _, k := range order {
			counts = append(counts, fmt.Sprintf("%s %d", k, kinds[k]))
		}
		it := Item{Name: name, Status: Fail, Want: "a legal answer in time",
			Detail: fmt.Sprintf("the bot forfeited %d of %d deals (%s)", forfeited, deals, strings.Join(counts, ", "))}
		if kinds[referee.FaultDisabled] > 0 {
			it.Detail += "; after 3 faults the bot is not restarted"
		}
		if firstFault != nil {
			it.Detail += fmt.Sprintf("; the first fault, in deal %d at %s: %s: %s", firstDeal, firstFault.Seat, firstFault.Kind, firstFault.Detail)
			it.Stderr = lastLines(firstFault.Stderr, 5)
			watch.mu.Lock()
			for _, st := range watch.stops {
				if st.seat == firstFault.Seat {
					it.Sent, it.Got = st.sent, st.got
					break
				}
			}
			watch.mu.Unlock()
		}
		return it
	}
	t := res.Sides
	return Item{Name: name, Status: Pass, Detail: fmt.Sprintf("%d deals at N and S against the heuristic example bot: %d to %d points, no faults", deals, t[0].Points, t[1].Points)}
}

// threePlayerItem offers the three-player game (spec.md §14). A bot may decline it with a
// refuse at the handshake (noted); one that accepts plays a game at N against two bots that
// play their first legal choice, and must finish every deal without a fault.
func (c *checker) threePlayerItem() Item {
	const name = "three-player game: plays it without faults, or refuses it at the handshake"
	rs, _ := rules.Preset("drie_spelers")
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 6}
	first := bot.Bot{Name: "first", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.BidKind:
			return bot.Answer{Bid: d.LegalBids.All()[0]}
		case bot.DiscardKind:
			return bot.Answer{Discard: bot.LowestDiscard(s.Hand, s.Trump)}
		}
		return bot.Answer{Card: d.LegalCards.Nth(0)}
	}}
	var log bytes.Buffer
	cfg := referee.Config{ID: "check3", Rules: rs, Games: 1, Duplicate: true, Seed: c.opts.Seed, Time: c.opts.Time, MaxFaults: 1, Log: &log, Logger: zerolog.Nop()}
	entrants := []referee.Entrant{{Name: "bot", Start: c.opts.Start}, {Name: "first", Start: referee.NewInProcess(first)}, {Name: "first", Start: referee.NewInProcess(first)}}
	res, err := referee.Run(c.ctx, cfg, entrants)
	var refused *referee.RefusedError
	switch {
	case errors.As(err, &refused):
		return Item{Name: name, Status: Info, Detail: "declines the three-player game: " + refused.Reason}
	case err != nil:
		return Item{Name: name, Status: Fail, Detail: "the game could not be played: " + err.Error()}
	}
	var faults []string
	for line := range bytes.Lines(log.Bytes()) {
		var rec referee.DealRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return Item{Name: name, Status: Fail, Detail: "unreadable deal log: " + err.Error()}
		}
		for _, f := range rec.Faults {
			if f.Bot == res.Bots[0].Name && f.Seat == "N" {
				faults = append(faults, fmt.Sprintf("game %d deal %d: %s: %s", rec.Game, rec.Deal, f.Kind, f.Detail))
			}
		}
	}
	if len(faults) > 0 {
		return Item{Name: name, Status: Fail, Want: "a legal answer in time", Detail: fmt.Sprintf("the bot forfeited %d deals; the first: %s", len(faults), faults[0])}
	}
	return Item{Name: name, Status: Pass, Detail: fmt.Sprintf("%d games of 6 deals at a table of three (every hand once): %d points to the bot, no faults", len(res.Games), res.Sides[0].Points)}
}

// quitItem requires the bot to exit by itself soon after quit.
func (c *checker) quitItem() Item {
	name := fmt.Sprintf("quit: exits within %v", c.opts.QuitWait)
	s, f := c.start()
	if f != nil {
		return f.item(name)
	}
	def := rules.Default()
	if _, refused, f := s.handshake(def.Options()); f != nil || refused != "" {
		if f != nil {
			return f.item(name)
		}
		return Item{Name: name, Status: Skip, Detail: "not run: the bot refuses the default ruleset"}
	}
	ex, ok := s.conn.(Exiter)
	if !ok {
		s.quit()
		return Item{Name: name, Status: Info, Detail: "not checked: the bot does not run as a process"}
	}
	sent := time.Now()
	s.tell(&protocol.Quit{})
	for time.Since(sent) < c.opts.QuitWait && ex.ExitStatus() == "" {
		time.Sleep(5 * time.Millisecond)
	}
	status := ex.ExitStatus()
	took := time.Since(sent)
	if status == "" {
		s.stop()
		after := ex.ExitStatus()
		how := "it had to be killed (" + after + ")"
		if strings.HasPrefix(after, "exit status") {
			how = "it exited only when its input was closed (" + after + ")"
		}
		return Item{Name: name, Status: Fail, Detail: fmt.Sprintf("still running %v after quit; %s", c.opts.QuitWait, how), Sent: "quit", Want: "the program exits at once (spec.md §4)", Stderr: lastLines(s.conn.StderrTail(), 5)}
	}
	s.stop()
	if status != "exit status 0" {
		return Item{Name: name, Status: Warn, Detail: fmt.Sprintf("exited %d ms after quit, but with %s", took.Milliseconds(), status), Sent: "quit", Want: "exit status 0", Stderr: lastLines(s.conn.StderrTail(), 5)}
	}
	return Item{Name: name, Status: Pass, Detail: fmt.Sprintf("exited %d ms after quit (%s)", took.Milliseconds(), status)}
}

// timingItem summarises the response times; the worst over half the limit is a warning, a
// timeout a failure.
func (c *checker) timingItem() Item {
	const name = "response times"
	c.mu.Lock()
	defer c.mu.Unlock()
	var slow []string
	for _, kind := range []string{"hello", "rules", "bid", "play", "claim"} {
		ts := c.times[kind]
		if len(ts) == 0 {
			continue
		}
		slices.Sort(ts)
		limit := c.opts.Time.Decision
		if kind == "hello" || kind == "rules" {
			limit = c.opts.Time.Startup
		}
		t := Timing{Kind: kind, Count: len(ts), MedianMS: msOf(ts[len(ts)/2]), WorstMS: msOf(ts[len(ts)-1]), LimitMS: msOf(limit)}
		if len(ts)%2 == 0 {
			t.MedianMS = (msOf(ts[len(ts)/2-1]) + msOf(ts[len(ts)/2])) / 2
		}
		c.report.Timings = append(c.report.Timings, t)
		if ts[len(ts)-1] > limit/2 {
			slow = append(slow, fmt.Sprintf("%s %.0f ms of %.0f", kind, t.WorstMS, t.LimitMS))
		}
	}
	switch {
	case len(c.timeouts) > 0:
		return Item{Name: name, Status: Fail, Detail: fmt.Sprintf("%d timeouts (%s)", len(c.timeouts), strings.Join(c.timeouts, ", ")), Want: "every answer within the time limit"}
	case len(slow) > 0:
		return Item{Name: name, Status: Warn, Detail: "worst over half the time limit: " + strings.Join(slow, ", "), Want: "the worst answer well within the limit, so a busy machine does not make it a timeout"}
	}
	return Item{Name: name, Status: Pass, Detail: "every worst time is under half its limit (table below)"}
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// stderrItem reports how much the bot wrote to stderr: allowed, so informational.
func (c *checker) stderrItem(start int64) Item {
	const name = "stderr output"
	var n int64
	how := ""
	if start >= 0 {
		n = fileSize(c.opts.StderrFile) - start
	} else {
		c.mu.Lock()
		n = int64(c.stderr)
		c.mu.Unlock()
		how = "at least "
	}
	if n <= 0 {
		return Item{Name: name, Status: Info, Detail: "nothing written to stderr"}
	}
	return Item{Name: name, Status: Info, Detail: fmt.Sprintf("%s%d bytes written to stderr over the whole check (allowed: the arena keeps only the first and last KiB with a fault)", how, n)}
}

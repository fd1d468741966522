package check

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// UnknownEvent is the event line of a later protocol revision sent in the unknown-event item.
const UnknownEvent = "note future-event 1"

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
	sc := biddingScenarios(c.homeName)[0]
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
		return Item{Name: sc.item, Status: Info, Detail: fmt.Sprintf("declines ruleset %s: %s", rulesetName(&sc.rules), refused)}
	}
	defer s.quit()
	s.queue(&protocol.Game{Number: 1, Seat: sc.seat, DecisionMS: int(c.opts.Time.Decision / time.Millisecond)})
	run, isKey, f := c.playDeal(s, sc, 1)
	if f != nil {
		return c.scenarioFailure(sc, run.decisions, isKey, run.keyDone, run.first, f)
	}
	s.queue(&protocol.GameOver{Totals: run.score[:2]})
	detail := fmt.Sprintf("%s; %d decisions in the deal, all legal", run.first, run.decisions)
	if len(run.claims) > 0 {
		detail += "; claimed " + strings.Join(run.claims, ", ")
	}
	if run.decisions == 0 {
		detail = "the bot was not asked; the deal was played by the others"
	}
	if len(run.misclaims) > 0 {
		// Legal, but it costs the side: a claim above the roem scores nothing and gives
		// the opponents false_claim_penalty; one below loses the difference.
		return Item{Name: sc.item, Status: Warn, Want: "the roem in the trick (RULES.md §6.4)",
			Detail: "claimed " + strings.Join(run.misclaims, ", ") + ": a claim above the roem is false (nothing scored, the opponents get false_claim_penalty), one below loses the difference; " + detail}
	}
	return Item{Name: sc.item, Status: Pass, Detail: detail}
}

// dealRun is the bot's part in a scripted deal.
type dealRun struct {
	decisions int
	first     string   // the answer to the decision the scenario is named after, and its request
	keyDone   bool     // that decision has been answered
	claims    []string // the roem claims answered, with the roem in each trick
	misclaims []string // those that were not the roem in the trick
	score     [4]int   // the deal's score by side, for the gameover
}

// playDeal tells the bot deal number n of its game (the dealt line and the scenario's
// prefix, as events) and plays the deal to its end, the bot answering every request of its
// seat; the scored line is queued. On a failure it returns the run so far, whether the
// failed decision is the one the scenario is named after, and the failure.
func (c *checker) playDeal(s *session, sc *scenario, n int) (run dealRun, isKey bool, f *failure) {
	d, err := rules.NewDeal(&sc.rules, sc.setup)
	if err != nil {
		panic(fmt.Sprintf("check: scenario %s: %v", sc.item, err))
	}
	decision := c.opts.Time.Decision
	s.queue(&protocol.Dealt{Number: n, Dealer: sc.setup.Dealer, Hand: sc.setup.Hands[sc.seat]})
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
	for d.Phase() != rules.PhaseDone {
		mover := d.ToMove()
		if mover != sc.seat {
			ann.announce(s, d, otherAction(d, rng))
			continue
		}
		req, kind, legal := request(d, mover, int(decision/time.Millisecond))
		want := "one of the legal choices: " + legal
		isKey = !run.keyDone && (sc.keyKind == "" || kind == sc.keyKind)
		if isKey {
			if sc.want != "" && !strings.HasPrefix(sc.want, "no ") {
				want = sc.want + "; legal: " + legal
			}
		}
		reqLine := protocol.Line(req) // before the deal moves on: req shares the deal's trick
		if run.decisions == 0 && sc.extra != "" {
			s.queueLine(sc.extra)
		}
		line, f := s.ask(req, kind, decision+c.opts.Time.Grace, want)
		if f != nil {
			if run.decisions == 0 && sc.extra != "" && !strings.Contains(f.sent, sc.extra) {
				f.sent = sc.extra + "\n" + f.sent
			}
			return run, isKey, f
		}
		ev, err := applyText(d, mover, line)
		if err != nil {
			s.stop()
			return run, isKey, &failure{detail: err.Error(), sent: reqLine, got: line, want: want, stderr: s.conn.StderrTail()}
		}
		if isKey {
			run.first, run.keyDone = fmt.Sprintf("answered %q to %q", line, reqLine), true
		}
		if kind == "claim" {
			last := d.Tricks()[len(d.Tricks())-1]
			claim := fmt.Sprintf("%q with %d roem in the trick", line, last.Roem.Total())
			run.claims = append(run.claims, claim)
			if n, err := protocol.ParseClaimReply(line); err == nil && n != last.Roem.Total() {
				run.misclaims = append(run.misclaims, claim)
			}
		}
		run.decisions++
		ann.announce(s, d, ev)
	}
	s.queue(scored(d))
	run.score = d.Result().Score
	return run, false, nil
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

// rulesetName names a ruleset as the preset nearest to it (the first of those that differ
// in the fewest options) with the options it changes.
func rulesetName(rs *rules.Ruleset) string {
	var best string
	var bestDiff []string
	for _, name := range rules.PresetNames() {
		p, _ := rules.Preset(name)
		preset := p.Options()
		var diff []string
		for i, kv := range rs.Options() {
			if kv[1] != preset[i][1] {
				diff = append(diff, kv[0]+"="+kv[1])
			}
		}
		if best == "" || len(diff) < len(bestDiff) {
			best, bestDiff = name, diff
		}
	}
	if len(bestDiff) == 0 {
		return best
	}
	return best + " with " + strings.Join(bestDiff, " ")
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

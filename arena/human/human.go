// Package human seats a person at the table: a referee.Conn that shows the person, on a
// terminal, what a bot is told (the hand, the bidding, the trick, the scores) and answers
// the referee's requests with what they type. The person is a seat like any bot: the same
// referee, the same log and replay.
package human

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
)

// Options are how the person plays.
type Options struct {
	Name  string    // the person's name, in hello and the log
	In    io.Reader // what the person types, a line per answer
	Out   io.Writer // the terminal
	Names []string  // the names at the table, per seat, for the narration
	// Card and Suit write a card and a suit for the terminal (suit symbols, colour).
	Card func(protocol.Card) string
	Suit func(protocol.Suit) string
	// Clock shows the time left for each decision: the match has a time control worth
	// watching (a game clock, or a decision time set for the game).
	Clock bool
}

// Starter returns the referee.Starter of the person's seat. Every start (the first, and a
// restart after a fault) reads the same input.
func Starter(opt Options) referee.Starter {
	in := &input{lines: make(chan string)}
	totals := map[int]int{} // kept over restarts: the game goes on
	var once sync.Once
	return func(context.Context) (referee.Conn, error) {
		once.Do(func() { go in.read(opt.In) })
		c := &conn{opt: opt, in: in, totals: totals}
		c.session = bot.NewSession(bot.Bot{Name: opt.Name, Author: "at the terminal", ThreePlayer: true, Decide: c.decide})
		return c, nil
	}
}

// input is the person's lines, read by one goroutine for every start of the seat.
type input struct {
	lines chan string
	err   error // why the input ended, once lines is closed
}

func (in *input) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		in.lines <- sc.Text()
	}
	in.err = sc.Err()
	if in.err == nil {
		in.err = io.EOF
	}
	close(in.lines)
}

// errTimeout and errLeft end a decision the person did not answer.
var (
	errTimeout = errors.New("no answer in time")
	errLeft    = errors.New("the player left (end of input)")
)

// conn is one start of the person's seat.
type conn struct {
	opt      Options
	in       *input
	session  *bot.Session
	deadline time.Time
	failed   error       // set by decide when there is no answer
	totals   map[int]int // game points per side so far, from the scored lines
	narrated int         // tricks of the current deal already narrated
}

// Exchange shows the person each line and, for a request, asks them to answer it.
func (c *conn) Exchange(out []byte, wantReply bool, timeout time.Duration) (referee.Reply, error) {
	start := time.Now()
	c.deadline, c.failed = start.Add(timeout), nil
	var reply referee.Reply
	for line := range strings.Lines(string(out)) {
		line = strings.TrimSuffix(line, "\n")
		msg, perr := protocol.ParseMessage(line)
		r, isRequest, err := c.session.Handle(line)
		if err != nil {
			return referee.Reply{}, &referee.Fault{Kind: referee.FaultCrash, Detail: "the terminal seat: " + err.Error()}
		}
		if c.failed != nil {
			kind := referee.FaultTimeout
			if errors.Is(c.failed, errLeft) {
				kind = referee.FaultCrash
			}
			return referee.Reply{}, &referee.Fault{Kind: kind, Detail: c.failed.Error()}
		}
		if isRequest {
			reply.Line = r
		} else if perr == nil {
			c.narrate(msg)
		}
	}
	reply.Wall = time.Since(start)
	return reply, nil
}

func (c *conn) Stop(time.Duration) error { return nil }

func (c *conn) StderrTail() string { return "" }

// say writes a line to the person.
func (c *conn) say(format string, args ...any) {
	fmt.Fprintf(c.opt.Out, format+"\n", args...)
}

// who names a seat: "you", or the seat.
func (c *conn) who(s protocol.Seat) string {
	if s == c.session.State().Seat {
		return "you"
	}
	return s.String()
}

// seating lists who sits where, the person included.
func (c *conn) seating() string {
	var parts []string
	for i, name := range c.opt.Names {
		if protocol.Seat(i) == c.session.State().Seat {
			name = "you"
		}
		parts = append(parts, protocol.Seat(i).String()+" "+name)
	}
	return strings.Join(parts, ", ")
}

// narrate tells the person an event, after the session has taken it in.
func (c *conn) narrate(m protocol.Message) {
	st := c.session.State()
	switch m := m.(type) {
	case *protocol.Game:
		c.say("")
		c.say("=== game %d: you sit %s%s ===", m.Number, m.Seat, c.partnerNote())
		c.say("at the table: %s", c.seating())
	case *protocol.Dealt:
		c.narrated = 0
		c.say("")
		if m.Hand == 0 {
			c.say("--- deal %d, dealer %s: you deal and sit this one out ---", m.Number, c.who(m.Dealer))
			return
		}
		c.say("--- deal %d, dealer %s ---", m.Number, c.who(m.Dealer))
		c.say("your hand: %s", c.hand(m.Hand))
	case *protocol.Turned:
		c.say("turned: %s", m.Card)
	case *protocol.Said:
		c.say("%s: %s", c.who(m.Seat), c.bid(m.Bid))
	case *protocol.Trump:
		c.say("trump %s, chosen by %s", c.opt.Suit(m.Suit), c.who(m.Maker))
	case *protocol.Played:
		verb := " plays "
		if m.Seat == st.Seat {
			verb = " play "
		}
		c.say("%s%s%s", c.who(m.Seat), verb, c.opt.Card(m.Card))
	case *protocol.TrickDone:
		c.narrated = len(st.Tricks)
		roem := ""
		if m.Roem > 0 {
			roem = fmt.Sprintf(", roem %d", m.Roem)
		}
		c.say("trick %d to %s: %d points%s", len(st.Tricks), c.who(m.Winner), m.Points, roem)
	case *protocol.Scored:
		for side, v := range m.Score {
			c.totals[side] += v
		}
		c.say("deal over: %s; points %s; game so far %s", m.Outcome, c.sides(m.Score), c.sides(c.gameTotals()))
	case *protocol.GameOver:
		c.say("")
		c.say("=== game over: %s ===", c.sides(m.Totals))
		clear(c.totals)
	case *protocol.Fault:
		c.say("the referee: %s %s", m.Kind, m.Detail)
	}
}

// partnerNote names the person's partner at a four-player table.
func (c *conn) partnerNote() string {
	st := c.session.State()
	if p := st.Partner(); p != protocol.NoSeat && st.Players == 4 {
		return ", your partner " + c.who(p)
	}
	return ", each for himself"
}

// sideNames are the scoring sides: the teams at four, the seats in the three-player game.
func (c *conn) sideNames(n int) []string {
	st := c.session.State()
	if st.Players == 4 {
		names := []string{"NS", "EW"}
		names[int(st.Seat)%2] += " (you)"
		return names
	}
	var names []string
	for s := range protocol.Seat(n) {
		name := s.String()
		if s == st.Seat {
			name += " (you)"
		}
		names = append(names, name)
	}
	return names
}

// sides writes points per side.
func (c *conn) sides(points []int) string {
	var parts []string
	for i, name := range c.sideNames(len(points)) {
		if i < len(points) {
			parts = append(parts, fmt.Sprintf("%s %d", name, points[i]))
		}
	}
	return strings.Join(parts, ", ")
}

// gameTotals is the game's points per side so far.
func (c *conn) gameTotals() []int {
	n := 2
	if st := c.session.State(); st.Players == 3 {
		n = len(c.opt.Names)
	}
	out := make([]int, n)
	for side, v := range c.totals {
		if side < n {
			out[side] = v
		}
	}
	return out
}

func (c *conn) bid(b protocol.Bid) string {
	if b == protocol.BidPass {
		return "pass"
	}
	return "plays on " + c.opt.Suit(b.Suit())
}

// hand writes cards by suit.
func (c *conn) hand(h protocol.CardSet) string {
	var parts []string
	for s := range protocol.Suit(protocol.NumSuits) {
		var cards []string
		for card := range h.Suit(s).All() {
			cards = append(cards, c.opt.Card(card))
		}
		if len(cards) > 0 {
			parts = append(parts, strings.Join(cards, " "))
		}
	}
	return strings.Join(parts, "   ")
}

// decide shows the table and reads the person's answer to the decision.
func (c *conn) decide(st *bot.State, d bot.Decision) bot.Answer {
	c.say("")
	c.table(st)
	switch d.Kind {
	case bot.BidKind:
		bids := d.LegalBids.All()
		var opts []string
		for i, b := range bids {
			opts = append(opts, fmt.Sprintf("%d) %s", i+1, c.bidName(b)))
		}
		c.say("your hand: %s", c.hand(st.Hand))
		c.say("bids: %s", strings.Join(opts, "   "))
		for {
			text, ok := c.ask(d, "your bid (number, pass or a suit letter)")
			if !ok {
				return bot.Answer{Bid: bids[0]}
			}
			if b, ok := pickBid(text, bids); ok {
				return bot.Answer{Bid: b}
			}
			c.say("not a bid you can make: type a number from 1 to %d", len(bids))
		}
	case bot.PlayKind:
		legal := slices.Collect(d.LegalCards.All())
		c.handWithChoices(st.Hand, legal)
		for {
			text, ok := c.ask(d, "your card (number or card, e.g. 1 or "+legal[0].String()+")")
			if !ok {
				return bot.Answer{Card: legal[0]}
			}
			if card, ok := c.pickCard(text, legal, st.Hand); ok {
				return bot.Answer{Card: card}
			}
		}
	case bot.ClaimKind:
		for {
			text, ok := c.ask(d, "roem you claim in the trick you won (a number, enter for 0)")
			if !ok {
				return bot.Answer{}
			}
			if text == "" {
				return bot.Answer{}
			}
			if n, err := strconv.Atoi(text); err == nil && n >= 0 {
				return bot.Answer{Claim: n}
			}
			c.say("type a number of points, e.g. 20")
		}
	}
	// bot.DiscardKind
	cards := slices.Collect(st.Hand.All())
	c.say("you took the skart %s", c.hand(d.Skart))
	c.handWithChoices(st.Hand, cards)
	for {
		text, ok := c.ask(d, "two cards to lay away (numbers or cards, e.g. 1 2)")
		if !ok {
			return bot.Answer{Discard: [2]protocol.Card{cards[0], cards[1]}}
		}
		words := strings.Fields(text)
		if len(words) == 2 {
			a, okA := c.pickCard(words[0], cards, st.Hand)
			b, okB := c.pickCard(words[1], cards, st.Hand)
			if okA && okB && a != b {
				return bot.Answer{Discard: [2]protocol.Card{a, b}}
			}
			continue
		}
		c.say("two different cards of your hand, e.g. 1 2")
	}
}

func (c *conn) bidName(b protocol.Bid) string {
	if b == protocol.BidPass {
		return "pass"
	}
	return c.opt.Suit(b.Suit())
}

// table shows the state of the deal: trump, bids, the scores, the trick being played.
func (c *conn) table(st *bot.State) {
	head := fmt.Sprintf("game %d, deal %d, dealer %s", st.Game, st.Deal, st.Dealer)
	if st.Maker != protocol.NoSeat {
		head += fmt.Sprintf(", trump %s (%s)", c.opt.Suit(st.Trump), c.who(st.Maker))
	}
	c.say("[%s]", head)
	if len(st.Bids) > 0 && st.Maker == protocol.NoSeat {
		var bids []string
		for _, b := range st.Bids {
			bids = append(bids, c.who(b.Seat)+" "+c.bidName(b.Bid))
		}
		c.say("bidding: %s", strings.Join(bids, ", "))
	}
	if len(st.Turned) > 0 && st.Maker == protocol.NoSeat {
		c.say("turned: %s", st.Turned[len(st.Turned)-1])
	}
	deal := make([]int, len(c.gameTotals()))
	for _, t := range st.Tricks {
		if side := c.sideOf(t.Winner); side < len(deal) {
			deal[side] += t.Points + t.Roem
		}
	}
	c.say("this deal: %s   game: %s", c.sides(deal), c.sides(c.gameTotals()))
	if st.Maker != protocol.NoSeat {
		var plays []string
		for _, p := range st.Current {
			plays = append(plays, c.who(p.Seat)+" "+c.opt.Card(p.Card))
		}
		if len(plays) == 0 {
			plays = append(plays, "you lead")
		}
		c.say("trick %d: %s", len(st.Tricks)+1, strings.Join(plays, ", "))
	}
}

// sideOf is the scoring side of a seat.
func (c *conn) sideOf(s protocol.Seat) int {
	if c.session.State().Players == 4 {
		return int(s) % 2
	}
	return int(s)
}

// handWithChoices shows the hand a suit a line, the cards that may be chosen numbered.
func (c *conn) handWithChoices(hand protocol.CardSet, choices []protocol.Card) {
	number := map[protocol.Card]int{}
	for i, card := range choices {
		number[card] = i + 1
	}
	c.say("your hand (the cards you may play are numbered):")
	for s := range protocol.Suit(protocol.NumSuits) {
		var cards []string
		for card := range hand.Suit(s).All() {
			if n, ok := number[card]; ok {
				cards = append(cards, fmt.Sprintf("%d) %s", n, c.opt.Card(card)))
			} else {
				cards = append(cards, "   "+c.opt.Card(card))
			}
		}
		if len(cards) > 0 {
			c.say("  %s", strings.Join(cards, "   "))
		}
	}
}

// ask prompts and reads one answer before the deadline; "?" shows the last trick and asks
// again. It returns false when there is no answer: c.failed says why.
func (c *conn) ask(d bot.Decision, prompt string) (string, bool) {
	for {
		clock := ""
		if c.opt.Clock {
			clock = fmt.Sprintf(" [%.1f s left]", time.Until(c.deadline).Seconds())
		}
		fmt.Fprintf(c.opt.Out, "%s, ? for the last trick%s > ", prompt, clock)
		var text string
		var timeout <-chan time.Time // no clock: as long as the person likes
		if c.opt.Clock {
			timeout = time.After(time.Until(c.deadline))
		}
		select {
		case line, open := <-c.in.lines:
			if !open {
				c.failed = errLeft
				c.say("")
				return "", false
			}
			text = strings.TrimSpace(line)
		case <-timeout:
			c.failed = errTimeout
			c.say("")
			c.say("out of time")
			return "", false
		}
		if text != "?" {
			return text, true
		}
		c.lastTrick()
	}
}

// lastTrick shows the last finished trick of the deal.
func (c *conn) lastTrick() {
	st := c.session.State()
	if len(st.Tricks) == 0 {
		c.say("no trick has been played yet in this deal")
		return
	}
	t := st.Tricks[len(st.Tricks)-1]
	var plays []string
	for _, p := range t.Plays {
		plays = append(plays, c.who(p.Seat)+" "+c.opt.Card(p.Card))
	}
	c.say("last trick (%d): %s, won by %s, %d points", len(st.Tricks), strings.Join(plays, ", "), c.who(t.Winner), t.Points)
}

// pickBid reads a bid: its number in the list, "pass" or a suit letter.
func pickBid(text string, bids []protocol.Bid) (protocol.Bid, bool) {
	if n, err := strconv.Atoi(text); err == nil {
		if n >= 1 && n <= len(bids) {
			return bids[n-1], true
		}
		return 0, false
	}
	b, err := protocol.ParseBid(strings.ToUpper(text))
	if strings.EqualFold(text, "pass") {
		b, err = protocol.BidPass, nil
	}
	if err != nil {
		return 0, false
	}
	for _, legal := range bids {
		if legal == b {
			return b, true
		}
	}
	return 0, false
}

// pickCard reads a card: its number among the choices, or its name (JH, jh, 10h for TH).
// It tells the person why a card cannot be chosen.
func (c *conn) pickCard(text string, choices []protocol.Card, hand protocol.CardSet) (protocol.Card, bool) {
	if n, err := strconv.Atoi(text); err == nil && n >= 1 && n <= len(choices) {
		return choices[n-1], true
	}
	name := strings.ToUpper(strings.Replace(text, "10", "T", 1))
	card, err := protocol.ParseCard(name)
	switch {
	case err != nil:
		c.say("%q is not a card: type its number (1 to %d) or its name, e.g. %s", text, len(choices), choices[0])
		return card, false
	case !hand.Has(card):
		c.say("you do not hold %s", c.opt.Card(card))
		return card, false
	}
	for _, ch := range choices {
		if ch == card {
			return card, true
		}
	}
	c.say("%s may not be played now: choose one of the numbered cards", c.opt.Card(card))
	return card, false
}

package protocol

import (
	"slices"
	"strconv"
	"strings"
)

// scanner walks the space-separated tokens of one line without allocating, recording the
// first error with its position.
type scanner struct {
	line string
	pos  int // byte offset of the rest of the line
	i    int // tokens taken so far
	last string
	err  *SyntaxError
}

func newScanner(line string) scanner { return scanner{line: line} }

// more reports whether another token follows.
func (s *scanner) more() bool {
	for s.pos < len(s.line) && isSpace(s.line[s.pos]) {
		s.pos++
	}
	return s.pos < len(s.line)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

func (s *scanner) fail(want string) {
	if s.err != nil {
		return
	}
	got, token := s.last, s.i
	if token == 0 || got == "" {
		// Nothing was taken (or the failing token is the next one): report the next token.
		save := *s
		token = s.i + 1
		got = s.take()
		*s = save
	}
	s.err = &SyntaxError{Line: s.line, Token: token, Got: got, Want: want}
}

// take returns the next token, or "" at the end of the line.
func (s *scanner) take() string {
	if !s.more() {
		return ""
	}
	start := s.pos
	for s.pos < len(s.line) && !isSpace(s.line[s.pos]) {
		s.pos++
	}
	s.i++
	s.last = s.line[start:s.pos]
	return s.last
}

// next returns the next token, or fails with want.
func (s *scanner) next(want string) string {
	if s.err != nil {
		return ""
	}
	if !s.more() {
		s.last = ""
		s.fail(want)
		return ""
	}
	return s.take()
}

// parse reads the next token with p, failing with want.
func scan[T any](s *scanner, want string, p func(string) (T, error)) T {
	var zero T
	t := s.next(want)
	if s.err != nil {
		return zero
	}
	v, err := p(t)
	if err != nil {
		s.fail(want)
		return zero
	}
	return v
}

func parseNat(t string) (int, error) {
	if len(t) == 0 || len(t) > 9 || strings.TrimLeft(t, "0123456789") != "" {
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(t)
}

func parseCardList(t string) ([]Card, error) {
	if t == "-" {
		return nil, nil
	}
	parts := strings.Split(t, ",")
	if len(parts) > NumCards {
		return nil, strconv.ErrRange
	}
	cards := make([]Card, len(parts))
	var seen CardSet
	for i, p := range parts {
		c, err := ParseCard(p)
		if err != nil || seen.Has(c) {
			return nil, strconv.ErrSyntax
		}
		seen = seen.Add(c)
		cards[i] = c
	}
	return cards, nil
}

func parseCardSetToken(t string) (CardSet, error) {
	if t == "-" {
		return 0, nil
	}
	var set CardSet
	for {
		if len(t) < 2 {
			return 0, strconv.ErrSyntax
		}
		c, err := ParseCard(t[:2])
		if err != nil || set.Has(c) {
			return 0, strconv.ErrSyntax
		}
		set = set.Add(c)
		if len(t) == 2 {
			return set, nil
		}
		if t[2] != ',' {
			return 0, strconv.ErrSyntax
		}
		t = t[3:]
	}
}

func parseIntList(t string) ([]int, error) {
	parts := strings.Split(t, ",")
	if len(parts) > MaxSeats {
		return nil, strconv.ErrRange
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < -1e9 || n > 1e9 {
			return nil, strconv.ErrSyntax
		}
		out[i] = n
	}
	return out, nil
}

func parseSeatOrNone(t string) (Seat, error) {
	if t == "-" {
		return NoSeat, nil
	}
	return ParseSeat(t)
}

// rest returns the rest of the line with its spaces folded to single spaces.
func (s *scanner) rest() string {
	if s.err != nil || !s.more() {
		return ""
	}
	r := strings.Join(strings.Fields(s.line[s.pos:]), " ")
	s.pos = len(s.line)
	return r
}

func (s *scanner) end() {
	if s.err == nil && s.more() {
		s.last = ""
		s.fail("end of line")
	}
}

func (s *scanner) result(m Message) (Message, error) {
	s.end()
	if s.err != nil {
		return nil, s.err
	}
	return m, nil
}

const (
	wantNumber = "a whole number"
	wantSeat   = "a seat N E S W"
	wantSuit   = "a suit C D H S"
	wantCard   = "a card, e.g. JH"
	wantCards  = "cards separated by commas, e.g. 7C,JH, or - for none"
	wantInts   = "numbers per side separated by commas, e.g. 82,80"
	wantTwo    = "two cards separated by a space, e.g. 7S 8S"
)

// ParseMessage parses a line the arena sends to a bot (spec.md). Unknown message names are
// an error wrapping ErrNotation; a v1 bot should ignore such lines rather than fail, since
// later minor revisions may add events.
func ParseMessage(line string) (Message, error) {
	sc := newScanner(line)
	s := &sc
	switch name := s.next("a message name"); name {
	case "klaverjas":
		m := &Klaverjas{}
		for s.err == nil && s.more() {
			m.Versions = append(m.Versions, scan(s, wantNumber, parseNat))
		}
		if len(m.Versions) == 0 {
			s.last = ""
			s.fail("a protocol version")
		}
		return s.result(m)
	case "rules":
		m := &Rules{}
		for s.err == nil && s.more() {
			k, v, ok := strings.Cut(s.next(""), "=")
			if !ok || k == "" {
				s.fail("an option as name=value")
				break
			}
			m.Options = append(m.Options, [2]string{k, v})
		}
		return s.result(m)
	case "game":
		m := &Game{Number: scan(s, wantNumber, parseNat), Seat: scan(s, wantSeat, ParseSeat)}
		m.DecisionMS, m.BankMS, m.IncrementMS = scan(s, wantNumber, parseNat), scan(s, wantNumber, parseNat), scan(s, wantNumber, parseNat)
		return s.result(m)
	case "dealt":
		m := &Dealt{Number: scan(s, wantNumber, parseNat), Dealer: scan(s, wantSeat, ParseSeat), Hand: scan(s, wantCards, parseCardSetToken)}
		return s.result(m)
	case "active":
		m := &Active{}
		for i := range m.Seats {
			m.Seats[i] = scan(s, "three different seats N E S W", ParseSeat)
			if s.err == nil && slices.Contains(m.Seats[:i], m.Seats[i]) {
				s.fail("three different seats N E S W")
			}
		}
		return s.result(m)
	case "turned":
		return s.result(&Turned{Card: scan(s, "a pile card 2C-6S or JK", ParsePileCard)})
	case "said":
		return s.result(&Said{Seat: scan(s, wantSeat, ParseSeat), Bid: scan(s, "pass or a suit", ParseBid)})
	case "trump":
		return s.result(&Trump{Suit: scan(s, wantSuit, ParseSuit), Maker: scan(s, wantSeat, ParseSeat)})
	case "played":
		return s.result(&Played{Seat: scan(s, wantSeat, ParseSeat), Card: scan(s, wantCard, ParseCard)})
	case "trick":
		m := &TrickDone{Winner: scan(s, wantSeat, ParseSeat), Points: scan(s, wantNumber, parseNat), Roem: scan(s, wantNumber, parseNat)}
		return s.result(m)
	case "scored":
		m := &Scored{Outcome: s.next("an outcome")}
		switch m.Outcome {
		case "made", "nat", "forfeit", "redeal":
		default:
			s.fail("an outcome: made, nat, forfeit or redeal")
		}
		m.Score, m.Cards, m.Roem = scan(s, wantInts, parseIntList), scan(s, wantInts, parseIntList), scan(s, wantInts, parseIntList)
		m.Pit = s.next("the pit side or -")
		m.Offender = scan(s, "a seat or -", parseSeatOrNone)
		return s.result(m)
	case "gameover":
		return s.result(&GameOver{Totals: scan(s, wantInts, parseIntList)})
	case "fault":
		m := &Fault{Kind: s.next("a fault kind")}
		m.Detail = s.rest()
		return s.result(m)
	case "quit":
		return s.result(&Quit{})
	case "bid":
		m := &BidRequest{TimeMS: scan(s, wantNumber, parseNat), Hand: scan(s, wantCards, parseCardSetToken)}
		for s.err == nil && s.more() {
			b := scan(s, "pass or a suit", ParseBid)
			if m.Legal.Has(b) {
				s.fail("each bid once")
			}
			m.Legal = m.Legal.Add(b)
		}
		if m.Legal == 0 {
			s.last = ""
			s.fail("at least one legal bid")
		}
		return s.result(m)
	case "play":
		m := &PlayRequest{TimeMS: scan(s, wantNumber, parseNat), Trump: scan(s, wantSuit, ParseSuit), Leader: scan(s, wantSeat, ParseSeat)}
		m.Trick, m.Hand = scan(s, wantCards, parseCardList), scan(s, wantCards, parseCardSetToken)
		for s.err == nil && s.more() {
			m.Legal = m.Legal.Add(scan(s, wantCard, ParseCard))
		}
		if m.Legal == 0 {
			s.last = ""
			s.fail("at least one legal card")
		}
		return s.result(m)
	case "claim":
		m := &ClaimRequest{TimeMS: scan(s, wantNumber, parseNat), Trump: scan(s, wantSuit, ParseSuit), Trick: scan(s, wantCards, parseCardList)}
		return s.result(m)
	case "discard":
		m := &DiscardRequest{TimeMS: scan(s, wantNumber, parseNat), Trump: scan(s, wantSuit, ParseSuit)}
		m.Skart, m.Hand = scan(s, wantCards, parseCardSetToken), scan(s, wantCards, parseCardSetToken)
		return s.result(m)
	default:
		s.fail("a message name of spec.md")
		return nil, s.err
	}
}

// Hello is the bot's answer to Klaverjas: the version it chose, its name and its author.
type Hello struct {
	Version int
	Name    string // one token: letters, digits, '.', '_' and '-'
	Author  string // the rest of the line, may be empty
}

// Line returns the hello line.
func (h *Hello) Line() string {
	l := "hello " + strconv.Itoa(h.Version) + " " + h.Name
	if h.Author != "" {
		l += " " + h.Author
	}
	return l
}

// ValidBotName reports whether name is a valid bot name: 1 to 64 letters, digits, '.', '_'
// or '-'.
func ValidBotName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	return strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == ""
}

// ParseHello parses the bot's hello line.
func ParseHello(line string) (*Hello, error) {
	sc := newScanner(line)
	s := &sc
	if s.next("hello") != "hello" {
		s.fail("hello")
	}
	h := &Hello{Version: scan(s, "a protocol version", parseNat)}
	h.Name = scan(s, "a bot name (letters, digits, . _ -)", func(t string) (string, error) {
		if !ValidBotName(t) {
			return "", strconv.ErrSyntax
		}
		return t, nil
	})
	h.Author = s.rest()
	if s.err != nil {
		return nil, s.err
	}
	return h, nil
}

// RulesReply is the bot's answer to Rules: accept, or refuse with a reason.
type RulesReply struct {
	Refuse bool
	Reason string
}

// ParseRulesReply parses "ok" or "refuse <reason>".
func ParseRulesReply(line string) (*RulesReply, error) {
	sc := newScanner(line)
	s := &sc
	switch s.next("ok or refuse") {
	case "ok":
		s.end()
	case "refuse":
		r := &RulesReply{Refuse: true, Reason: s.rest()}
		return r, nil
	default:
		s.fail("ok or refuse <reason>")
	}
	if s.err != nil {
		return nil, s.err
	}
	return &RulesReply{}, nil
}

// single returns the only token of a reply line.
func single(line, want string) (string, *SyntaxError) {
	sc := newScanner(line)
	s := &sc
	t := s.next(want)
	s.end()
	return t, s.err
}

// ParseBidReply parses a bid reply: "pass" or a suit letter.
func ParseBidReply(line string) (Bid, error) {
	t, serr := single(line, "pass or a suit C D H S")
	if serr != nil {
		return BidPass, serr
	}
	b, err := ParseBid(t)
	if err != nil {
		return BidPass, &SyntaxError{Line: line, Token: 1, Got: t, Want: "pass or a suit C D H S"}
	}
	return b, nil
}

// ParseCardReply parses a play reply: one card.
func ParseCardReply(line string) (Card, error) {
	t, serr := single(line, wantCard)
	if serr != nil {
		return NoCard, serr
	}
	c, err := ParseCard(t)
	if err != nil {
		return NoCard, &SyntaxError{Line: line, Token: 1, Got: t, Want: wantCard}
	}
	return c, nil
}

// ParseDiscardReply parses a discard reply: two cards separated by a space. Whether they are
// two different cards of the hand is for the rules to say (an illegal discard, not garbage).
func ParseDiscardReply(line string) (Card, Card, error) {
	sc := newScanner(line)
	s := &sc
	a := scan(s, wantTwo, ParseCard)
	b := scan(s, wantTwo, ParseCard)
	s.end()
	if s.err != nil {
		return NoCard, NoCard, s.err
	}
	return a, b, nil
}

// ParseClaimReply parses a claim reply: a whole number of roem points (at most 1000).
func ParseClaimReply(line string) (int, error) {
	t, serr := single(line, wantNumber)
	if serr != nil {
		return 0, serr
	}
	n, err := parseNat(t)
	if err != nil || n > 1000 {
		return 0, &SyntaxError{Line: line, Token: 1, Got: t, Want: "a whole number from 0 to 1000"}
	}
	return n, nil
}

// IsInfo reports whether a bot line is an info line ("info <text>"): logged, never a reply.
func IsInfo(line string) bool {
	return line == "info" || strings.HasPrefix(line, "info ")
}

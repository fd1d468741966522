package protocol

import (
	"fmt"
	"strconv"
)

// Version is the protocol version this package speaks.
const Version = 1

// Message is a line the arena sends to a bot. Events (Dealt, Played, ...) need no answer;
// requests (BidRequest, PlayRequest, ClaimRequest, DiscardRequest) and the handshake lines
// (Klaverjas, Rules) each need exactly one reply line.
type Message interface {
	// AppendLine appends the message's line, without the newline, to b.
	AppendLine(b []byte) []byte
}

// Line returns the message as a line without the newline.
func Line(m Message) string { return string(m.AppendLine(nil)) }

// Klaverjas opens the handshake: the protocol name and the versions the arena speaks.
// Reply: Hello.
type Klaverjas struct{ Versions []int }

// Rules gives every option of the ruleset as name=value pairs in the order of RULES.md §9.
// Reply: "ok", or "refuse <reason>".
type Rules struct{ Options [][2]string }

// Game starts a game: the bot's seat and its time control in milliseconds (bank 0 = none).
type Game struct {
	Number      int
	Seat        Seat
	DecisionMS  int
	BankMS      int
	IncrementMS int
}

// Dealt starts a deal: its number in the game, the dealer and the bot's own hand.
type Dealt struct {
	Number int
	Dealer Seat
	Hand   CardSet
}

// Active tells, at a table of four playing the three-player game, which three seats play
// the deal (the dealer sits out): in play order, from the player left of the dealer
// (voorhand). It follows Dealt.
type Active struct{ Seats [3]Seat }

// Turned reports a card turned from the pile of 2-6s (draaikaart and bga_draw procedures).
type Turned struct{ Card PileCard }

// Said reports a seat's bid.
type Said struct {
	Seat Seat
	Bid  Bid
}

// Trump reports the end of the trump choosing: the trump suit and the maker.
type Trump struct {
	Suit  Suit
	Maker Seat
}

// Played reports a card played by a seat (the bot's own cards included).
type Played struct {
	Seat Seat
	Card Card
}

// TrickDone reports a finished trick: its winner, card points (with the last-trick bonus)
// and the roem scored for it.
type TrickDone struct {
	Winner Seat
	Points int
	Roem   int
}

// Scored ends a deal with its score breakdown. Lists are per side: per team (NS, EW) at a
// table of four; per seat at the three-player game (N, E, S, or N, E, S, W when four sit at
// the table and the dealer sits out, who scores 0).
type Scored struct {
	Outcome  string // made, nat, forfeit or redeal
	Score    []int
	Cards    []int
	Roem     []int
	Pit      string // the side (team, or seat at three) that took every trick, or "-"
	Offender Seat   // the seat that forfeited the deal, or NoSeat
}

// GameOver ends a game with the totals per side (as in Scored).
type GameOver struct{ Totals []int }

// Fault tells the bot that its last reply (or silence) forfeited the deal, and why.
type Fault struct {
	Kind   string // illegal, garbage, timeout, crash, flood
	Detail string
}

// Quit asks the bot to exit.
type Quit struct{}

// BidRequest asks for a bid: one of Legal.
type BidRequest struct {
	TimeMS int
	Hand   CardSet
	Legal  Bids
}

// PlayRequest asks for a card: one of Legal. Trick is the trick so far, led by Leader.
type PlayRequest struct {
	TimeMS int
	Trump  Suit
	Leader Seat
	Trick  []Card
	Hand   CardSet
	Legal  CardSet
}

// ClaimRequest asks the winner of a trick how much roem to claim (roem_claiming =
// claim_required). Reply: a whole number of points.
type ClaimRequest struct {
	TimeMS int
	Trump  Suit
	Trick  []Card
}

// DiscardRequest asks the Player of the three-player game to discard two cards: his hand
// now holds the two skart cards as well. Reply: two different cards of Hand.
type DiscardRequest struct {
	TimeMS int
	Trump  Suit
	Skart  CardSet // the two cards taken from the skart
	Hand   CardSet // twelve cards, the skart included
}

func appendCards(b []byte, cards []Card) []byte {
	if len(cards) == 0 {
		return append(b, '-')
	}
	for i, c := range cards {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, c.String()...)
	}
	return b
}

func appendSet(b []byte, s CardSet) []byte {
	if s == 0 {
		return append(b, '-')
	}
	first := true
	for c := range s.All() {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, c.String()...)
	}
	return b
}

func appendInts(b []byte, list []int) []byte {
	for i, n := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return b
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(append(b, ' '), int64(n), 10) }

// AppendLine implements Message.
func (m *Klaverjas) AppendLine(b []byte) []byte {
	b = append(b, "klaverjas"...)
	for _, v := range m.Versions {
		b = appendInt(b, v)
	}
	return b
}

// AppendLine implements Message.
func (m *Rules) AppendLine(b []byte) []byte {
	b = append(b, "rules"...)
	for _, kv := range m.Options {
		b = append(append(append(append(b, ' '), kv[0]...), '='), kv[1]...)
	}
	return b
}

// AppendLine implements Message.
func (m *Game) AppendLine(b []byte) []byte {
	b = appendInt(append(b, "game"...), m.Number)
	b = append(append(b, ' '), m.Seat.String()...)
	return appendInt(appendInt(appendInt(b, m.DecisionMS), m.BankMS), m.IncrementMS)
}

// AppendLine implements Message.
func (m *Dealt) AppendLine(b []byte) []byte {
	b = appendInt(append(b, "dealt"...), m.Number)
	b = append(append(b, ' '), m.Dealer.String()...)
	return appendSet(append(b, ' '), m.Hand)
}

// AppendLine implements Message.
func (m *Active) AppendLine(b []byte) []byte {
	b = append(b, "active"...)
	for _, s := range m.Seats {
		b = append(append(b, ' '), s.String()...)
	}
	return b
}

// AppendLine implements Message.
func (m *Turned) AppendLine(b []byte) []byte {
	return append(append(b, "turned "...), m.Card.String()...)
}

// AppendLine implements Message.
func (m *Said) AppendLine(b []byte) []byte {
	return append(append(append(append(b, "said "...), m.Seat.String()...), ' '), m.Bid.String()...)
}

// AppendLine implements Message.
func (m *Trump) AppendLine(b []byte) []byte {
	return append(append(append(append(b, "trump "...), m.Suit.String()...), ' '), m.Maker.String()...)
}

// AppendLine implements Message.
func (m *Played) AppendLine(b []byte) []byte {
	return append(append(append(append(b, "played "...), m.Seat.String()...), ' '), m.Card.String()...)
}

// AppendLine implements Message.
func (m *TrickDone) AppendLine(b []byte) []byte {
	b = append(append(b, "trick "...), m.Winner.String()...)
	return appendInt(appendInt(b, m.Points), m.Roem)
}

// AppendLine implements Message.
func (m *Scored) AppendLine(b []byte) []byte {
	b = append(append(b, "scored "...), m.Outcome...)
	b = appendInts(append(b, ' '), m.Score)
	b = appendInts(append(b, ' '), m.Cards)
	b = appendInts(append(b, ' '), m.Roem)
	b = append(append(b, ' '), m.Pit...)
	return append(append(b, ' '), m.Offender.String()...)
}

// AppendLine implements Message.
func (m *GameOver) AppendLine(b []byte) []byte {
	return appendInts(append(b, "gameover "...), m.Totals)
}

// AppendLine implements Message.
func (m *Fault) AppendLine(b []byte) []byte {
	b = append(append(b, "fault "...), m.Kind...)
	if m.Detail != "" {
		b = append(append(b, ' '), m.Detail...)
	}
	return b
}

// AppendLine implements Message.
func (m *Quit) AppendLine(b []byte) []byte { return append(b, "quit"...) }

// AppendLine implements Message.
func (m *BidRequest) AppendLine(b []byte) []byte {
	b = appendInt(append(b, "bid"...), m.TimeMS)
	b = appendSet(append(b, ' '), m.Hand)
	for _, bid := range m.Legal.All() {
		b = append(append(b, ' '), bid.String()...)
	}
	return b
}

// AppendLine implements Message.
func (m *PlayRequest) AppendLine(b []byte) []byte {
	b = appendInt(append(b, "play"...), m.TimeMS)
	b = append(append(b, ' '), m.Trump.String()...)
	b = append(append(b, ' '), m.Leader.String()...)
	b = appendCards(append(b, ' '), m.Trick)
	b = appendSet(append(b, ' '), m.Hand)
	for c := range m.Legal.All() {
		b = append(append(b, ' '), c.String()...)
	}
	return b
}

// AppendLine implements Message.
func (m *ClaimRequest) AppendLine(b []byte) []byte {
	b = appendInt(append(b, "claim"...), m.TimeMS)
	b = append(append(b, ' '), m.Trump.String()...)
	return appendCards(append(b, ' '), m.Trick)
}

// AppendLine implements Message.
func (m *DiscardRequest) AppendLine(b []byte) []byte {
	b = appendInt(append(b, "discard"...), m.TimeMS)
	b = append(append(b, ' '), m.Trump.String()...)
	b = appendSet(append(b, ' '), m.Skart)
	return appendSet(append(b, ' '), m.Hand)
}

// SyntaxError reports a line that does not follow the grammar of spec.md: which token
// (counted from 1; 0 for the line as a whole) was wrong and what was expected there.
type SyntaxError struct {
	Line  string
	Token int
	Got   string
	Want  string
}

func (e *SyntaxError) Error() string {
	if e.Token == 0 {
		return fmt.Sprintf("bad line %q: want %s", e.Line, e.Want)
	}
	return fmt.Sprintf("bad line %q: token %d %q: want %s", e.Line, e.Token, e.Got, e.Want)
}

// Unwrap returns ErrNotation, so errors.Is(err, ErrNotation) holds for every parse error.
func (e *SyntaxError) Unwrap() error { return ErrNotation }

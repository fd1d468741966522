// Package bot is the Go SDK for Klaverjas bots: a bot is one function from a decision (plus
// what the bot has seen so far) to an answer. Run does the rest: the handshake, reading and
// parsing every line of spec.md, tracking the table state, and writing the replies.
//
//	func main() {
//		bot.Run(bot.Bot{Name: "lowest", Author: "me", Decide: func(s *bot.State, d bot.Decision) bot.Answer {
//			return bot.Answer{Card: d.LegalCards.Lowest(), Bid: d.LegalBids.All()[0]}
//		}})
//	}
package bot

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
)

// Bot is what a bot author writes: its name and a decision function.
type Bot struct {
	Name   string // one token: letters, digits, '.', '_', '-'
	Author string
	// Decide answers one decision. It must return an answer of the decision's kind.
	Decide func(s *State, d Decision) Answer
	// Accept may refuse a ruleset (options as name -> value) by returning an error whose text
	// is sent to the arena as the reason. Nil accepts every ruleset (but see ThreePlayer).
	Accept func(options map[string]string) error
	// ThreePlayer says that Decide plays the three-player game (players=3, spec.md §14),
	// answering DiscardKind. Without it the session refuses such rulesets at the handshake.
	ThreePlayer bool
}

// Kind is the kind of a decision.
type Kind uint8

// Decision kinds.
const (
	BidKind Kind = iota
	PlayKind
	ClaimKind
	DiscardKind // the three-player game's Player lays away two cards (spec.md §14)
)

// Decision is one request from the arena.
type Decision struct {
	Kind       Kind
	TimeLeft   time.Duration    // the time this decision may take
	LegalBids  protocol.Bids    // BidKind
	LegalCards protocol.CardSet // PlayKind
	Trick      []protocol.Card  // PlayKind, ClaimKind: the trick so far (or just finished)
	Skart      protocol.CardSet // DiscardKind: the two cards taken (State.Hand holds them too)
	Request    protocol.Message // the request as parsed, for anything else
}

// Answer is a bot's reply; only the field of the decision's kind is used.
type Answer struct {
	Bid     protocol.Bid
	Card    protocol.Card
	Claim   int
	Discard [2]protocol.Card // two different cards of the hand
}

// TrickPlay is one card in a trick with the seat that played it.
type TrickPlay struct {
	Seat protocol.Seat
	Card protocol.Card
}

// FinishedTrick is a trick of the current deal that is over.
type FinishedTrick struct {
	Plays  []TrickPlay
	Winner protocol.Seat
	Points int
	Roem   int
}

// State is everything the bot has been told, kept up to date by the session.
type State struct {
	Options map[string]string // the ruleset, option name -> value
	Players int               // players in a deal: 4, or 3 (each for himself)
	Seat    protocol.Seat
	Game    int // game number, from 1
	Timing  protocol.Game

	Deal    int // deal number in the game, from 1
	Dealer  protocol.Seat
	Hand    protocol.CardSet // the bot's cards now
	SitsOut bool             // the dealer sits out this deal (four at a three-player game)
	// Playing is the seats that play this deal, in play order from the player left of the
	// dealer: every seat of the table, or at a table of four playing the three-player game
	// the three the active event after Dealt names (the dealer sits out).
	Playing []protocol.Seat
	Skart   protocol.CardSet // the three-player game: the skart, if this bot took it
	Turned  []protocol.PileCard
	Bids    []protocol.Said
	Trump   protocol.Suit // NoSuit until chosen
	Maker   protocol.Seat // NoSeat until chosen
	Tricks  []FinishedTrick
	Current []TrickPlay      // the trick in progress
	Seen    protocol.CardSet // every card played in this deal so far

	LastScore *protocol.Scored // the previous deal's result
	Totals    []int            // the running game totals per side, once a game is over
	LastFault *protocol.Fault  // set when the arena reported a fault of this bot
	Unknown   []string         // lines of a later protocol revision that this SDK ignored
}

// Partner returns the bot's partner seat at a four-player table; NoSeat in the three-player
// game, where each plays for himself.
func (s *State) Partner() protocol.Seat {
	if s.Players == 3 {
		return protocol.NoSeat
	}
	return s.Seat.Plus(2, protocol.MaxSeats)
}

// Session runs the protocol for one bot over lines; it is the engine of Run, and lets a bot
// be driven in-process (see Handle).
type Session struct {
	bot   Bot
	state State
	done  bool
}

// NewSession returns a session for b.
func NewSession(b Bot) *Session {
	return &Session{bot: b, state: State{Trump: protocol.NoSuit, Maker: protocol.NoSeat}}
}

// State returns the session's view of the table.
func (s *Session) State() *State { return &s.state }

// Done reports whether the arena has sent quit.
func (s *Session) Done() bool { return s.done }

// ErrBadAnswer is returned by Handle when Decide returned an answer that cannot be written.
var ErrBadAnswer = errors.New("bot: Decide returned an unusable answer")

// Handle processes one line from the arena. For a request it returns the reply line and
// true; for an event, "" and false.
func (s *Session) Handle(line string) (reply string, isRequest bool, err error) {
	msg, err := protocol.ParseMessage(line)
	if err != nil {
		// Forward compatibility: a v1 bot ignores messages it does not know.
		if name, _, _ := strings.Cut(line, " "); !known[name] {
			s.state.Unknown = append(s.state.Unknown, line)
			return "", false, nil
		}
		return "", false, err
	}
	st := &s.state
	switch m := msg.(type) {
	case *protocol.Klaverjas:
		for _, v := range m.Versions {
			if v == protocol.Version {
				h := protocol.Hello{Version: protocol.Version, Name: s.bot.Name, Author: s.bot.Author}
				return h.Line(), true, nil
			}
		}
		return "", true, fmt.Errorf("bot: the arena speaks versions %v, this SDK speaks %d", m.Versions, protocol.Version)
	case *protocol.Rules:
		st.Options = make(map[string]string, len(m.Options))
		for _, kv := range m.Options {
			st.Options[kv[0]] = kv[1]
		}
		st.Players = 4
		if st.Options["players"] == "3" {
			st.Players = 3
			if !s.bot.ThreePlayer {
				return "refuse three-player game not supported by " + s.bot.Name, true, nil
			}
		}
		if s.bot.Accept != nil {
			if err := s.bot.Accept(st.Options); err != nil {
				return "refuse " + strings.Join(strings.Fields(err.Error()), " "), true, nil
			}
		}
		return "ok", true, nil
	case *protocol.Game:
		st.Seat, st.Game, st.Timing, st.Totals = m.Seat, m.Number, *m, nil
	case *protocol.Dealt:
		*st = State{Options: st.Options, Players: st.Players, Seat: st.Seat, Game: st.Game, Timing: st.Timing, LastScore: st.LastScore,
			Deal: m.Number, Dealer: m.Dealer, Hand: m.Hand, SitsOut: m.Hand == 0, Trump: protocol.NoSuit, Maker: protocol.NoSeat}
		if n := st.Players; int(m.Dealer) < n { // at a table of four, dealer W: the active event tells
			for i := range n {
				st.Playing = append(st.Playing, m.Dealer.Plus(i+1, n))
			}
		}
	case *protocol.Active:
		st.Playing = append(st.Playing[:0], m.Seats[:]...)
	case *protocol.Turned:
		st.Turned = append(st.Turned, m.Card)
	case *protocol.Said:
		st.Bids = append(st.Bids, *m)
	case *protocol.Trump:
		st.Trump, st.Maker = m.Suit, m.Maker
	case *protocol.Played:
		st.Current = append(st.Current, TrickPlay{Seat: m.Seat, Card: m.Card})
		st.Seen = st.Seen.Add(m.Card)
		if m.Seat == st.Seat {
			st.Hand = st.Hand.Remove(m.Card)
		}
	case *protocol.TrickDone:
		st.Tricks = append(st.Tricks, FinishedTrick{Plays: st.Current, Winner: m.Winner, Points: m.Points, Roem: m.Roem})
		st.Current = nil
	case *protocol.Scored:
		st.LastScore = m
	case *protocol.GameOver:
		st.Totals = m.Totals
	case *protocol.Fault:
		st.LastFault = m
	case *protocol.Quit:
		s.done = true
	case *protocol.BidRequest:
		st.Hand = m.Hand
		a := s.bot.Decide(st, Decision{Kind: BidKind, TimeLeft: ms(m.TimeMS), LegalBids: m.Legal, Request: m})
		return a.Bid.String(), true, nil
	case *protocol.PlayRequest:
		st.Hand = m.Hand
		a := s.bot.Decide(st, Decision{Kind: PlayKind, TimeLeft: ms(m.TimeMS), LegalCards: m.Legal, Trick: m.Trick, Request: m})
		if !a.Card.Valid() {
			return "", true, fmt.Errorf("%w: card %v", ErrBadAnswer, a.Card)
		}
		return a.Card.String(), true, nil
	case *protocol.DiscardRequest:
		st.Hand, st.Skart = m.Hand, m.Skart
		a := s.bot.Decide(st, Decision{Kind: DiscardKind, TimeLeft: ms(m.TimeMS), Skart: m.Skart, Request: m})
		c1, c2 := a.Discard[0], a.Discard[1]
		if c1 == c2 || !m.Hand.Has(c1) || !m.Hand.Has(c2) {
			return "", true, fmt.Errorf("%w: discard %v %v from %v", ErrBadAnswer, c1, c2, m.Hand)
		}
		st.Hand = st.Hand.Remove(c1).Remove(c2)
		return c1.String() + " " + c2.String(), true, nil
	case *protocol.ClaimRequest:
		a := s.bot.Decide(st, Decision{Kind: ClaimKind, TimeLeft: ms(m.TimeMS), Trick: m.Trick, Request: m})
		return strconv.Itoa(max(0, a.Claim)), true, nil
	}
	return "", false, nil
}

var known = map[string]bool{"klaverjas": true, "rules": true, "game": true, "dealt": true, "active": true, "turned": true,
	"said": true, "trump": true, "played": true, "trick": true, "scored": true, "gameover": true,
	"fault": true, "quit": true, "bid": true, "play": true, "claim": true, "discard": true}

// LowestDiscard returns two cards to lay away: the two that are not trumps with the fewest
// card points, the lower rank first on equal points, then the first in card order (trumps,
// valued as trumps, only when fewer than two other cards are left). A starting point for a
// bot's DiscardKind answer; the Python SDK's default_discard makes the same choice.
func LowestDiscard(hand protocol.CardSet, trump protocol.Suit) [2]protocol.Card {
	var out [2]protocol.Card
	n := 0
	for _, pool := range []protocol.CardSet{hand &^ protocol.SuitMask(trump), hand & protocol.SuitMask(trump)} {
		for ; n < 2 && pool != 0; n++ {
			out[n] = cheapest(pool, trump)
			pool = pool.Remove(out[n])
		}
	}
	return out
}

// cheapest returns the card of s with the fewest card points, the lower rank on equal
// points, the first in card order on equal ranks.
func cheapest(s protocol.CardSet, trump protocol.Suit) protocol.Card {
	best, bestPts := protocol.NoCard, 100
	for c := range s.All() {
		p := plainPoints[c.Rank()]
		if c.Suit() == trump {
			p = trumpPoints[c.Rank()]
		}
		if p < bestPts || p == bestPts && c.Rank() < best.Rank() {
			best, bestPts = c, p
		}
	}
	return best
}

// Card points by rank, 7 to A, of a plain card and of a trump.
var (
	plainPoints = [...]int{0, 0, 0, 10, 2, 3, 4, 11}
	trumpPoints = [...]int{0, 0, 14, 10, 20, 3, 4, 11}
)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// Run plays the protocol on standard input and output until quit or end of input. It
// returns nil on a clean quit.
func Run(b Bot) error { return Serve(b, os.Stdin, os.Stdout) }

// Serve plays the protocol on r and w (see Run).
func Serve(b Bot, r io.Reader, w io.Writer) error {
	s := NewSession(b)
	lines := protocol.NewLineReader(r, 1<<20) // arena lines are short; be generous
	out := bufio.NewWriter(w)
	for !s.done {
		line, err := lines.ReadLine()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		reply, isRequest, err := s.Handle(string(line))
		if err != nil {
			return err
		}
		if isRequest {
			out.WriteString(reply)
			out.WriteByte('\n')
			if err := out.Flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

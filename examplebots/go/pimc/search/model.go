package search

import (
	"github.com/klaverjas-arena/arena/examplebots/go/heuristic/strategy"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/solver"
)

// opponentModel is the solver's Policy under Config.ModelOpponents: at the other side's
// nodes it plays the card the heuristic bot (strategy.Card) would play from that seat's
// view, its hand in the world searched and the deal's public history, the tricks played
// inside the search included; the bot's own side is searched.
type opponentModel struct {
	rs     *rules.Ruleset
	k      *knowledge
	side   int
	tricks []bot.FinishedTrick // the deal's finished tricks, then those of the line searched
	done   int                 // how many of tricks are the deal's
	seen   protocol.CardSet    // the cards of the deal's finished tricks
	plays  [][protocol.MaxSeats]bot.TrickPlay
	state  bot.State
}

// newOpponentModel returns the model for a play decision of state s, the bot's side being
// side.
func newOpponentModel(rs *rules.Ruleset, k *knowledge, s *bot.State, side int) *opponentModel {
	m := &opponentModel{rs: rs, k: k, side: side, done: len(s.Tricks), plays: make([][protocol.MaxSeats]bot.TrickPlay, rs.HandSize())}
	m.tricks = append(make([]bot.FinishedTrick, 0, rs.HandSize()), s.Tricks...)
	for _, t := range s.Tricks {
		for _, p := range t.Plays {
			m.seen = m.seen.Add(p.Card)
		}
	}
	m.state = bot.State{Options: s.Options, Players: 4, Dealer: s.Dealer, Playing: s.Playing, Bids: s.Bids, Trump: k.trump, Maker: s.Maker}
	return m
}

// card is the policy: the heuristic's card at an opponent's node, else protocol.NoCard.
func (m *opponentModel) card(n *solver.PolicyNode) protocol.Card {
	if m.rs.SideOf(n.Seat) == m.side {
		return protocol.NoCard
	}
	m.tricks = m.tricks[:m.done]
	seen := m.seen
	for i := range n.Line {
		t := &n.Line[i]
		plays := m.plays[i][:t.N]
		for j := range t.N {
			plays[j] = bot.TrickPlay{Seat: m.k.seats[t.Seat(j, 4)], Card: t.Cards[j]}
		}
		m.tricks = append(m.tricks, bot.FinishedTrick{Plays: plays})
		seen |= t.Played
	}
	st := m.state
	st.Seat, st.Hand, st.Tricks, st.Seen = m.k.seats[n.Seat], n.Hand, m.tricks, seen|n.Trick.Played
	return strategy.Card(m.rs, &st, m.k.trump, n.Trick.Cards[:n.Trick.N], n.Legal)
}

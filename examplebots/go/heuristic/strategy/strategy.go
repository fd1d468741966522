package strategy

import (
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Name is the bot's name in the handshake.
const Name = "heuristic"

// Bot returns the heuristic bot. It keeps no state between decisions, so the same value may
// play any number of seats, in any number of sessions at once.
func Bot() bot.Bot {
	return bot.Bot{Name: Name, Author: "klaverjas-arena examplebots", Decide: Decide}
}

// Decide answers one decision: a bid, a card or a roem claim.
func Decide(s *bot.State, d bot.Decision) bot.Answer { return decide(&standard, s, d) }

func decide(p *params, s *bot.State, d bot.Decision) bot.Answer {
	rs := Ruleset(s.Options)
	switch d.Kind {
	case bot.BidKind:
		return bot.Answer{Bid: chooseBid(p, &rs, s, d.LegalBids)}
	case bot.ClaimKind:
		trump := s.Trump
		if r, ok := d.Request.(*protocol.ClaimRequest); ok {
			trump = r.Trump
		}
		return bot.Answer{Claim: Claim(&rs, d.Trick, trump)}
	}
	if d.LegalCards.Len() == 1 {
		return bot.Answer{Card: d.LegalCards.Lowest()}
	}
	trump := s.Trump
	if r, ok := d.Request.(*protocol.PlayRequest); ok {
		trump = r.Trump
	}
	v := newView(p, &rs, s, trump, d.Trick)
	return bot.Answer{Card: v.chooseCard(d.LegalCards)}
}

// Card returns the card the bot plays from legal for seat s.Seat at a table of four, with
// ruleset rs, trumps trump and trick the current trick so far: a play decision of Decide
// without reading the ruleset from s.Options. It is the model of the bot's play for bots
// that replay it many times a decision (the PIMC bot's inference).
func Card(rs *rules.Ruleset, s *bot.State, trump protocol.Suit, trick []protocol.Card, legal protocol.CardSet) protocol.Card {
	if legal.Len() == 1 {
		return legal.Lowest()
	}
	return newView(&standard, rs, s, trump, trick).chooseCard(legal)
}

// Claim returns the roem in a finished trick: the honest claim under roem_claiming =
// claim_required.
func Claim(rs *rules.Ruleset, trick []protocol.Card, trump protocol.Suit) int {
	return rules.TrickRoem(rs, protocol.SetOf(trick...), trump).Total()
}

// Ruleset rebuilds the ruleset from the options of the rules line. Options it does not know
// (from a later protocol revision) keep their defaults, so it never fails.
func Ruleset(options map[string]string) rules.Ruleset {
	rs := rules.Default()
	for name, value := range options {
		_ = rs.Set(name, value) // an unknown option or value leaves the default
	}
	return rs
}

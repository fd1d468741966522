package check

import (
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// opponentName is the name the full game's opponent plays under.
const opponentName = "steady"

// opponent is the bot the checked bot plays the full game with and against: a plain, sound
// player of the check's own, so that what the check asks of a bot does not change when an
// example bot does. It plays on its strongest suit when that suit is worth it, wins a trick
// with its cheapest winning card (or throws its cheapest card) and claims its roem honestly.
// It keeps no state, so one value plays any number of seats.
func opponent() bot.Bot {
	return bot.Bot{Name: opponentName, Author: "arena check", Decide: steadyDecide}
}

// strongSuit is the strength (see suitStrength) from which the opponent plays on a suit it
// may pass on: about the jack and the nine of trumps with one more card.
const strongSuit = 45

func steadyDecide(s *bot.State, d bot.Decision) bot.Answer {
	switch d.Kind {
	case bot.BidKind:
		return bot.Answer{Bid: steadyBid(s.Hand, d.LegalBids)}
	case bot.ClaimKind:
		rs := rulesetOf(s.Options)
		trump := s.Trump
		if r, ok := d.Request.(*protocol.ClaimRequest); ok {
			trump = r.Trump
		}
		return bot.Answer{Claim: rules.TrickRoem(&rs, protocol.SetOf(d.Trick...), trump).Total()}
	}
	trump := s.Trump
	if r, ok := d.Request.(*protocol.PlayRequest); ok {
		trump = r.Trump
	}
	return bot.Answer{Card: steadyCard(d.LegalCards, d.Trick, trump)}
}

// steadyBid plays on the legal suit of the greatest strength if it is strong enough or a
// pass is not allowed, and passes otherwise.
func steadyBid(hand protocol.CardSet, legal protocol.Bids) protocol.Bid {
	best, bestStrength := protocol.BidPass, -1
	for _, b := range legal.All() {
		if su := b.Suit(); su != protocol.NoSuit {
			if st := suitStrength(hand, su); st > bestStrength {
				best, bestStrength = b, st
			}
		}
	}
	if legal.Has(protocol.BidPass) && (best == protocol.BidPass || bestStrength < strongSuit) {
		return protocol.BidPass
	}
	if best == protocol.BidPass {
		return legal.All()[0]
	}
	return best
}

// suitStrength is the card points the hand's cards of su would be worth as trumps, plus 5
// for each of them.
func suitStrength(hand protocol.CardSet, su protocol.Suit) int {
	trumps := hand.Suit(su)
	return rules.SetPoints(trumps, su) + 5*trumps.Len()
}

// steadyCard returns the cheapest legal card that wins the trick so far, or, when none does
// (or it leads), the cheapest legal card.
func steadyCard(legal protocol.CardSet, trick []protocol.Card, trump protocol.Suit) protocol.Card {
	cheapest := func(cards protocol.CardSet) protocol.Card {
		best := protocol.NoCard
		for c := range cards.All() {
			if best == protocol.NoCard || rules.Points(c, trump) < rules.Points(best, trump) {
				best = c
			}
		}
		return best
	}
	if len(trick) == 0 {
		return cheapest(legal)
	}
	led, winning := trick[0].Suit(), trick[0]
	for _, c := range trick[1:] {
		if rules.Beats(c, winning, led, trump) {
			winning = c
		}
	}
	var winners protocol.CardSet
	for c := range legal.All() {
		if rules.Beats(c, winning, led, trump) {
			winners = winners.Add(c)
		}
	}
	if winners != 0 {
		return cheapest(winners)
	}
	return cheapest(legal)
}

// rulesetOf rebuilds the ruleset from the options of the rules line; options it does not know
// (from a later protocol revision) keep their defaults.
func rulesetOf(options map[string]string) rules.Ruleset {
	rs := rules.Default()
	for name, value := range options {
		_ = rs.Set(name, value)
	}
	return rs
}

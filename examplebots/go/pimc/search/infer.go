package search

import (
	"github.com/klaverjas-arena/arena/examplebots/go/heuristic/strategy"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// replay is one card another seat played earlier in the deal, with what that seat saw when
// it played it. The inference asks the model of the others' play (the heuristic bot, package
// strategy) what it would have played there with the hand a world gives that seat.
type replay struct {
	seat  int              // play-order index of the seat
	state bot.State        // the seat's view then; the hand is filled in per world
	trick rules.Trick      // the trick so far, led by a table seat
	cards []protocol.Card  // the same cards, for the model
	card  protocol.Card    // the card it played
	later protocol.CardSet // the cards it played from then on, this one included
	eps   float64          // the likelihood factor when the model would have played another card
}

// observe records, for the inference, every card played this deal by another seat: eps is
// the factor of an opponent's card the model would not have played, partnerEps the
// partner's (0 leaves the partner out). It does nothing in the three-player game, which the
// model does not play, or when eps is 0.
func (k *knowledge) observe(s *bot.State, eps, partnerEps float64) {
	if eps <= 0 || k.n != 4 || !k.trump.Valid() || k.maker < 0 {
		return
	}
	partner := (k.me + 2) % 4
	var before [protocol.MaxSeats]protocol.CardSet // cards each seat played before the replay at hand
	var seen protocol.CardSet
	add := func(plays []bot.TrickPlay, done []bot.FinishedTrick) {
		t := rules.Trick{}
		var cards []protocol.Card
		for _, p := range plays {
			i := k.index(p.Seat)
			if t.N == 0 {
				t.Leader = p.Seat
			}
			f := eps
			if i == partner {
				f = partnerEps
			}
			if i >= 0 && i != k.me && f > 0 && f < 1 {
				r := replay{seat: i, trick: t, cards: cards, card: p.Card, later: k.played[i] &^ before[i], eps: f}
				r.state = bot.State{Options: s.Options, Players: 4, Seat: p.Seat, Dealer: s.Dealer, Playing: s.Playing,
					Bids: s.Bids, Trump: k.trump, Maker: s.Maker, Tricks: done, Current: nil, Seen: seen}
				k.replays = append(k.replays, r)
			}
			if i >= 0 {
				before[i] = before[i].Add(p.Card)
			}
			t.Add(p.Card)
			cards = append(cards[:len(cards):len(cards)], p.Card)
			seen = seen.Add(p.Card)
		}
	}
	for j, t := range s.Tricks {
		add(t.Plays, s.Tricks[:j])
	}
	add(s.Current, s.Tricks)
}

// likelihood returns the chance of the others' observed cards in world w under the model:
// the product, over the replays, of 1 where the model plays the card that was played and
// the replay's eps where it plays another.
func (k *knowledge) likelihood(w *world) float64 {
	l := 1.0
	for i := range k.replays {
		r := &k.replays[i]
		hand := w.hands[r.seat] | r.later
		legal := rules.Legal(k.rs, k.trump, hand, &r.trick)
		if legal.Len() < 2 {
			continue
		}
		r.state.Hand = hand
		if strategy.Card(k.rs, &r.state, k.trump, r.cards, legal) != r.card {
			l *= r.eps
		}
	}
	return l
}

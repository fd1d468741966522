package strategy

import (
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// trumpControl is what holding a trump is worth beyond its card points, early in a deal:
// it wins a trick, stops a suit, or draws the opponents' trumps. By natural rank.
var trumpControl = [protocol.NumRanks]float64{
	protocol.Seven: 5, protocol.Eight: 5, protocol.Nine: 16, protocol.Ten: 9,
	protocol.Jack: 22, protocol.Queen: 6, protocol.King: 6, protocol.Ace: 10,
}

// chooseCard picks the legal card with the best score: the expected value of the trick with
// it, less what the card is worth kept, plus the lead preferences.
func (v *view) chooseCard(legal protocol.CardSet) protocol.Card {
	best, bestScore := protocol.NoCard, 0.0
	for c := range legal.All() {
		score := v.trickValue(c) - v.keep(c)
		if len(v.trick) == 0 {
			score += v.leadBonus(c)
		}
		if best == protocol.NoCard || score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// trickValue is the expected gain from the trick if the bot plays c: its points and roem,
// counted for the bot's side with the chance that the side wins it and against it otherwise.
func (v *view) trickValue(c protocol.Card) float64 {
	var buf [seats]protocol.Card
	cards := append(buf[:copy(buf[:], v.trick)], c)
	set := protocol.SetOf(cards...)
	pts := float64(rules.SetPoints(set, v.trump) + rules.TrickRoem(v.rs, set, v.trump).Total())
	if v.done == v.rs.HandSize()-1 {
		pts += float64(v.rs.LastTrickBonus)
	}
	p := v.pWin(cards)
	return (2*p - 1) * pts
}

// pWin estimates the chance that the bot's side wins the trick whose cards so far are
// cards, the last of them the bot's.
func (v *view) pWin(cards []protocol.Card) float64 {
	led := cards[0].Suit()
	wi := 0
	for i := 1; i < len(cards); i++ {
		if rules.Beats(cards[i], cards[wi], led, v.trump) {
			wi = i
		}
	}
	w, ours := cards[wi], v.ours(v.seatOf(wi))
	next, partner := v.me.Plus(1, seats), v.partner()
	switch seats - len(cards) {
	case 0:
		if ours {
			return 1
		}
		return 0
	case 1: // an opponent plays last
		if ours {
			return 1 - v.pBeat(next, w, led)
		}
		return 0
	case 2: // an opponent, then the partner
		if ours {
			pb := v.pBeat(next, w, led)
			return 1 - pb + pb*0.5*v.pBeat(partner, w, led)
		}
		return 0.85 * v.pBeat(partner, w, led)
	}
	// The bot leads: both opponents must fail to beat it, or the partner come over them.
	last := v.me.Plus(3, seats)
	hold := (1 - v.pBeat(next, w, led)) * (1 - v.pBeat(last, w, led))
	return hold + (1-hold)*0.4*v.pBeat(partner, w, led)
}

// future is the share of the deal still to come after this trick, from 1 down to 0.
func (v *view) future() float64 {
	n := v.rs.HandSize() - 1
	return float64(n-v.done) / float64(n)
}

// keep is what card c is worth left in the hand: its points as they are likely to end up,
// and the tricks it may win. Trumps are worth most; a boss card (nothing higher out) will
// likely win a trick of its own unless it is ruffed; a lower point card is as likely lost as
// smeared, so it is worth little.
func (v *view) keep(c protocol.Card) float64 {
	pts := float64(rules.Points(c, v.trump))
	su := c.Suit()
	if su == v.trump {
		return pts + v.p.trumpControl*trumpControl[c.Rank()]*v.future()
	}
	higher := (v.unseen & above(c, v.trump)).Len()
	if higher == 0 {
		q := v.p.bossWins
		for _, o := range v.opponents() {
			q *= 1 - v.pRuff(o, su)
		}
		q = max(q, v.p.guardedWins) // never worth less than a card below it
		return pts*(2*q-1) + q*v.p.bossExtra*v.future()
	}
	guards := (v.hand.Suit(su) &^ above(c, v.trump)).Remove(c).Len()
	q := v.p.looseWins
	if guards >= higher {
		q = v.p.guardedWins
	}
	return pts*(2*q-1) + q*2
}

// leadBonus adds the lead preferences to a card's score: the makers pull trumps with the
// boss trump, the maker (with length) and his partner lead small trumps while the opponents
// may hold some, the defenders keep their trumps, and the partner's suit is led back.
func (v *view) leadBonus(c protocol.Card) float64 {
	su := c.Suit()
	if su != v.trump {
		if v.partnerLd&(1<<su) != 0 {
			return v.p.partnersSuit
		}
		return 0
	}
	if !v.makers() {
		return -v.p.defenderTrump
	}
	if !v.oppTrumps() {
		return 0
	}
	trumps := v.hand.Suit(v.trump)
	if (v.unseen|trumps)&trumpsAbove(c, v.trump) == 0 {
		return v.p.pullTrumps // the boss trump draws two of theirs
	}
	lowest := c
	for t := range trumps.All() {
		if rules.Beats(lowest, t, v.trump, v.trump) {
			lowest = t
		}
	}
	if c == lowest && (v.maker == v.partner() || trumps.Len() >= 3) {
		return v.p.smallTrump
	}
	return 0
}

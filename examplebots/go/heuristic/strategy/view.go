package strategy

import (
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

const seats = 4

// view is what the bot knows at one decision in the play: its hand, the trick so far and,
// from counting the cards, which cards each other seat may still hold.
type view struct {
	p      *params
	rs     *rules.Ruleset
	me     protocol.Seat
	trump  protocol.Suit
	maker  protocol.Seat
	hand   protocol.CardSet
	trick  []protocol.Card // the current trick so far, led by leader
	leader protocol.Seat
	done   int // tricks finished in this deal

	unseen    protocol.CardSet        // cards the three other seats hold between them
	cannot    [seats]protocol.CardSet // cards a seat is known not to hold (voids, trump limits)
	left      [seats]int              // cards each seat still holds
	partnerLd uint8                   // plain suits the partner has led (bit per suit)
}

// newView builds the view of state s for a play decision with the given trick so far.
func newView(p *params, rs *rules.Ruleset, s *bot.State, trump protocol.Suit, trick []protocol.Card) *view {
	v := &view{p: p, rs: rs, me: s.Seat, trump: trump, maker: s.Maker, hand: s.Hand, trick: trick, done: len(s.Tricks)}
	v.leader = v.me.Plus(seats-len(trick), seats)
	gone := s.Seen | protocol.SetOf(trick...)
	for _, t := range s.Tricks {
		var plays [seats]protocol.Card
		n := 0
		for _, p := range t.Plays {
			if n < seats {
				plays[n] = p.Card
				n++
			}
			gone = gone.Add(p.Card)
		}
		if n > 0 {
			v.learn(t.Plays[0].Seat, plays[:n])
		}
	}
	v.learn(v.leader, trick)
	v.unseen = protocol.FullDeck &^ gone &^ v.hand
	for i := range seats {
		x := protocol.Seat(i)
		v.left[i] = rs.HandSize() - v.done
		if v.hasPlayed(x) {
			v.left[i]--
		}
	}
	return v
}

// partner returns the bot's partner.
func (v *view) partner() protocol.Seat { return v.me.Plus(2, seats) }

// ours reports whether seat x is on the bot's side.
func (v *view) ours(x protocol.Seat) bool { return protocol.TeamOf(x) == protocol.TeamOf(v.me) }

// makers reports whether the bot's side made trumps.
func (v *view) makers() bool { return v.maker < seats && v.ours(v.maker) }

// hasPlayed reports whether seat x has played to the current trick.
func (v *view) hasPlayed(x protocol.Seat) bool {
	return int((x+seats-v.leader)%seats) < len(v.trick)
}

// seatOf returns the seat that plays the i-th card of the current trick.
func (v *view) seatOf(i int) protocol.Seat { return v.leader.Plus(i, seats) }

// possible returns the cards seat x may hold.
func (v *view) possible(x protocol.Seat) protocol.CardSet { return v.unseen &^ v.cannot[x] }

// learn infers from one trick (led by leader) what its players cannot hold: a player who
// does not follow suit is void in it; one who does not (over)trump when the rules would have
// made him holds no (higher) trump.
func (v *view) learn(leader protocol.Seat, cards []protocol.Card) {
	if len(cards) == 0 {
		return
	}
	led := cards[0].Suit()
	if led != v.trump && leader == v.partner() {
		v.partnerLd |= 1 << led
	}
	win := 0
	for i := 1; i < len(cards); i++ {
		x, c := leader.Plus(i, seats), cards[i]
		w := cards[win]
		partnerWins := win%2 == i%2
		if c.Suit() != led {
			v.cannot[x] |= protocol.SuitMask(led)
			obliged := v.trump.Valid() && led != v.trump && (v.rs.PlayRule == rules.Rotterdams || !partnerWins)
			switch {
			case !obliged || c.Suit() == v.trump && rules.Beats(c, w, led, v.trump):
			case w.Suit() != v.trump || v.rs.Undertrump == rules.UndertrumpMandatory && c.Suit() != v.trump:
				// Had to trump, did not: no trumps at all.
				v.cannot[x] |= protocol.SuitMask(v.trump)
			default:
				// Had to overtrump w and did not: nothing above it.
				v.cannot[x] |= trumpsAbove(w, v.trump)
			}
		} else if led == v.trump && !rules.Beats(c, w, led, v.trump) {
			v.cannot[x] |= trumpsAbove(w, v.trump)
		}
		if rules.Beats(c, w, led, v.trump) {
			win = i
		}
	}
}

// trumpsAbove returns the trumps that beat trump card w.
func trumpsAbove(w protocol.Card, trump protocol.Suit) protocol.CardSet {
	var s protocol.CardSet
	for c := range protocol.SuitMask(trump).All() {
		if rules.Beats(c, w, trump, trump) {
			s = s.Add(c)
		}
	}
	return s
}

// above returns the cards of w's suit that beat w when that suit is led.
func above(w protocol.Card, trump protocol.Suit) protocol.CardSet {
	var s protocol.CardSet
	for c := range protocol.SuitMask(w.Suit()).All() {
		if rules.Beats(c, w, w.Suit(), trump) {
			s = s.Add(c)
		}
	}
	return s
}

// pNone returns the chance that h cards drawn at random from n hold none of k given cards.
func pNone(n, h, k int) float64 {
	if k <= 0 || h <= 0 {
		return 1
	}
	if h > n-k {
		return 0
	}
	p := 1.0
	for i := range h {
		p *= float64(n-k-i) / float64(n-i)
	}
	return p
}

// pBeat estimates the chance that seat x holds a card that beats w in a trick whose led
// suit is led: a higher card of the led suit, or (void in it) a trump that beats w.
func (v *view) pBeat(x protocol.Seat, w protocol.Card, led protocol.Suit) float64 {
	poss := v.possible(x)
	n, h := poss.Len(), min(v.left[x], poss.Len())
	ledN := poss.Suit(led).Len()
	if led == v.trump || !v.trump.Valid() {
		return 1 - pNone(n, h, (poss&above(w, v.trump)).Len())
	}
	pVoid := pNone(n, h, ledN)
	var pHigher float64
	ruffers := poss.Suit(v.trump)
	if w.Suit() == v.trump {
		ruffers &= trumpsAbove(w, v.trump)
	} else {
		pHigher = 1 - pNone(n, h, (poss&above(w, v.trump)).Len())
	}
	return pHigher + pVoid*(1-pNone(n-ledN, h, ruffers.Len()))
}

// pRuff estimates the chance that seat x is void in plain suit su and can trump it.
func (v *view) pRuff(x protocol.Seat, su protocol.Suit) float64 {
	if su == v.trump || !v.trump.Valid() {
		return 0
	}
	poss := v.possible(x)
	n, h := poss.Len(), min(v.left[x], poss.Len())
	k := poss.Suit(su).Len()
	return pNone(n, h, k) * (1 - pNone(n-k, h, poss.Suit(v.trump).Len()))
}

// opponents returns the two opponents.
func (v *view) opponents() [2]protocol.Seat {
	return [2]protocol.Seat{v.me.Plus(1, seats), v.me.Plus(3, seats)}
}

// oppTrumps reports whether an opponent may still hold a trump.
func (v *view) oppTrumps() bool {
	for _, o := range v.opponents() {
		if v.possible(o).Suit(v.trump) != 0 && v.left[o] > 0 {
			return true
		}
	}
	return false
}

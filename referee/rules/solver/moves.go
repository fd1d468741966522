package solver

import (
	"math/bits"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Card power within a suit by natural rank (7 8 9 T J Q K A), low to high, as trumps and
// as a plain suit (RULES.md §2).
var (
	trumpPower = [protocol.NumRanks]uint8{protocol.Seven: 0, protocol.Eight: 1, protocol.Queen: 2, protocol.King: 3, protocol.Ten: 4, protocol.Ace: 5, protocol.Nine: 6, protocol.Jack: 7}
	plainPower = [protocol.NumRanks]uint8{protocol.Seven: 0, protocol.Eight: 1, protocol.Nine: 2, protocol.Jack: 3, protocol.Queen: 4, protocol.King: 5, protocol.Ten: 6, protocol.Ace: 7}
	// byPower[t][k] is the natural rank of power k, as trumps (t=1) or not (t=0).
	byPower [2][protocol.NumRanks]protocol.Rank
)

func init() {
	for r := range protocol.Rank(protocol.NumRanks) {
		byPower[0][plainPower[r]] = r
		byPower[1][trumpPower[r]] = r
	}
}

// moveList is a small ordered list of cards.
type moveList struct {
	cards [12]protocol.Card
	keys  [12]int
	n     int
}

// ordered puts the legal cards into m best-first by rules of thumb: the table's move first; in
// the lead, high cards first; following, a partner's winning trick gets the most points, a
// trick that can be won is won cheaply (by the last player, as richly as possible), else the
// cheapest card goes.
func (s *Solver) ordered(m *moveList, st *state, mover protocol.Seat, legal protocol.CardSet, first protocol.Card) {
	t := &st.trick
	var led protocol.Suit
	var win protocol.Card
	partnerWins, last := false, t.N == s.players-1
	if t.N > 0 {
		led, win = t.Cards[0].Suit(), t.Cards[st.best]
		partnerWins = s.players == 4 && s.rs.SideOf(t.Seat(st.best, s.players)) == s.rs.SideOf(mover)
	}
	for c := range legal.All() {
		pts := rules.Points(c, s.trump)
		var k int
		switch {
		case c == first:
			k = 1000
		case t.N == 0:
			k = power(c, s.trump)
			if c.Suit() == s.trump {
				k += 8
			}
		case partnerWins:
			k = pts
		case rules.Beats(c, win, led, s.trump):
			if last {
				k = 200 + pts
			} else {
				k = 200 - power(c, s.trump)
			}
		default:
			k = 100 - pts
		}
		i := m.n
		for ; i > 0 && m.keys[i-1] < k; i-- {
			m.cards[i], m.keys[i] = m.cards[i-1], m.keys[i-1]
		}
		m.cards[i], m.keys[i] = c, k
		m.n++
	}
}

func power(c protocol.Card, trump protocol.Suit) int {
	if c.Suit() == trump {
		return int(trumpPower[c.Rank()])
	}
	return int(plainPower[c.Rank()])
}

// prune drops equivalent cards from legal: of cards of the mover's hand in one suit that no
// card of another hand (or of the trick) separates in power, that are worth the same card
// points and that can take part in no roem, only the highest stays. Swapping two such cards
// changes nothing for the rest of the deal, so their values are equal.
func (s *Solver) prune(st *state, mover protocol.Seat, legal protocol.CardSet) protocol.CardSet {
	hand := st.hands[mover]
	var others protocol.CardSet
	for i := range s.players {
		if protocol.Seat(i) != mover {
			others |= st.hands[i]
		}
	}
	others |= st.trick.Played
	fullRanks := -1 // the ranks of which the others hold enough cards for a same-rank roem; -1 until needed
	for su := range protocol.Suit(protocol.NumSuits) {
		shift := 8 * uint(su)
		suitLegal := uint8(legal >> shift)
		if bits.OnesCount8(suitLegal) < 2 {
			continue
		}
		if fullRanks < 0 {
			fullRanks = 0
			for r := range protocol.Rank(protocol.NumRanks) {
				if (others & protocol.RankMask(r)).Len() >= s.players-1 {
					fullRanks |= 1 << r
				}
			}
		}
		o, h := uint8(others>>shift), uint8(hand>>shift)
		// Ranks (natural order, where runs count) that a run of three with two of the others'
		// cards would take in, and those that a same-rank roem could: such cards are not inert.
		live := o>>1&(o>>2) | o<<1&(o>>1) | o<<1&(o<<2) | uint8(fullRanks)
		t := 0
		if su == s.trump {
			t = 1
		}
		rep := protocol.NoCard // the card that stands for the current run of equivalent cards
		for k := protocol.NumRanks - 1; k >= 0; k-- {
			r := byPower[t][k]
			bit := uint8(1) << r
			switch {
			case o&bit != 0:
				rep = protocol.NoCard
			case suitLegal&bit == 0:
				if h&bit != 0 {
					rep = protocol.NoCard
				} // else played earlier: separates nothing
			case live&bit != 0:
				rep = protocol.NoCard
			case rep != protocol.NoCard && rules.Points(rep, s.trump) == rules.Points(protocol.NewCard(r, su), s.trump):
				legal = legal.Remove(protocol.NewCard(r, su))
			default:
				rep = protocol.NewCard(r, su)
			}
		}
	}
	return legal
}

package rules

import (
	"fmt"
	"math/rand/v2"

	"github.com/klaverjas-arena/arena/protocol"
)

// Deck is the 32 cards in dealing order: index 0 is dealt first (RULES.md §3).
type Deck [protocol.NumCards]Card

// OrderedDeck returns the deck in card order 7C 8C ... AS.
func OrderedDeck() Deck {
	var d Deck
	for i := range d {
		d[i] = Card(i)
	}
	return d
}

// Shuffle returns a uniformly shuffled deck drawn from rng.
func Shuffle(rng *rand.Rand) Deck {
	d := OrderedDeck()
	shuffleCards(rng, d[:])
	return d
}

// ShufflePile returns a shuffled copy of the pile of low cards for the ruleset's bidding
// procedure, or nil if the procedure turns no cards.
func ShufflePile(r *Ruleset, rng *rand.Rand) []protocol.PileCard {
	return ShufflePileInto(nil, r, rng)
}

// ShufflePileInto is ShufflePile in the storage of buf, which it reuses when it has room, so
// that a loop dealing one deal after another allocates nothing: the same pile for the same
// random numbers. The previous pile in buf is gone.
func ShufflePileInto(buf []protocol.PileCard, r *Ruleset, rng *rand.Rand) []protocol.PileCard {
	if !r.Bidding.UsesPile() {
		return nil
	}
	pile := protocol.AppendFullPile(buf[:0], r.DraaikaartJokers)
	rng.Shuffle(len(pile), func(i, j int) { pile[i], pile[j] = pile[j], pile[i] })
	return pile
}

// DealHands deals the deck clockwise starting left of the dealer, in the ruleset's packets
// (RULES.md §3): with [3,2,3] the first player gets cards 0-2, the next 3-5, and so on.
// Cards beyond the players' hands (the skart at a table of three) are returned as rest.
func DealHands(r *Ruleset, deck *Deck, dealer Seat) (hands [protocol.MaxSeats]CardSet, rest CardSet) {
	n, i := r.Players, 0
	for _, size := range r.DealPackets {
		seat := dealer
		for range n {
			seat = seat.Next(n)
			var h CardSet
			for _, c := range deck[i : i+int(size)] {
				h |= 1 << (c & 31)
			}
			hands[seat&3] |= h
			i += int(size)
		}
	}
	for ; i < len(deck); i++ {
		rest = rest.Add(deck[i])
	}
	return hands, rest
}

// checkHands verifies that the hands are disjoint and of the ruleset's hand size, and that the
// skart holds the cards left over (two at a table of three, none at four).
func checkHands(r *Ruleset, hands *[protocol.MaxSeats]CardSet, skart CardSet) error {
	if want := protocol.NumCards - NumCardsInPlay(r.Players); skart.Len() != want {
		return fmt.Errorf("skart has %d cards, want %d at a table of %d", skart.Len(), want, r.Players)
	}
	seen := skart
	for s := range r.Players {
		h := hands[s]
		if h.Len() != r.HandSize() {
			return fmt.Errorf("hand of %s has %d cards, want %d", Seat(s), h.Len(), r.HandSize())
		}
		if dup := seen & h; dup != 0 {
			return fmt.Errorf("card %s dealt twice (or also in the skart)", dup.Lowest())
		}
		seen |= h
	}
	for s := r.Players; s < protocol.MaxSeats; s++ {
		if hands[s] != 0 {
			return fmt.Errorf("seat %s is not at a table of %d but has cards", Seat(s), r.Players)
		}
	}
	return nil
}

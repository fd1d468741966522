package search

import (
	"math/rand/v2"

	"github.com/klaverjas-arena/arena/examplebots/go/heuristic/strategy"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// hidden is the index of the pseudo-seat that holds the three-player Player's two laid-away
// cards when the bot is not the Player.
const hidden = protocol.MaxSeats

// knowledge is what the bot knows about the hidden cards at one decision: which cards are
// out, how many each seat holds, and which cards each seat cannot hold (shown voids and
// trump limits). Seats are indexes in play order (bot.State.Playing), so that seat i+1
// plays after seat i.
type knowledge struct {
	rs       *rules.Ruleset
	n        int
	me       int
	trump    protocol.Suit
	maker    int // -1 while trumps are being chosen
	seats    []protocol.Seat
	hand     protocol.CardSet
	unknown  protocol.CardSet                        // cards in other hands (and laid away)
	need     [protocol.MaxSeats + 1]int              // cards each seat (and hidden) holds
	cannot   [protocol.MaxSeats + 1]protocol.CardSet // cards a seat is known not to hold
	played   [protocol.MaxSeats]protocol.CardSet     // cards each seat has played this deal
	discard  protocol.CardSet                        // the bot's own discards, as Player
	passedOn [protocol.MaxSeats]uint8                // suits (bits) a seat passed on when it could choose them
	chose    int                                     // the seat that chose trumps freely (not in a compulsory round), or -1
	replays  []replay                                // the others' cards, for the inference (observe)
	oracle   *world                                  // the true layout, when the player has one (Player.oracle): sample returns it
}

// index returns the play-order index of table seat s, or -1.
func (k *knowledge) index(s protocol.Seat) int {
	for i, x := range k.seats {
		if x == s {
			return i
		}
	}
	return -1
}

// newKnowledge gathers what state s shows. trick is the trick in progress.
func newKnowledge(rs *rules.Ruleset, s *bot.State, trump protocol.Suit, discard protocol.CardSet) *knowledge {
	k := &knowledge{rs: rs, n: rs.Players, trump: trump, seats: s.Playing, hand: s.Hand, maker: -1, chose: -1, discard: discard}
	if len(k.seats) != k.n {
		k.seats = make([]protocol.Seat, k.n)
		for i := range k.n {
			k.seats[i] = s.Dealer.Plus(i+1, k.n)
		}
	}
	k.me = k.index(s.Seat)
	if s.Maker != protocol.NoSeat {
		k.maker = k.index(s.Maker)
	}
	seen := protocol.CardSet(0)
	for _, t := range s.Tricks {
		k.learnTrick(t.Plays)
		for _, p := range t.Plays {
			seen = seen.Add(p.Card)
		}
	}
	k.learnTrick(s.Current)
	for _, p := range s.Current {
		seen = seen.Add(p.Card)
	}
	k.unknown = protocol.FullDeck &^ seen &^ k.hand &^ discard
	done := len(s.Tricks)
	for i := range k.n {
		if i == k.me {
			continue
		}
		k.need[i] = rs.HandSize() - done
		for _, p := range s.Current {
			if k.index(p.Seat) == i {
				k.need[i]--
			}
		}
	}
	if k.n == 3 && trump.Valid() && k.maker != k.me {
		k.need[hidden] = 2
	}
	if !trump.Valid() {
		// Bidding: the undealt cards at three (the skart) are out too, in no hand.
		total := 0
		for i := range k.n {
			total += k.need[i]
		}
		k.need[hidden] = k.unknown.Len() - total
	}
	k.learnBids(rs, s)
	return k
}

// learnTrick records, for each card played to a trick, the cards its player cannot have
// held: any card t for which c would have been illegal in a hand of c and t. (The rules are
// monotone: a card that is illegal beside t is illegal in any hand holding t.)
func (k *knowledge) learnTrick(plays []bot.TrickPlay) {
	if len(plays) == 0 || !k.trump.Valid() {
		return
	}
	t := rules.Trick{Leader: plays[0].Seat}
	for _, p := range plays {
		i := k.index(p.Seat)
		if i < 0 {
			continue
		}
		k.played[i] = k.played[i].Add(p.Card)
		if t.N > 0 {
			for c := range (protocol.FullDeck &^ k.cannot[i]).All() {
				if c != p.Card && !rules.Legal(k.rs, k.trump, protocol.SetOf(p.Card, c), &t).Has(p.Card) {
					k.cannot[i] = k.cannot[i].Add(c)
				}
			}
		}
		t.Add(p.Card)
	}
}

// learnBids records the suits each seat passed on when it could have chosen them: the
// sampler then prefers hands that would not have chosen them (strategy.Strength is the
// model of a bidder).
func (k *knowledge) learnBids(rs *rules.Ruleset, s *bot.State) {
	if rs.Bidding != rules.DirectKiezen && rs.Bidding != rules.NKUDealerFirst && rs.Bidding != rules.DirectKiezenDealerVerplicht {
		return // with a turned card a pass says less; not modelled
	}
	passes := 0
	for _, b := range s.Bids {
		i := k.index(b.Seat)
		if b.Bid == protocol.BidPass {
			passes++
		}
		if i < 0 || i == k.me {
			continue
		}
		if b.Bid == protocol.BidPass {
			k.passedOn[i] = 0xF
		} else if passes < k.n {
			k.chose = i // chose freely, before a compulsory round
		}
	}
}

// passThreshold is the strategy.Strength at or above which the model says a seat would have
// chosen a suit rather than pass, at a table of three; at four it is bidderThreshold, as
// the heuristic bot bids (and the PIMC bot with HeuristicPass).
const passThreshold = 70

// choseThreshold is the strategy.Strength below which the model says a seat would not have
// chosen its trump suit freely; at four its strongest suit must also reach bidderThreshold.
const choseThreshold = 45

// world is one full layout of the cards consistent with the knowledge.
type world struct {
	hands   [protocol.MaxSeats]protocol.CardSet
	discard protocol.CardSet // laid away at three
}

// sample deals the unknown cards at random to the seats, each its number of cards and none
// it cannot hold, preferring layouts in which no seat that passed holds a hand the bid model
// would have played, nor the seat that chose trumps one it would not have. When no layout
// fits after many tries the bid model is dropped, then the card constraints: the caller always
// gets a world.
func (k *knowledge) sample(rng *rand.Rand) world {
	if k.oracle != nil {
		return *k.oracle
	}
	for strict := 0; strict < 2; strict++ {
		for try := 0; try < 200; try++ {
			w, ok := k.deal(rng, strict == 0)
			if !ok {
				continue
			}
			if try < 150 && !k.plausibleBids(&w) {
				continue
			}
			return w
		}
	}
	w, _ := k.deal(rng, false)
	return w
}

// deal fills the most constrained seat first with random cards from those it may hold.
func (k *knowledge) deal(rng *rand.Rand, constrained bool) (world, bool) {
	var w world
	w.hands[k.me] = k.hand
	left := k.unknown
	var order [protocol.MaxSeats + 1]int
	m := 0
	for i := range k.n + 1 {
		if i != k.me && k.need[i] > 0 && (i < k.n || i == hidden) {
			order[m] = i
			m++
		}
	}
	seatsOf := order[:m]
	// Most constrained first: fewest candidate cards.
	for a := 1; a < len(seatsOf); a++ {
		for b := a; b > 0 && k.room(seatsOf[b], constrained) < k.room(seatsOf[b-1], constrained); b-- {
			seatsOf[b], seatsOf[b-1] = seatsOf[b-1], seatsOf[b]
		}
	}
	for _, i := range seatsOf {
		pool := left
		if constrained {
			pool &^= k.cannot[i]
		}
		if pool.Len() < k.need[i] {
			return w, false
		}
		got := protocol.CardSet(0)
		for range k.need[i] {
			c := pool.Nth(rng.IntN(pool.Len()))
			pool = pool.Remove(c)
			got = got.Add(c)
		}
		left &^= got
		if i == hidden {
			w.discard = got
		} else {
			w.hands[i] = got
		}
	}
	if k.n == 3 && k.maker == k.me {
		w.discard = k.discard
	}
	return w, true
}

func (k *knowledge) room(i int, constrained bool) int {
	if !constrained {
		return k.unknown.Len()
	}
	return (k.unknown &^ k.cannot[i]).Len() - k.need[i]
}

// plausibleBids reports whether no seat that passed would, by the bid model, have chosen a
// suit with the cards it was dealt in w, and the seat that chose trumps freely would have.
func (k *knowledge) plausibleBids(w *world) bool {
	for i := range k.n {
		if k.passedOn[i] == 0 && i != k.chose {
			continue
		}
		dealt := w.hands[i] | k.played[i]
		threshold := passThreshold
		if k.n == 4 {
			threshold = bidderThreshold
			if i == 0 || k.rs.FirstLead == rules.MakerLeads {
				threshold -= 4 // the heuristic's bonus for leading the first trick
			}
		}
		if i == k.chose && k.trump.Valid() {
			if strategy.Strength(k.rs, dealt, k.trump) < choseThreshold {
				return false
			}
			if _, st := strongestSuit(k.rs, dealt); k.n == 4 && st < threshold {
				return false
			}
		}
		for su := range protocol.Suit(protocol.NumSuits) {
			if k.passedOn[i]&(1<<su) != 0 && strategy.Strength(k.rs, dealt, su) >= threshold {
				return false
			}
		}
	}
	return true
}

package search

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/examplebots/go/heuristic/strategy"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/solver"
)

// dealtHands deals again the cards of the deal of s in a match of seed, at a table of four
// and without a deal key, as the referee deals them (referee.DealRand, rules.Shuffle,
// rules.DealHands from the dealer): the hands by table seat. Of the redeals it finds the
// one that gave the seat of s the cards it holds and has played; ok is false if none did.
func dealtHands(rs *rules.Ruleset, seed uint64, s *bot.State) (hands [protocol.MaxSeats]protocol.CardSet, ok bool) {
	mine := s.Hand
	for _, t := range append(s.Tricks, bot.FinishedTrick{Plays: s.Current}) {
		for _, p := range t.Plays {
			if p.Seat == s.Seat {
				mine = mine.Add(p.Card)
			}
		}
	}
	pair := (s.Game - 1) / referee.DuplicateGames(rs, rs.Players)
	for attempt := range 100 {
		deck := rules.Shuffle(referee.DealRand(nil, seed, pair, s.Deal, attempt))
		hands, _ = rules.DealHands(rs, &deck, s.Dealer)
		if hands[s.Seat] == mine {
			return hands, true
		}
	}
	return hands, false
}

// oracleOf returns a Player.oracle for the deals of a match of seed at a table of four
// (dealtHands): each seat's dealt cards that are still out, for the bids if bids, for the
// card play if play. It fails tb if it cannot find a deal.
func oracleOf(tb testing.TB, rs *rules.Ruleset, seed uint64, bids, play bool) func(*bot.State, *knowledge) (world, bool) {
	return func(s *bot.State, k *knowledge) (world, bool) {
		var w world
		if k.trump.Valid() && !play || !k.trump.Valid() && !bids {
			return w, false
		}
		hands, ok := dealtHands(rs, seed, s)
		if !ok {
			tb.Errorf("game %d deal %d: no deal of seed %d gives %s the cards %s", s.Game, s.Deal, seed, s.Seat, s.Hand)
			return w, false
		}
		for i, seat := range k.seats {
			w.hands[i] = hands[seat] & (k.unknown | k.hand)
		}
		return w, true
	}
}

// TestOracle plays a duplicate pair of the PIMC bot with the true deal as its only world
// against the heuristic, and checks the seam the oracle runs of TestStrength use: the deal
// it computes is the referee's (the deal records), the true world is one the bot's
// knowledge allows (each seat its number of cards, none it is known not to hold), and in
// the exact phase the bot plays a card of the best open-card value in the true position.
func TestOracle(t *testing.T) {
	rs, _ := rules.Preset("amsterdams")
	const seed = 31
	cfg := DefaultConfig()
	cfg.Worlds = 1
	cfg.Budget = 10 * time.Second // the exact phase runs to the end however busy the machine is
	var mu sync.Mutex
	told := map[[2]int]string{} // the hands the oracle gave, by game and deal
	exactChecked := 0
	wrap := func(p *Player) bot.Bot {
		oracle := oracleOf(t, &rs, seed, true, true)
		p.oracle = func(s *bot.State, k *knowledge) (world, bool) {
			w, ok := oracle(s, k)
			if !ok {
				t.Errorf("game %d deal %d: no true world", s.Game, s.Deal)
			}
			for i := range k.n {
				if i == k.me {
					continue
				}
				if w.hands[i].Len() != k.need[i] || w.hands[i]&k.cannot[i] != 0 || w.hands[i]&^k.unknown != 0 {
					t.Errorf("game %d deal %d: seat %d holds %s in the true world: need %d, cannot hold %s, out %s",
						s.Game, s.Deal, i, w.hands[i], k.need[i], k.cannot[i], k.unknown)
				}
			}
			hands, _ := dealtHands(&rs, seed, s)
			mu.Lock()
			told[[2]int{s.Game, s.Deal}] = fmt.Sprint(hands)
			mu.Unlock()
			return w, ok
		}
		b := p.Bot()
		decide := b.Decide
		b.Decide = func(s *bot.State, d bot.Decision) bot.Answer {
			a := decide(s, d)
			req, _ := d.Request.(*protocol.PlayRequest)
			if d.Kind != bot.PlayKind || d.LegalCards.Len() < 2 || req == nil || rs.HandSize()-len(s.Tricks) > cfg.ExactTricks {
				return a
			}
			k := p.newKnowledge(&rs, s, req.Trump, 0)
			pos := rootPosition(&rs, s, d, k, req.Leader)
			pos.Hands = k.oracle.hands
			pos.StukSeat = k.stukSeat(k.oracle)
			best, got := -1<<30, -1<<30
			for _, mv := range solver.New(16).Moves(&pos, rs.SideOf(protocol.Seat(k.me))) {
				best = max(best, mv.Value)
				if mv.Card == a.Card {
					got = mv.Value
				}
			}
			if got != best {
				t.Errorf("game %d deal %d trick %d: played %s worth %d in the true position; the best is worth %d", s.Game, s.Deal, len(s.Tricks)+1, a.Card, got, best)
			}
			mu.Lock()
			exactChecked++
			mu.Unlock()
			return a
		}
		return b
	}
	records := 0
	check := referee.DealFunc(func(r *referee.DealRecord) error {
		records++
		var hands [protocol.MaxSeats]protocol.CardSet
		for i, h := range r.Hands {
			c, err := protocol.ParseCardSet(h)
			if err != nil {
				return err
			}
			hands[i] = c
		}
		mu.Lock()
		defer mu.Unlock()
		if got, ok := told[[2]int{r.Game, r.Deal}]; ok && got != fmt.Sprint(hands) {
			t.Errorf("game %d deal %d: the oracle dealt %s, the referee %s", r.Game, r.Deal, got, fmt.Sprint(hands))
		}
		return nil
	})
	match(t, rs, cfg, func(uint64) bot.Bot { return strategy.Bot() }, 1, seed, check, &harness{wrap: wrap})
	if len(told) < records || exactChecked == 0 {
		t.Errorf("the oracle was asked in %d of %d deals, and %d decisions of the exact phase checked", len(told), records, exactChecked)
	}
}

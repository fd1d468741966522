package strategy

import (
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// trumpValue is what each trump adds to a hand's strength, by natural rank 7 8 9 T J Q K A.
var trumpValue = [protocol.NumRanks]int{
	protocol.Seven: 4, protocol.Eight: 4, protocol.Nine: 20, protocol.Ten: 10,
	protocol.Jack: 28, protocol.Queen: 5, protocol.King: 6, protocol.Ace: 12,
}

// Strength scores hand with trump as trumps, the way a player sizes up a hand: the jack,
// nine, ace and ten of trumps, the number of trumps, side aces (with their tens) and, with
// trumps to ruff, short side suits. From 60 (56 for the player who would lead the first
// trick) the bot plays on the suit: jack, nine and ace of trumps with a side ace score about
// 80, the jack with three small trumps and a side ace about 69; the jack with two small
// trumps and a side ace (54) and a bare nine with a side ace (about 26) pass.
func Strength(rs *rules.Ruleset, hand protocol.CardSet, trump protocol.Suit) int {
	trumps := hand.Suit(trump)
	n := trumps.Len()
	score := 0
	for c := range trumps.All() {
		score += trumpValue[c.Rank()]
	}
	jack, nine := protocol.NewCard(protocol.Jack, trump), protocol.NewCard(protocol.Nine, trump)
	if trumps.Has(nine) && !trumps.Has(jack) && n <= 2 {
		score -= 8 // a bare nine falls to the jack
	}
	if n >= 3 {
		score += (n - 2) * 8
	}
	stuk := protocol.SetOf(protocol.NewCard(protocol.King, trump), protocol.NewCard(protocol.Queen, trump))
	if rs.StukScoring == rules.StukAnnouncedByHolder && trumps&stuk == stuk {
		score += 12 // the holder scores 20 for playing both
	}
	for su := range protocol.Suit(protocol.NumSuits) {
		if su == trump {
			continue
		}
		side := hand.Suit(su)
		switch {
		case side.Has(protocol.NewCard(protocol.Ace, su)):
			score += 10
			if side.Has(protocol.NewCard(protocol.Ten, su)) {
				score += 6
			}
		case side.Has(protocol.NewCard(protocol.Ten, su)) && side.Len() >= 2:
			score += 2
		case side == 0 && n >= 3:
			score += 6
		case side.Len() == 1 && n >= 3:
			score += 2
		}
	}
	return score
}

// chooseBid plays on the strongest legal suit when it is strong enough or passing is not
// allowed, and passes otherwise.
func chooseBid(p *params, rs *rules.Ruleset, s *bot.State, legal protocol.Bids) protocol.Bid {
	best, bestScore := protocol.BidPass, 0
	for _, b := range legal.All() {
		if b == protocol.BidPass {
			continue
		}
		score := Strength(rs, s.Hand, b.Suit())
		if best == protocol.BidPass || score > bestScore {
			best, bestScore = b, score
		}
	}
	if leadsFirst(rs, s) {
		bestScore += 4 // the maker who leads can pull trumps at once
	}
	if best == protocol.BidPass || legal.Has(protocol.BidPass) && bestScore < p.bidThreshold {
		return protocol.BidPass
	}
	return best
}

// leadsFirst reports whether the bot would lead the first trick if it made trumps.
func leadsFirst(rs *rules.Ruleset, s *bot.State) bool {
	return rs.FirstLead == rules.MakerLeads || s.Dealer < seats && s.Seat == s.Dealer.Plus(1, seats)
}

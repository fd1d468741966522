package search

import (
	"slices"
	"time"

	"github.com/klaverjas-arena/arena/examplebots/go/heuristic/strategy"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/solver"
)

// bid values each suit the bot may choose by PIMC over the deals its hand allows (the solver
// BidHorizon tricks deep from the first lead, with the estimate after that), and chooses the
// best, or passes when it may and the best is worth less than PassBelow.
func (p *Player) bid(rs *rules.Ruleset, s *bot.State, legal protocol.Bids, deadline time.Time) protocol.Bid {
	p.bidSearched = false
	var suits []protocol.Suit
	for su := range protocol.Suit(protocol.NumSuits) {
		if legal.Has(protocol.PlaySuit(su)) {
			suits = append(suits, su)
		}
	}
	if len(suits) == 0 {
		return protocol.BidPass
	}
	if len(suits) == 1 && !legal.Has(protocol.BidPass) {
		return protocol.PlaySuit(suits[0])
	}
	k := p.newKnowledge(rs, s, protocol.NoSuit, 0)
	if k.me < 0 || p.cfg.BidHorizon == 0 {
		return strategy.Decide(s, bot.Decision{Kind: bot.BidKind, LegalBids: legal}).Bid
	}
	simulate := p.cfg.PassValue && rs.Bidding == rules.DirectKiezen && rs.Players == 4 && legal.Has(protocol.BidPass)
	if p.cfg.HeuristicPass && !simulate && legal.Has(protocol.BidPass) {
		if strategy.Decide(s, bot.Decision{Kind: bot.BidKind, LegalBids: legal}).Bid == protocol.BidPass {
			return protocol.BidPass
		}
		legal &^= 1 << protocol.BidPass
	}
	p.solver.Horizon, p.solver.Deadline, p.solver.NatNoise = p.cfg.BidHorizon, deadline, p.cfg.BidNatNoise
	var sum [protocol.NumSuits]int
	n := 0
	side := rs.SideOf(protocol.Seat(k.me))
	leader := 0 // left of the dealer leads: the first seat in play order
	if rs.FirstLead == rules.MakerLeads {
		leader = k.me
	}
	passSum, forcedN := 0, 0
	var forced [protocol.NumSuits]int // my suits' values in the worlds where I must name one later
	for time.Now().Before(deadline) && !p.enough(n) {
		w := k.sample(p.rng)
		var values [protocol.NumSuits]int
		for _, su := range suits {
			pos := solver.Position{Rules: rs, Trump: su, Maker: protocol.Seat(k.me), Hands: w.hands, StukSeat: protocol.NoSeat}
			pos.Trick = rules.Trick{Leader: protocol.Seat(leader)}
			if rs.Players == 3 {
				// The Player takes the skart (the cards out of every hand) and lays away two.
				hand := pos.Hands[k.me] | w.discard
				a := bot.LowestDiscard(hand, su)
				pos.Discard = protocol.SetOf(a[0], a[1])
				pos.Hands[k.me] = hand &^ pos.Discard
			}
			if rs.StukScoring == rules.StukAnnouncedByHolder {
				pos.StukSeat = k.stukSeatOf(&world{hands: pos.Hands}, su)
			}
			values[su] = p.solver.Value(&pos, side)
			if p.solver.Aborted() {
				break
			}
		}
		if p.solver.Aborted() {
			break
		}
		pass := 0
		if simulate {
			maker, trump := k.afterPass(&w, p.cfg.PartnerThreshold)
			if maker == k.me {
				for _, su := range suits {
					forced[su] += values[su]
				}
				forcedN++
			} else {
				pos := solver.Position{Rules: rs, Trump: trump, Maker: protocol.Seat(maker), Hands: w.hands, StukSeat: protocol.NoSeat}
				pos.Trick = rules.Trick{Leader: 0}
				if rs.FirstLead == rules.MakerLeads {
					pos.Trick.Leader = protocol.Seat(maker)
				}
				if rs.StukScoring == rules.StukAnnouncedByHolder {
					pos.StukSeat = k.stukSeatOf(&world{hands: pos.Hands}, trump)
				}
				pass = p.solver.Value(&pos, side)
				if p.solver.Aborted() {
					break
				}
			}
		}
		for _, su := range suits {
			sum[su] += values[su]
		}
		passSum += pass
		n++
	}
	p.Worlds = n
	if n == 0 {
		return strategy.Decide(s, bot.Decision{Kind: bot.BidKind, LegalBids: legal}).Bid
	}
	best := suits[0]
	for _, su := range suits {
		if sum[su] > sum[best] {
			best = su
		}
	}
	p.bidSearched = true
	p.bidValue = float64(sum[best]) / float64(n)
	if simulate {
		if forcedN > 0 {
			passSum += slices.Max(forced[:])
		}
		if sum[best] < passSum+p.cfg.PassBelow*n {
			p.bidValue = float64(passSum) / float64(n)
			return protocol.BidPass
		}
		return protocol.PlaySuit(best)
	}
	if legal.Has(protocol.BidPass) && sum[best] < p.cfg.PassBelow*n {
		p.bidSearched = false // the value of passing is not known here
		return protocol.BidPass
	}
	return protocol.PlaySuit(best)
}

// bidderThreshold is the strategy.Strength (with 4 for the seat that leads the first trick)
// from which the heuristic bot names a suit rather than pass.
const bidderThreshold = 60

// afterPass plays out, in world w, the direct_kiezen bidding after the bot passes: each seat
// after it names its strongest suit if strong enough by the heuristic bot's measure; when
// none does, voorhand (play-order index 0) must name one. It returns the maker and trumps.
// partnerThreshold, when positive, replaces bidderThreshold for a seat of the bot's own side
// that is not the last to speak (Config.PartnerThreshold).
func (k *knowledge) afterPass(w *world, partnerThreshold int) (maker int, trump protocol.Suit) {
	side := k.rs.SideOf(protocol.Seat(k.me))
	for j := k.me + 1; j < k.n; j++ {
		su, strength := strongestSuit(k.rs, w.hands[j])
		if j == 0 || k.rs.FirstLead == rules.MakerLeads {
			strength += 4
		}
		threshold := bidderThreshold
		if partnerThreshold > 0 && j < k.n-1 && k.rs.SideOf(protocol.Seat(j)) == side {
			threshold = partnerThreshold
		}
		if strength >= threshold {
			return j, su
		}
	}
	su, _ := strongestSuit(k.rs, w.hands[0])
	return 0, su
}

// strongestSuit returns the suit in which hand is strongest (strategy.Strength) and its
// strength.
func strongestSuit(rs *rules.Ruleset, hand protocol.CardSet) (protocol.Suit, int) {
	best, bestStrength := protocol.Suit(0), -1
	for su := range protocol.Suit(protocol.NumSuits) {
		if st := strategy.Strength(rs, hand, su); st > bestStrength {
			best, bestStrength = su, st
		}
	}
	return best, bestStrength
}

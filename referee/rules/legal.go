package rules

import "github.com/klaverjas-arena/arena/protocol"

// Legal returns the cards from hand that the seat to move may play to trick t, with trump as
// the trump suit, under the ruleset's play rules (RULES.md §5.2-5.4). The seat to move is the
// one after the last card played. The result is never empty when hand is not.
func Legal(r *Ruleset, trump Suit, hand CardSet, t *Trick) CardSet {
	if t.N == 0 {
		return hand
	}
	return legalAt(r, trump, hand, t, t.WinningIndex(trump))
}

// legalAt is Legal for a non-empty trick whose winning card has index wi.
func legalAt(r *Ruleset, trump Suit, hand CardSet, t *Trick, wi int) CardSet {
	led := t.Cards[0].Suit()
	follow := hand & protocol.SuitMask(led)
	win := t.Cards[wi]
	if led == trump {
		if follow == 0 {
			return hand
		}
		if higher := higherTrumps(follow, win, trump); higher != 0 {
			return higher
		}
		return follow
	}
	if follow != 0 {
		return follow
	}
	trumps := hand & protocol.SuitMask(trump)
	if trumps == 0 {
		return hand
	}
	trumpInTrick := win.Suit() == trump
	if r.PlayRule == Amsterdams && r.Players == 4 && wi%2 == t.N%2 {
		// Partner is winning (maatslag): free, except that undertrumping partner's trump
		// needs a hand of nothing but lower trumps.
		if !trumpInTrick || r.PartnerTrumpUndertrump == PartnerUndertrumpAllowed {
			return hand
		}
		lower := trumps &^ higherTrumps(trumps, win, trump)
		if rest := hand &^ lower; rest != 0 {
			return rest
		}
		return hand
	}
	if !trumpInTrick {
		return trumps
	}
	if higher := higherTrumps(trumps, win, trump); higher != 0 {
		return higher
	}
	if r.Undertrump == UndertrumpMandatory {
		return trumps
	}
	if others := hand &^ trumps; others != 0 {
		return others
	}
	return hand
}

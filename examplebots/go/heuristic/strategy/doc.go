// Package strategy is the decision logic of the heuristic example bot: it plays Klaverjas the
// way a sensible club player does, with rules of thumb and a little card counting, and no
// search.
//
// Bidding scores each legal suit as trumps (jack, nine, ace and ten of trumps, their number,
// side aces and guarded tens, voids) and plays on the best one when it is strong enough, or
// when it must.
//
// Card play counts the cards: from the cards seen so far it knows which cards the other three
// still hold, and from the tricks which suits (and which high trumps) each of them can no
// longer hold. With that it estimates, for every legal card, the chance that its side wins
// the trick, and plays the card with the best expected result: the trick's card points and
// roem (won or lost), less what the card is worth kept in the hand. That one rule wins tricks
// with the lowest card that does it, throws the lowest card on a lost trick, smears tens and
// aces on a trick the partner is sure to win, keeps trumps and roem cards from the opponents'
// tricks, and takes roem into its own. Leads add a few preferences: the makers pull trumps
// with the boss trump (the jack, or the nine once the jack is gone), the maker's partner
// leads trumps to him, the defenders keep their trumps and cash their aces, and a suit the
// partner led is led back.
//
// Decide is deterministic: the same state and decision give the same answer. It keeps no
// state of its own, so one Bot may serve any number of seats, and each decision takes a few
// microseconds.
package strategy

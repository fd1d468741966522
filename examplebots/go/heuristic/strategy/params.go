package strategy

// params are the weights of the heuristics. The bot plays with standard, tuned in self-play
// (TestVariant plays other weights against it).
type params struct {
	bidThreshold int // hand strength (see Strength) from which to play when passing is allowed

	trumpControl float64 // scales trumpControl: what a trump is worth kept, beyond its points
	bossWins     float64 // chance that a boss card wins later, before ruffing is counted
	bossExtra    float64 // points a boss card collects from the others when it wins
	looseWins    float64 // chance that a lower point card ends in the own side's trick
	guardedWins  float64 // the same for a card with at least as many guards as higher cards

	pullTrumps    float64 // lead bonus: the makers' boss trump while the opponents have trumps
	smallTrump    float64 // lead bonus: a small trump by the maker (with length) or his partner
	defenderTrump float64 // lead penalty: a trump led by a defender
	partnersSuit  float64 // lead bonus: a suit the partner has led
}

var standard = params{
	bidThreshold:  60,
	trumpControl:  1,
	bossWins:      0.8,
	bossExtra:     4,
	looseWins:     0.35,
	guardedWins:   0.5,
	pullTrumps:    30,
	smallTrump:    12,
	defenderTrump: 10,
	partnersSuit:  4,
}

// Package rules is the Klaverjas engine: the cards and their ranks and values under trumps,
// a Ruleset (every option of RULES.md §9, with its presets), a Deal that takes the bids,
// discards, cards and roem claims of one deal in turn and refuses an illegal one with a
// typed error, the roem of a trick, the scoring of a deal (RULES.md §7, the three-player game
// §11) and a Game of deals to its end. It is pure and deterministic: no processes, no clock,
// and randomness only from a caller's source.
package rules

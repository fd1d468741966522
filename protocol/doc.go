// Package protocol holds what the referee and every Go bot share: cards, card sets, suits,
// ranks, seats and teams, each with the text notation of spec.md ("JH", "TS", "N", "NS").
//
// It depends on the standard library only, so bot code can import it without pulling in
// the referee.
package protocol

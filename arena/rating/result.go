package rating

import (
	"errors"
	"fmt"
	"math"
)

// MaxBots is the number of distinct bot indices the package handles: a bot index must lie
// in [0, MaxBots).
const MaxBots = 1 << 16

// Team is a partnership of two bots, by index. A team of two copies of one bot is
// Team{i, i} (see Solo) and has exactly that bot's rating; a mixed team is rated as the
// mean of its two bots' ratings. The order of the two indices does not matter.
type Team [2]int

// Solo returns the team of two copies of one bot.
func Solo(bot int) Team { return Team{bot, bot} }

// Channel selects which of a result's two scores a fit or an incremental rating uses. Its
// String is "points" or "games".
type Channel uint8

//go:generate go tool stringer -type=Channel -linecomment

const (
	// Points is the primary channel: a pair's points share, one observation per pair.
	Points Channel = iota // points
	// Games is the game channel: win 1, draw ½, loss 0 for each game of the pair.
	Games // games
)

// ErrInvalidResult is wrapped by the error that Stats.Add returns for a result it cannot
// use.
var ErrInvalidResult = errors.New("rating: invalid result")

// Result is the unit of observation: one duplicate pair, that is the plays of one set of
// deals once with each seating, between the same two teams. It carries both channels,
// each scored for team 1.
//
// The game channel is clustered by pair: its Games games enter the fit as one cluster,
// so the correlation between the two plays of a deal set (the card luck that the replay
// cancels) is accounted for by the sandwich covariance rather than assumed away.
type Result struct {
	// Team1 and Team2 are the two teams. Swapping them, together with the scores
	// (Points → 1−Points, GameScore → Games−GameScore), describes the same result.
	Team1, Team2 Team
	// Points is team 1's share of all points scored in the pair's plays, in [0, 1].
	Points float64
	// GameScore is team 1's summed game score over the pair's games (win 1, draw ½,
	// loss 0 each), in [0, Games].
	GameScore float64
	// Games is the number of games in the pair, usually 2. Zero leaves the result out of
	// the game channel.
	Games int
	// Weight multiplies the result's log-likelihood. Zero is taken as 1, so that a
	// literal without a Weight has the natural weight; to leave a result out, do not add
	// it. A negative, infinite or NaN weight is invalid.
	Weight float64
}

// weight returns the weight the result carries: Weight, or 1 if Weight is zero.
func (r *Result) weight() float64 {
	if r.Weight == 0 {
		return 1
	}
	return r.Weight
}

// validate reports why r cannot be used, wrapping ErrInvalidResult, or returns nil.
func (r *Result) validate() error {
	for _, b := range [4]int{r.Team1[0], r.Team1[1], r.Team2[0], r.Team2[1]} {
		if b < 0 || b >= MaxBots {
			return fmt.Errorf("%w: bot index %d outside [0, %d)", ErrInvalidResult, b, MaxBots)
		}
	}
	if !(r.Points >= 0 && r.Points <= 1) {
		return fmt.Errorf("%w: points share %v outside [0, 1]", ErrInvalidResult, r.Points)
	}
	if r.Games < 0 {
		return fmt.Errorf("%w: %d games", ErrInvalidResult, r.Games)
	}
	if !(r.GameScore >= 0 && r.GameScore <= float64(r.Games)) {
		return fmt.Errorf("%w: game score %v outside [0, %d]", ErrInvalidResult, r.GameScore, r.Games)
	}
	if !(r.Weight >= 0) || math.IsInf(r.Weight, 0) {
		return fmt.Errorf("%w: weight %v", ErrInvalidResult, r.Weight)
	}
	return nil
}

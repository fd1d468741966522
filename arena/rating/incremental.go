package rating

import "fmt"

// Incremental is the classic incremental K-factor Elo, kept as a baseline to compare
// the fit against. It depends on the order of the results and, for fixed programs,
// never converges: its error has a floor of about 9.3·√K Elo however many games are
// played. Do not use it to rate bots.
type Incremental struct {
	K       float64   // Elo moved per unit of surprise
	Channel Channel   // channel the updates use
	Elo     []float64 // current ratings, all starting at 0
}

// NewIncremental returns K-factor ratings for bots 0 … bots−1, all at 0.
func NewIncremental(bots int, k float64, ch Channel) *Incremental {
	return &Incremental{K: k, Channel: ch, Elo: make([]float64, bots)}
}

// Add updates the ratings with one result. Team 1's surprise, K·w·(S − n·F) in the
// chosen channel, moves each of its bots up by the bot's share of the team rating (all
// of it for a team of one bot, half for a mixed team) and team 2's bots down alike.
// Add returns an error wrapping ErrInvalidResult, and changes nothing, if r is not valid
// or names a bot outside the ratings.
func (e *Incremental) Add(r Result) error {
	if err := r.validate(); err != nil {
		return err
	}
	bots := [4]int{r.Team1[0], r.Team1[1], r.Team2[0], r.Team2[1]}
	for _, b := range bots {
		if b >= len(e.Elo) {
			return fmt.Errorf("%w: bot %d, have %d ratings", ErrInvalidResult, b, len(e.Elo))
		}
	}
	d := (e.Elo[bots[0]]+e.Elo[bots[1]])/2 - (e.Elo[bots[2]]+e.Elo[bots[3]])/2
	f := Expected(d)
	n, s := 1.0, r.Points
	if e.Channel == Games {
		n, s = float64(r.Games), r.GameScore
	}
	delta := e.K * r.weight() * (s - n*f) / 2
	e.Elo[bots[0]] += delta
	e.Elo[bots[1]] += delta
	e.Elo[bots[2]] -= delta
	e.Elo[bots[3]] -= delta
	return nil
}

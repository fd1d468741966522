package rating

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// Incremental is the classic incremental K-factor Elo, kept as a baseline to compare
// the fit against in the tests (ratings.md). It depends on the order of the results and, for fixed programs,
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

func TestIncremental_Add(t *testing.T) {
	e := NewIncremental(4, 16, Games)
	mustInc := func(r Result) {
		t.Helper()
		if err := e.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	// Equal bots, team 1 wins both games: K·(2 − 2·½) = 16.
	mustInc(Result{Team1: Solo(0), Team2: Solo(1), GameScore: 2, Games: 2})
	want := []float64{16, -16, 0, 0}
	for i := range want {
		if math.Abs(e.Elo[i]-want[i]) > 1e-12 {
			t.Fatalf("after a solo result: %v, want %v", e.Elo, want)
		}
	}
	// Mixed teams: {0,2} is rated (16+0)/2 = 8 and {1,3} −8, so team 1 expects F(16). Its
	// surprise K·(1 − F(16)) moves each of its bots by half, and team 2's alike.
	mustInc(Result{Team1: Team{0, 2}, Team2: Team{1, 3}, GameScore: 1, Games: 1})
	d := 16 * (1 - Expected(16)) / 2
	want = []float64{16 + d, -16 - d, d, -d}
	for i := range want {
		if math.Abs(e.Elo[i]-want[i]) > 1e-12 {
			t.Fatalf("after a mixed result: %v, want %v", e.Elo, want)
		}
	}
	p := NewIncremental(2, 10, Points)
	if err := p.Add(Result{Team1: Solo(1), Team2: Solo(0), Points: 0.7}); err != nil {
		t.Fatal(err)
	}
	if math.Abs(p.Elo[1]-2) > 1e-12 || math.Abs(p.Elo[0]+2) > 1e-12 {
		t.Errorf("points channel: %v, want [-2 2]", p.Elo)
	}
}

func TestIncremental_AddRejectsInvalid(t *testing.T) {
	e := NewIncremental(2, 16, Games)
	for _, r := range []Result{
		{Team1: Solo(0), Team2: Solo(2)},
		{Team1: Solo(0), Team2: Solo(1), Points: 2},
	} {
		if err := e.Add(r); !errors.Is(err, ErrInvalidResult) {
			t.Errorf("Add(%+v) = %v, want ErrInvalidResult", r, err)
		}
	}
	if e.Elo[0] != 0 || e.Elo[1] != 0 {
		t.Errorf("rejected results moved the ratings: %v", e.Elo)
	}
}

package rating

import (
	"errors"
	"math"
	"testing"
)

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

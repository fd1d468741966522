package rating_test

import (
	"errors"
	"fmt"

	"github.com/klaverjas-arena/arena/arena/rating"
)

func ExampleFit() {
	// Three bots; each result is one duplicate pair: team 1's points share over both
	// plays, and its score in the two games.
	var st rating.Stats
	results := []struct {
		a, b          int
		points, games float64
	}{
		{0, 1, 0.58, 1.5}, {1, 2, 0.55, 1}, {2, 0, 0.40, 0.5},
		{0, 1, 0.47, 1}, {1, 2, 0.61, 2}, {2, 0, 0.52, 1},
		{0, 1, 0.63, 2}, {1, 2, 0.44, 0.5}, {2, 0, 0.37, 0},
		{0, 1, 0.51, 1}, {1, 2, 0.57, 1.5}, {2, 0, 0.49, 1},
	}
	for _, x := range results {
		r := rating.Result{Team1: rating.Solo(x.a), Team2: rating.Solo(x.b), Points: x.points, GameScore: x.games, Games: 2}
		if err := st.Add(r); err != nil {
			panic(err)
		}
	}
	r, err := rating.Fit(&st, rating.Options{Channel: rating.Points})
	if err != nil {
		panic(err)
	}
	for i, elo := range r.Elo {
		lo, hi := r.Interval(i)
		fmt.Printf("bot %d: %+6.1f  [%+6.1f, %+6.1f]\n", i, elo, lo, hi)
	}
	fmt.Printf("LOS(0 > 1) = %.3f\n", r.LOS(0, 1))
	// Output:
	// bot 0:  +23.8  [  +1.5,  +46.2]
	// bot 1:   -1.2  [ -23.6,  +21.2]
	// bot 2:  -22.7  [ -45.2,   -0.1]
	// LOS(0 > 1) = 0.897
}

func ExampleFit_disconnected() {
	var st rating.Stats
	_ = st.Add(rating.Result{Team1: rating.Solo(0), Team2: rating.Solo(1), Points: 0.6})
	_ = st.Add(rating.Result{Team1: rating.Solo(2), Team2: rating.Solo(3), Points: 0.6})
	_, err := rating.Fit(&st, rating.Options{})
	var de *rating.DisconnectedError
	if errors.As(err, &de) {
		fmt.Println(de.Components)
	}
	// Output:
	// [[0 1] [2 3]]
}

func ExampleSPRT() {
	// Is the new bot at least 20 Elo stronger (H1) or not stronger at all (H0)?
	test, err := rating.NewSPRT(rating.SPRTConfig{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05})
	if err != nil {
		panic(err)
	}
	// The new bot's mean game score in each duplicate pair, in the order played.
	pairs := []float64{0.5, 0.75, 0.5, 0.5, 1, 0.5, 0.25, 0.75, 0.5, 0.75}
	decision := rating.Continue
	for decision == rating.Continue {
		decision, err = test.Add(pairs[test.Pairs%len(pairs)])
		if err != nil {
			panic(err)
		}
	}
	lower, upper := test.Bounds()
	fmt.Printf("%v after %d pairs: LLR %.2f, bounds [%.2f, %.2f]\n", decision, test.Pairs, test.LLR(), lower, upper)
	// Output:
	// H1 after 62 pairs: LLR 2.97, bounds [-2.94, 2.94]
}

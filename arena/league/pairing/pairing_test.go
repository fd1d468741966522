package pairing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("bot%d", i)
	}
	return out
}

func mustNew(t *testing.T, name string, c Config) Format {
	t.Helper()
	f, err := New(name, c)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func bots(ms []Match) [][]int {
	var out [][]int
	for _, m := range ms {
		out = append(out, m.Bots)
	}
	return out
}

// win is a result of a two-bot match: the first bot scores a, the second b; each wins one
// game of the pair unless a score is higher.
func win(a, b, pa, pb int) Result {
	won := []int{1, 1}
	switch {
	case pa > pb:
		won = []int{2, 0}
	case pb > pa:
		won = []int{0, 2}
	}
	return Result{Bots: []int{a, b}, Points: []int{pa, pb}, Won: won}
}

func TestRoundRobinAndGauntlet(t *testing.T) {
	rr := mustNew(t, "round_robin", Config{Names: names(3), Size: 2, Sets: 2})
	got, err := rr.Next(nil)
	want := [][]int{{0, 1}, {0, 2}, {1, 2}, {1, 0}, {2, 0}, {2, 1}}
	if err != nil || !slices.EqualFunc(bots(got), want, slices.Equal) || rr.Matches() != 6 {
		t.Errorf("round robin: %v %v (%d matches), want %v", bots(got), err, rr.Matches(), want)
	}
	if more, err := rr.Next([][]Result{{}}); len(more) != 0 || err != nil {
		t.Errorf("round robin after its round: %v %v", more, err)
	}
	three := mustNew(t, "round_robin", Config{Names: names(4), Size: 3, Sets: 1})
	if got, _ := three.Next(nil); len(got) != 4 || three.Matches() != 4 {
		t.Errorf("three-player round robin: %v", bots(got))
	}
	g := mustNew(t, "gauntlet", Config{Names: names(4), Size: 2, Sets: 1, Gauntlet: "bot2"})
	got, _ = g.Next(nil)
	if want := [][]int{{0, 2}, {1, 2}, {2, 3}}; !slices.EqualFunc(bots(got), want, slices.Equal) || g.Matches() != 3 {
		t.Errorf("gauntlet: %v, want %v", bots(got), want)
	}
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		format string
		cfg    Config
		want   []string
	}{
		{"swizz", Config{Names: names(4), Size: 2, Sets: 1}, []string{`format = "swizz": want one of "round_robin", "gauntlet", "swiss", "knockout"`}},
		{"round_robin", Config{Names: names(4), Size: 2, Sets: 1, Gauntlet: "bot1", Rounds: 2}, []string{`gauntlet = "bot1" is only for format = "gauntlet"`, `rounds = 2 is only for format = "swiss"`}},
		{"gauntlet", Config{Names: names(4), Size: 2, Sets: 1, Gauntlet: "nobody"}, []string{`gauntlet = "nobody": want the name of one of the bots`}},
		{"swiss", Config{Names: names(5), Size: 2, Sets: 1, Rounds: 3}, []string{"rounds = 3: a Swiss league of 5 bots plays 1 to 2 rounds"}},
		{"swiss", Config{Names: names(5), Size: 2, Sets: 1, Rounds: -1}, []string{"rounds = -1"}},
		{"swiss", Config{Names: names(6), Size: 3, Sets: 1}, []string{`format = "swiss" pairs two bots a match: it is for the four-player game`}},
		{"knockout", Config{Names: names(6), Size: 3, Sets: 1}, []string{`format = "knockout" pairs two bots a match`}},
		{"knockout", Config{Names: names(1), Size: 2, Sets: 1}, []string{"a league needs at least 2 bots, has 1"}},
	} {
		_, err := New(c.format, c.cfg)
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s %+v: %v, want %q", c.format, c.cfg, err, w)
			}
		}
	}
}

// TestSwissDefaultRounds: ⌈log₂ N⌉ rounds, at most ⌊N/2⌋.
func TestSwissDefaultRounds(t *testing.T) {
	for n, want := range map[int]int{2: 1, 3: 1, 4: 2, 5: 2, 8: 3, 9: 4, 16: 4, 17: 5} {
		s := mustNew(t, "swiss", Config{Names: names(n), Size: 2, Sets: 2}).(*swiss)
		if s.rounds != want || s.Matches() != want*(n/2)*2 {
			t.Errorf("%d bots: %d rounds, %d matches; want %d rounds", n, s.rounds, s.Matches(), want)
		}
	}
}

// TestSwissPairsByScore: round one pairs in seed order; round two pairs the winners and the
// losers, the higher-ranked sitting first; the ranking follows score, Buchholz, share, seed.
func TestSwissPairsByScore(t *testing.T) {
	s := mustNew(t, "swiss", Config{Names: names(4), Size: 2, Sets: 1})
	r1, err := s.Next(nil)
	if want := [][]int{{0, 1}, {2, 3}}; err != nil || !slices.EqualFunc(bots(r1), want, slices.Equal) {
		t.Fatalf("round 1: %v %v, want %v", bots(r1), err, want)
	}
	// Bot 1 and bot 3 win; bot 3 by more, so it ranks first.
	h := [][]Result{{win(0, 1, 60, 100), win(2, 3, 40, 120)}}
	r2, err := s.Next(h)
	if want := [][]int{{3, 1}, {0, 2}}; err != nil || !slices.EqualFunc(bots(r2), want, slices.Equal) {
		t.Fatalf("round 2: %v %v, want %v", bots(r2), err, want)
	}
	h = append(h, []Result{win(3, 1, 80, 80), win(0, 2, 90, 50)})
	if more, err := s.Next(h); len(more) != 0 || err != nil {
		t.Errorf("after the last round: %v %v", bots(more), err)
	}
	rk, err := s.(Ranker).Rank(h)
	if err != nil {
		t.Fatal(err)
	}
	// Scores: bot1 1½, bot3 1½, bot0 1, bot2 0. Buchholz breaks the tie at the top: bot 1
	// met bot 0 (1) and bot 3 (1½), 2½; bot 3 met bot 2 (0) and bot 1 (1½), 1½.
	var order []int
	for _, r := range rk.Rows {
		order = append(order, r.Bot)
	}
	if want := []int{1, 3, 0, 2}; !slices.Equal(order, want) {
		t.Errorf("ranking %v, want %v: %+v", order, want, rk.Rows)
	}
	if r := rk.Rows[0]; r.Place != 1 || !slices.Equal(r.Values[:2], []float64{1.5, 2.5}) {
		t.Errorf("first row %+v, want score 1.5, Buchholz 2.5", r)
	}
	if rk.Rows[1].Place != 2 || rk.Rows[3].Place != 4 {
		t.Errorf("places %+v", rk.Rows)
	}
}

// TestSwissProperties plays Swiss leagues of 2 to 13 bots with random results for the most
// rounds allowed: every round pairs every bot at most once, no pairing repeats, an odd count
// gives exactly one bye a round and no bot two, and the matches add up to Matches.
func TestSwissProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 2; n <= 13; n++ {
		for trial := range 30 {
			s := mustNew(t, "swiss", Config{Names: names(n), Size: 2, Sets: 2, Rounds: n / 2})
			met := map[[2]int]bool{}
			byes := make([]int, n)
			var h [][]Result
			total := 0
			for {
				ms, err := s.Next(h)
				if err != nil {
					t.Fatalf("%d bots, trial %d, round %d: %v", n, trial, len(h)+1, err)
				}
				if len(ms) == 0 {
					break
				}
				total += len(ms)
				playing := make([]int, n)
				var round []Result
				for i, m := range ms {
					a, b := m.Bots[0], m.Bots[1]
					if i < len(ms)/2 {
						playing[a]++
						playing[b]++
						key := [2]int{min(a, b), max(a, b)}
						if met[key] {
							t.Fatalf("%d bots, round %d: %d and %d meet again", n, len(h)+1, a, b)
						}
						met[key] = true
					} else if p := ms[i-len(ms)/2].Bots; p[0] != b || p[1] != a {
						t.Fatalf("set 2 match %v does not reverse set 1's %v", m.Bots, p)
					}
					round = append(round, win(a, b, rng.IntN(160), rng.IntN(160)))
				}
				sitting := 0
				for b, k := range playing {
					switch k {
					case 0:
						sitting++
						if byes[b]++; byes[b] > 1 {
							t.Fatalf("%d bots: bot %d has a second bye", n, b)
						}
					case 1:
					default:
						t.Fatalf("%d bots: bot %d plays %d times in a round", n, b, k)
					}
				}
				if sitting != n%2 {
					t.Fatalf("%d bots: %d sit out a round", n, sitting)
				}
				h = append(h, round)
			}
			if len(h) != n/2 || total != s.Matches() {
				t.Fatalf("%d bots: %d rounds, %d matches, want %d and %d", n, len(h), total, n/2, s.Matches())
			}
		}
	}
}

// TestSwissBye: five bots: the lowest-ranked bot sits out and scores a point, and the next
// round's bye goes to another bot.
func TestSwissBye(t *testing.T) {
	s := mustNew(t, "swiss", Config{Names: names(5), Size: 2, Sets: 1})
	r1, _ := s.Next(nil)
	if want := [][]int{{0, 1}, {2, 3}}; !slices.EqualFunc(bots(r1), want, slices.Equal) {
		t.Fatalf("round 1: %v, want %v (bot 4 sits out)", bots(r1), want)
	}
	h := [][]Result{{win(0, 1, 100, 60), win(2, 3, 100, 60)}}
	r2, _ := s.Next(h)
	// Bots 0, 2 and 4 have a point; bot 4 had its bye, so bot 3 (lowest of the rest) sits out.
	for _, m := range r2 {
		if slices.Contains(m.Bots, 3) {
			t.Errorf("round 2 %v: bot 3 should have the bye", bots(r2))
		}
	}
	if len(r2) != 2 {
		t.Fatalf("round 2: %v", bots(r2))
	}
	rk, _ := s.(Ranker).Rank(h)
	for _, r := range rk.Rows {
		if r.Bot == 4 && (r.Values[0] != 1 || r.Values[3] != 1) {
			t.Errorf("bot 4 after its bye: %+v, want score 1 and 1 bye", r)
		}
	}
}

// TestSwissRejectsForeignResults: results of bots playing twice in a round are an error.
func TestSwissRejectsForeignResults(t *testing.T) {
	s := mustNew(t, "swiss", Config{Names: names(4), Size: 2, Sets: 1})
	if _, err := s.Next([][]Result{{win(0, 1, 1, 2), win(1, 2, 1, 2)}}); err == nil {
		t.Error("a bot playing twice in a round was accepted")
	}
}

// TestKnockoutBracket: five bots in a bracket of eight; seeds 1 to 3 have byes, seeds 4 and
// 5 play, then the semi-finals and the final.
func TestKnockoutBracket(t *testing.T) {
	k := mustNew(t, "knockout", Config{Names: names(5), Size: 2, Sets: 2})
	if got := seedOrder(8); !slices.Equal(got, []int{1, 8, 4, 5, 2, 7, 3, 6}) {
		t.Errorf("seed order %v", got)
	}
	r1, err := k.Next(nil)
	if want := [][]int{{3, 4}, {4, 3}}; err != nil || !slices.EqualFunc(bots(r1), want, slices.Equal) {
		t.Fatalf("round 1: %v %v, want %v", bots(r1), err, want)
	}
	// Bot 4 (seed 5) wins its tie over the two sets.
	h := [][]Result{{win(3, 4, 90, 70), win(4, 3, 100, 60)}}
	r2, _ := k.Next(h)
	if want := [][]int{{0, 4}, {1, 2}, {4, 0}, {2, 1}}; !slices.EqualFunc(bots(r2), want, slices.Equal) {
		t.Fatalf("semi-finals: %v, want %v", bots(r2), want)
	}
	h = append(h, []Result{win(0, 4, 50, 100), win(1, 2, 80, 80), win(4, 0, 70, 90), win(2, 1, 80, 80)})
	r3, _ := k.Next(h)
	// Bot 4 beats bot 0 170–140; bots 1 and 2 tie on points and games: the better seed, bot 1.
	if want := [][]int{{4, 1}, {1, 4}}; !slices.EqualFunc(bots(r3), want, slices.Equal) {
		t.Fatalf("final: %v, want %v", bots(r3), want)
	}
	h = append(h, []Result{win(4, 1, 60, 100), win(1, 4, 90, 80)})
	if more, err := k.Next(h); len(more) != 0 || err != nil {
		t.Errorf("after the final: %v %v", bots(more), err)
	}
	total := len(r1) + len(r2) + len(r3)
	if total != k.Matches() {
		t.Errorf("%d matches played, Matches says %d", total, k.Matches())
	}
	rk, err := k.(Ranker).Rank(h)
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]int
	for _, r := range rk.Rows {
		got = append(got, [2]int{r.Bot, r.Place})
	}
	if want := [][2]int{{1, 1}, {4, 2}, {0, 3}, {2, 3}, {3, 5}}; !slices.Equal(got, want) {
		t.Errorf("ranking (bot, place) %v, want %v", got, want)
	}
}

// TestKnockoutTieBreaks: equal points go to the bot that won more games, then to the
// better seed.
func TestKnockoutTieBreaks(t *testing.T) {
	k := mustNew(t, "knockout", Config{Names: names(2), Size: 2, Sets: 1})
	for _, c := range []struct {
		res    Result
		winner int
	}{
		{Result{Bots: []int{0, 1}, Points: []int{100, 100}, Won: []int{0, 1}}, 1},
		{Result{Bots: []int{1, 0}, Points: []int{100, 100}, Won: []int{1, 0}}, 1},
		{Result{Bots: []int{1, 0}, Points: []int{100, 100}, Won: []int{1, 1}}, 0},
		{Result{Bots: []int{1, 0}, Points: []int{99, 100}, Won: []int{2, 0}}, 0},
	} {
		rk, err := k.(Ranker).Rank([][]Result{{c.res}})
		if err != nil || rk.Rows[0].Bot != c.winner || rk.Rows[0].Place != 1 || rk.Rows[1].Place != 2 {
			t.Errorf("%+v: %+v %v, want bot %d through", c.res, rk.Rows, err, c.winner)
		}
	}
	if _, err := k.Next([][]Result{{win(0, 1, 1, 2)}, {win(0, 1, 1, 2)}}); err == nil {
		t.Error("a round after the final was accepted")
	}
}

// TestKnockoutPowersOfTwo: every bracket size from 2 to 33 bots plays N−1 ties, with byes
// only in the first round and to the best seeds, and the best seed wins when seeds win.
func TestKnockoutPowersOfTwo(t *testing.T) {
	for n := 2; n <= 33; n++ {
		k := mustNew(t, "knockout", Config{Names: names(n), Size: 2, Sets: 1})
		var h [][]Result
		played := 0
		for {
			ms, err := k.Next(h)
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) == 0 {
				break
			}
			if len(h) == 0 {
				in := map[int]bool{}
				for _, m := range ms {
					in[m.Bots[0]], in[m.Bots[1]] = true, true
				}
				size := 1
				for size < n {
					size *= 2
				}
				for b := range size - n {
					if in[b] {
						t.Errorf("%d bots: seed %d has a bye but plays round 1", n, b+1)
					}
				}
				if len(in) != 2*n-size {
					t.Errorf("%d bots: %d play round 1, want %d", n, len(in), 2*n-size)
				}
			}
			var round []Result
			for _, m := range ms {
				a, b := m.Bots[0], m.Bots[1]
				pa, pb := 100, 50
				if a > b {
					pa, pb = pb, pa
				}
				round = append(round, win(a, b, pa, pb))
			}
			played += len(ms)
			h = append(h, round)
		}
		rk, _ := k.(Ranker).Rank(h)
		if played != n-1 || played != k.Matches() || rk.Rows[0].Bot != 0 || rk.Rows[1].Bot != 1 {
			t.Errorf("%d bots: %d ties, Matches %d, winner %d, runner-up %d", n, played, k.Matches(), rk.Rows[0].Bot, rk.Rows[1].Bot)
		}
	}
}

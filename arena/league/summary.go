package league

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Summarize computes a finished match's games from its stored deals and adds them, with
// the duplicate set's rating results, to the league totals. It is what the store calls
// inside the transaction that marks the match done, so the totals are always exactly the
// sums over the deals of the done matches.
//
// A match's scoring sides are its teams in the four-player game (side 0, N and S, is bot
// m.Seats[0]; side 1 is m.Seats[1]) and its table seats in the three-player game (side s is
// bot m.Seats[s]).
func Summarize(deals []referee.DealRecord, m *store.Match, t *store.Totals) error {
	if len(deals) == 0 {
		return fmt.Errorf("match %s: no deals stored", m.ID)
	}
	scores := make([]store.DealScore, len(deals))
	for i := range deals {
		scores[i] = store.ScoreOf(&deals[i])
	}
	st := rating.Stats{Pairings: t.Pairings}
	return summarizeScores(&deals[0].Rules, scores, m, t, &st)
}

// summarizeScores is Summarize of the deals' scores, the match played under rs, its rating
// results added to st, whose pairings become t's (a caller that sums many matches keeps one
// st, and with it the index of its pairings).
func summarizeScores(rs *rules.Ruleset, deals []store.DealScore, m *store.Match, t *store.Totals, st *rating.Stats) error {
	if len(deals) == 0 {
		return fmt.Errorf("match %s: no deals stored", m.ID)
	}
	sides := referee.Sides(rs, len(m.Seats))
	var games []referee.GameResult // in the order of their first deal
	for i := range deals {
		d := &deals[i]
		g := len(games) - 1 // a game's deals are stored together: most often the last one
		if g < 0 || games[g].Number != d.Game {
			g = slices.IndexFunc(games, func(g referee.GameResult) bool { return g.Number == d.Game })
		}
		if g < 0 {
			sums := make([]int, 4*sides)
			games = append(games, referee.GameResult{Pair: d.Pair, Mirror: d.Mirror, Rotation: rotation(d), Number: d.Game,
				Totals: sums[:sides:sides], Made: sums[sides : 2*sides : 2*sides], Nat: sums[2*sides : 3*sides : 3*sides], Pit: sums[3*sides:]})
			g = len(games) - 1
		}
		if d.Sides != sides {
			return fmt.Errorf("match %s game %d deal %d: result has %d scores, want %d", m.ID, d.Game, d.Deal, d.Sides, sides)
		}
		addDeal(&games[g], d)
	}
	want := referee.DuplicateGames(rs, len(m.Seats))
	if len(games) != want {
		return fmt.Errorf("match %s: stored deals do not make one duplicate set (%d games, want %d)", m.ID, len(games), want)
	}
	for i, g := range games {
		if g.Rotation != i {
			return fmt.Errorf("match %s: game %d of the duplicate set has the hands moved %d seats, want %d", m.ID, g.Number, g.Rotation, i)
		}
	}
	for i := range games {
		games[i].Winner = topSide(games[i].Totals)
	}
	m.Games, m.Deals = games, len(deals)
	for side := range sides {
		bt := &t.Bots[m.Seats[side]]
		bt.Matches++
		for _, g := range m.Games {
			bt.Games++
			bt.Deals += g.Deals
			for s, pts := range g.Totals {
				if s == side {
					bt.PointsFor += pts
				} else {
					bt.PointsAgainst += pts
				}
			}
			bt.Made += g.Made[side]
			bt.Nat += g.Nat[side]
			bt.Pit += g.Pit[side]
			switch {
			case g.Winner == side:
				bt.Wins++
			case g.Winner == -1 && g.Totals[side] == slices.Max(g.Totals):
				bt.Draws++
			default:
				bt.Losses++
			}
		}
	}
	for i := range deals {
		for _, f := range deals[i].Faults {
			s, err := protocol.ParseSeat(f.Seat)
			if err != nil || int(s) >= len(m.Seats) {
				return fmt.Errorf("match %s: fault seat %q", m.ID, f.Seat)
			}
			bt := &t.Bots[m.Seats[s]]
			if bt.Faults == nil {
				bt.Faults = map[string]int{}
			}
			bt.Faults[string(f.Kind)]++
			if f.OnBusyMachine() {
				bt.BusyTimeouts++
			}
		}
	}
	t.Matches++
	t.Deals += len(deals)
	for _, res := range RatingResults(m) {
		if err := st.Add(res); err != nil {
			return fmt.Errorf("match %s: %w", m.ID, err)
		}
	}
	t.Pairings = st.Pairings
	return nil
}

// rotation returns the seats a record's hands moved on in its duplicate set (logs of the
// four-player game written before Rotation existed say only Mirror).
func rotation(d *store.DealScore) int {
	if d.Mirror && d.Rotation == 0 {
		return 1
	}
	return d.Rotation
}

// topSide returns the side with the highest total, or -1 when it is shared.
func topSide(totals []int) int {
	best := slices.Max(totals)
	first := slices.Index(totals, best)
	if slices.Contains(totals[first+1:], best) {
		return -1
	}
	return first
}

// RatingResults returns the rating results of a done match's duplicate set: one per pair
// of different bots, each scored for the first of the two on the points the two of them
// scored (a three-way result rates each pair of players). A pair that scored no points at
// all gives nothing.
func RatingResults(m *store.Match) []rating.Result {
	sides := len(m.Games[0].Totals)
	var out []rating.Result
	for a := range sides {
		for b := a + 1; b < sides; b++ {
			if m.Seats[a] == m.Seats[b] {
				continue
			}
			var pa, pb int
			score := 0.0
			for _, g := range m.Games {
				pa += g.Totals[a]
				pb += g.Totals[b]
				switch {
				case g.Totals[a] > g.Totals[b]:
					score++
				case g.Totals[a] == g.Totals[b]:
					score += 0.5
				}
			}
			if pa+pb == 0 {
				continue
			}
			out = append(out, rating.Result{Team1: rating.Solo(m.Seats[a]), Team2: rating.Solo(m.Seats[b]),
				Points: float64(pa) / float64(pa+pb), GameScore: score, Games: len(m.Games)})
		}
	}
	return out
}

// addDeal adds one deal's score to its game.
func addDeal(g *referee.GameResult, d *store.DealScore) {
	if d.Outcome == rules.Redeal {
		return
	}
	g.Deals++
	for s, v := range d.Score[:d.Sides] {
		g.Totals[s] += v
	}
	if d.Pit >= 0 {
		g.Pit[d.Pit]++
	}
	if d.Maker < 0 {
		return
	}
	switch d.Outcome {
	case rules.Made:
		g.Made[d.Maker]++
	case rules.Nat:
		g.Nat[d.Maker]++
	}
}

// Recompute rebuilds a league's totals and rating statistics from the raw deals of its
// finished matches, the way they were summed as each match finished, and verifies every
// deal with the rules engine on the way (a binary row is re-derived by the engine as it is
// read; any other row is re-refereed with Verify). Comparing the result with the stored
// totals checks the store: they must be equal.
func Recompute(db *store.DB, name string) (*store.Totals, error) {
	l, err := db.League(name)
	if err != nil {
		return nil, err
	}
	t := &store.Totals{Bots: make([]store.BotTotals, len(l.Bots))}
	for i, b := range l.Bots {
		t.Bots[i].Name = b
	}
	var st rating.Stats
	err = db.Scores(name, -1, func(m *store.Match, deals []store.DealScore) error {
		if !m.Done {
			return nil
		}
		fresh := *m
		return summarizeScores(&l.Rules, deals, &fresh, t, &st) // a done match without deals: its error
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Compare reports every difference between stored totals and recomputed ones. Per-bot
// counts must be equal; rating sums are compared by pairing, to 1e-9 relative, since
// matches that finish out of order add the same numbers in another order.
func Compare(stored, recomputed *store.Totals) error {
	var errs []error
	if stored.Matches != recomputed.Matches || stored.Deals != recomputed.Deals {
		errs = append(errs, fmt.Errorf("stored %d matches and %d deals, recomputed %d and %d", stored.Matches, stored.Deals, recomputed.Matches, recomputed.Deals))
	}
	if len(stored.Bots) != len(recomputed.Bots) {
		return errors.Join(append(errs, fmt.Errorf("stored %d bots, recomputed %d", len(stored.Bots), len(recomputed.Bots)))...)
	}
	for i := range recomputed.Bots {
		if a, b := fmt.Sprint(stored.Bots[i]), fmt.Sprint(recomputed.Bots[i]); a != b {
			errs = append(errs, fmt.Errorf("bot %s: stored %s, recomputed %s", recomputed.Bots[i].Name, a, b))
		}
	}
	if len(stored.Pairings) != len(recomputed.Pairings) {
		return errors.Join(append(errs, fmt.Errorf("stored %d pairings, recomputed %d", len(stored.Pairings), len(recomputed.Pairings)))...)
	}
	byTeams := map[[2]rating.Team]rating.Pairing{}
	for _, q := range stored.Pairings {
		byTeams[[2]rating.Team{q.Team1, q.Team2}] = q
	}
	for _, p := range recomputed.Pairings {
		q, ok := byTeams[[2]rating.Team{p.Team1, p.Team2}]
		if !ok || p.Points.Clusters != q.Points.Clusters || p.Games.Clusters != q.Games.Clusters ||
			!near(p.Points.S, q.Points.S) || !near(p.Points.SS, q.Points.SS) || !near(p.Points.N, q.Points.N) ||
			!near(p.Games.S, q.Games.S) || !near(p.Games.SS, q.Games.SS) || !near(p.Games.NS, q.Games.NS) {
			errs = append(errs, fmt.Errorf("pairing %v vs %v: stored %+v, recomputed %+v", p.Team1, p.Team2, q, p))
		}
	}
	return errors.Join(errs...)
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a)) }

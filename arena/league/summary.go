package league

import (
	"errors"
	"fmt"
	"math"

	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Summarize computes a finished match's games from its stored deals and adds them, with
// the duplicate pair's rating result, to the league totals. It is what the store calls
// inside the transaction that marks the match done, so the totals are always exactly the
// sums over the deals of the done matches.
func Summarize(deals []referee.DealRecord, m *store.Match, t *store.Totals) error {
	games := map[int]*referee.GameResult{}
	var order []int
	for i := range deals {
		d := &deals[i]
		g, ok := games[d.Game]
		if !ok {
			g = &referee.GameResult{Pair: d.Pair, Mirror: d.Mirror, Number: d.Game}
			games[d.Game] = g
			order = append(order, d.Game)
		}
		if len(d.Result.Score) < 2 {
			return fmt.Errorf("match %s game %d deal %d: result has no score", m.ID, d.Game, d.Deal)
		}
		addDeal(g, d)
	}
	if len(order) != 2 || games[order[0]].Mirror || !games[order[1]].Mirror {
		return fmt.Errorf("match %s: stored deals do not make one duplicate pair (%d games)", m.ID, len(order))
	}
	m.Games, m.Deals = nil, len(deals)
	for _, n := range order {
		g := games[n]
		switch {
		case g.Totals[0] > g.Totals[1]:
			g.Winner = 0
		case g.Totals[1] > g.Totals[0]:
			g.Winner = 1
		default:
			g.Winner = -1
		}
		m.Games = append(m.Games, *g)
	}
	// Team 0 (N, S) is bot m.Seats[0], team 1 (E, W) is bot m.Seats[1].
	for team := range 2 {
		bt := &t.Bots[m.Seats[team]]
		bt.Matches++
		for _, g := range m.Games {
			bt.Games++
			bt.Deals += g.Deals
			bt.PointsFor += g.Totals[team]
			bt.PointsAgainst += g.Totals[1-team]
			bt.Made += g.Made[team]
			bt.Nat += g.Nat[team]
			bt.Pit += g.Pit[team]
			switch g.Winner {
			case team:
				bt.Wins++
			case -1:
				bt.Draws++
			default:
				bt.Losses++
			}
		}
	}
	for i := range deals {
		for _, f := range deals[i].Faults {
			s, err := protocol.ParseSeat(f.Seat)
			if err != nil {
				return fmt.Errorf("match %s: fault seat: %w", m.ID, err)
			}
			bt := &t.Bots[m.Seats[s]]
			if bt.Faults == nil {
				bt.Faults = map[string]int{}
			}
			bt.Faults[string(f.Kind)]++
		}
	}
	t.Matches++
	t.Deals += len(deals)
	res, ok := PairResult(m)
	if !ok {
		return nil
	}
	st := rating.Stats{Pairings: t.Pairings}
	if err := st.Add(res); err != nil {
		return fmt.Errorf("match %s: %w", m.ID, err)
	}
	t.Pairings = st.Pairings
	return nil
}

// PairResult returns the rating result of a done match's duplicate pair, scored for the
// bot at North-South; false if no points were scored at all.
func PairResult(m *store.Match) (rating.Result, bool) {
	var pts [2]int
	score := 0.0
	for _, g := range m.Games {
		pts[0] += g.Totals[0]
		pts[1] += g.Totals[1]
		switch g.Winner {
		case 0:
			score++
		case -1:
			score += 0.5
		}
	}
	if pts[0]+pts[1] == 0 {
		return rating.Result{}, false
	}
	return rating.Result{Team1: rating.Solo(m.Seats[0]), Team2: rating.Solo(m.Seats[1]),
		Points: float64(pts[0]) / float64(pts[0]+pts[1]), GameScore: score, Games: len(m.Games)}, true
}

// addDeal adds one deal's score to its game.
func addDeal(g *referee.GameResult, d *referee.DealRecord) {
	if d.Result.Outcome == rules.Redeal.String() {
		return
	}
	g.Deals++
	g.Totals[0] += d.Result.Score[0]
	g.Totals[1] += d.Result.Score[1]
	switch d.Result.Pit {
	case "NS":
		g.Pit[0]++
	case "EW":
		g.Pit[1]++
	}
	maker, err := protocol.ParseSeat(d.Result.Maker)
	if err != nil {
		return
	}
	side := int(protocol.TeamOf(maker))
	switch d.Result.Outcome {
	case rules.Made.String():
		g.Made[side]++
	case rules.Nat.String():
		g.Nat[side]++
	}
}

// Recompute rebuilds a league's totals and rating statistics from the raw deals of its
// finished matches, the way they were summed as each match finished, and verifies every
// deal with the rules engine on the way. Comparing the result with the stored totals checks
// the store: they must be equal.
func Recompute(db *store.DB, name string) (*store.Totals, error) {
	l, err := db.League(name)
	if err != nil {
		return nil, err
	}
	matches, err := db.Matches(name)
	if err != nil {
		return nil, err
	}
	t := &store.Totals{Bots: make([]store.BotTotals, len(l.Bots))}
	for i, b := range l.Bots {
		t.Bots[i].Name = b
	}
	for _, m := range matches {
		if !m.Done {
			continue
		}
		var deals []referee.DealRecord
		err := db.Deals(name, m.Index, func(_ *store.Match, rec *referee.DealRecord) error {
			if err := rec.Verify(); err != nil {
				return fmt.Errorf("match %s game %d deal %d: %w", m.ID, rec.Game, rec.Deal, err)
			}
			deals = append(deals, *rec)
			return nil
		})
		if err != nil {
			return nil, err
		}
		fresh := m
		if err := Summarize(deals, &fresh, t); err != nil {
			return nil, err
		}
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

package referee

import (
	"slices"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Result is the outcome of a match, per scoring side: at four the teams, side 0 being NS
// (seats N and S) and side 1 EW; in the three-player game each table seat (N, E, S, and W
// when four sit at the table) is a side.
type Result struct {
	ID      string       `json:"id"`
	Sides   []SideStats  `json:"sides"`
	Bots    []BotStats   `json:"bots"` // per table seat N E S (W)
	Games   []GameResult `json:"games"`
	Deals   int          `json:"deals"`             // deals played, redeals included
	Stopped bool         `json:"stopped,omitempty"` // ended early by Config.Stop
}

// SideStats sums a side's results over the match.
type SideStats struct {
	Bots     []string `json:"bots"` // the team's two bots, or the player
	Points   int      `json:"points"`
	GamesWon int      `json:"games_won"`
	Draws    int      `json:"draws"`    // games it shared the highest total in
	Made     int      `json:"made"`     // deals it made as makers
	Nat      int      `json:"nat"`      // deals it went nat as makers
	Pit      int      `json:"pit"`      // deals in which it took every trick
	Forfeits int      `json:"forfeits"` // deals it forfeited
}

// BotStats is one seat's bot: who it is, its decisions and its faults.
type BotStats struct {
	Name      string            `json:"name"`
	Author    string            `json:"author,omitempty"`
	Decisions int               `json:"decisions"`
	Wall      time.Duration     `json:"wall_ns"`
	CPU       time.Duration     `json:"cpu_ns"`
	MaxWall   time.Duration     `json:"max_wall_ns"`
	Faults    map[FaultKind]int `json:"faults,omitempty"`
	// BusyTimeouts counts the timeouts among Faults on a busy machine (Fault.OnBusyMachine).
	BusyTimeouts int `json:"busy_timeouts,omitempty"`
}

// GameResult is one game of the match; lists are per side.
type GameResult struct {
	Pair     int   `json:"pair"`
	Mirror   bool  `json:"mirror"`             // a duplicate set's later game (Rotation > 0)
	Rotation int   `json:"rotation,omitempty"` // seats the hands moved on in the duplicate set
	Number   int   `json:"number"`
	Deals    int   `json:"deals"`
	Totals   []int `json:"totals"`
	Winner   int   `json:"winner"` // the side with the highest total, or -1 for a draw
	Made     []int `json:"made"`
	Nat      []int `json:"nat"`
	Pit      []int `json:"pit"`
}

// Sides returns the number of scoring sides of a match at a table of the given size.
func Sides(rs *rules.Ruleset, table int) int {
	if rs.Players == 4 {
		return 2
	}
	return table
}

func newResult(cfg Config, entrants []Entrant) *Result {
	r := &Result{ID: cfg.ID, Sides: make([]SideStats, Sides(&cfg.Rules, len(entrants))), Bots: make([]BotStats, len(entrants))}
	for i, e := range entrants {
		r.Bots[i].Name = e.Name
	}
	return r
}

func (b *BotStats) addDecision(r Reply) {
	b.Decisions++
	b.Wall += r.Wall
	b.CPU += r.CPU
	b.MaxWall = max(b.MaxWall, r.Wall)
}

// add counts a deal; sideOf gives the side of a deal seat (for the three-player game, the
// side of a deal's side, which is its seat).
func (g *GameResult) add(res rules.Result, sideOf func(protocol.Seat) int) {
	if res.Outcome == rules.Redeal {
		return
	}
	g.Deals++
	if res.PitSide >= 0 {
		g.Pit[sideOf(protocol.Seat(res.PitSide))]++
	}
	if res.Outcome == rules.Made || res.Outcome == rules.Nat {
		side := sideOf(res.Maker)
		if res.Outcome == rules.Made {
			g.Made[side]++
		} else {
			g.Nat[side]++
		}
	}
}

func (r *Result) addGame(g GameResult) {
	r.Games = append(r.Games, g)
	for t := range r.Sides {
		ts := &r.Sides[t]
		ts.Points += g.Totals[t]
		ts.Made += g.Made[t]
		ts.Nat += g.Nat[t]
		ts.Pit += g.Pit[t]
		if g.Winner == t {
			ts.GamesWon++
		}
		if g.Winner < 0 {
			ts.Draws++
		}
	}
}

// addFault counts a fault of the bot at table seat s, which forfeits the deal for its side.
func (r *Result) addFault(s protocol.Seat, side int, f *Fault) {
	b := &r.Bots[s]
	if b.Faults == nil {
		b.Faults = map[FaultKind]int{}
	}
	b.Faults[f.Kind]++
	if f.OnBusyMachine() {
		b.BusyTimeouts++
	}
	r.Sides[side].Forfeits++
}

func (r *Result) addDeal(*DealRecord) { r.Deals++ }

func (r *Result) finish() {
	if len(r.Sides) == 2 && len(r.Bots) == 4 {
		for t := range 2 {
			r.Sides[t].Bots = []string{r.Bots[t].Name, r.Bots[t+2].Name}
		}
		return
	}
	for s := range r.Sides {
		r.Sides[s].Bots = []string{r.Bots[s].Name}
	}
}

// PairResult is one duplicate pair of games (a deal set played twice, the second time with
// the hands moved one seat on), seen from team 0.
type PairResult struct {
	Pair      int
	Share     float64 // team 0's share of all points scored in the two games
	GameScore float64 // team 0's game score over the two games: win 1, draw ½, loss 0 each
}

// Pairs returns the duplicate pairs played in full that scored any points: the unit of
// observation for ratings in the four-player game (nil for the three-player game, whose
// duplicate sets are rated pair of players by pair of players).
func (r *Result) Pairs() []PairResult {
	if len(r.Sides) != 2 {
		return nil
	}
	var pairs []PairResult
	for i := 0; i+1 < len(r.Games); i++ {
		a, b := r.Games[i], r.Games[i+1]
		if a.Pair != b.Pair || a.Mirror || !b.Mirror {
			continue
		}
		if total := a.Totals[0] + a.Totals[1] + b.Totals[0] + b.Totals[1]; total > 0 {
			pairs = append(pairs, PairResult{Pair: a.Pair, Share: float64(a.Totals[0]+b.Totals[0]) / float64(total),
				GameScore: gameScore(a.Winner) + gameScore(b.Winner)})
		}
		i++
	}
	return pairs
}

func gameScore(winner int) float64 {
	switch winner {
	case 0:
		return 1
	case -1:
		return 0.5
	}
	return 0
}

// Merge adds the games, deals, decisions and faults of o, another part of the same match
// (Config.FirstPair) with the same bots at the same seats, to r. Games stay in the order
// merged; SortGames puts them in playing order.
func (r *Result) Merge(o *Result) {
	for _, g := range o.Games {
		r.addGame(g)
	}
	r.Deals += o.Deals
	for s := range r.Sides {
		r.Sides[s].Forfeits += o.Sides[s].Forfeits
	}
	for i := range r.Bots {
		a, b := &r.Bots[i], &o.Bots[i]
		if b.Decisions > 0 || a.Author == "" {
			a.Name, a.Author = b.Name, b.Author // from hello
		}
		a.Decisions += b.Decisions
		a.Wall += b.Wall
		a.CPU += b.CPU
		a.MaxWall = max(a.MaxWall, b.MaxWall)
		a.BusyTimeouts += b.BusyTimeouts
		for k, n := range b.Faults {
			if a.Faults == nil {
				a.Faults = map[FaultKind]int{}
			}
			a.Faults[k] += n
		}
	}
	r.Stopped = r.Stopped || o.Stopped
	r.finish()
}

// SortGames puts the games in playing order.
func (r *Result) SortGames() {
	slices.SortStableFunc(r.Games, func(a, b GameResult) int { return a.Number - b.Number })
}

package referee

import (
	"encoding/json"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Result is the outcome of a match. Team 0 is NS (seats N and S), team 1 is EW.
type Result struct {
	ID      string       `json:"id"`
	Teams   [2]TeamStats `json:"teams"`
	Bots    [4]BotStats  `json:"bots"` // per seat N E S W
	Games   []GameResult `json:"games"`
	Deals   int          `json:"deals"`             // deals played, redeals included
	Stopped bool         `json:"stopped,omitempty"` // ended early by Config.Stop
}

// TeamStats sums a team's results over the match.
type TeamStats struct {
	Bots     [2]string `json:"bots"`
	Points   int       `json:"points"`
	GamesWon int       `json:"games_won"`
	Draws    int       `json:"draws"`
	Made     int       `json:"made"`     // deals it made as makers
	Nat      int       `json:"nat"`      // deals it went nat as makers
	Pit      int       `json:"pit"`      // deals in which it took every trick
	Forfeits int       `json:"forfeits"` // deals it forfeited
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
}

// GameResult is one game of the match.
type GameResult struct {
	Pair   int    `json:"pair"`
	Mirror bool   `json:"mirror"`
	Number int    `json:"number"`
	Deals  int    `json:"deals"`
	Totals [2]int `json:"totals"`
	Winner int    `json:"winner"` // team 0 or 1, or -1 for a draw
	Made   [2]int `json:"made"`
	Nat    [2]int `json:"nat"`
	Pit    [2]int `json:"pit"`
}

func newResult(cfg Config, entrants [4]Entrant) *Result {
	r := &Result{ID: cfg.ID}
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

func (g *GameResult) add(res rules.Result, rs *rules.Ruleset) {
	if res.Outcome == rules.Redeal {
		return
	}
	g.Deals++
	if res.PitSide >= 0 {
		g.Pit[res.PitSide]++
	}
	if res.Outcome == rules.Made || res.Outcome == rules.Nat {
		side := rs.SideOf(res.Maker)
		if res.Outcome == rules.Made {
			g.Made[side]++
		} else {
			g.Nat[side]++
		}
	}
}

func (r *Result) addGame(g GameResult) {
	r.Games = append(r.Games, g)
	for t := range 2 {
		ts := &r.Teams[t]
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

func (r *Result) addFault(s protocol.Seat, f *Fault) {
	b := &r.Bots[s]
	if b.Faults == nil {
		b.Faults = map[FaultKind]int{}
	}
	b.Faults[f.Kind]++
	r.Teams[protocol.TeamOf(s)].Forfeits++
}

func (r *Result) addDeal(*DealRecord) { r.Deals++ }

func (r *Result) finish() {
	for t := range 2 {
		r.Teams[t].Bots = [2]string{r.Bots[t].Name, r.Bots[t+2].Name}
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
// observation for ratings.
func (r *Result) Pairs() []PairResult {
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

// marshalLine encodes v as one JSON line.
func marshalLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(b, '\n'), err
}

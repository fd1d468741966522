package view

import (
	"math"
	"slices"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
)

// BotReport is one bot of a league as its page shows it: its standing, its results
// against each opponent, its faults, and how long its decisions took.
type BotReport struct {
	Standing  Standing   `json:"standing"`
	Opponents []Opponent `json:"opponents"`
	BotDeals
}

// BotDeals is what a bot's report reads from the deals of its matches: its decision times
// and its last stderr tail.
type BotDeals struct {
	// LastStderr is the stderr tail of its most recent fault that kept one, from the
	// deals scanned (Scanned of them), and where it was.
	LastStderr      string `json:"last_stderr,omitempty"`
	LastStderrWhere string `json:"last_stderr_where,omitempty"`
	Scanned         int    `json:"scanned_deals"`
	Times           Times  `json:"times"`
}

// Opponent is the bot's result against one other bot.
type Opponent struct {
	Bot string `json:"bot"`
	Cell
}

// Times summarises decision times in milliseconds: wall time, and the bot's CPU time where
// it was measured.
type Times struct {
	Decisions int       `json:"decisions"`
	Median    float64   `json:"median_ms"`
	P90       float64   `json:"p90_ms"`
	P99       float64   `json:"p99_ms"`
	Max       float64   `json:"max_ms"`
	CPU       float64   `json:"cpu_ms"` // total
	Histogram []HistBin `json:"histogram"`
}

// HistBin counts the decisions that took at most UpTo milliseconds and more than the bin
// before; the last bin (Rest) counts those over the last edge.
type HistBin struct {
	UpTo  float64 `json:"up_to_ms"`
	Rest  bool    `json:"rest,omitempty"`
	Count int     `json:"count"`
}

// histEdges are the histogram's upper bin edges in milliseconds.
var histEdges = []float64{0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100, 300, 1000}

// BotPage builds the report of the bot in row row of the standings and crosstable, from
// deals of its matches (newest last; fn-style iteration is the caller's: pass what was
// read).
func BotPage(s *Standings, x *Crosstable, row int, deals []Located) *BotReport {
	return BotPageOf(s, x, row, ReadBotDeals(s.Standings[row].Bot, deals))
}

// BotPageOf builds the report of the bot in row row of the standings and crosstable, with
// what ReadBotDeals read of its deals.
func BotPageOf(s *Standings, x *Crosstable, row int, d BotDeals) *BotReport {
	rep := &BotReport{Standing: s.Standings[row], BotDeals: d}
	for j, c := range x.Cells[row] {
		if j != row && c.Pairs > 0 {
			rep.Opponents = append(rep.Opponents, Opponent{Bot: x.Bots[j], Cell: c})
		}
	}
	return rep
}

// ReadBotDeals reads bot's decision times and last stderr tail from deals of its matches
// (newest last).
func ReadBotDeals(bot string, deals []Located) BotDeals {
	rep := BotDeals{Scanned: len(deals)}
	var wall []float64
	for i := range deals {
		r := &deals[i].Rec
		for _, a := range r.Actions {
			if seat, err := protocol.ParseSeat(a.Seat); err == nil && int(seat) < len(r.Seats) && r.Seats[seat] == bot {
				wall = append(wall, a.MS)
				rep.Times.CPU += a.CPUMS
			}
		}
		for _, f := range r.Faults {
			if f.Bot == bot && f.Stderr != "" {
				rep.LastStderr, rep.LastStderrWhere = f.Stderr, deals[i].Where
			}
		}
	}
	rep.Times.Decisions = len(wall)
	slices.Sort(wall)
	if n := len(wall); n > 0 {
		q := func(p float64) float64 { return wall[min(n-1, int(math.Ceil(p*float64(n)))-1)] }
		rep.Times.Median, rep.Times.P90, rep.Times.P99, rep.Times.Max = q(0.5), q(0.9), q(0.99), wall[n-1]
	}
	k := 0
	for _, edge := range histEdges {
		bin := HistBin{UpTo: edge}
		for k < len(wall) && wall[k] <= edge {
			bin.Count++
			k++
		}
		rep.Times.Histogram = append(rep.Times.Histogram, bin)
	}
	rep.Times.Histogram = append(rep.Times.Histogram, HistBin{UpTo: histEdges[len(histEdges)-1], Rest: true, Count: len(wall) - k})
	return rep
}

// Located is a deal record with where it came from ("db LEAGUE/N", "FILE:LINE").
type Located struct {
	Where string
	Rec   referee.DealRecord
}

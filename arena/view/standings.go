package view

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/arena/store"
)

// Standing is one bot's line of the standings.
type Standing struct {
	Rank     int            `json:"rank"`
	Bot      string         `json:"bot"`
	Author   string         `json:"author,omitempty"` // its author line, when it has one (SetAuthors)
	Elo      *float64       `json:"elo"`              // points channel; nil until it can be fitted
	CI95     *float64       `json:"ci95"`             // half-width of its 95% interval
	GameElo  *float64       `json:"game_elo"`         // game channel
	GameCI95 *float64       `json:"game_ci95"`
	Games    int            `json:"games"`
	Deals    int            `json:"deals"`
	Share    float64        `json:"points_share"`
	Wins     int            `json:"wins"`
	Draws    int            `json:"draws"`
	Losses   int            `json:"losses"`
	NatRate  float64        `json:"nat_rate"` // of the deals its team made trump
	PitRate  float64        `json:"pit_rate"` // of its deals
	Faults   map[string]int `json:"faults,omitempty"`
	// BusyTimeouts counts the timeouts among Faults on a busy machine (referee.BusyMachine).
	BusyTimeouts int `json:"busy_timeouts,omitempty"`
	// Index is the bot's index in the league (its rating index): Totals.Bots[Index].
	Index int `json:"-"`
}

// Standings is a league's table, best first: what `arena standings --json` prints.
type Standings struct {
	League    string     `json:"league"`
	Matches   int        `json:"matches"`
	Deals     int        `json:"deals"`
	Standings []Standing `json:"standings"`
	Note      string     `json:"note,omitempty"` // why there are no ratings yet
	// LOS is the likelihood-of-superiority matrix in standings order, row over column;
	// only with StandingsOptions.LOS.
	LOS [][]float64 `json:"los,omitempty"`

	points *rating.Ratings // nil when the points channel cannot be fitted yet
}

// SetAuthors fills each standing's author line from authors, the league's author lines by
// rating index (store.League.Authors; nil leaves them empty).
func (s *Standings) SetAuthors(authors []string) {
	for i := range s.Standings {
		if at := s.Standings[i].Index; at >= 0 && at < len(authors) {
			s.Standings[i].Author = authors[at]
		}
	}
}

// StandingsOptions are the choices of ComputeStandings.
type StandingsOptions struct {
	LOS bool // fill Standings.LOS
	// Anchor fixes one bot's rating, "NAME=VALUE"; empty anchors the mean at 0.
	Anchor string
}

// ComputeStandings fits both rating channels to a league's totals and builds its table,
// best first (by points-channel rating, else by points share). Without enough results for
// a fit the ratings are nil and Note says why.
func ComputeStandings(name string, t *store.Totals, opt StandingsOptions) (*Standings, error) {
	tab := &Standings{League: name, Matches: t.Matches, Deals: t.Deals}
	fitOpt := rating.Options{}
	if opt.Anchor != "" {
		bot, value, ok := strings.Cut(opt.Anchor, "=")
		v, err := strconv.ParseFloat(value, 64)
		idx := slices.IndexFunc(t.Bots, func(b store.BotTotals) bool { return b.Name == bot })
		if !ok || err != nil || idx < 0 {
			names := make([]string, len(t.Bots))
			for i, b := range t.Bots {
				names[i] = b.Name
			}
			return nil, fmt.Errorf("--anchor %q: want NAME=VALUE with NAME one of the league's bots: %s", opt.Anchor, strings.Join(names, ", "))
		}
		fitOpt.Reference = &rating.Reference{Bot: idx, Elo: v}
	}
	st := &rating.Stats{Pairings: slices.Clone(t.Pairings)}
	points, perr := rating.Fit(st, fitOpt)
	fitOpt.Channel = rating.Games
	games, gerr := rating.Fit(st, fitOpt)
	if perr != nil {
		tab.Note = "no ratings yet: " + perr.Error()
		if errors.Is(perr, rating.ErrInvalidOptions) {
			return nil, perr
		}
	} else {
		tab.points = points
	}
	for i, b := range t.Bots {
		s := Standing{Bot: b.Name, Games: b.Games, Deals: b.Deals, Wins: b.Wins, Draws: b.Draws, Losses: b.Losses, Faults: b.Faults, BusyTimeouts: b.BusyTimeouts, Index: i}
		if all := b.PointsFor + b.PointsAgainst; all > 0 {
			s.Share = float64(b.PointsFor) / float64(all)
		}
		if b.Made+b.Nat > 0 {
			s.NatRate = float64(b.Nat) / float64(b.Made+b.Nat)
		}
		if b.Deals > 0 {
			s.PitRate = float64(b.Pit) / float64(b.Deals)
		}
		if perr == nil && i < len(points.Elo) {
			s.Elo, s.CI95 = finite(points.Elo[i]), finite(points.HalfWidth95(i))
		}
		if gerr == nil && i < len(games.Elo) {
			s.GameElo, s.GameCI95 = finite(games.Elo[i]), finite(games.HalfWidth95(i))
		}
		tab.Standings = append(tab.Standings, s)
	}
	slices.SortStableFunc(tab.Standings, func(a, b Standing) int {
		if a.Elo != nil && b.Elo != nil && *a.Elo != *b.Elo {
			return cmpDesc(*a.Elo, *b.Elo)
		}
		return cmpDesc(a.Share, b.Share)
	})
	for i := range tab.Standings {
		tab.Standings[i].Rank = i + 1
	}
	if opt.LOS && perr == nil {
		for _, a := range tab.Standings {
			row := make([]float64, len(tab.Standings))
			for j, b := range tab.Standings {
				row[j] = points.LOS(a.Index, b.Index)
			}
			tab.LOS = append(tab.LOS, row)
		}
	}
	return tab, nil
}

// LOSOf returns the likelihood that bot a (a league index) is stronger than bot b in the
// points channel, and false while there are no ratings yet.
func (s *Standings) LOSOf(a, b int) (float64, bool) {
	if s.points == nil || a >= len(s.points.Elo) || b >= len(s.points.Elo) {
		return 0, false
	}
	return s.points.LOS(a, b), true
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// finite returns a pointer to v, or nil for NaN and infinities (no rating to show).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

package view

import (
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
)

// MatchDeals is a stored match as its page shows it: its games, every deal with its score,
// and, for duplicate play, the boards: the same cards at every table side by side.
type MatchDeals struct {
	ID      string      `json:"id"`
	League  string      `json:"league"`
	Index   int         `json:"index"`
	Done    bool        `json:"done"`
	Players int         `json:"players"`
	Bots    []string    `json:"bots"` // per scoring side: the team's bot, or the seat's
	Games   []MatchGame `json:"games"`
	Boards  []Board     `json:"boards"`
	Deals   []DealBrief `json:"deals"`
}

// MatchGame is one game of a match: its totals per side and the winning side (-1: a draw).
type MatchGame struct {
	Number   int   `json:"number"`
	Pair     int   `json:"pair"`
	Rotation int   `json:"rotation"`
	Deals    int   `json:"deals"`
	Totals   []int `json:"totals"`
	Winner   int   `json:"winner"`
}

// DealBrief is one deal on a line: where it is in the match and how it went.
type DealBrief struct {
	N        int    `json:"n"` // its place in the match, from 1: the deal viewer's address
	Game     int    `json:"game"`
	Pair     int    `json:"pair"`
	Rotation int    `json:"rotation"`
	Deal     int    `json:"deal"`
	Attempt  int    `json:"attempt"`
	Dealer   string `json:"dealer"`
	Outcome  string `json:"outcome"`
	Trump    string `json:"trump,omitempty"`
	Maker    string `json:"maker,omitempty"`     // table seat
	MakerBot string `json:"maker_bot,omitempty"` // the bot in it
	Score    []int  `json:"score"`               // per side, as in the record
	// BotScore is the score per match side's bot (Bots): at a table whose hands moved on,
	// the sides are the same bots in other seats.
	BotScore []int `json:"bot_score"`
	Faults   int   `json:"faults"`
}

// Board is one deal of a duplicate set at every table: the same cards, the bots moved on.
type Board struct {
	Pair   int         `json:"pair"`
	Deal   int         `json:"deal"`
	Tables []DealBrief `json:"tables"` // by rotation
	// Hands are the cards dealt at the first table, one "SEAT: CARDS" per table seat.
	Hands []string `json:"hands"`
	// Totals is each bot's score over the tables, Diff the first bot's total minus the
	// second's (the board's swing at two bots).
	Totals []int `json:"totals"`
	Diff   int   `json:"diff"`
}

// MatchPage builds the view of a stored match from its record, its deals in stored order and
// the league's bot names.
func MatchPage(leagueName string, m *store.Match, deals []referee.DealRecord, names []string) *MatchDeals {
	md := &MatchDeals{ID: m.ID, League: leagueName, Index: m.Index, Done: m.Done}
	sides := len(m.Seats)
	if len(deals) > 0 {
		md.Players = deals[0].Rules.Players
		sides = len(deals[0].Result.Score)
	}
	for s := range min(sides, len(m.Seats)) {
		md.Bots = append(md.Bots, botName(names, m.Seats[s]))
	}
	for _, g := range m.Games {
		md.Games = append(md.Games, MatchGame{Number: g.Number, Pair: g.Pair, Rotation: g.Rotation, Deals: g.Deals, Totals: g.Totals, Winner: g.Winner})
	}
	type key struct{ pair, deal, attempt int }
	boards := map[key]int{}
	for i := range deals {
		r := &deals[i]
		b := DealBrief{N: i + 1, Game: r.Game, Pair: r.Pair, Rotation: rotation(r), Deal: r.Deal, Attempt: r.Attempt, Dealer: r.Dealer,
			Outcome: r.Result.Outcome, Trump: r.Result.Trump, Maker: r.Result.Maker, Score: r.Result.Score,
			Faults: len(r.Faults) + len(r.Rejected)}
		if seat, err := protocol.ParseSeat(r.Result.Maker); err == nil && int(seat) < len(r.Seats) {
			b.MakerBot = r.Seats[seat]
		}
		b.BotScore = botScores(r, md.Bots)
		md.Deals = append(md.Deals, b)
		k := key{r.Pair, r.Deal, r.Attempt}
		at, ok := boards[k]
		if !ok {
			at = len(md.Boards)
			boards[k] = at
			bd := Board{Pair: r.Pair, Deal: r.Deal, Totals: make([]int, len(md.Bots))}
			for seat, h := range r.Hands {
				if h != "" {
					bd.Hands = append(bd.Hands, protocol.Seat(seat).String()+": "+h)
				}
			}
			md.Boards = append(md.Boards, bd)
		}
		bd := &md.Boards[at]
		bd.Tables = append(bd.Tables, b)
		for s, v := range b.BotScore {
			bd.Totals[s] += v
		}
	}
	for i := range md.Boards {
		if t := md.Boards[i].Totals; len(t) >= 2 {
			md.Boards[i].Diff = t[0] - t[1]
		}
	}
	return md
}

// botScores returns the deal's score per match bot: the score of the side whose seats that
// bot holds at this table.
func botScores(r *referee.DealRecord, bots []string) []int {
	out := make([]int, len(bots))
	four := r.Rules.Players == 4
	for b, name := range bots {
		for seat, who := range r.Seats {
			if who != name || who == "" {
				continue
			}
			side := seat
			if four {
				side = seat % 2
			}
			if side < len(r.Result.Score) {
				out[b] = r.Result.Score[side]
			}
			break
		}
	}
	return out
}

func botName(names []string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return "?"
}

// rotation returns the seats a record's hands moved on (logs written before Rotation
// existed say only Mirror).
func rotation(r *referee.DealRecord) int {
	if r.Mirror && r.Rotation == 0 {
		return 1
	}
	return r.Rotation
}

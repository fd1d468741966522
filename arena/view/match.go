package view

import (
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
)

// MatchSummary is a played match's results as arena match shows them: per scoring side,
// per seat's bot, and the duplicate comparison.
type MatchSummary struct {
	ID      string
	Games   int
	Deals   int
	Players int // of the ruleset: 3 or 4
	Points  int // scored by all sides together
	Sides   []SideSummary
	Bots    []BotSummary
	// Pairs and PairShare are the duplicate pairs of a four-player match and NS's mean
	// points share over them.
	Pairs     int
	PairShare float64
	// Pairwise is, at three players, each two seats' shares of the points the two of them
	// scored: the results that ratings are made of.
	Pairwise []PairwiseShare
}

// SideSummary is one scoring side: a team (NS, EW) at four players, a seat at three.
type SideSummary struct {
	referee.SideStats
	Name string // NS, EW, or the seat
}

// Percent returns side i's share of all the points of the match, in percent.
func (m *MatchSummary) Percent(i int) float64 {
	if m.Points == 0 {
		return 0
	}
	return 100 * float64(m.Sides[i].Points) / float64(m.Points)
}

// BotSummary is one seat's bot with its decision times in milliseconds.
type BotSummary struct {
	referee.BotStats
	Seat   protocol.Seat
	MeanMS float64
	MaxMS  float64
	CPUMS  float64
}

// PairwiseShare is seat A's share of the points seats A and B scored.
type PairwiseShare struct {
	A, B       protocol.Seat
	BotA, BotB string
	Share      float64
}

// SummarizeMatch computes the summary of a referee's result for a ruleset of players.
func SummarizeMatch(res *referee.Result, players int) *MatchSummary {
	m := &MatchSummary{ID: res.ID, Games: len(res.Games), Deals: res.Deals, Players: players}
	for _, s := range res.Sides {
		m.Points += s.Points
	}
	for i, s := range res.Sides {
		side := SideSummary{SideStats: s, Name: protocol.Team(i).String()}
		if players == 3 {
			side.Name = protocol.Seat(i).String()
		}
		m.Sides = append(m.Sides, side)
	}
	for i, b := range res.Bots {
		bs := BotSummary{BotStats: b, Seat: protocol.Seat(i), MaxMS: ms(b.MaxWall.Microseconds()), CPUMS: ms(b.CPU.Microseconds())}
		if b.Decisions > 0 {
			bs.MeanMS = ms(b.Wall.Microseconds()) / float64(b.Decisions)
		}
		m.Bots = append(m.Bots, bs)
	}
	if players == 3 {
		for a, sa := range res.Sides {
			for b := a + 1; b < len(res.Sides); b++ {
				sb := res.Sides[b]
				if sum := sa.Points + sb.Points; sum > 0 {
					m.Pairwise = append(m.Pairwise, PairwiseShare{A: protocol.Seat(a), B: protocol.Seat(b),
						BotA: sa.Bots[0], BotB: sb.Bots[0], Share: float64(sa.Points) / float64(sum)})
				}
			}
		}
		return m
	}
	pairs := res.Pairs()
	for _, p := range pairs {
		m.PairShare += p.Share
	}
	if m.Pairs = len(pairs); m.Pairs > 0 {
		m.PairShare /= float64(m.Pairs)
	}
	return m
}

// ms converts microseconds to milliseconds.
func ms(us int64) float64 { return float64(us) / 1000 }

package web

import (
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
)

// Source is what the viewer reads: a league database (*store.DB) or a match log (LogSource).
// Every method only reads.
type Source interface {
	Leagues() ([]store.League, error)
	Totals(league string) (*store.Totals, error)
	Matches(league string) ([]store.Match, error)
	// MatchRange returns the matches with an index in [from, to), in schedule order, and one
	// more than the highest index of a match (0 for none).
	MatchRange(league string, from, to int) (ms []store.Match, end int, err error)
	// LastMatches returns up to n done matches, the last in schedule order first.
	LastMatches(league string, n int) ([]store.Match, error)
	// Deals calls fn with every stored deal of one match (match ≥ 0) in stored order; fn
	// must not keep rec.
	Deals(league string, match int, fn func(m *store.Match, rec *referee.DealRecord) error) error
}

var _ Source = (*store.DB)(nil)

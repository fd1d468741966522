package web

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/referee"
)

// LogSource serves a match log (arena match --log, arena export) as one league named
// after the file: its matches are the log's matches (by id and seed, in file order), and
// its totals sum every complete duplicate set in it. It serves the records it was last
// given (NewLogSource, Append): a log that grows can be followed.
type LogSource struct {
	state atomic.Pointer[logState]
}

// logState is what a LogSource serves: made by extend, then only read.
type logState struct {
	league  store.League
	matches []store.Match
	deals   [][]referee.DealRecord // per match, in the log's order
	totals  *store.Totals
	last    int // the match of the log's last deal (-1: none)
}

var _ Source = (*LogSource)(nil)

// NewLogSource builds the league of a log's deal records (name is the league's name, file
// the log's path). A duplicate set that does not add up (a log cut short) is left out of
// the totals and counted in the returned number. inPlay says that a match is writing the
// log now: the match of its last deal is then served as one not finished, its duplicate set
// in play withheld (the first table's deals are the cards its later tables are dealt next).
func NewLogSource(name, file string, recs []view.Located, inPlay bool) (*LogSource, int, error) {
	if len(recs) == 0 {
		return nil, 0, fmt.Errorf("%s holds no deal", file)
	}
	st, skipped := extend(&logState{league: store.League{Name: name, File: file, Rules: recs[0].Rec.Rules}, last: -1}, recs, inPlay)
	s := &LogSource{}
	s.state.Store(st)
	return s, skipped, nil
}

// Append serves the log's records and recs, the records appended to it since, in place of
// the log before; inPlay is whether a match writes it now. Requests under way finish with
// what they began with.
func (s *LogSource) Append(recs []view.Located, inPlay bool) (skipped int) {
	st, skipped := extend(s.state.Load(), recs, inPlay)
	s.state.Store(st)
	return skipped
}

// extend returns the state of old's records followed by recs, and the number of duplicate
// sets that do not add up. It shares old's deals (appending after them, where old does not
// read), and sums the totals again.
func extend(old *logState, recs []view.Located, inPlay bool) (*logState, int) {
	s := &logState{league: old.league, matches: slices.Clone(old.matches), deals: slices.Clone(old.deals), last: old.last}
	s.league.Bots = slices.Clone(old.league.Bots)
	bot := map[string]int{}
	for i, name := range s.league.Bots {
		bot[name] = i
	}
	byKey := map[string]int{}
	for i := range s.deals {
		byKey[matchKey(&s.deals[i][0])] = i
	}
	for i := range recs {
		r := &recs[i].Rec
		key := matchKey(r)
		at, ok := byKey[key]
		if !ok {
			at = len(s.matches)
			byKey[key] = at
			m := store.Match{Index: at, ID: r.Match, Seed: r.Seed}
			for _, who := range r.Seats[:r.Rules.Players] {
				if _, ok := bot[who]; !ok {
					bot[who] = len(s.league.Bots)
					s.league.Bots = append(s.league.Bots, who)
				}
				m.Seats = append(m.Seats, bot[who])
			}
			s.matches = append(s.matches, m)
			s.deals = append(s.deals, nil)
		}
		s.deals[at] = append(s.deals[at], *r)
		s.last = at
	}
	s.league.Matches = len(s.matches)
	s.totals = &store.Totals{}
	for _, name := range s.league.Bots {
		s.totals.Bots = append(s.totals.Bots, store.BotTotals{Name: name})
	}
	skipped := 0
	for i := range s.matches {
		m := &s.matches[i]
		m.Deals, m.Games, m.Done = len(s.deals[i]), nil, !inPlay || i != s.last
		for _, set := range sets(s.deals[i]) {
			one := store.Match{ID: m.ID, Seats: m.Seats}
			t := cloneTotals(s.totals)
			if err := league.Summarize(set, &one, t); err != nil {
				skipped++
				continue
			}
			s.totals = t
			m.Games = append(m.Games, one.Games...)
		}
	}
	return s, skipped
}

// matchKey tells the matches of a log apart: by id and seed.
func matchKey(r *referee.DealRecord) string { return fmt.Sprintf("%s\x00%d", r.Match, r.Seed) }

// sets splits a match's deals into its duplicate sets, by deal set number.
func sets(deals []referee.DealRecord) [][]referee.DealRecord {
	var out [][]referee.DealRecord
	at := map[int]int{}
	for _, d := range deals {
		i, ok := at[d.Pair]
		if !ok {
			i = len(out)
			at[d.Pair] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], d)
	}
	return out
}

// cloneTotals copies totals deeply enough that a failed Summarize leaves the original.
func cloneTotals(t *store.Totals) *store.Totals {
	c := *t
	c.Bots = slices.Clone(t.Bots)
	for i := range c.Bots {
		if f := c.Bots[i].Faults; f != nil {
			c.Bots[i].Faults = map[string]int{}
			for k, v := range f {
				c.Bots[i].Faults[k] = v
			}
		}
	}
	c.Pairings = slices.Clone(t.Pairings)
	return &c
}

// Leagues returns the log's one league.
func (s *LogSource) Leagues() ([]store.League, error) {
	return []store.League{s.state.Load().league}, nil
}

// Totals returns the sums over the log's complete duplicate sets.
func (s *LogSource) Totals(name string) (*store.Totals, error) {
	st := s.state.Load()
	if name != st.league.Name {
		return nil, fmt.Errorf("league %q: %w", name, store.ErrNotFound)
	}
	return st.totals, nil
}

// Matches returns the log's matches in file order.
func (s *LogSource) Matches(name string) ([]store.Match, error) {
	st := s.state.Load()
	if name != st.league.Name {
		return nil, fmt.Errorf("league %q: %w", name, store.ErrNotFound)
	}
	return slices.Clone(st.matches), nil
}

// MatchRange returns the log's matches with an index in [from, to), in file order, and one
// more than the highest index.
func (s *LogSource) MatchRange(name string, from, to int) (ms []store.Match, end int, err error) {
	if ms, err = s.Matches(name); err != nil {
		return nil, 0, err
	}
	for _, m := range ms {
		end = max(end, m.Index+1)
	}
	return slices.DeleteFunc(ms, func(m store.Match) bool { return m.Index < from || m.Index >= to }), end, nil
}

// Deals calls fn with every deal of one match.
func (s *LogSource) Deals(name string, match int, fn func(m *store.Match, rec *referee.DealRecord) error) error {
	st := s.state.Load()
	if name != st.league.Name || match < 0 || match >= len(st.matches) {
		return fmt.Errorf("match %s/%d: %w", name, match, store.ErrNotFound)
	}
	m := st.matches[match]
	for i := range st.deals[match] {
		rec := st.deals[match][i]
		if err := fn(&m, &rec); err != nil {
			return err
		}
	}
	return nil
}

// LastMatches returns up to n of the log's matches, the last first.
func (s *LogSource) LastMatches(name string, n int) ([]store.Match, error) {
	ms, err := s.Matches(name)
	if err != nil {
		return nil, err
	}
	slices.Reverse(ms)
	return ms[:min(n, len(ms))], nil
}

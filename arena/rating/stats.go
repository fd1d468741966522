package rating

import (
	"fmt"
	"math"
)

// Sums are the running sums of one channel of one pairing: enough to fit the ratings and
// compute the cluster-robust covariance without rereading raw results.
//
// Each cluster c (one pair) contributes its weight w, its number of observations n (1 for
// the points channel, the number of games for the game channel) and team 1's score S
// (the points share, or the summed game score). With F the model's expected score of the
// pairing, the pairing's log-likelihood is S·ln F + (N−S)·ln(1−F); its score (gradient
// with respect to the Elo difference) is κ·(S − N·F) and its information κ²·N·F·(1−F),
// with κ = ln 10/400; and its contribution to the sandwich's middle matrix
// Σ_c u_c u_cᵀ is κ²·Σ_c w²(S_c − n_c F)² = κ²·(SS − 2F·NS + F²·NN). Clusters counts
// the pairs for the small-sample factor C/(C−p).
type Sums struct {
	Clusters int     // number of pairs
	N        float64 // Σ w·n
	S        float64 // Σ w·S
	SS       float64 // Σ w²·S²
	NS       float64 // Σ w²·n·S
	NN       float64 // Σ w²·n²
}

// add accumulates o into s.
func (s *Sums) add(o Sums) {
	s.Clusters += o.Clusters
	s.N += o.N
	s.S += o.S
	s.SS += o.SS
	s.NS += o.NS
	s.NN += o.NN
}

// addCluster accumulates one cluster of weight w, with n observations scoring x.
func (s *Sums) addCluster(w, n, x float64) {
	w2 := w * w
	s.Clusters++
	s.N += w * n
	s.S += w * x
	s.SS += w2 * x * x
	s.NS += w2 * n * x
	s.NN += w2 * n * n
}

// flipped returns the sums scored for the other team: every S becomes n − S.
func (s Sums) flipped() Sums {
	return Sums{
		Clusters: s.Clusters,
		N:        s.N,
		S:        s.N - s.S,
		SS:       s.NN - 2*s.NS + s.SS,
		NS:       s.NN - s.NS,
		NN:       s.NN,
	}
}

// valid reports whether every sum is finite and the counts are not negative.
func (s *Sums) valid() bool {
	for _, v := range [...]float64{s.N, s.S, s.SS, s.NS, s.NN} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return s.Clusters >= 0 && s.N >= 0
}

// sums returns the sums of channel ch.
func (p *Pairing) sums(ch Channel) *Sums {
	if ch == Games {
		return &p.Games
	}
	return &p.Points
}

// Pairing holds the running sums of every result between two teams, one Sums per
// channel, scored for Team1. In a Stats, pairings are normalised: each team lists its
// lower index first and Team1 is the lexicographically smaller team, so the same two
// teams always meet in one pairing whichever side a result names first.
type Pairing struct {
	Team1, Team2 Team
	Points       Sums
	Games        Sums
}

// validate reports why p cannot be used, wrapping ErrInvalidResult, or returns nil.
func (p *Pairing) validate() error {
	for _, b := range [4]int{p.Team1[0], p.Team1[1], p.Team2[0], p.Team2[1]} {
		if b < 0 || b >= MaxBots {
			return fmt.Errorf("%w: bot index %d outside [0, %d)", ErrInvalidResult, b, MaxBots)
		}
	}
	if !p.Points.valid() || !p.Games.valid() {
		return fmt.Errorf("%w: pairing %v v %v has a negative count or a non-finite sum",
			ErrInvalidResult, p.Team1, p.Team2)
	}
	return nil
}

// normalized returns p with its teams in canonical order (see Pairing), and false if the
// two teams are the same team, which carries no information about any rating.
func (p Pairing) normalized() (Pairing, bool) {
	p.Team1 = sortTeam(p.Team1)
	p.Team2 = sortTeam(p.Team2)
	switch {
	case p.Team1 == p.Team2:
		return p, false
	case teamLess(p.Team2, p.Team1):
		p.Team1, p.Team2 = p.Team2, p.Team1
		p.Points, p.Games = p.Points.flipped(), p.Games.flipped()
	}
	return p, true
}

// sortTeam returns t with its lower index first.
func sortTeam(t Team) Team {
	if t[1] < t[0] {
		t[0], t[1] = t[1], t[0]
	}
	return t
}

// teamLess orders sorted teams lexicographically.
func teamLess(a, b Team) bool {
	return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
}

// key packs the four bot indices of two sorted teams into a map key.
func key(t1, t2 Team) uint64 {
	return uint64(t1[0])<<48 | uint64(t1[1])<<32 | uint64(t2[0])<<16 | uint64(t2[1])
}

// Stats aggregates results into per-pairing running sums, from which Fit computes
// ratings and their covariance. The order in which results are added does not matter
// (up to floating-point rounding), nor which team a result names first.
//
// The zero value is empty and ready to use. Pairings is exported so that the sums can be
// stored and loaded as plain numbers: a Stats{Pairings: saved} is valid, in any order
// and orientation, as long as Pairings is only changed through Add and AddAll
// afterwards; if a saved pairing is invalid, the first of them to run returns an error
// wrapping ErrInvalidResult. A Stats is not safe for concurrent use.
type Stats struct {
	// Pairings holds one entry per pair of teams that has met, normalised.
	Pairings []Pairing

	index map[uint64]int // key → position in Pairings; nil until Add needs it
}

// Add aggregates one result into both channels (the game channel only if r.Games > 0).
// A result whose two teams are the same team carries no information and is ignored. Add
// returns an error wrapping ErrInvalidResult, and changes nothing, if r is not valid.
func (st *Stats) Add(r Result) error {
	if err := r.validate(); err != nil {
		return err
	}
	e, ok := r.entry()
	if !ok {
		return nil
	}
	p, err := st.pairing(e.teams())
	if err != nil {
		return err
	}
	p.addEntry(&e)
	return nil
}

// AddAll aggregates every result of rs as Add does, with the same sums as adding them
// one by one in the order of rs, but much faster for many results: it sorts them by
// pairing rather than looking each one up. The pairings it creates are appended in the
// order of their teams rather than of first appearance. AddAll returns an error
// wrapping ErrInvalidResult, and changes nothing, if some result is not valid (or if a
// saved pairing is, as Add does).
func (st *Stats) AddAll(rs []Result) error {
	es := make([]entry, 0, len(rs))
	top := 0
	for i := range rs {
		r := &rs[i]
		if err := r.validate(); err != nil {
			return fmt.Errorf("result %d: %w", i, err)
		}
		if e, ok := r.entry(); ok {
			es = append(es, e)
			top = max(top, int(e.key>>32&0xffff), int(e.key&0xffff))
		}
	}
	fresh := len(st.Pairings) == 0
	if !fresh {
		if err := st.ensureIndex(); err != nil {
			return err
		}
	}
	sortEntries(es, botBits(top))
	if fresh {
		runs := 0
		for j := range es {
			if j == 0 || es[j].key != es[j-1].key {
				runs++
			}
		}
		st.Pairings = make([]Pairing, 0, runs)
		st.index = nil // built by the next Add
	}
	var p *Pairing
	for j := range es {
		e := &es[j]
		if j == 0 || e.key != es[j-1].key {
			t1, t2 := e.teams()
			if fresh {
				st.Pairings = append(st.Pairings, Pairing{Team1: t1, Team2: t2})
				p = &st.Pairings[len(st.Pairings)-1]
			} else {
				p, _ = st.pairing(t1, t2) // cannot fail: the index was just checked
			}
		}
		p.addEntry(e)
	}
	return nil
}

// entry is a valid result as its pairing's sums need it: the key of its teams in
// canonical order (see Pairing) and its scores for the first of them.
type entry struct {
	key           uint64
	points, games float64 // team 1's points share and game score
	weight        float64
	n             int // number of games
}

// entry returns the entry of the valid result r, and false if its two teams are the same
// team.
func (r *Result) entry() (entry, bool) {
	t1, t2 := sortTeam(r.Team1), sortTeam(r.Team2)
	e := entry{points: r.Points, games: r.GameScore, weight: r.weight(), n: r.Games}
	if teamLess(t2, t1) {
		t1, t2 = t2, t1
		e.points, e.games = 1-e.points, float64(e.n)-e.games
	}
	e.key = key(t1, t2)
	return e, t1 != t2
}

// teams returns the entry's two teams, in canonical order.
func (e *entry) teams() (t1, t2 Team) {
	k := e.key
	return Team{int(k >> 48), int(k >> 32 & 0xffff)}, Team{int(k >> 16 & 0xffff), int(k & 0xffff)}
}

// addEntry accumulates e, one result between p's teams, into p's channels.
func (p *Pairing) addEntry(e *entry) {
	p.Points.addCluster(e.weight, 1, e.points)
	if e.n > 0 {
		p.Games.addCluster(e.weight, float64(e.n), e.games)
	}
}

// Bots returns one more than the largest bot index in the statistics: the number of
// ratings Fit returns.
func (st *Stats) Bots() int {
	n := -1
	for i := range st.Pairings {
		p := &st.Pairings[i]
		n = max(n, p.Team1[0], p.Team1[1], p.Team2[0], p.Team2[1])
	}
	return n + 1
}

// add accumulates a validated pairing into the matching normalised pairing.
func (st *Stats) add(p Pairing) error {
	p, ok := p.normalized()
	if !ok {
		return nil
	}
	q, err := st.pairing(p.Team1, p.Team2)
	if err != nil {
		return err
	}
	q.Points.add(p.Points)
	q.Games.add(p.Games)
	return nil
}

// pairing returns the pairing of the sorted teams t1 < t2, appending an empty one if
// they have not met. The pointer is valid until the next pairing is appended.
func (st *Stats) pairing(t1, t2 Team) (*Pairing, error) {
	if err := st.ensureIndex(); err != nil {
		return nil, err
	}
	k := key(t1, t2)
	i, ok := st.index[k]
	if !ok {
		i = len(st.Pairings)
		st.index[k] = i
		st.Pairings = append(st.Pairings, Pairing{Team1: t1, Team2: t2})
	}
	return &st.Pairings[i], nil
}

// ensureIndex (re)builds the index if Pairings was set from outside, normalising and
// merging the pairings as it goes.
func (st *Stats) ensureIndex() error {
	if st.index != nil && len(st.index) == len(st.Pairings) {
		return nil
	}
	old := st.Pairings
	for i := range old {
		if err := old[i].validate(); err != nil {
			return err
		}
	}
	st.Pairings = make([]Pairing, 0, len(old))
	st.index = make(map[uint64]int, len(old))
	for _, p := range old {
		if err := st.add(p); err != nil {
			return err
		}
	}
	return nil
}

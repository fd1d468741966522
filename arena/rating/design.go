package rating

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrNoData is returned by Fit when the chosen channel holds no observation.
var ErrNoData = errors.New("rating: no results in this channel")

// ErrNotIdentified is returned by Fit when the comparison graph is connected but the team
// results still do not determine every rating: for example when two bots only ever play
// as partners, so that only the sum of their ratings is measured. More results with
// other partnerships (or with the bots on opposite sides) resolve it.
var ErrNotIdentified = errors.New("rating: results do not determine every rating (bots that only ever play as partners?)")

// DisconnectedError is returned by Fit when the comparison graph is not connected: some
// groups of bots have never been compared, directly or through other bots, so their
// ratings cannot be put on one scale. Fit refuses rather than rating the components
// separately, because ratings from separate components would look comparable and are
// not; fit each component on its own Stats if that is what is wanted.
type DisconnectedError struct {
	// Components lists the bots of each connected component, each in increasing order,
	// the components ordered by their lowest bot.
	Components [][]int
}

// Error lists the components.
func (e *DisconnectedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rating: comparison graph is not connected: %d components", len(e.Components))
	for _, c := range e.Components {
		fmt.Fprintf(&b, " %v", c)
	}
	return b.String()
}

// term is one pairing as the fit sees it: its two teams and its channel's sums. Its
// design vector is x = u(t1) − u(t2), with u(T) = (e_a + e_b)/2 for the team T of bots
// a and b, so that the pairing's Elo difference R(t1) − R(t2) is x·r.
type term struct {
	a, b   float64 // Σ w·S and Σ w·n
	t1, t2 uint32  // the teams, as indices into design.teams
	sums   *Sums   // the pairing's sums, for the covariance
}

// design is the fit's view of a Stats for one channel.
type design struct {
	n        int         // number of bots
	teams    [][2]uint16 // the two bots of each team, lower index first
	terms    []term
	clusters int  // number of pairs
	mixed    bool // whether some team has two different bots

	lv  levels // scratch for one pass over the terms
	acc outer  // scratch for the sums of outer products
}

// newDesign builds the design of channel ch, validating every pairing.
func newDesign(st *Stats, ch Channel) (*design, error) {
	d := &design{terms: make([]term, 0, len(st.Pairings))}
	top := -1
	// One pass over the pairings, which are large: the terms name their teams by
	// teamKey until every bot is known and they are numbered densely.
	for i := range st.Pairings {
		p := &st.Pairings[i]
		if err := p.validate(); err != nil {
			return nil, err
		}
		t1, t2 := sortTeam(p.Team1), sortTeam(p.Team2)
		top = max(top, t1[1], t2[1])
		s := p.sums(ch)
		if s.N == 0 || t1 == t2 {
			continue
		}
		if t1[0] != t1[1] || t2[0] != t2[1] {
			d.mixed = true
		}
		d.clusters += s.Clusters
		d.terms = append(d.terms, term{a: s.S, b: s.N, t1: teamKey(t1), t2: teamKey(t2), sums: s})
	}
	if len(d.terms) == 0 {
		return nil, fmt.Errorf("%w (%v)", ErrNoData, ch)
	}
	n := top + 1
	d.n = n
	id := d.teamNumbering(n)
	for i := range d.terms {
		t := &d.terms[i]
		t.t1, t.t2 = id(t.t1), id(t.t2)
	}
	d.lv = levels{r: make([]float64, len(d.teams)), e: make([]float64, len(d.teams)), inv: make([]float64, len(d.teams))}
	d.acc = outer{n: n, v: make([]float64, len(d.teams)), g: make([]float64, len(d.teams)), cross: make([]float64, n*n)}
	return d, nil
}

// teamKey packs a sorted team into 32 bits.
func teamKey(t Team) uint32 { return uint32(t[0])<<16 | uint32(t[1]) }

// teamNumbering returns a function that numbers the teams of n bots densely, by their
// teamKey, in order of first appearance, appending each new team to d.teams.
func (d *design) teamNumbering(n int) func(uint32) uint32 {
	add := func(k uint32) uint32 {
		d.teams = append(d.teams, [2]uint16{uint16(k >> 16), uint16(k)})
		return uint32(len(d.teams) - 1)
	}
	if n*n <= 1<<20 {
		dense := make([]int32, n*n) // 1 + the number of team {a, b} at a·n + b
		return func(k uint32) uint32 {
			at := &dense[int(k>>16)*n+int(k&0xffff)]
			if *at == 0 {
				*at = int32(add(k)) + 1
			}
			return uint32(*at - 1)
		}
	}
	ids := map[uint32]uint32{}
	return func(k uint32) uint32 {
		i, ok := ids[k]
		if !ok {
			i = add(k)
			ids[k] = i
		}
		return i
	}
}

// bots returns the bots with a non-zero coefficient in t's design vector: all four
// bots, but for a bot in both teams (one that plays on both sides cancels out).
func (d *design) bots(t *term) (idx [4]uint16, k int) {
	b1, b2 := d.teams[t.t1], d.teams[t.t2]
	var c2 [4]int8
	for j, bot := range [4]uint16{b1[0], b1[1], b2[0], b2[1]} {
		at := slices.Index(idx[:k], bot)
		if at < 0 {
			at, idx[k] = k, bot
			k++
		}
		c2[at] += int8(1 - j/2*2) // +1 for team 1, −1 for team 2
	}
	m := 0
	for i := range k {
		if c2[i] != 0 {
			idx[m] = idx[i]
			m++
		}
	}
	return idx, m
}

// check returns a *DisconnectedError if the comparison graph, in which two bots are
// linked when they have non-zero coefficients in one pairing, is not connected, and
// ErrNotIdentified if it is connected but the design still leaves a rating undetermined.
func (d *design) check() error {
	parent := make([]int, d.n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	left := d.n // number of components
	for i := 0; i < len(d.terms) && left > 1; i++ {
		idx, k := d.bots(&d.terms[i])
		if k == 0 {
			continue
		}
		r0 := find(int(idx[0]))
		for _, b := range idx[1:k] {
			if r := find(int(b)); r != r0 {
				parent[r] = r0
				left--
			}
		}
	}
	var comps [][]int
	root := make(map[int]int)
	for i := range d.n {
		r := find(i)
		c, ok := root[r]
		if !ok {
			c = len(comps)
			root[r] = c
			comps = append(comps, nil)
		}
		comps[c] = append(comps[c], i)
	}
	if len(comps) > 1 {
		return &DisconnectedError{Components: comps}
	}
	if d.mixed && d.nullity() > 1 {
		return ErrNotIdentified
	}
	return nil
}

// nullity returns the dimension of the null space of Σ x·xᵀ over the pairings: 1 (the
// common shift of all ratings) when every rating difference is determined.
func (d *design) nullity() int {
	g := make([]float64, d.n*d.n)
	var ones [evalChunk]float64
	for i := range ones {
		ones[i] = 1
	}
	d.acc.reset()
	for base := 0; base < len(d.terms); base += evalChunk {
		ts := d.terms[base:min(base+evalChunk, len(d.terms))]
		d.acc.accumulate(d.teams, ts, ones[:len(ts)], nil)
	}
	d.acc.expand(d.teams, g, nil)
	return semiCholesky(g, d.n, 1e-9)
}

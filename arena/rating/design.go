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

// term is one pairing as the fit sees it: the non-zero entries of its design vector x,
// such that R(Team1) − R(Team2) = Σ x_i·r_i, and its channel's sums.
type term struct {
	a, b float64   // Σ w·S and Σ w·n
	idx  [4]uint16 // bots with a non-zero coefficient
	c2   [4]int8   // 2·x_i: ±1 for a bot in a mixed team, ±2 for a team of one bot
	k    uint8     // number of entries used
	sums *Sums     // the pairing's sums, for the covariance
}

// diff returns x·r, the Elo difference R(Team1) − R(Team2) under ratings r.
func (t *term) diff(r []float64) float64 {
	d := 0.0
	for i := range t.k {
		d += float64(t.c2[i]) * r[t.idx[i]]
	}
	return d / 2
}

// design is the fit's view of a Stats for one channel.
type design struct {
	n        int // number of bots
	terms    []term
	clusters int  // number of pairs
	mixed    bool // whether some team has two different bots
}

// newDesign builds the design of channel ch, validating every pairing.
func newDesign(st *Stats, ch Channel) (*design, error) {
	d := &design{n: st.Bots(), terms: make([]term, 0, len(st.Pairings))}
	for i := range st.Pairings {
		p := &st.Pairings[i]
		if err := p.validate(); err != nil {
			return nil, err
		}
		s := p.sums(ch)
		if s.N == 0 {
			continue
		}
		t := term{a: s.S, b: s.N, sums: s}
		for j, bot := range [4]int{p.Team1[0], p.Team1[1], p.Team2[0], p.Team2[1]} {
			c := int8(1 - j/2*2) // +1 for team 1, −1 for team 2
			at := slices.Index(t.idx[:t.k], uint16(bot))
			if at < 0 {
				at = int(t.k)
				t.idx[at] = uint16(bot)
				t.k++
			}
			t.c2[at] += c
		}
		t.compact()
		if t.k == 0 {
			continue
		}
		if p.Team1[0] != p.Team1[1] || p.Team2[0] != p.Team2[1] {
			d.mixed = true
		}
		d.clusters += s.Clusters
		d.terms = append(d.terms, t)
	}
	if len(d.terms) == 0 {
		return nil, fmt.Errorf("%w (%v)", ErrNoData, ch)
	}
	return d, nil
}

// compact drops the entries whose coefficients cancelled (a bot on both sides).
func (t *term) compact() {
	k := uint8(0)
	for i := range t.k {
		if t.c2[i] != 0 {
			t.idx[k], t.c2[k] = t.idx[i], t.c2[i]
			k++
		}
	}
	for i := k; i < t.k; i++ {
		t.idx[i], t.c2[i] = 0, 0
	}
	t.k = k
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
	for i := range d.terms {
		t := &d.terms[i]
		r0 := find(int(t.idx[0]))
		for j := 1; j < int(t.k); j++ {
			if r := find(int(t.idx[j])); r != r0 {
				parent[r] = r0
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
	n := d.n
	g := make([]float64, n*n)
	for i := range d.terms {
		t := &d.terms[i]
		for p := range t.k {
			row := g[int(t.idx[p])*n:]
			cp := float64(t.c2[p])
			for q := range t.k {
				row[t.idx[q]] += cp * float64(t.c2[q])
			}
		}
	}
	return semiCholesky(g, n, 1e-9)
}

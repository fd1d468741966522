package referee

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// DealSpec is a predefined deal: the hands as dealt by Dealer, and optionally the first
// cards of the trump pile in turning order (the rest of the pile is shuffled).
//
// A match plays predefined deals in order instead of shuffling, each pair of games starting
// where the previous pair's first game stopped, from the start again after the last. The
// hands are placed relative to the dealer: when the game's dealer is not the spec's, the
// hands turn with it, so the player left of the dealer always gets the spec's hand of the
// player left of its dealer. A redeal is shuffled from the seed.
type DealSpec struct {
	Dealer protocol.Seat
	Hands  [4]protocol.CardSet
	Pile   []protocol.PileCard
	Line   int // where the deal starts in its file, for messages
}

// ParseDeals reads predefined deals in the text format of spec.md ("Predefined deals"):
//
//	# a comment
//	dealer W
//	N 7C 8C 9C JD QD JH QH KH
//	E TC JC QC KD AD AH 7S 8S
//	S KC AC 7D 7H 8H 9S TS JS
//	W 8D 9D TD 9H TH QS KS AS
//	pile 4H 2C
//
// Each deal starts with a dealer line, has one line per seat and an optional pile line.
func ParseDeals(r io.Reader, name string) ([]DealSpec, error) {
	var specs []DealSpec
	var cur *DealSpec
	var seen [4]bool
	finish := func() error {
		if cur == nil {
			return nil
		}
		for i, ok := range seen {
			if !ok {
				return fmt.Errorf("%s:%d: deal has no hand for %s", name, cur.Line, protocol.Seat(i))
			}
		}
		var all protocol.CardSet
		for i, h := range cur.Hands {
			if h.Len() != 8 {
				return fmt.Errorf("%s:%d: hand %s has %d cards, want 8", name, cur.Line, protocol.Seat(i), h.Len())
			}
			if all&h != 0 {
				return fmt.Errorf("%s:%d: card %s is in two hands", name, cur.Line, (all & h).Lowest())
			}
			all |= h
		}
		specs = append(specs, *cur)
		return nil
	}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, rest, _ := strings.Cut(line, " ")
		switch {
		case key == "dealer":
			if err := finish(); err != nil {
				return nil, err
			}
			d, err := protocol.ParseSeat(strings.TrimSpace(rest))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, n, err)
			}
			cur, seen = &DealSpec{Dealer: d, Line: n}, [4]bool{}
		case cur == nil:
			return nil, fmt.Errorf("%s:%d: a deal starts with a line \"dealer <seat>\"", name, n)
		case key == "pile":
			for f := range strings.FieldsSeq(rest) {
				c, err := protocol.ParsePileCard(f)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %w", name, n, err)
				}
				cur.Pile = append(cur.Pile, c)
			}
		default:
			s, err := protocol.ParseSeat(key)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: want dealer, pile or a seat N E S W, got %q", name, n, key)
			}
			if seen[s] {
				return nil, fmt.Errorf("%s:%d: second hand for %s", name, n, s)
			}
			if cur.Hands[s], err = protocol.ParseCardSet(rest); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, n, err)
			}
			seen[s] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("%s: no deals", name)
	}
	return specs, nil
}

// apply fills the setup's hands and pile from the spec, turned to the setup's dealer.
func (d *DealSpec) apply(rs *rules.Ruleset, setup *rules.Setup, rng *rand.Rand) {
	turn := int(setup.Dealer) - int(d.Dealer) + 4
	for i, h := range d.Hands {
		setup.Hands[(i+turn)%4] = h
	}
	if !rs.Bidding.UsesPile() {
		return
	}
	rest := rules.ShufflePile(rs, rng)
	for _, c := range d.Pile {
		if i := slices.Index(rest, c); i >= 0 {
			rest = slices.Delete(rest, i, i+1)
		}
	}
	setup.Pile = append(slices.Clone(d.Pile), rest...)
}

// specCursor hands out predefined deals in order.
type specCursor struct {
	specs []DealSpec
	pos   int
}

func (c *specCursor) next(attempt int) (DealSpec, bool) {
	if len(c.specs) == 0 || attempt > 0 {
		return DealSpec{}, false
	}
	s := c.specs[c.pos%len(c.specs)]
	c.pos++
	return s, true
}

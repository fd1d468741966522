package referee

import (
	"bufio"
	"errors"
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
	var errs []error
	fail := func(line int, format string, args ...any) {
		if len(errs) < maxDealErrors {
			errs = append(errs, fmt.Errorf("%s:%d: "+format, append([]any{name, line}, args...)...))
		}
	}
	var cur *DealSpec
	var seen [4]bool
	bad := false // the current deal has a problem already reported
	finish := func() {
		if cur == nil || bad {
			return
		}
		ok := true
		for i, has := range seen {
			if !has {
				fail(cur.Line, "deal has no hand for %s", protocol.Seat(i))
				ok = false
			}
		}
		var all protocol.CardSet
		for i, h := range cur.Hands {
			if seen[i] && h.Len() != 8 {
				fail(cur.Line, "hand %s has %d cards, want 8", protocol.Seat(i), h.Len())
				ok = false
			}
			if twice := all & h; twice != 0 {
				fail(cur.Line, "%s in two hands", plural(twice))
				ok = false
			}
			all |= h
		}
		if ok {
			specs = append(specs, *cur)
		}
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
			finish()
			d, err := protocol.ParseSeat(strings.TrimSpace(rest))
			if err != nil {
				fail(n, "%v", err)
			}
			cur, seen, bad = &DealSpec{Dealer: d, Line: n}, [4]bool{}, err != nil
		case cur == nil:
			fail(n, "a deal starts with a line \"dealer <seat>\"")
			cur, bad = &DealSpec{Line: n}, true
		case key == "pile":
			if cur.Pile != nil {
				fail(n, "second pile line")
			}
			cur.Pile = []protocol.PileCard{}
			jokers := 0
			for f := range strings.FieldsSeq(rest) {
				c, err := protocol.ParsePileCard(f)
				switch {
				case err != nil:
					fail(n, "%v", err)
				case c == protocol.Joker && jokers == 2, c != protocol.Joker && slices.Contains(cur.Pile, c):
					fail(n, "pile card %s twice", c)
				default:
					jokers += boolInt(c == protocol.Joker)
					cur.Pile = append(cur.Pile, c)
				}
			}
		default:
			s, err := protocol.ParseSeat(key)
			if err != nil {
				fail(n, "want dealer, pile or a seat N E S W, got %q", key)
				continue
			}
			if seen[s] {
				fail(n, "second hand for %s", s)
				bad = true
				continue
			}
			seen[s] = true
			if cur.Hands[s], err = protocol.ParseCardSet(rest); err != nil {
				fail(n, "%v", err)
				bad = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", name, err))
	}
	finish()
	if len(specs) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s: no deals", name))
	}
	if len(errs) == maxDealErrors {
		errs = append(errs, fmt.Errorf("%s: more problems not shown", name))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return specs, nil
}

// maxDealErrors is how many problems of a deals file are listed.
const maxDealErrors = 50

// plural names the cards of a set: "card 7C" or "cards 7C 8C".
func plural(s protocol.CardSet) string {
	if s.Len() == 1 {
		return "card " + s.String()
	}
	return "cards " + s.String()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
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

package solver

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// randomRuleset returns a preset with its play, roem and scoring options shuffled, so that the
// tests cover every option the solver must follow.
func randomRuleset(rng *rand.Rand) rules.Ruleset {
	names := rules.AllPresetNames()
	rs, err := rules.Preset(names[rng.IntN(len(names))])
	if err != nil {
		panic(err)
	}
	if rs.Players == 4 {
		rs.PlayRule = rules.PlayRule(rng.IntN(2))
		rs.Undertrump = rules.Undertrump(rng.IntN(2))
		rs.PartnerTrumpUndertrump = rules.PartnerUndertrump(rng.IntN(2))
		rs.FourOfAKind = rules.FourOfAKind(rng.IntN(3))
		rs.NatRule = rules.NatRule(rng.IntN(2))
		rs.PitForDefenders = rng.IntN(2) == 0
	}
	rs.StukScoring = rules.StukScoring(rng.IntN(2))
	rs.RoemClaiming = rules.RoemClaiming(rng.IntN(2))
	rs.LastTrickBonus = []int{0, 10, 10}[rng.IntN(3)]
	rs.PitBonus = []int{0, 100, 100}[rng.IntN(3)]
	return rs
}

// dealtDeal returns a deal of rs freshly shuffled and dealt by a random dealer.
func dealtDeal(rng *rand.Rand, rs *rules.Ruleset) *rules.Deal {
	deck := rules.Shuffle(rng)
	setup := rules.Setup{Dealer: protocol.Seat(rng.IntN(rs.Players)), Pile: rules.ShufflePile(rs, rng)}
	setup.Hands, setup.Skart = rules.DealHands(rs, &deck, setup.Dealer)
	d, err := rules.NewDeal(rs, setup)
	if err != nil {
		panic(err)
	}
	return d
}

// randomDeal returns a deal of rs played at random until tricksLeft tricks remain, with a
// random number of cards of the next trick played; false if the deal was thrown in.
func randomDeal(rng *rand.Rand, rs *rules.Ruleset, tricksLeft int) (*rules.Deal, bool) {
	d := dealtDeal(rng, rs)
	inTrick := rng.IntN(rs.Players)
	for d.Phase() != rules.PhaseDone {
		if d.Phase() == rules.PhasePlay && d.NumTricks()-len(d.Tricks()) == tricksLeft && d.Trick().N == inTrick {
			return d, true
		}
		rules.RandomAction(d, rng)
	}
	return nil, false
}

// bruteForce is plain minimax over the rules engine itself: every legal card, no pruning, no
// table, exact roem claims.
func bruteForce(d *rules.Deal, side int) int {
	switch d.Phase() {
	case rules.PhaseDone:
		res := d.Result()
		return sideValue(d.Rules(), &res.Score, side)
	case rules.PhaseClaim:
		child := *d
		tricks := child.Tricks()
		if err := child.Claim(tricks[len(tricks)-1].Roem.Total()); err != nil {
			panic(err)
		}
		return bruteForce(&child, side)
	}
	maximizing := d.Rules().SideOf(d.ToMove()) == side
	best := -infinity
	if !maximizing {
		best = infinity
	}
	for c := range d.Legal().All() {
		child := *d
		child.PlayUnchecked(c)
		v := bruteForce(&child, side)
		if maximizing {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

func sideValue(rs *rules.Ruleset, score *[protocol.MaxSeats]int, side int) int {
	s := Solver{players: rs.Players, side: side}
	return s.valueOf(score)
}

// TestAgainstBruteForce checks the solver's value of random end positions (one to three
// tricks left, the next trick partly played) against plain minimax over the rules engine,
// under random rulesets, 10,000 positions, and every card's value on a tenth of them.
func TestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	s := New(16)
	positions := 10000
	if testing.Short() {
		positions = 1000
	}
	for done := 0; done < positions; {
		rs := randomRuleset(rng)
		d, ok := randomDeal(rng, &rs, 1+rng.IntN(3))
		if !ok {
			continue
		}
		done++
		p, err := FromDeal(d)
		if err != nil {
			t.Fatal(err)
		}
		side := rs.SideOf(protocol.Seat(rng.IntN(rs.Players)))
		want := bruteForce(d, side)
		if got := s.Value(&p, side); got != want {
			t.Fatalf("position %d (%v, trump %s, hands %v, trick %v): solver %d, minimax %d", done, rs.Options(), p.Trump, p.Hands, p.Trick, got, want)
		}
		if done%10 != 0 {
			continue
		}
		for _, mv := range s.Moves(&p, side) {
			child := *d
			child.PlayUnchecked(mv.Card)
			if want := bruteForce(&child, side); mv.Value != want {
				t.Fatalf("position %d card %s: solver %d, minimax %d", done, mv.Card, mv.Value, want)
			}
		}
		c, v := s.Best(&p)
		mover := rs.SideOf(p.ToMove())
		if want := bruteForce(d, mover); v != want {
			t.Fatalf("position %d: Best %s value %d, minimax %d", done, c, v, want)
		}
		child := *d
		child.PlayUnchecked(c)
		if got := bruteForce(&child, mover); got != v {
			t.Fatalf("position %d: Best card %s is worth %d, not its reported %d", done, c, got, v)
		}
	}
}

// TestAgainstBruteForceLonger checks fewer positions with four tricks left.
func TestAgainstBruteForceLonger(t *testing.T) {
	if testing.Short() {
		t.Skip("four-trick minimax takes a while; run without -short")
	}
	rng := rand.New(rand.NewPCG(19, 2))
	s := New(16)
	for done := 0; done < 300; {
		rs := randomRuleset(rng)
		d, ok := randomDeal(rng, &rs, 4)
		if !ok {
			continue
		}
		done++
		p, _ := FromDeal(d)
		side := rs.SideOf(p.ToMove())
		if got, want := s.Value(&p, side), bruteForce(d, side); got != want {
			t.Fatalf("position %d (%v): solver %d, minimax %d", done, rs.Options(), got, want)
		}
	}
}

// TestHorizon checks that a horizon at or beyond the end of the deal changes nothing.
func TestHorizon(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 3))
	exact, deep := New(16), New(16)
	for done := 0; done < 300; {
		rs := randomRuleset(rng)
		d, ok := randomDeal(rng, &rs, 1+rng.IntN(3))
		if !ok {
			continue
		}
		done++
		p, _ := FromDeal(d)
		side := rs.SideOf(p.ToMove())
		deep.Horizon = p.TricksLeft() + rng.IntN(2)
		if got, want := deep.Value(&p, side), exact.Value(&p, side); got != want {
			t.Fatalf("position %d: horizon %d (%d tricks left) gives %d, exact %d", done, deep.Horizon, p.TricksLeft(), got, want)
		}
	}
}

// TestDeadline checks that a search past its deadline stops and says so.
func TestDeadline(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 4))
	rs, _ := rules.Preset("amsterdams")
	d, ok := randomDeal(rng, &rs, 8)
	for !ok {
		d, ok = randomDeal(rng, &rs, 8)
	}
	p, _ := FromDeal(d)
	s := New(16)
	s.Deadline = time.Now().Add(-time.Second)
	s.Value(&p, 0)
	if !s.Aborted() {
		t.Fatal("a full-deal search with its deadline passed was not aborted")
	}
	s.Deadline = time.Time{}
	s.Horizon = 1
	s.Value(&p, 0)
	if s.Aborted() {
		t.Fatal("a search without a deadline was aborted")
	}
}

// lineHash is a policy for TestPolicy that depends on the order of the cards played since
// the root, not only on which remain: it picks one of the legal cards by a hash of the
// line, or leaves the node to the search.
func lineHash(n *PolicyNode) protocol.Card {
	h := uint(n.Seat) + 7*uint(n.TricksLeft)
	for i, t := range n.Line {
		for j := range t.N {
			h = h*31 + uint(t.Cards[j])*uint(i+j+1)
		}
	}
	for j := range n.Trick.N {
		h = h*17 + uint(n.Trick.Cards[j])
	}
	if h%5 == 0 {
		return protocol.NoCard
	}
	return n.Legal.Nth(int(h/5) % n.Legal.Len())
}

// bruteForcePolicy is bruteForce with policy choosing the card where it returns a legal
// one; Line holds the tricks of d after the first done.
func bruteForcePolicy(d *rules.Deal, side, done int, policy func(*PolicyNode) protocol.Card) int {
	switch d.Phase() {
	case rules.PhaseDone:
		res := d.Result()
		return sideValue(d.Rules(), &res.Score, side)
	case rules.PhaseClaim:
		child := *d
		tricks := child.Tricks()
		if err := child.Claim(tricks[len(tricks)-1].Roem.Total()); err != nil {
			panic(err)
		}
		return bruteForcePolicy(&child, side, done, policy)
	}
	legal := d.Legal()
	if legal.Len() > 1 {
		var line []rules.Trick
		for _, t := range d.Tricks()[done:] {
			line = append(line, t.Trick)
		}
		n := PolicyNode{Seat: d.ToMove(), Hand: d.Hand(d.ToMove()), Legal: legal, Trick: d.Trick(), Line: line, TricksLeft: d.NumTricks() - len(d.Tricks())}
		if c := policy(&n); c.Valid() && legal.Has(c) {
			legal = protocol.SetOf(c)
		}
	}
	maximizing := d.Rules().SideOf(d.ToMove()) == side
	best := -infinity
	if !maximizing {
		best = infinity
	}
	for c := range legal.All() {
		child := *d
		child.PlayUnchecked(c)
		v := bruteForcePolicy(&child, side, done, policy)
		if maximizing {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// TestPolicy checks the search with a Policy that depends on the line played (lineHash)
// against plain minimax over the rules engine with the same policy, on random positions with
// one to four tricks left under random rulesets: values, every card's value (Moves) and
// Best. A search that took such a node's value from the transposition table, or pruned
// cards as equivalent, would fail it.
func TestPolicy(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 5))
	s := New(16)
	s.Policy = lineHash
	positions := 2000
	if testing.Short() {
		positions = 300
	}
	for done := 0; done < positions; {
		rs := randomRuleset(rng)
		d, ok := randomDeal(rng, &rs, 1+rng.IntN(4))
		if !ok {
			continue
		}
		done++
		p, _ := FromDeal(d)
		side := rs.SideOf(protocol.Seat(rng.IntN(rs.Players)))
		root := len(d.Tricks())
		if got, want := s.Value(&p, side), bruteForcePolicy(d, side, root, lineHash); got != want {
			t.Fatalf("position %d (%v, trump %s, hands %v, trick %v): solver %d, minimax %d", done, rs.Options(), p.Trump, p.Hands, p.Trick, got, want)
		}
		for _, mv := range s.Moves(&p, side) {
			child := *d
			child.PlayUnchecked(mv.Card)
			if want := bruteForcePolicy(&child, side, root, lineHash); mv.Value != want {
				t.Fatalf("position %d card %s: solver %d, minimax %d", done, mv.Card, mv.Value, want)
			}
		}
		c, v := s.Best(&p)
		child := *d
		child.PlayUnchecked(c)
		mover := rs.SideOf(p.ToMove())
		if got := bruteForcePolicy(&child, mover, root, lineHash); got != v {
			t.Fatalf("position %d: Best card %s is worth %d, not its reported %d", done, c, got, v)
		}
		for mv := range d.Legal().All() {
			child := *d
			child.PlayUnchecked(mv)
			if w := bruteForcePolicy(&child, mover, root, lineHash); w > v {
				t.Fatalf("position %d: card %s is worth %d, more than Best's %s at %d", done, mv, w, c, v)
			}
		}
	}
}

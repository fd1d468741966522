package search

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/klaverjas-arena/arena/examplebots/go/heuristic/strategy"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/solver"
)

// played is one play decision of a heuristic bot and the card it played.
type played struct {
	st   bot.State
	d    bot.Decision
	card protocol.Card
}

// TestOpponentModel checks the policy of Config.ModelOpponents on real deals of four
// heuristic bots: from the view of North's decisions, the model, given a later decision's
// node (that seat's hand, the trick so far and the tricks finished since North's decision
// as the line), plays what the heuristic bot played there for East and West, and leaves
// North's and South's nodes to the search.
func TestOpponentModel(t *testing.T) {
	rs, _ := rules.Preset("amsterdams")
	var mu sync.Mutex
	byDeal := map[[2]int][]played{}
	var e []referee.Entrant
	for _, name := range []string{"north", "east", "south", "west"} {
		b := strategy.Bot()
		b.Decide = func(s *bot.State, d bot.Decision) bot.Answer {
			a := strategy.Decide(s, d)
			if d.Kind == bot.PlayKind && d.LegalCards.Len() > 1 {
				c := *s
				c.Tricks, c.Current, c.Bids = slices.Clone(s.Tricks), slices.Clone(s.Current), slices.Clone(s.Bids)
				mu.Lock()
				byDeal[[2]int{s.Game, s.Deal}] = append(byDeal[[2]int{s.Game, s.Deal}], played{c, d, a.Card})
				mu.Unlock()
			}
			return a
		}
		e = append(e, referee.Entrant{Name: name, Start: referee.NewInProcess(b)})
	}
	if _, err := referee.Run(context.Background(), referee.Config{Rules: rs, Games: 1, Duplicate: true, Seed: 11, Time: referee.DefaultTimeControl}, e); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, ds := range byDeal {
		for _, root := range ds {
			if root.st.Seat != protocol.North {
				continue
			}
			req := root.d.Request.(*protocol.PlayRequest)
			k := newKnowledge(&rs, &root.st, req.Trump, 0)
			side := rs.SideOf(protocol.Seat(k.me))
			m := newOpponentModel(&rs, k, &root.st, side)
			for _, later := range ds {
				n := len(root.st.Tricks)
				if len(later.st.Tricks) < n || len(later.st.Tricks) == n && len(later.st.Current) <= len(root.st.Current) ||
					!samePlays(later.st.Tricks[:n], root.st.Tricks) {
					continue
				}
				node := solver.PolicyNode{Seat: protocol.Seat(k.index(later.st.Seat)), Hand: later.st.Hand, Legal: later.d.LegalCards,
					Trick: trickOf(k, later.st.Current), TricksLeft: rs.HandSize() - len(later.st.Tricks)}
				for _, ft := range later.st.Tricks[n:] {
					node.Line = append(node.Line, *trickOf(k, ft.Plays))
				}
				got := m.card(&node)
				want := later.card
				if rs.SideOf(node.Seat) == side {
					want = protocol.NoCard
				}
				if got != want {
					t.Fatalf("North at trick %d, %s at trick %d: model %s, want %s", n+1, later.st.Seat, len(later.st.Tricks)+1, got, want)
				}
				checked++
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d nodes checked", checked)
	}
}

// samePlays reports whether two lists of finished tricks hold the same plays.
func samePlays(a, b []bot.FinishedTrick) bool {
	return slices.EqualFunc(a, b, func(x, y bot.FinishedTrick) bool { return slices.Equal(x.Plays, y.Plays) })
}

// trickOf returns plays as the solver's trick (seats as play-order indexes).
func trickOf(k *knowledge, plays []bot.TrickPlay) *rules.Trick {
	t := &rules.Trick{}
	for i, p := range plays {
		if i == 0 {
			t.Leader = protocol.Seat(k.index(p.Seat))
		}
		t.Add(p.Card)
	}
	return t
}

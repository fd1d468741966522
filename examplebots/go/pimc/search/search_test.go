package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/examplebots/go/heuristic/strategy"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

func options(rs *rules.Ruleset) map[string]string {
	m := map[string]string{}
	for _, kv := range rs.Options() {
		m[kv[0]] = kv[1]
	}
	return m
}

func cards(tb testing.TB, text string) protocol.CardSet {
	tb.Helper()
	s, err := protocol.ParseCardSet(text)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// trickState is a four-player state, the bot South, dealer West, after the given finished
// tricks (each led by the seat named first).
func trickState(tb testing.TB, rs *rules.Ruleset, trump protocol.Suit, hand string, tricks ...string) *bot.State {
	tb.Helper()
	st := &bot.State{Options: options(rs), Players: 4, Seat: protocol.South, Dealer: protocol.West, Hand: cards(tb, hand),
		Playing: []protocol.Seat{protocol.North, protocol.East, protocol.South, protocol.West}, Trump: trump, Maker: protocol.North}
	for _, text := range tricks {
		f := strings.Fields(text)
		leader, err := protocol.ParseSeat(f[0])
		if err != nil {
			tb.Fatal(err)
		}
		var t rules.Trick
		t.Leader = leader
		ft := bot.FinishedTrick{}
		for i, name := range f[1:] {
			c, err := protocol.ParseCard(name)
			if err != nil {
				tb.Fatal(err)
			}
			t.Add(c)
			ft.Plays = append(ft.Plays, bot.TrickPlay{Seat: leader.Plus(i, 4), Card: c})
			st.Seen = st.Seen.Add(c)
		}
		ft.Winner = t.Winner(trump, 4)
		st.Tricks = append(st.Tricks, ft)
	}
	return st
}

// TestKnowledge checks what the sampler learns from the tricks: a seat that does not follow
// is void in the led suit; under Rotterdams one that neither follows nor trumps has no trumps;
// one that does not overtrump holds no higher trump.
func TestKnowledge(t *testing.T) {
	rot, _ := rules.Preset("rotterdams")
	ams, _ := rules.Preset("amsterdams")
	st := trickState(t, &rot, protocol.Hearts, "7C 8C 9C 7D 8D 9D 7S", "N AS 7H 8S 9S")
	k := newKnowledge(&rot, st, protocol.Hearts, 0)
	east := k.index(protocol.East)
	if spades := protocol.SuitMask(protocol.Spades) &^ st.Seen; k.cannot[east]&spades != spades {
		t.Errorf("East trumped a spade lead: should be void in spades, cannot = %s", k.cannot[east])
	}
	if k.cannot[east]&protocol.SuitMask(protocol.Hearts) != 0 {
		t.Errorf("East trumped: he may hold more hearts, cannot = %s", k.cannot[east])
	}

	st = trickState(t, &rot, protocol.Hearts, "7C 8C 9C 7D 8D 9D 7S", "N AS KD 8S 9S")
	k = newKnowledge(&rot, st, protocol.Hearts, 0)
	if hearts := protocol.SuitMask(protocol.Hearts); k.cannot[k.index(protocol.East)]&hearts != hearts {
		t.Errorf("Rotterdams: East discarded on a spade lead: should hold no trumps, cannot = %s", k.cannot[k.index(protocol.East)])
	}
	st = trickState(t, &ams, protocol.Hearts, "7C 8C 9C 7D 8D 9D 7S", "N AS KD 8S 9S")
	k = newKnowledge(&ams, st, protocol.Hearts, 0)
	if k.cannot[k.index(protocol.East)]&protocol.SuitMask(protocol.Hearts) == 0 {
		t.Errorf("Amsterdams, opponent N winning: East discarding shows no trumps either, cannot = %s", k.cannot[k.index(protocol.East)])
	}
	// Trumps led: East follows low under North's nine, so he holds no jack of trumps.
	st = trickState(t, &ams, protocol.Hearts, "7C 8C 9C 7D 8D 9D 7S", "N 9H 7H QH 8H")
	k = newKnowledge(&ams, st, protocol.Hearts, 0)
	if !k.cannot[k.index(protocol.East)].Has(protocol.NewCard(protocol.Jack, protocol.Hearts)) {
		t.Errorf("East did not overtrump the nine: cannot hold the jack, cannot = %s", k.cannot[k.index(protocol.East)])
	}
}

// TestSample checks that every sampled world gives each seat its number of cards, only cards
// still out, none it is known not to hold.
func TestSample(t *testing.T) {
	rs, _ := rules.Preset("rotterdams")
	st := trickState(t, &rs, protocol.Hearts, "7C 8C 9C 7D 8D 9D", "N AS 7H 8S 9S", "E JH 9H AH TH")
	st.Current = []bot.TrickPlay{{Seat: protocol.East, Card: protocol.NewCard(protocol.King, protocol.Clubs)}}
	st.Seen = st.Seen.Add(st.Current[0].Card)
	k := newKnowledge(&rs, st, protocol.Hearts, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		w := k.sample(rng)
		var all protocol.CardSet
		for i := range 4 {
			if i != k.me && w.hands[i].Len() != k.need[i] {
				t.Fatalf("seat %d got %d cards, holds %d", i, w.hands[i].Len(), k.need[i])
			}
			if w.hands[i]&k.cannot[i] != 0 {
				t.Fatalf("seat %d got %s, which it cannot hold", i, w.hands[i]&k.cannot[i])
			}
			if all&w.hands[i] != 0 {
				t.Fatalf("card dealt twice: %s", all&w.hands[i])
			}
			all |= w.hands[i]
		}
		if all != k.unknown|k.hand {
			t.Fatalf("world holds %s, want the unknown cards and the bot's: %s", all, k.unknown|k.hand)
		}
	}
}

// TestRespectsTime gives the bot 300 ms for a decision and wants the answer within 2 s: a
// generous bound for a busy machine (answers 300 ms late were seen at load 30), which a bot
// that ignored the clock would still miss, as it would search on without end.
func TestRespectsTime(t *testing.T) {
	rs, _ := rules.Preset("amsterdams")
	p := NewPlayer(Config{Horizon: 2, ExactTricks: 4, BidHorizon: 2, Seed: 1})
	st := trickState(t, &rs, protocol.Hearts, "7C 8C 9C 7D 8D 9D KS AS")
	d := bot.Decision{Kind: bot.PlayKind, TimeLeft: 300 * time.Millisecond, LegalCards: st.Hand,
		Request: &protocol.PlayRequest{TimeMS: 300, Trump: protocol.Hearts, Leader: protocol.South, Hand: st.Hand, Legal: st.Hand}}
	start := time.Now()
	a := p.Decide(st, d)
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("answered after %v with 300ms given", el)
	}
	if !st.Hand.Has(a.Card) {
		t.Errorf("played %s, not in hand %s", a.Card, st.Hand)
	}
	if p.Worlds == 0 {
		t.Errorf("valued no world in its 200ms")
	}
}

// randomBot plays uniformly random legal answers.
func randomBot(seed uint64) bot.Bot {
	rng := rand.New(rand.NewPCG(seed, 7))
	return bot.Bot{Name: "random", Author: "test", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.BidKind:
			bids := d.LegalBids.All()
			return bot.Answer{Bid: bids[rng.IntN(len(bids))]}
		case bot.ClaimKind:
			return bot.Answer{Claim: 0}
		case bot.DiscardKind:
			return bot.Answer{Discard: bot.LowestDiscard(s.Hand, s.Trump)}
		}
		return bot.Answer{Card: d.LegalCards.Nth(rng.IntN(d.LegalCards.Len()))}
	}}
}

// harness changes how match plays: a nil harness plays every pimc seat with Player.Bot and
// gives 10 s a decision.
type harness struct {
	// wrap, if set, returns the bot that plays with p (it may set p's test hooks, or watch
	// its decisions).
	wrap func(p *Player) bot.Bot
	// decision, if set, is the time of a decision; the grace is then 10 s, so that a test
	// stalled on a busy machine is not a fault (the bot does not see the grace).
	decision time.Duration
}

// match plays pairs duplicate pairs of pimc (NS, or seat N at three) against opp in process
// and fails on any fault.
func match(tb testing.TB, rs rules.Ruleset, cfg Config, opp func(seed uint64) bot.Bot, pairs int, seed uint64, records referee.DealConsumer, h *harness) *referee.Result {
	tb.Helper()
	if h == nil {
		h = &harness{}
	}
	var e []referee.Entrant
	for i := range rs.Players {
		if i%2 == 0 || rs.Players == 3 && i == 0 {
			c := cfg
			c.Seed = seed + uint64(i)
			p := NewPlayer(c)
			b := p.Bot()
			if h.wrap != nil {
				b = h.wrap(p)
			}
			e = append(e, referee.Entrant{Name: "pimc", Start: referee.NewInProcess(b)})
		} else {
			e = append(e, referee.Entrant{Name: "opponent", Start: referee.NewInProcess(opp(seed + uint64(i)))})
		}
	}
	tc := referee.DefaultTimeControl
	tc.Decision = 10 * time.Second
	if h.decision > 0 {
		tc.Decision, tc.Grace = h.decision, 10*time.Second
	}
	res, err := referee.Run(context.Background(), referee.Config{Rules: rs, Games: pairs, Duplicate: true, Seed: seed, Time: tc, Records: records}, e)
	if err != nil {
		tb.Fatal(err)
	}
	for _, b := range res.Bots {
		if len(b.Faults) > 0 {
			tb.Fatalf("%s faulted: %v", b.Name, b.Faults)
		}
	}
	return res
}

// TestEveryPreset plays a duplicate game of every preset (the heuristic as opponent; the
// random bot in the three-player game, which the heuristic does not play) with a small
// budget, with and without ModelOpponents, and wants no fault.
func TestEveryPreset(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Budget = 3 * time.Millisecond
	for _, name := range rules.AllPresetNames() {
		for _, model := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/model-opponents=%v", name, model), func(t *testing.T) {
				rs, _ := rules.Preset(name)
				rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 4}
				opp := func(uint64) bot.Bot { return strategy.Bot() }
				if rs.Players == 3 {
					opp = randomBot
				}
				c := cfg
				c.ModelOpponents = model
				match(t, rs, c, opp, 1, 19, nil, nil)
			})
		}
	}
}

// TestAfterPass checks the bidding the bot plays out after its pass: the first seat after
// it with a hand the heuristic would play on names its strongest suit; when none has one,
// voorhand must name a suit.
func TestAfterPass(t *testing.T) {
	rs, _ := rules.Preset("amsterdams")
	k := &knowledge{rs: &rs, n: 4, me: 1}
	var w world
	w.hands[0] = cards(t, "7C 8C 9C 7D 8D 9D 7H 8H")
	w.hands[1] = cards(t, "TC QC KC TD QD KD 9H TH")
	w.hands[2] = cards(t, "7C 8C 7D 8D 7H 8H QC QD")
	w.hands[3] = cards(t, "7S 8S 9S JS QS KS AS KC")
	if maker, trump := k.afterPass(&w, 0); maker != 3 || trump != protocol.Spades {
		t.Errorf("seat 2 weak, seat 3 with the spades: maker %d, trumps %s; want 3, spades", maker, trump)
	}
	w.hands[3], w.hands[2] = w.hands[2], w.hands[3]
	if maker, trump := k.afterPass(&w, 0); maker != 2 || trump != protocol.Spades {
		t.Errorf("the spades with the seat after the bot: maker %d, trumps %s; want 2, spades", maker, trump)
	}
	k.me = 3
	if maker, _ := k.afterPass(&w, 0); maker != 0 {
		t.Errorf("the bot speaks last: maker %d, want voorhand (0), who must name a suit", maker)
	}
}

// TestAfterPassPartner checks PartnerThreshold in the bidding played out after a pass: a
// partner who speaks third, with a strength between it and the heuristic's threshold, names
// its suit under the option and passes without it; the opponents, and a partner who speaks
// last, bid as the heuristic does either way.
func TestAfterPassPartner(t *testing.T) {
	rs, _ := rules.Preset("amsterdams")
	weak := cards(t, "7C 8C 7D 8D 7H 8H QC QD")
	middling := cards(t, "JS 7S 8S AH 7C 8C 7D 8D") // the jack with two small trumps and a side ace
	if _, st := strongestSuit(&rs, middling); st < 52 || st >= bidderThreshold {
		t.Fatalf("the middling hand's strength is %d, want 52 to %d", st, bidderThreshold-1)
	}
	for _, c := range []struct {
		me, at, partnerThreshold, maker int
		what                            string
	}{
		{0, 2, 0, 0, "the partner third, no option: voorhand must name"},
		{0, 2, 52, 2, "the partner third, PartnerThreshold 52: the partner names"},
		{0, 1, 52, 0, "the opponent second, PartnerThreshold 52: voorhand must name"},
		{0, 3, 52, 0, "the opponent last, PartnerThreshold 52: voorhand must name"},
		{1, 3, 52, 0, "the partner last, PartnerThreshold 52: voorhand must name"},
		{1, 2, 52, 0, "the opponent after the bot, PartnerThreshold 52: voorhand must name"},
	} {
		k := &knowledge{rs: &rs, n: 4, me: c.me}
		var w world
		for j := range 4 {
			w.hands[j] = weak
		}
		w.hands[0] = cards(t, "TC QC KC TD QD KD 9H TH")
		w.hands[c.at] = middling
		maker, trump := k.afterPass(&w, c.partnerThreshold)
		if maker != c.maker || maker == c.at && trump != protocol.Spades {
			t.Errorf("%s: maker %d, trumps %s; want maker %d", c.what, maker, trump, c.maker)
		}
	}
}

// TestAllowed: a decision keeps back a third of its time, and at least MinMargin unless that
// is more than half; the budget caps it.
func TestAllowed(t *testing.T) {
	for _, c := range []struct {
		budget, given, want time.Duration
	}{
		{0, 2 * time.Millisecond, time.Millisecond},
		{0, 10 * time.Millisecond, 5 * time.Millisecond},
		{0, 30 * time.Millisecond, 15 * time.Millisecond},
		{0, 50 * time.Millisecond, 30 * time.Millisecond},
		{0, 100 * time.Millisecond, 100*time.Millisecond - 100*time.Millisecond/3},
		{0, time.Second, time.Second - time.Second/3},
		{200 * time.Millisecond, time.Second, 200 * time.Millisecond},
	} {
		p := NewPlayer(Config{Budget: c.budget, Margin: MinMargin, Seed: 1})
		if got := p.allowed(c.given); got != c.want {
			t.Errorf("budget %v, %v given: %v allowed, want %v", c.budget, c.given, got, c.want)
		}
	}
}

package strategy

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// position is a play decision written in card notation.
type position struct {
	name    string
	preset  string   // ruleset preset; "" is amsterdams
	seat    string   // the bot's seat; "" is S
	trump   string   // trump suit
	maker   string   // the maker's seat
	history []string // finished tricks: "E: 7C 8C 9C TC" is led by E
	trick   string   // the current trick so far, led so that the bot is next ("" when it leads)
	hand    string
	want    string // the card the bot must play
}

// mustCards parses cards separated by spaces.
func mustCards(tb testing.TB, text string) []protocol.Card {
	tb.Helper()
	var out []protocol.Card
	for f := range strings.FieldsSeq(text) {
		c, err := protocol.ParseCard(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func mustSeat(tb testing.TB, text, def string) protocol.Seat {
	tb.Helper()
	if text == "" {
		text = def
	}
	s, err := protocol.ParseSeat(text)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func mustRuleset(tb testing.TB, preset string) rules.Ruleset {
	tb.Helper()
	if preset == "" {
		preset = "amsterdams"
	}
	rs, err := rules.Preset(preset)
	if err != nil {
		tb.Fatal(err)
	}
	return rs
}

// options returns the options of a rules line for rs.
func options(rs *rules.Ruleset) map[string]string {
	m := map[string]string{}
	for _, kv := range rs.Options() {
		m[kv[0]] = kv[1]
	}
	return m
}

// decide asks Decide for a card in position p and checks that the card is legal.
func (p position) decide(tb testing.TB) protocol.Card {
	tb.Helper()
	st, d := p.state(tb)
	a := Decide(st, d)
	if !d.LegalCards.Has(a.Card) {
		tb.Fatalf("%s: played %s, legal are %s", p.name, a.Card, d.LegalCards)
	}
	return a.Card
}

// state builds the state and decision of position p as the SDK would.
func (p position) state(tb testing.TB) (*bot.State, bot.Decision) {
	tb.Helper()
	rs := mustRuleset(tb, p.preset)
	trump, err := protocol.ParseSuit(p.trump)
	if err != nil {
		tb.Fatal(err)
	}
	me := mustSeat(tb, p.seat, "S")
	st := &bot.State{Options: options(&rs), Seat: me, Dealer: protocol.West, Trump: trump, Maker: mustSeat(tb, p.maker, "N")}
	for _, h := range p.history {
		who, cards, _ := strings.Cut(h, ":")
		leader := mustSeat(tb, strings.TrimSpace(who), "")
		var t rules.Trick
		t.Leader = leader
		ft := bot.FinishedTrick{}
		for i, c := range mustCards(tb, cards) {
			t.Add(c)
			ft.Plays = append(ft.Plays, bot.TrickPlay{Seat: leader.Plus(i, 4), Card: c})
			st.Seen = st.Seen.Add(c)
		}
		ft.Winner = t.Winner(trump, 4)
		st.Tricks = append(st.Tricks, ft)
	}
	trick := mustCards(tb, p.trick)
	t := rules.Trick{Leader: me.Plus(4-len(trick), 4)}
	for i, c := range trick {
		t.Add(c)
		st.Current = append(st.Current, bot.TrickPlay{Seat: t.Leader.Plus(i, 4), Card: c})
		st.Seen = st.Seen.Add(c)
	}
	st.Hand = protocol.SetOf(mustCards(tb, p.hand)...)
	legal := rules.Legal(&rs, trump, st.Hand, &t)
	req := &protocol.PlayRequest{TimeMS: 1000, Trump: trump, Leader: t.Leader, Trick: trick, Hand: st.Hand, Legal: legal}
	return st, bot.Decision{Kind: bot.PlayKind, LegalCards: legal, Trick: trick, Request: req}
}

func TestPlay(t *testing.T) {
	for _, p := range []position{
		{name: "partner winning with the ace, bot last: smear the ten",
			trump: "S", maker: "N", trick: "7H AH 8H", hand: "TH QH KS 7C 8D 9D QC JC", want: "TH"},
		{name: "partner leads the boss ace: smear the ten",
			trump: "S", maker: "N", trick: "AH 7H", hand: "TH 8H KS 7C 8D 9D QC JC", want: "TH"},
		{name: "partner winning, void: smear the loose ten, keep the trumps",
			trump: "H", maker: "N", trick: "7S AS 8S", hand: "JH 7H TD 8C 9D QC KC 7D", want: "TD"},
		{name: "must overtrump: take the lowest that wins",
			trump: "H", maker: "E", trick: "AS 7S TH", hand: "JH 9H AH 8C 7D QC 8D 9D", want: "AH"},
		{name: "opponent ruffed, bot void: ruff with the lowest trump",
			preset: "rotterdams", trump: "H", maker: "E", trick: "AS 7S 8S", hand: "JH 7H KH 8C 7D QC 8D 9D", want: "7H"},
		{name: "win cheaply with the lowest card that wins",
			trump: "H", maker: "E", trick: "JC 7C 8C", hand: "KC QC 9C 7D 8D 9S TS JS", want: "QC"},
		{name: "trick lost to the boss ace: throw the lowest",
			trump: "H", maker: "E", trick: "AD", hand: "KD 7D TD 8C 9C 7S 8S 9S", want: "7D"},
		{name: "trick lost: give no roem",
			trump: "S", maker: "E", trick: "9D 7C 8D", hand: "7D JD KC 8C 9C 7H 8H 9H", want: "JD"},
		{name: "partner winning: add the king for a run",
			trump: "S", maker: "N", trick: "QD AD 8D", hand: "KD TD 7D 8C 9C 7H 8H 9H", want: "KD"},
		{name: "maker pulls trumps with the jack",
			trump: "H", maker: "S", hand: "JH 9H 7H AS 8C 9D 7D KS", want: "JH"},
		{name: "maker pulls trumps with the nine once the jack is gone",
			trump: "H", maker: "S", history: []string{"S: JH 7H 8H QC"},
			hand: "9H AH AS 8C 9D 7D KS", want: "9H"},
		{name: "defender cashes an ace and keeps his trumps",
			trump: "H", maker: "E", hand: "AC 8C 7H 9H KD 8D 7S QS", want: "AC"},
		{name: "maker's partner leads a trump to him",
			trump: "H", maker: "N", hand: "8H KC 9C 7D QD 8S 9S TS", want: "8H"},
		{name: "defender leads back the partner's suit",
			trump: "H", maker: "E", history: []string{"N: 7D 9D AD TD"},
			hand: "8D 7C 8C 9C 7S 8S 9S", want: "8D"},
	} {
		t.Run(p.name, func(t *testing.T) {
			if got := p.decide(t); got.String() != p.want {
				t.Errorf("played %s, want %s", got, p.want)
			}
			st, d := p.state(t)
			rs := Ruleset(st.Options)
			if got := Card(&rs, st, d.Request.(*protocol.PlayRequest).Trump, d.Trick, d.LegalCards); got.String() != p.want {
				t.Errorf("Card gives %s, want %s as Decide", got, p.want)
			}
		})
	}
}

func TestBid(t *testing.T) {
	for _, c := range []struct {
		name   string
		preset string
		hand   string
		legal  string
		want   string
	}{
		{"strong hand with JH 9H AH: bids H", "", "JH 9H AH 7C 8C KD 7S 9S", "C D H S pass", "H"},
		{"jack and three more trumps with a side ace: bids S", "", "JS 7S 8S QS AC 8D 9D 7H", "C D H S pass", "S"},
		{"weak hand: passes", "", "7C 9C QD 8D KH 7H TS 8S", "C D H S pass", "pass"},
		{"a bare nine and a side ace: passes", "", "9H 7H AC 8C 9D TD QS 8S", "C D H S pass", "pass"},
		{"forced: names the best suit", "", "7C 8C JC QD 8D KH 7H 8S", "C D H S", "C"},
		{"forced with little: names the suit of the nine", "", "7C 9C QD 8D KH 7H TS 8S", "C D H S", "C"},
		{"draaikaart: strong in another suit, weak in the offered one: passes", "klaver_live", "JH 9H AH TH 8C KD 7S 9S", "S pass", "pass"},
		{"draaikaart: strong in the offered suit: plays", "klaver_live", "JS 9S AS 7S 8C KD 7H 9H", "S pass", "S"},
		{"draaikaart forced: the only suit offered", "klaver_live", "7C 9C QD 8D KH 7H TS 8S", "D", "D"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs := mustRuleset(t, c.preset)
			var legal protocol.Bids
			for f := range strings.FieldsSeq(c.legal) {
				b, err := protocol.ParseBid(f)
				if err != nil {
					t.Fatal(err)
				}
				legal = legal.Add(b)
			}
			hand := protocol.SetOf(mustCards(t, c.hand)...)
			st := &bot.State{Options: options(&rs), Seat: protocol.South, Dealer: protocol.North, Hand: hand, Trump: protocol.NoSuit, Maker: protocol.NoSeat}
			got := Decide(st, bot.Decision{Kind: bot.BidKind, LegalBids: legal}).Bid
			if !legal.Has(got) {
				t.Fatalf("bid %s, legal are %s", got, legal)
			}
			if got.String() != c.want {
				for su := range protocol.Suit(protocol.NumSuits) {
					t.Logf("%s: strength %d", su, Strength(&rs, hand, su))
				}
				t.Errorf("bid %s, want %s", got, c.want)
			}
		})
	}
}

func TestClaim(t *testing.T) {
	for _, c := range []struct {
		preset, trick, trump string
		want                 int
	}{
		{"", "QD KD AD 7C", "S", 20},  // a run of three
		{"", "QD KD AD 7C", "D", 40},  // a run of three trumps with the stuk
		{"", "QD KD 7C 8S", "D", 20},  // the stuk alone
		{"", "QD KD 7C 8S", "S", 0},   // king and queen of a plain suit
		{"", "JC JD JH JS", "S", 100}, // four jacks, all_100
		{"bga_amsterdams", "JC JD JH JS", "S", 200},
		{"", "8D 7D 9D TD", "H", 50}, // a run of four
		{"", "AS 7D 9C TH", "H", 0},
	} {
		rs := mustRuleset(t, c.preset)
		trump, _ := protocol.ParseSuit(c.trump)
		if got := Claim(&rs, mustCards(t, c.trick), trump); got != c.want {
			t.Errorf("%s trumps %s: claim %d, want %d", c.trick, c.trump, got, c.want)
		}
	}
}

// randomBot chooses uniformly among the legal bids and cards and claims its roem honestly.
func randomBot(seed uint64) bot.Bot {
	rng := rand.New(rand.NewPCG(seed, 1))
	return bot.Bot{Name: "random", Author: "tests", Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.BidKind:
			bids := d.LegalBids.All()
			return bot.Answer{Bid: bids[rng.IntN(len(bids))]}
		case bot.ClaimKind:
			rs := Ruleset(s.Options)
			return bot.Answer{Claim: Claim(&rs, d.Trick, s.Trump)}
		}
		return bot.Answer{Card: d.LegalCards.Nth(rng.IntN(d.LegalCards.Len()))}
	}}
}

// playMatch plays pairs of duplicate games of the heuristic (NS) against random (EW), fails
// on any fault, and returns the result with the heuristic's slowest decision.
func playMatch(tb testing.TB, rs rules.Ruleset, pairs int, seed uint64) (*referee.Result, time.Duration) {
	tb.Helper()
	h := Bot()
	var slowest time.Duration
	h.Decide = func(s *bot.State, d bot.Decision) bot.Answer {
		start := time.Now()
		a := Decide(s, d)
		slowest = max(slowest, time.Since(start))
		return a
	}
	e := [4]referee.Entrant{
		{Name: Name, Start: referee.NewInProcess(h)},
		{Name: "random", Start: referee.NewInProcess(randomBot(seed))},
		{Name: Name, Start: referee.NewInProcess(h)},
		{Name: "random", Start: referee.NewInProcess(randomBot(seed + 1))},
	}
	res, err := referee.Run(context.Background(), referee.Config{Rules: rs, Games: pairs, Duplicate: true, Seed: seed}, e[:])
	if err != nil {
		tb.Fatal(err)
	}
	for _, b := range res.Bots {
		if len(b.Faults) > 0 {
			tb.Fatalf("%s faulted: %v", b.Name, b.Faults)
		}
	}
	return res, slowest
}

// TestBeatsRandom plays duplicate games against the random bot and wants the heuristic's
// side to score clearly more than 60% of all points. HEURISTIC_PAIRS (default 20) and
// HEURISTIC_PRESETS (default "amsterdams rotterdams klaver_live") set a longer run:
//
//	HEURISTIC_PAIRS=200 HEURISTIC_PRESETS=amsterdams go test -run TestBeatsRandom -v ./examplebots/go/heuristic/strategy
func TestBeatsRandom(t *testing.T) {
	n := pairs(t, 20)
	for preset := range strings.FieldsSeq(orDefault(os.Getenv("HEURISTIC_PRESETS"), "amsterdams rotterdams klaver_live")) {
		t.Run(preset, func(t *testing.T) {
			res, slowest := playMatch(t, mustRuleset(t, preset), n, 2026)
			h, r := res.Sides[0], res.Sides[1]
			share := float64(h.Points) / float64(h.Points+r.Points)
			var won int
			for _, p := range res.Pairs() {
				if p.Share > 0.5 {
					won++
				}
			}
			bs := res.Bots[0]
			t.Logf("%s, %d duplicate pairs (%d deals): heuristic %d points, random %d: share %.1f%%; games won %d-%d (draws %d), pairs won %d of %d; heuristic as makers made %d, nat %d; random made %d, nat %d; heuristic pit %d; decisions %d, mean %v (with event handling), slowest Decide %v",
				preset, n, res.Deals, h.Points, r.Points, 100*share, h.GamesWon, r.GamesWon, h.Draws, won, len(res.Pairs()),
				h.Made, h.Nat, r.Made, r.Nat, h.Pit, bs.Decisions, bs.Wall/time.Duration(max(bs.Decisions, 1)), slowest)
			if share <= 0.6 {
				t.Errorf("heuristic scored %.1f%% of the points, want more than 60%%", 100*share)
			}
		})
	}
}

// TestEveryRuleset plays a duplicate pair under every preset and with every non-default
// option value, and checks that the bot never faults.
func TestEveryRuleset(t *testing.T) {
	var cases []rules.Ruleset
	var names []string
	for _, preset := range rules.PresetNames() {
		cases, names = append(cases, mustRuleset(t, preset)), append(names, preset)
	}
	for _, kv := range [][2]string{
		{"undertrump", "mandatory"}, {"partner_trump_undertrump", "allowed"},
		{"bidding", "direct_kiezen_verplicht"}, {"bidding", "direct_kiezen_dealer_verplicht"},
		{"bidding", "nku_dealer_first"}, {"bidding", "draaikaart_opnieuw_schudden"},
		{"bidding", "draaikaart_vrij_kiezen"}, {"bidding", "draaikaart_dan_verplicht_kiezen"},
		{"first_lead", "maker"}, {"deal_packets", "[4,4]"}, {"four_of_a_kind", "jacks_200_all_100"},
		{"stuk_scoring", "announced_by_holder"}, {"nat_rule", "card_points_at_least_82"},
		{"pit_for_defenders", "false"}, {"last_trick_bonus", "0"}, {"game_end", "target:1500"},
	} {
		rs := rules.Default()
		if err := rs.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
		cases, names = append(cases, rs), append(names, kv[0]+"="+kv[1])
	}
	claims := mustRuleset(t, "nku_rotterdams_tournament")
	if err := claims.Set("false_claim_penalty", "20"); err != nil {
		t.Fatal(err)
	}
	cases, names = append(cases, claims), append(names, "claim_required with a penalty")
	for i, rs := range cases {
		t.Run(names[i], func(t *testing.T) {
			if err := rs.Validate(); err != nil {
				t.Fatal(err)
			}
			res, _ := playMatch(t, rs, 1, uint64(i))
			if res.Sides[0].Points <= res.Sides[1].Points {
				t.Logf("heuristic lost this pair: %d to %d", res.Sides[0].Points, res.Sides[1].Points)
			}
		})
	}
}

// BenchmarkDecide times one play decision in the middle of a deal.
func BenchmarkDecide(b *testing.B) {
	p := position{trump: "H", maker: "E", history: []string{"S: AC 7C 8C 9C", "S: JD 7D 8D QD", "N: 7S AS 8S 9S"},
		trick: "KS", hand: "JH 9H TS KD AD"}
	st, d := p.state(b)
	b.ReportAllocs()
	for b.Loop() {
		Decide(st, d)
	}
}

func ExampleStrength() {
	rs := rules.Default()
	hand, _ := protocol.ParseCardSet("JH 9H AH 7C 8C KD 7S 9S")
	fmt.Println(Strength(&rs, hand, protocol.Hearts), Strength(&rs, hand, protocol.Spades))
	// Output: 70 26
}

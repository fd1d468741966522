package check

import (
	"math/rand/v2"
	"slices"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// scenario is one scripted deal: a ruleset, the cards, the bot's seat, and the actions taken
// before the bot is first asked (told to the bot as events, as the referee would). From then
// on the bot answers every request of its seat until the deal ends; the other seats pass when
// they may and otherwise play from a fixed random sequence.
type scenario struct {
	item   string // the report item
	rules  rules.Ruleset
	setup  rules.Setup
	seat   protocol.Seat
	prefix []string // bids ("pass", "H") and cards ("7C") in the order the rules ask for them
	want   string   // what the bot's first request restricts it to, for the report
	extra  string   // a line sent just before the bot's first request (the unknown event)
	// keyKind, if set, is the kind of request ("claim") the scenario is named after; by
	// default it is named after the bot's first request.
	keyKind string
}

// option returns the preset base with options set (names and values as in RULES.md §9).
func option(base string, kv ...string) rules.Ruleset {
	rs, err := rules.Preset(base)
	if err != nil {
		panic(err)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if err := rs.Set(kv[i], kv[i+1]); err != nil {
			panic(err)
		}
	}
	if err := rs.Validate(); err != nil {
		panic(err)
	}
	return rs
}

// setupFor deals the cards of a scenario from a fixed seed, with the pile (for procedures
// that use it) starting with the given cards.
func setupFor(rs *rules.Ruleset, seed uint64, dealer protocol.Seat, first bool, pileFront ...string) rules.Setup {
	rng := rand.New(rand.NewPCG(seed, 0x636865636b))
	deck := rules.Shuffle(rng)
	s := rules.Setup{Dealer: dealer, FirstOfMatch: first}
	s.Hands, _ = rules.DealHands(rs, &deck, dealer)
	if rs.Bidding.UsesPile() {
		rest := rules.ShufflePile(rs, rng)
		var front []protocol.PileCard
		for _, t := range pileFront {
			c, err := protocol.ParsePileCard(t)
			if err != nil {
				panic(err)
			}
			if i := slices.Index(rest, c); i >= 0 {
				rest = slices.Delete(rest, i, i+1)
			}
			front = append(front, c)
		}
		s.Pile = append(front, rest...)
	}
	return s
}

func passes(n int) []string { return slices.Repeat([]string{"pass"}, n) }

// biddingScenarios covers the nine trump-choosing procedures, with free and forced choices
// and draaikaart offers, each under the four-player preset base with its bidding options
// set. The dealer is West, so North speaks first (the dealer in nku_dealer_first).
func biddingScenarios(base string) []scenario {
	const w = protocol.West
	n, e := protocol.North, protocol.East
	// bidding is base with the procedure b and the draaikaart options the items assume, then kv.
	bidding := func(b string, kv ...string) rules.Ruleset {
		return option(base, append([]string{"bidding", b, "draaikaart_jokers", "false", "draaikaart_first_deal_clubs", "true"}, kv...)...)
	}
	def := bidding("direct_kiezen")
	dk := bidding
	var out []scenario
	add := func(item string, rs rules.Ruleset, seat protocol.Seat, first bool, pile []string, prefix []string, want string) {
		out = append(out, scenario{item: item, rules: rs, setup: setupFor(&rs, uint64(len(out)+1), w, first, pile...), seat: seat, prefix: prefix, want: want})
	}
	add("bidding direct_kiezen: free choice", def, n, false, nil, nil, "a free choice")
	add("bidding direct_kiezen: forced choice after four passes", def, n, false, nil, passes(4), "a suit, C D H S (pass is not legal)")
	add("bidding direct_kiezen_verplicht: first player may not pass", bidding("direct_kiezen_verplicht"), n, false, nil, nil, "a suit, C D H S (pass is not legal)")
	add("bidding direct_kiezen_dealer_verplicht: dealer forced after three passes", bidding("direct_kiezen_dealer_verplicht"), w, false, nil, passes(3), "a suit, C D H S (pass is not legal)")
	add("bidding nku_dealer_first: dealer speaks first", bidding("nku_dealer_first"), w, false, nil, nil, "a free choice")
	add("bidding nku_dealer_first: dealer forced after four passes", bidding("nku_dealer_first"), w, false, nil, passes(4), "a suit, C D H S (pass is not legal)")
	add("bidding draaikaart: clubs offered on the first deal", dk("draaikaart"), n, true, []string{"4C", "4H"}, nil, "C or pass")
	add("bidding draaikaart: turned suit offered in the second round", dk("draaikaart"), e, true, []string{"4C", "4H"}, passes(5), "H or pass")
	add("bidding draaikaart: compulsory suit, nothing asked", dk("draaikaart"), n, false, []string{"4H", "5S", "6D"}, passes(8), "no bid request; the deal is played")
	add("bidding draaikaart: joker, any suit", dk("draaikaart", "draaikaart_jokers", "true"), n, false, []string{"JK"}, nil, "a suit, C D H S (pass is not legal)")
	add("bidding draaikaart_opnieuw_schudden: turned suit offered", dk("draaikaart_opnieuw_schudden"), n, false, []string{"5D", "3S"}, nil, "D or pass")
	add("bidding draaikaart_vrij_kiezen: any suit after two rounds of passes", dk("draaikaart_vrij_kiezen"), n, false, []string{"5D", "3S"}, passes(8), "a suit, C D H S (pass is not legal)")
	add("bidding draaikaart_dan_verplicht_kiezen: any suit after one round of passes", dk("draaikaart_dan_verplicht_kiezen"), n, false, []string{"5D"}, passes(4), "a suit, C D H S (pass is not legal)")
	add("bidding bga_draw: joker, any suit", bidding("bga_draw", "draaikaart_jokers", "true"), n, false, []string{"JK"}, nil, "a suit, C D H S (pass is not legal)")
	add("bidding bga_draw: trump drawn, nothing asked", bidding("bga_draw"), n, false, []string{"4H"}, nil, "no bid request; the deal is played")
	return out
}

// position describes the bot's first play request in a play scenario.
type position struct {
	d                    *rules.Deal
	seat                 protocol.Seat
	hand, legal, trumps  protocol.CardSet
	trump, led           protocol.Suit
	winner               protocol.Seat // seat winning the trick so far
	winCard              protocol.Card
	partnerWins, trumped bool // partner winning; the winning card is a trump
}

func (p *position) void() bool     { return p.led != protocol.NoSuit && p.hand.Suit(p.led).Empty() }
func (p *position) hasPlain() bool { return p.hand&^p.trumps != 0 }

func newPosition(d *rules.Deal, seat protocol.Seat) *position {
	t := d.Trick()
	p := &position{d: d, seat: seat, hand: d.Hand(seat), legal: d.Legal(), trump: d.Trump(), led: t.Led(), winner: protocol.NoSeat}
	p.trumps = p.hand.Suit(p.trump)
	if t.N > 0 {
		best := 0
		for i := 1; i < t.N; i++ {
			if rules.Beats(t.Cards[i], t.Cards[best], p.led, p.trump) {
				best = i
			}
		}
		p.winner, p.winCard = t.Seat(best, 4), t.Cards[best]
		p.partnerWins = p.winner == seat.Plus(2, 4)
		p.trumped = p.winCard.Suit() == p.trump
	}
	return p
}

// playScenario searches fixed seeds for a deal in which the bot's first play request has the
// wanted property. West deals, North chooses a trump at once (so the bot, at another seat, is
// not asked to bid), and the other seats play at random until the bot's first turn.
func playScenario(item string, rs rules.Ruleset, seat protocol.Seat, want string, ok func(*position) bool) scenario {
	for seed := uint64(1); seed < 200000; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0x706c6179))
		setup := setupFor(&rs, seed, protocol.West, false)
		d, err := rules.NewDeal(&rs, setup)
		if err != nil {
			panic(err)
		}
		trump := protocol.Suit(rng.IntN(4))
		prefix := []string{trump.String()}
		if err := d.Bid(rules.PlaySuit(trump)); err != nil {
			panic(err)
		}
		for d.ToMove() != seat {
			c := d.Legal().Nth(rng.IntN(d.Legal().Len()))
			prefix = append(prefix, c.String())
			if err := d.Play(c); err != nil {
				panic(err)
			}
		}
		if ok(newPosition(d, seat)) {
			return scenario{item: item, rules: rs, setup: setup, seat: seat, prefix: prefix, want: want}
		}
	}
	panic("check: no deal found for " + item)
}

// playScenarios covers both play rules with positions where the legal cards are restricted,
// a forced card, and roem claims (under the four-player preset base).
func playScenarios(base string) []scenario {
	ams, rot := option("amsterdams"), option("rotterdams")
	s, w := protocol.South, protocol.West
	return []scenario{
		playScenario("play amsterdams: must follow suit", ams, s, "a card of the suit led", func(p *position) bool {
			return p.led != protocol.NoSuit && p.led != p.trump && p.hand.Suit(p.led).Len() >= 2 && p.legal == p.hand.Suit(p.led) && p.hand != p.legal
		}),
		playScenario("play amsterdams: must overtrump the opponents", ams, s, "a trump higher than the opponent's", func(p *position) bool {
			return p.led != p.trump && p.void() && p.trumped && !p.partnerWins && p.legal&^p.trumps == 0 && p.legal != p.trumps && p.hasPlain()
		}),
		playScenario("play amsterdams: partner winning, free to discard", ams, w, "any card but a trump under partner's", func(p *position) bool {
			return p.led != p.trump && p.void() && p.partnerWins && !p.trumps.Empty() && p.legal&^p.trumps != 0 && p.legal.Len() >= 2
		}),
		playScenario("play amsterdams: forced card, one legal", ams, s, "the one legal card", func(p *position) bool {
			return p.legal.Len() == 1 && p.hand.Len() == 8
		}),
		playScenario("play rotterdams: must trump although partner wins", rot, w, "a trump", func(p *position) bool {
			return p.led != p.trump && p.void() && p.partnerWins && !p.trumped && p.hasPlain() && !p.trumps.Empty() && p.legal&^p.trumps == 0
		}),
		playScenario("play rotterdams: must undertrump", rot, s, "a trump, lower than the opponent's", func(p *position) bool {
			return p.led != p.trump && p.void() && p.trumped && !p.partnerWins && p.hasPlain() && !p.trumps.Empty() && p.legal == p.trumps && !anyBeats(p.trumps, p.winCard, p.led, p.trump)
		}),
		claimScenario(base),
	}
}

// claimScenario is a claim_required deal under the preset base (with direct_kiezen, as
// playScenario needs) in which every legal card of the bot's first turn wins the trick, with
// roem in it, so the bot is asked to claim.
func claimScenario(base string) scenario {
	rs := option(base, "bidding", "direct_kiezen", "draaikaart_jokers", "false", "roem_claiming", "claim_required")
	sc := playScenario("claim_required: answers a roem claim", rs, protocol.West, "a whole number of roem, 0 or more", func(p *position) bool {
		t := p.d.Trick()
		if t.N != 3 {
			return false
		}
		for c := range p.legal.All() {
			if !rules.Beats(c, p.winCard, p.led, p.trump) || rules.TrickRoem(p.d.Rules(), t.Played.Add(c), p.trump).Total() == 0 {
				return false
			}
		}
		return true
	})
	sc.keyKind = "claim"
	return sc
}

func anyBeats(set protocol.CardSet, c protocol.Card, led, trump protocol.Suit) bool {
	for x := range set.All() {
		if rules.Beats(x, c, led, trump) {
			return true
		}
	}
	return false
}

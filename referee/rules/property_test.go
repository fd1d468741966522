package rules

import (
	"math/rand/v2"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"pgregory.net/rapid"
)

// genRuleset draws a valid ruleset: a preset with random options on top.
func genRuleset(t *rapid.T) Ruleset {
	rs, err := Preset(rapid.SampledFrom(PresetNames()).Draw(t, "preset"))
	if err != nil {
		t.Fatal(err)
	}
	pick := func(name string, values ...string) {
		if err := rs.Set(name, rapid.SampledFrom(values).Draw(t, name)); err != nil {
			t.Fatal(err)
		}
	}
	pick("play_rule", playRuleNames...)
	pick("undertrump", undertrumpNames...)
	if rs.PlayRule == Amsterdams {
		pick("partner_trump_undertrump", partnerUndertrumpNames...)
	} else {
		rs.PartnerTrumpUndertrump = PartnerUndertrumpForbiddenUnlessOnlyTrumps
	}
	pick("bidding", biddingNames...)
	pick("draaikaart_first_deal_clubs", "true", "false")
	rs.DraaikaartJokers = rs.Bidding.UsesPile() && rapid.Bool().Draw(t, "jokers")
	pick("first_lead", firstLeadNames...)
	pick("deal_packets", "[3,2,3]", "[4,4]")
	pick("four_of_a_kind", fourOfAKindNames...)
	pick("stuk_scoring", stukScoringNames...)
	pick("roem_claiming", roemClaimingNames...)
	rs.FalseClaimPenalty = 0
	if rs.RoemClaiming == RoemClaimRequired {
		pick("false_claim_penalty", "0", "20")
	}
	pick("nat_rule", natRuleNames...)
	pick("pit_for_defenders", "true", "false")
	pick("renege_extra_roem", "0", "100")
	if err := rs.Validate(); err != nil {
		t.Fatalf("generated ruleset is invalid: %v", err)
	}
	return rs
}

// newRandomDeal starts a deal with random hands, dealer and pile from rng.
func newRandomDeal(t interface{ Fatal(...any) }, rs *Ruleset, rng *rand.Rand, first bool) *Deal {
	deck := Shuffle(rng)
	setup := Setup{Dealer: Seat(rng.IntN(rs.Players)), Pile: ShufflePile(rs, rng), FirstOfMatch: first}
	setup.Hands, _ = DealHands(rs, &deck, setup.Dealer)
	d, err := NewDeal(rs, setup)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPropertyRandomDeals plays random deals under random rulesets and checks the invariants
// of RULES.md: 32 distinct cards in 8 tricks, 162 card points, legal sets non-empty subsets of
// the hand that agree with the reference algorithm of §5.4, and the scoring of §7.
func TestPropertyRandomDeals(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := genRuleset(t)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		d := newRandomDeal(t, &rs, rng, rapid.Bool().Draw(t, "first"))
		claims := rapid.IntRange(-1, 1) // under-claim, honest, over-claim
		for d.Phase() != PhaseDone {
			switch d.Phase() {
			case PhasePlay:
				hand, legal := d.Hand(d.ToMove()), d.Legal()
				if legal == 0 || legal&^hand != 0 {
					t.Fatalf("legal %v is empty or not within hand %v", legal, hand)
				}
				if want := referenceLegal(&rs, d.Trump(), hand, d.Trick()); legal != want {
					t.Fatalf("legal %v, reference %v (hand %v, trick %v, trump %s)", legal, want, hand, d.Trick().Cards[:d.Trick().N], d.Trump())
				}
				if ext := Legal(&rs, d.Trump(), hand, d.Trick()); ext != legal {
					t.Fatalf("Deal.Legal %v differs from Legal %v", legal, ext)
				}
				RandomAction(d, rng)
			case PhaseClaim:
				rec := d.Tricks()[len(d.Tricks())-1]
				if err := d.Claim(max(0, rec.Roem.Total()+claims.Draw(t, "claim")*10)); err != nil {
					t.Fatal(err)
				}
			default:
				if d.LegalBids() == 0 {
					t.Fatal("no legal bid")
				}
				RandomAction(d, rng)
			}
		}
		checkFinishedDeal(t, &rs, d)
	})
}

func checkFinishedDeal(t *rapid.T, rs *Ruleset, d *Deal) {
	res := d.Result()
	if res.Outcome == Redeal {
		if rs.Bidding != DraaikaartOpnieuwSchudden {
			t.Fatalf("redeal under bidding %s", rs.Bidding)
		}
		return
	}
	var played CardSet
	var cardsTotal int
	if len(d.Tricks()) != 8 {
		t.Fatalf("%d tricks", len(d.Tricks()))
	}
	for _, tr := range d.Tricks() {
		if tr.N != 4 || tr.Played.Len() != 4 || played&tr.Played != 0 {
			t.Fatalf("trick %v repeats a card or is incomplete", tr.Cards)
		}
		played |= tr.Played
		if tr.Roem != referenceRoem(rs, tr.Played, d.Trump()) {
			t.Fatalf("roem %v, reference %v", tr.Roem.List(), referenceRoem(rs, tr.Played, d.Trump()).List())
		}
		cardsTotal += tr.Points
	}
	if played != protocol.FullDeck {
		t.Fatalf("played %d distinct cards", played.Len())
	}
	if cardsTotal != 162 || res.CardPoints[0]+res.CardPoints[1] != 162 {
		t.Fatalf("card points %v sum to %d, want 162", res.CardPoints, cardsTotal)
	}
	if res.TricksWon[0]+res.TricksWon[1] != 8 {
		t.Fatalf("tricks won %v", res.TricksWon)
	}
	// Roem per side: what its tricks scored, plus an announced stuk for the seat dealt trump
	// king and queen. (False claims add a penalty for the other side, so check only without.)
	var wantRoem [protocol.MaxSeats]int
	for _, tr := range d.Tricks() {
		wantRoem[rs.SideOf(tr.Winner)] += tr.Scored
	}
	if rs.StukScoring == StukAnnouncedByHolder {
		stuk := protocol.SetOf(protocol.NewCard(protocol.King, d.Trump()), protocol.NewCard(protocol.Queen, d.Trump()))
		for s := range Seat(4) {
			if d.Dealt(s)&stuk == stuk {
				wantRoem[rs.SideOf(s)] += 20
			}
		}
	}
	if rs.FalseClaimPenalty == 0 && res.Roem != wantRoem {
		t.Fatalf("roem %v, want %v", res.Roem, wantRoem)
	}
	m := rs.SideOf(d.Maker())
	o := 1 - m
	made := res.CardPoints[m]+res.Roem[m] > res.CardPoints[o]+res.Roem[o]
	if rs.NatRule == NatCardPointsAtLeast82 {
		made = res.CardPoints[m] >= 82
	}
	var want [protocol.MaxSeats]int
	allRoem := res.Roem[0] + res.Roem[1]
	switch {
	case made:
		want[m], want[o] = res.CardPoints[m]+res.Roem[m], res.CardPoints[o]+res.Roem[o]
		if res.TricksWon[m] == 8 {
			want[m] += rs.PitBonus
		}
	default:
		want[o] = 162 + allRoem
		if res.TricksWon[o] == 8 && rs.PitForDefenders {
			want[o] += rs.PitBonus
		}
	}
	if res.Score != want || (res.Outcome == Made) != made {
		t.Fatalf("outcome %s score %v, want made=%v score %v (cards %v roem %v tricks %v maker side %d)",
			res.Outcome, res.Score, made, want, res.CardPoints, res.Roem, res.TricksWon, m)
	}
}

// TestPropertyForfeit forfeits random deals at a random moment: the offenders score 0, the
// others 162 + all roem so far + renege_extra_roem.
func TestPropertyForfeit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := genRuleset(t)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		d := newRandomDeal(t, &rs, rng, false)
		for range rapid.IntRange(0, 45).Draw(t, "actions") {
			RandomAction(d, rng)
		}
		if d.Phase() == PhaseDone {
			return
		}
		offender := d.ToMove()
		before := d.roem
		d.Forfeit(offender)
		res := d.Result()
		o := rs.SideOf(offender)
		if res.Outcome != Forfeited || res.Score[o] != 0 || res.Score[1-o] != 162+before[0]+before[1]+rs.RenegeExtraRoem || res.Offender != offender {
			t.Fatalf("forfeit by %s: %+v (roem before %v)", offender, res, before)
		}
	})
}

// TestShuffleUniform checks the batched shuffle with a chi-square test over the position of
// every card (fixed seed, so the test is deterministic).
func TestShuffleUniform(t *testing.T) {
	const shuffles = 64000
	rng := rand.New(rand.NewPCG(7, 7))
	var count [32][32]int
	for range shuffles {
		d := Shuffle(rng)
		for pos, c := range d {
			count[c][pos]++
		}
	}
	chi2 := 0.0
	exp := float64(shuffles) / 32
	for c := range count {
		for pos := range count[c] {
			diff := float64(count[c][pos]) - exp
			chi2 += diff * diff / exp
		}
	}
	// 32 x 32 table, 961 degrees of freedom: mean 961, sd 43.8; allow 5 sd either way.
	if chi2 < 961-5*43.8 || chi2 > 961+5*43.8 {
		t.Errorf("chi-square %.0f over card positions, want 961 +- 219", chi2)
	}
}

// referenceLegal is RULES.md §5.4 transcribed card by card, independent of the bitset code.
func referenceLegal(rs *Ruleset, trump Suit, hand CardSet, t *Trick) CardSet {
	if t.N == 0 {
		return hand
	}
	filter := func(set CardSet, keep func(Card) bool) CardSet {
		var out CardSet
		for _, c := range set.Cards() {
			if keep(c) {
				out = out.Add(c)
			}
		}
		return out
	}
	order := []Rank{protocol.Seven, protocol.Eight, protocol.Queen, protocol.King, protocol.Ten, protocol.Ace, protocol.Nine, protocol.Jack}
	trumpRank := func(c Card) int {
		for i, r := range order {
			if c.Rank() == r {
				return i
			}
		}
		panic("rank")
	}
	led := t.Cards[0].Suit()
	follow := filter(hand, func(c Card) bool { return c.Suit() == led })
	ht := -1
	for _, c := range t.Cards[:t.N] {
		if c.Suit() == trump && trumpRank(c) > ht {
			ht = trumpRank(c)
		}
	}
	if led == trump {
		if follow == 0 {
			return hand
		}
		if higher := filter(follow, func(c Card) bool { return trumpRank(c) > ht }); higher != 0 {
			return higher
		}
		return follow
	}
	if follow != 0 {
		return follow
	}
	trumps := filter(hand, func(c Card) bool { return c.Suit() == trump })
	if trumps == 0 {
		return hand
	}
	// current winner: highest trump, else highest of the led suit
	plain := []Rank{protocol.Seven, protocol.Eight, protocol.Nine, protocol.Jack, protocol.Queen, protocol.King, protocol.Ten, protocol.Ace}
	plainRank := func(c Card) int {
		for i, r := range plain {
			if c.Rank() == r {
				return i
			}
		}
		panic("rank")
	}
	winner, best := 0, -1
	for i, c := range t.Cards[:t.N] {
		v := -1
		switch {
		case c.Suit() == trump:
			v = 100 + trumpRank(c)
		case c.Suit() == led:
			v = plainRank(c)
		}
		if v > best {
			winner, best = i, v
		}
	}
	partnerWins := (t.N-winner)%2 == 0
	if rs.PlayRule == Amsterdams && partnerWins {
		if ht < 0 || rs.PartnerTrumpUndertrump == PartnerUndertrumpAllowed {
			return hand
		}
		lower := filter(trumps, func(c Card) bool { return trumpRank(c) < ht })
		if rest := hand &^ lower; rest != 0 {
			return rest
		}
		return hand
	}
	if ht < 0 {
		return trumps
	}
	if higher := filter(trumps, func(c Card) bool { return trumpRank(c) > ht }); higher != 0 {
		return higher
	}
	if rs.Undertrump == UndertrumpMandatory {
		return trumps
	}
	if nonTrumps := hand &^ trumps; nonTrumps != 0 {
		return nonTrumps
	}
	return hand
}

// referenceRoem is RULES.md §6 for a four-card trick, written card by card.
func referenceRoem(rs *Ruleset, trick CardSet, trump Suit) Roem {
	var roem Roem
	for su := range Suit(4) {
		run, longest := 0, 0
		for r := range Rank(8) {
			if trick.Has(protocol.NewCard(r, su)) {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
		switch {
		case longest >= 4:
			roem.add(RoemItem{Kind: RoemSequence, Length: 4, Suit: su, Points: 50})
		case longest == 3:
			roem.add(RoemItem{Kind: RoemSequence, Length: 3, Suit: su, Points: 20})
		}
	}
	if rs.StukScoring == StukInTrick && trick.Has(protocol.NewCard(protocol.King, trump)) && trick.Has(protocol.NewCard(protocol.Queen, trump)) {
		roem.add(RoemItem{Kind: RoemStuk, Points: 20})
	}
	for r := range Rank(8) {
		n := 0
		for su := range Suit(4) {
			if trick.Has(protocol.NewCard(r, su)) {
				n++
			}
		}
		if n < 4 {
			continue
		}
		pts := 100
		switch {
		case rs.FourOfAKind != FourAll100 && r == protocol.Jack:
			pts = 200
		case rs.FourOfAKind == FourJacks200High100 && (r == protocol.Seven || r == protocol.Eight || r == protocol.Nine):
			pts = 0
		}
		if pts > 0 {
			roem.add(RoemItem{Kind: RoemSameRank, Length: 4, Rank: r, Points: int16(pts)})
		}
	}
	return roem
}

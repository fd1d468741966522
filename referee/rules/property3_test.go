package rules

import (
	"math/rand/v2"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"pgregory.net/rapid"
)

// genThreeRuleset draws a valid three-player ruleset: drie_spelers with the options that
// apply at a table of three (see checkThreePlayer) drawn at random.
func genThreeRuleset(t *rapid.T) Ruleset {
	rs, err := Preset(rapid.SampledFrom(ThreePlayerPresetNames()).Draw(t, "preset"))
	if err != nil {
		t.Fatal(err)
	}
	pick := func(name string, values ...string) {
		if err := rs.Set(name, rapid.SampledFrom(values).Draw(t, name)); err != nil {
			t.Fatal(err)
		}
	}
	pick("roem_claiming", roemClaimingNames...)
	rs.FalseClaimPenalty = 0
	if rs.RoemClaiming == RoemClaimRequired {
		pick("false_claim_penalty", "0", "20")
	}
	pick("last_trick_bonus", "10", "0", "15")
	pick("pit_bonus", "100", "0", "75")
	pick("renege_extra_roem", "0", "100", "15")
	if err := rs.Validate(); err != nil {
		t.Fatalf("generated ruleset is invalid: %v", err)
	}
	return rs
}

// newRandomThree starts a three-player deal with a random deck and dealer.
func newRandomThree(t interface{ Fatal(...any) }, rs *Ruleset, rng *rand.Rand) *Deal {
	deck := Shuffle(rng)
	setup := Setup{Dealer: Seat(rng.IntN(3))}
	setup.Hands, setup.Skart = DealHands(rs, &deck, setup.Dealer)
	d, err := NewDeal(rs, setup)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPropertyThreePlayerDeals plays random three-player deals and checks RULES.md §11: 30 cards
// in 10 tricks of 3 plus the 2 discards are the 32 distinct cards, 152 + last_trick_bonus
// card points, legal sets as the reference, roem as the reference, and the scoring formula.
func TestPropertyThreePlayerDeals(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := genThreeRuleset(t)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		d := newRandomThree(t, &rs, rng)
		claims := rapid.IntRange(-1, 1)
		dealer := d.Dealer()
		for d.Phase() != PhaseDone {
			switch d.Phase() {
			case PhaseBidding:
				if d.ToMove() != dealer.Plus(1+len(d.Bids()), 3) {
					t.Fatalf("%s to bid after %d bids, dealer %s", d.ToMove(), len(d.Bids()), dealer)
				}
				RandomAction(d, rng)
			case PhaseSkart:
				if d.ToMove() != d.Maker() || d.Hand(d.Maker()).Len() != 12 || d.Hand(d.Maker())&d.Skart() != d.Skart() {
					t.Fatalf("skart phase: %s to move, hand %v", d.ToMove(), d.Hand(d.ToMove()))
				}
				RandomAction(d, rng)
				if d.Phase() != PhasePlay || d.ToMove() != dealer.Next(3) || d.Discarded().Len() != 2 {
					t.Fatalf("after the discard: phase %s, %s to move", d.Phase(), d.ToMove())
				}
			case PhasePlay:
				hand, legal := d.Hand(d.ToMove()), d.Legal()
				if legal == 0 || legal&^hand != 0 {
					t.Fatalf("legal %v is empty or not within hand %v", legal, hand)
				}
				if want := referenceLegal3(d.Trump(), hand, d.Trick()); legal != want {
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
			}
		}
		checkFinishedThree(t, &rs, d)
	})
}

func checkFinishedThree(t *rapid.T, rs *Ruleset, d *Deal) {
	res := d.Result()
	if res.Outcome == Redeal {
		if len(d.Bids()) != 3 || d.Maker() != noSeat {
			t.Fatalf("redeal after %v", d.Bids())
		}
		return
	}
	if len(d.Tricks()) != 10 {
		t.Fatalf("%d tricks", len(d.Tricks()))
	}
	played := d.Discarded()
	if played.Len() != 2 || d.Hand(d.Maker()) != 0 {
		t.Fatalf("discards %v", played)
	}
	var cardsTotal, tricksTotal int
	var wantCards, wantRoem [protocol.MaxSeats]int
	for i, tr := range d.Tricks() {
		if tr.N != 3 || tr.Played.Len() != 3 || played&tr.Played != 0 {
			t.Fatalf("trick %v repeats a card or is incomplete", tr.Cards)
		}
		played |= tr.Played
		if ref := referenceRoem3(tr.Played, d.Trump()); tr.Roem.Total() != ref.Total() || tr.Roem.N != ref.N {
			t.Fatalf("roem %v, reference %v", tr.Roem.List(), ref.List())
		}
		if i > 0 && tr.Leader != d.Tricks()[i-1].Winner {
			t.Fatalf("trick %d led by %s", i+1, tr.Leader)
		}
		want := SetPoints(tr.Played, d.Trump())
		if i == 9 {
			want += rs.LastTrickBonus + SetPoints(d.Discarded(), d.Trump())
		}
		if tr.Points != want {
			t.Fatalf("trick %d: %d points, want %d", i+1, tr.Points, want)
		}
		cardsTotal += tr.Points
		wantCards[tr.Winner] += tr.Points
		wantRoem[tr.Winner] += tr.Scored
		tricksTotal++
	}
	if played != protocol.FullDeck {
		t.Fatalf("played and discarded %d distinct cards", played.Len())
	}
	if d.Tricks()[0].Leader != d.Dealer().Next(3) {
		t.Fatal("voorhand did not lead")
	}
	if cardsTotal != rs.TotalCardPoints() || res.CardPoints != wantCards {
		t.Fatalf("card points %v sum to %d, want %d", res.CardPoints, cardsTotal, rs.TotalCardPoints())
	}
	if res.TricksWon[0]+res.TricksWon[1]+res.TricksWon[2] != 10 {
		t.Fatalf("tricks won %v", res.TricksWon)
	}
	if rs.FalseClaimPenalty == 0 && res.Roem != wantRoem {
		t.Fatalf("roem %v, want %v", res.Roem, wantRoem)
	}
	checkScoreThree(t, rs, int(d.Maker()), res)
}

// checkScoreThree checks RULES.md §11's scoring before rounding, then the rounding.
func checkScoreThree(t *rapid.T, rs *Ruleset, m int, res Result) {
	total := rs.TotalCardPoints()
	allRoem := res.Roem[0] + res.Roem[1] + res.Roem[2]
	made := res.CardPoints[m]+res.Roem[m] >= 82 // RULES.md §11.7, whatever last_trick_bonus is
	var raw [protocol.MaxSeats]float64          // before rounding
	for s := range 3 {
		pit := 0
		if res.TricksWon[s] == 10 {
			pit = rs.PitBonus
		}
		switch {
		case made:
			raw[s] = float64(res.CardPoints[s] + res.Roem[s] + pit)
		case s != m:
			raw[s] = float64(total+allRoem)/2 + float64(pit)
		}
	}
	sum := raw[0] + raw[1] + raw[2]
	pits := 0
	if res.PitSide >= 0 && (made || res.PitSide != m) {
		pits = rs.PitBonus
	}
	if sum != float64(total+allRoem+pits) {
		t.Fatalf("scores %v before rounding add up to %v, want %d", raw, sum, total+allRoem+pits)
	}
	for s := range 3 {
		want := int(raw[s]+5) / 10 * 10 // halves up, non-negative
		if res.Score[s] != want || res.Score[s]%10 != 0 {
			t.Fatalf("outcome %s score %v, want %d for %d (raw %v)", res.Outcome, res.Score, want, s, raw)
		}
	}
	if (res.Outcome == Made) != made || (!made && res.Score[m] != 0) {
		t.Fatalf("outcome %s, made %v", res.Outcome, made)
	}
}

// TestPropertyThreePlayerForfeit forfeits random three-player deals at a random moment.
func TestPropertyThreePlayerForfeit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := genThreeRuleset(t)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		d := newRandomThree(t, &rs, rng)
		for range rapid.IntRange(0, 40).Draw(t, "actions") {
			RandomAction(d, rng)
		}
		if d.Phase() == PhaseDone {
			return
		}
		offender := d.ToMove()
		before := d.roem
		d.Forfeit(offender)
		res := d.Result()
		half := float64(rs.TotalCardPoints()+before[0]+before[1]+before[2]+rs.RenegeExtraRoem) / 2
		for s := range Seat(3) {
			want := int(half+5) / 10 * 10
			if s == offender {
				want = 0
			}
			if res.Outcome != Forfeited || res.Score[s] != want || res.Offender != offender {
				t.Fatalf("forfeit by %s: %+v (roem before %v)", offender, res, before)
			}
		}
	})
}

// TestPlayOutThree: PlayOut finishes three-player deals from the start (random bids and
// discards), and redeals happen about as often as three passes in a row.
func TestPlayOutThree(t *testing.T) {
	rs, _ := Preset("drie_spelers")
	rng := rand.New(rand.NewPCG(3, 3))
	var d Deal
	redeals := 0
	const n = 5000
	for range n {
		deck := Shuffle(rng)
		s := Setup{Dealer: Seat(rng.IntN(3))}
		s.Hands, s.Skart = DealHands(&rs, &deck, s.Dealer)
		if err := d.Start(&rs, s); err != nil {
			t.Fatal(err)
		}
		PlayOut(&d, rng)
		switch res := d.Result(); res.Outcome {
		case Redeal:
			redeals++
		case Made, Nat:
			if len(d.Tricks()) != 10 || d.Discarded().Len() != 2 {
				t.Fatalf("%d tricks, discards %v", len(d.Tricks()), d.Discarded())
			}
		default:
			t.Fatalf("outcome %s", res.Outcome)
		}
	}
	// A random bid passes with probability 1/5: three passes 1/125 = 40 of 5000.
	if redeals < 15 || redeals > 80 {
		t.Errorf("%d redeals in %d deals, want about 40", redeals, n)
	}
}

// referenceLegal3 is RULES.md §11's rule of play transcribed card by card: follow suit; void,
// trump and beat the highest trump if possible, else still a (lower) trump; trumps led, beat
// if possible else any trump; with neither, any card. No partners.
func referenceLegal3(trump Suit, hand CardSet, t *Trick) CardSet {
	if t.N == 0 {
		return hand
	}
	filter := func(keep func(Card) bool) CardSet {
		var out CardSet
		for _, c := range hand.Cards() {
			if keep(c) {
				out = out.Add(c)
			}
		}
		return out
	}
	order := "78QKTA9J" // trumps, low to high
	rank := func(c Card) int {
		for i := range order {
			if c.String()[0] == order[i] {
				return i
			}
		}
		panic("rank")
	}
	led := t.Cards[0].Suit()
	high := -1
	for _, c := range t.Cards[:t.N] {
		if c.Suit() == trump {
			high = max(high, rank(c))
		}
	}
	follow := filter(func(c Card) bool { return c.Suit() == led })
	if led != trump && follow != 0 {
		return follow
	}
	trumps := filter(func(c Card) bool { return c.Suit() == trump })
	if trumps == 0 {
		return hand
	}
	if over := filter(func(c Card) bool { return c.Suit() == trump && rank(c) > high }); over != 0 {
		return over
	}
	return trumps
}

// referenceRoem3 is RULES.md §11's roem of a trick of three cards, written card by card: runs
// of three in natural order 40, three of a kind 80, three jacks 120, stuk 20.
func referenceRoem3(trick CardSet, trump Suit) Roem {
	var roem Roem
	cs := trick.Cards()
	natural := "789TJQKA"
	idx := func(c Card) int {
		for i := range natural {
			if c.String()[0] == natural[i] {
				return i
			}
		}
		panic("rank")
	}
	for _, a := range cs {
		for _, b := range cs {
			for _, c := range cs {
				if a.Suit() == b.Suit() && b.Suit() == c.Suit() && idx(b) == idx(a)+1 && idx(c) == idx(b)+1 {
					roem.add(RoemItem{Kind: RoemSequence, Length: 3, Suit: a.Suit(), Points: 40})
				}
			}
		}
	}
	if trick.Has(protocol.NewCard(protocol.King, trump)) && trick.Has(protocol.NewCard(protocol.Queen, trump)) {
		roem.add(RoemItem{Kind: RoemStuk, Points: 20})
	}
	if len(cs) == 3 && cs[0].Rank() == cs[1].Rank() && cs[1].Rank() == cs[2].Rank() {
		pts := int16(80)
		if cs[0].Rank() == protocol.Jack {
			pts = 120
		}
		roem.add(RoemItem{Kind: RoemSameRank, Length: 3, Rank: cs[0].Rank(), Points: pts})
	}
	return roem
}

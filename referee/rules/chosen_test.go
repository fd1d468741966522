package rules

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestPlayChosenMatchesPlay plays random deals under every preset, both stuk rules and with
// roem claims required, the cards by PlayChosen (stopped now and then in the middle of a
// trick) on one deal and by Legal and PlayUnchecked on another: each card must be chosen from
// the same legal cards, and the two deals must be the same in every field after each stop.
func TestPlayChosenMatchesPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	for _, name := range AllPresetNames() {
		for _, stuk := range []StukScoring{StukInTrick, StukAnnouncedByHolder} {
			for _, claims := range []bool{false, true} {
				rs, _ := Preset(name)
				rs.StukScoring = stuk
				if claims {
					if err := rs.Set("roem_claiming", "claim_required"); err != nil {
						t.Fatal(err)
					}
				}
				for range 200 {
					playChosenDeal(t, name, &rs, rng)
				}
			}
		}
	}
}

// playChosenDeal is one deal of TestPlayChosenMatchesPlay.
func playChosenDeal(t *testing.T, name string, rs *Ruleset, rng *rand.Rand) {
	t.Helper()
	deck := Shuffle(rng)
	setup := Setup{Dealer: Seat(rng.IntN(rs.Players)), Pile: ShufflePile(rs, rng)}
	setup.Hands, setup.Skart = DealHands(rs, &deck, setup.Dealer)
	var fused, single Deal
	if err := fused.Start(rs, setup); err != nil {
		t.Fatal(err)
	}
	if err := single.Start(rs, setup); err != nil {
		t.Fatal(err)
	}
	for fused.Phase() != PhaseDone {
		switch fused.Phase() {
		case PhasePlay:
			var legals []CardSet
			var cards []Card
			fused.PlayChosen(func(legal CardSet) (Card, bool) {
				if rng.IntN(20) == 0 {
					return 0, false
				}
				c := legal.Nth(rng.IntN(legal.Len()))
				legals, cards = append(legals, legal), append(cards, c)
				return c, true
			})
			for i, legal := range legals {
				if got := single.Legal(); got != legal {
					t.Fatalf("%s: card %d of this call: PlayChosen chose from %v, Legal is %v", name, i, legal, got)
				}
				single.PlayUnchecked(cards[i])
			}
		case PhaseClaim:
			roem := fused.Tricks()[len(fused.Tricks())-1].Roem.Total()
			if err := fused.Claim(roem); err != nil {
				t.Fatal(err)
			}
			if err := single.Claim(roem); err != nil {
				t.Fatal(err)
			}
		default:
			bids := len(fused.Bids())
			RandomAction(&fused, rng)
			for _, b := range fused.Bids()[bids:] {
				if err := single.Bid(b.Bid); err != nil {
					t.Fatal(err)
				}
			}
			if single.Phase() == PhaseSkart && fused.Phase() != PhaseSkart {
				two := fused.Discarded()
				if err := single.Discard(two.Nth(0), two.Nth(1)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !reflect.DeepEqual(&fused, &single) {
			t.Fatalf("%s: after PlayChosen\n%+v\nplayed card by card\n%+v", name, fused, single)
		}
	}
}

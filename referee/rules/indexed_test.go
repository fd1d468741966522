package rules

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/klaverjas-arena/arena/referee/rules/bitstream"
)

// TestPlayIndexedMatchesPlay plays random deals under every preset, both stuk rules and with
// roem claims required, the cards by PlayIndexed from random bits on one deal, and on another
// by Legal and PlayUnchecked from the same bits read one at a time: PlayIndexed must stop
// where an index is out of range or the bits end, having read the same bits, and the two deals
// must be the same in every field after each stop.
func TestPlayIndexedMatchesPlay(t *testing.T) {
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
					playIndexedDeal(t, name, &rs, rng)
				}
			}
		}
	}
}

// playIndexedDeal is one deal of TestPlayIndexedMatchesPlay.
func playIndexedDeal(t *testing.T, name string, rs *Ruleset, rng *rand.Rand) {
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
			data := make([]byte, rng.IntN(8))
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			r := bitstream.NewReader(data)
			ended := fused.PlayIndexed(&r)
			pos := 0 // the bits single has read
			for single.Phase() == PhasePlay {
				legal := single.Legal()
				w := bitstream.IndexBits(legal.Len())
				if pos+int(w) > 8*len(data) {
					break
				}
				index := 0
				for b := range int(w) {
					index |= int(data[(pos+b)/8]>>((pos+b)%8)&1) << b
				}
				if index >= legal.Len() {
					break
				}
				pos += int(w)
				single.PlayUnchecked(legal.Nth(index))
			}
			if want := single.Phase() != PhasePlay; ended != want || int(r.Consumed()) != pos {
				t.Fatalf("%s: PlayIndexed ended %v after %d bits; read one at a time: %v after %d", name, ended, r.Consumed(), want, pos)
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
			t.Fatalf("%s: after PlayIndexed\n%+v\nplayed card by card\n%+v", name, fused, single)
		}
	}
}

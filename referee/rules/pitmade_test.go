package rules

import "testing"

// TestDefendersPitInMadeDeal is rules.md §7.1-7.2 (RULES.md §6.4, §7.2): in a made deal "each
// team scores its own cards + roem (+ pit bonus, §7.2)", and with pit_for_defenders = true the
// defenders earn the bonus for winning every trick. Penalty roem for false claims (§6.4) can
// make the makers' deal although the defenders took every trick; "a side that took every trick
// keeps its pit bonus if the deal is made".
func TestDefendersPitInMadeDeal(t *testing.T) {
	tests := []struct {
		name  string
		opts  string
		maker int
		score [2]int
	}{
		{"NS makers, EW pit", "", 0, [2]int{400, 262}},
		{"EW makers, NS pit", "", 1, [2]int{262, 400}},
		{"pit_for_defenders=false", "pit_for_defenders=false", 0, [2]int{400, 162}},
		{"pit_bonus=200", "pit_bonus=200", 0, [2]int{400, 362}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ruleset(t, "roem_claiming=claim_required false_claim_penalty=200 "+tt.opts)
			d := tt.maker
			cards, roem, tricks := sides(0, 0), sides(0, 0), sides(0, 0)
			cards[1-d], tricks[1-d] = 162, 8
			roem[d] = 400 // penalty roem: two false claims by the defenders
			res := ScoreDeal(r, d, cards, roem, tricks)
			if res.Outcome != Made || res.PitSide != 1-d || res.Score[0] != tt.score[0] || res.Score[1] != tt.score[1] {
				t.Errorf("outcome %v pit %d score NS %d EW %d, want made pit %d NS %d EW %d",
					res.Outcome, res.PitSide, res.Score[0], res.Score[1], 1-d, tt.score[0], tt.score[1])
			}
		})
	}
}

// TestDefendersPitInMadeDealPlayed plays such a deal: N must make hearts trumps, E holds all
// eight hearts and EW take every trick, but each EW claim is false, so NS are made on penalty
// roem. EW still took every trick and score 162 + the pit bonus.
func TestDefendersPitInMadeDealPlayed(t *testing.T) {
	r := ruleset(t, "bidding=direct_kiezen_verplicht roem_claiming=claim_required false_claim_penalty=1000")
	hands := handsOf(t,
		"7C 8C 9C JC QC 7D 8D 9D",
		"7H 8H 9H TH JH QH KH AH",
		"JD QD 7S 8S 9S JS QS KS",
		"AC TC KC AD TD KD AS TS")
	d, err := NewDeal(r, Setup{Dealer: seatOf(t, "W"), Hands: hands})
	if err != nil {
		t.Fatal(err)
	}
	bid(t, d, "H")
	for d.Phase() != PhaseDone {
		switch d.Phase() {
		case PhasePlay:
			d.PlayUnchecked(d.Legal().Lowest())
		case PhaseClaim:
			if err := d.Claim(1000); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("phase %v", d.Phase())
		}
	}
	res := d.Result()
	if res.Outcome != Made || res.PitSide != 1 || res.TricksWon[1] != 8 {
		t.Fatalf("outcome %v pit %d tricks %v, want made, EW pit", res.Outcome, res.PitSide, res.TricksWon)
	}
	if want := [2]int{8000, 162 + 100}; res.Score[0] != want[0] || res.Score[1] != want[1] {
		t.Errorf("score NS %d EW %d, want NS %d EW %d", res.Score[0], res.Score[1], want[0], want[1])
	}
}

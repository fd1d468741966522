package rules

import (
	"errors"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

// Tests of the three-player game (RULES.md §11).

// three returns the three-player preset, changed by "option=value" words as in ruleset.
func three(t testing.TB, opts string) *Ruleset {
	t.Helper()
	return ruleset(t, strings.TrimSpace("preset=drie_spelers "+opts))
}

// threeHands parses three hands in seat order N E S.
func threeHands(t testing.TB, n, e, s string) [protocol.MaxSeats]CardSet {
	t.Helper()
	return [protocol.MaxSeats]CardSet{cards(t, n), cards(t, e), cards(t, s)}
}

// orderedThree is the ordered deck 7C..AS dealt 3-4-3 by South (so North is voorhand).
func orderedThree(t testing.TB) (*Ruleset, Setup) {
	t.Helper()
	rs := three(t, "")
	deck := OrderedDeck()
	s := Setup{Dealer: protocol.South}
	s.Hands, s.Skart = DealHands(rs, &deck, s.Dealer)
	return rs, s
}

func TestThreePlayerPreset(t *testing.T) {
	rs, err := Preset("drie_spelers")
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	want := map[string]string{
		"players": "3", "play_rule": "rotterdams", "undertrump": "mandatory", "bidding": "direct_kiezen",
		"deal_packets": "[3,4,3]", "pit_bonus": "100", "pit_for_defenders": "true", "first_lead": "left_of_dealer",
		"last_trick_bonus": "10", "game_end": "deals:15",
	}
	for k, v := range want {
		if got, _ := rs.Get(k); got != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	if rs.HandSize() != 10 || rs.Sides() != 3 || NumCardsInPlay(3) != 30 || rs.SideOf(protocol.South) != 2 {
		t.Errorf("HandSize %d Sides %d NumCardsInPlay %d", rs.HandSize(), rs.Sides(), NumCardsInPlay(3))
	}
	if PresetAbout("drie_spelers") == "" || len(ThreePlayerPresetNames()) != 1 {
		t.Error("the three-player preset is not described")
	}
	for _, n := range PresetNames() {
		if n == "drie_spelers" {
			t.Error("PresetNames lists the three-player preset")
		}
	}
	// players = 3 written by hand (rulesfile's tests round-trip the preset through JSON and TOML).
	hand := `{"players":3,"play_rule":"rotterdams","undertrump":"mandatory","deal_packets":[3,4,3],"game_end":"deals:15"}`
	if back, err := parseJSON([]byte(hand)); err != nil || back != rs {
		t.Errorf("players = 3 by hand: %v", err)
	}
}

// TestThreePlayerValidate: each option that contradicts RULES.md §11 is refused, naming it.
func TestThreePlayerValidate(t *testing.T) {
	tests := []struct {
		change string // option=value on top of drie_spelers
		option string
	}{
		{"play_rule=amsterdams", "play_rule"},
		{"undertrump=forbidden_unless_only_trumps", "undertrump"},
		{"partner_trump_undertrump=allowed", "partner_trump_undertrump"},
		{"bidding=draaikaart", "bidding"},
		{"bidding=direct_kiezen_verplicht", "bidding"},
		{"bidding=nku_dealer_first", "bidding"},
		{"first_lead=maker", "first_lead"},
		{"four_of_a_kind=jacks_200_all_100", "four_of_a_kind"},
		{"stuk_scoring=announced_by_holder", "stuk_scoring"},
		{"nat_rule=card_points_at_least_82", "nat_rule"},
		{"pit_for_defenders=false", "pit_for_defenders"},
		{"deal_packets=[3,2,3]", "deal_packets"},
		{"deal_packets=[4,4]", "deal_packets"},
	}
	for _, tt := range tests {
		rs, _ := Preset("drie_spelers")
		k, v, _ := strings.Cut(tt.change, "=")
		if err := rs.Set(k, v); err != nil {
			t.Fatal(err)
		}
		err := rs.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.option) || !strings.Contains(err.Error(), "players = 3") || !errors.Is(err, ErrOption) {
			t.Errorf("%s: Validate = %v, want an error naming %s and players = 3", tt.change, err, tt.option)
		}
	}
	// Options that still apply at a table of three.
	for _, ok := range []string{"roem_claiming=claim_required false_claim_penalty=20", "pit_bonus=200", "renege_extra_roem=0",
		"fault_policy=retry", "game_end=target:1000", "last_trick_bonus=0"} {
		three(t, ok)
	}
	// Four players may not use three-player packets; players is 3 or 4.
	r := Default()
	r.DealPackets = Packets{3, 4, 3}
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "deal_packets") {
		t.Errorf("four players with [3,4,3]: %v", err)
	}
	for _, n := range []string{"2", "5"} {
		if err := r.Set("players", n); err == nil || !strings.Contains(err.Error(), "players") {
			t.Errorf("players = %s: %v", n, err)
		}
	}
	if _, err := parseJSON([]byte(`{"preset":"drie_spelers","play_rule":"amsterdams"}`)); err == nil || !strings.Contains(err.Error(), "play_rule") {
		t.Errorf("FromMap does not check the three-player options: %v", err)
	}
}

func TestThreePlayerDealing(t *testing.T) {
	rs, s := orderedThree(t)
	want := threeHands(t, "7C 8C 9C 8D 9D TD JD QH KH AH", "TC JC QC QD KD AD 7H 7S 8S 9S", "KC AC 7D 8H 9H TH JH TS JS QS")
	if s.Hands != want || s.Skart != cards(t, "KS AS") {
		t.Fatalf("hands %v skart %v", s.Hands, s.Skart)
	}
	if _, err := NewDeal(rs, s); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name  string
		setup func(*Setup)
	}{
		{"no skart", func(s *Setup) { s.Skart = 0 }},
		{"skart overlaps a hand", func(s *Setup) { s.Skart = cards(t, "KS 7C") }},
		{"three-card skart", func(s *Setup) { s.Skart = cards(t, "KS AS QS") }},
		{"fourth hand", func(s *Setup) { s.Hands[3] = s.Skart; s.Skart = 0 }},
		{"dealer W", func(s *Setup) { s.Dealer = protocol.West }},
	}
	for _, b := range bad {
		s2 := s
		b.setup(&s2)
		if _, err := NewDeal(rs, s2); !errors.Is(err, ErrBadSetup) {
			t.Errorf("%s: NewDeal = %v, want ErrBadSetup", b.name, err)
		}
	}
	// At a table of four the skart must be empty.
	r4 := Default()
	s4 := Setup{Dealer: protocol.North, Hands: orderedHands(&r4, protocol.North), Skart: cards(t, "AS")}
	if _, err := NewDeal(&r4, s4); !errors.Is(err, ErrBadSetup) {
		t.Errorf("four players with a skart: %v", err)
	}
}

func TestThreePlayerBidding(t *testing.T) {
	tests := []struct {
		dealer, bids string
		maker, trump string // maker "" = redeal
	}{
		{"S", "H", "N", "H"},
		{"S", "pass C", "E", "C"},
		{"S", "pass pass D", "S", "D"},
		{"S", "pass pass pass", "", ""},
		{"N", "S", "E", "S"},
		{"N", "pass pass H", "N", "H"},
		{"E", "pass C", "N", "C"},
		{"E", "pass pass pass", "", ""},
	}
	for _, tt := range tests {
		rs, s := orderedThree(t)
		s.Dealer = seatOf(t, tt.dealer)
		s.Hands, s.Skart = orderedHandsThree(rs, s.Dealer)
		d, err := NewDeal(rs, s)
		if err != nil {
			t.Fatal(err)
		}
		if d.ToMove() != s.Dealer.Next(3) || d.LegalBids() != bidsOf(t, "pass C D H S") {
			t.Errorf("%s deals: %s to move with %v", tt.dealer, d.ToMove(), d.LegalBids())
		}
		bid(t, d, tt.bids)
		if tt.maker == "" {
			if d.Phase() != PhaseDone || d.Result().Outcome != Redeal || d.Maker() != noSeat {
				t.Errorf("%s deals, %s: phase %s outcome %s, want a redeal", tt.dealer, tt.bids, d.Phase(), d.Result().Outcome)
			}
			continue
		}
		maker := seatOf(t, tt.maker)
		if d.Phase() != PhaseSkart || d.Maker() != maker || d.Trump() != suitOf(t, tt.trump) || d.ToMove() != maker {
			t.Errorf("%s deals, %s: phase %s maker %s trump %s to move %s", tt.dealer, tt.bids, d.Phase(), d.Maker(), d.Trump(), d.ToMove())
		}
		if d.Hand(maker) != d.Dealt(maker)|s.Skart || d.Hand(maker).Len() != 12 || d.LegalBids() != 0 {
			t.Errorf("the Player did not take the skart: %v", d.Hand(maker))
		}
		if err := d.Bid(BidPass); !errors.Is(err, ErrWrongPhase) {
			t.Errorf("bid in the skart phase: %v", err)
		}
	}
}

func orderedHandsThree(r *Ruleset, dealer Seat) ([protocol.MaxSeats]CardSet, CardSet) {
	deck := OrderedDeck()
	return DealHands(r, &deck, dealer)
}

func TestThreePlayerSkart(t *testing.T) {
	rs, s := orderedThree(t)
	d, err := NewDeal(rs, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Discard(card(t, "7C"), card(t, "8C")); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("discard in the bidding: %v", err)
	}
	bid(t, d, "pass H") // East plays hearts
	if d.Phase().String() != "skart" || d.Legal() != 0 {
		t.Errorf("phase %s, legal %v", d.Phase(), d.Legal())
	}
	if err := d.Play(card(t, "TC")); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("play in the skart phase: %v", err)
	}
	for _, bad := range [][2]string{{"TC", "TC"}, {"TC", "7C"}, {"7C", "8C"}, {"AS", "AS"}} {
		var ide *IllegalDiscardError
		if err := d.Discard(card(t, bad[0]), card(t, bad[1])); !errors.As(err, &ide) || ide.Seat != protocol.East {
			t.Errorf("discard %v: %v", bad, err)
		} else if ide.Error() == "" {
			t.Error("empty message")
		}
	}
	if d.Hand(protocol.East).Len() != 12 || d.Discarded() != 0 {
		t.Fatal("an illegal discard changed the deal")
	}
	if err := d.Discard(card(t, "AS"), card(t, "TC")); err != nil {
		t.Fatal(err)
	}
	if d.Phase() != PhasePlay || d.ToMove() != protocol.North || d.Trick().Leader != protocol.North {
		t.Errorf("after the discard: phase %s, %s to move; want North (voorhand) to lead", d.Phase(), d.ToMove())
	}
	if d.Hand(protocol.East) != cards(t, "JC QC QD KD AD 7H 7S 8S 9S KS") || d.Discarded() != cards(t, "AS TC") || d.Skart() != cards(t, "KS AS") {
		t.Errorf("hand %v discarded %v", d.Hand(protocol.East), d.Discarded())
	}
	if err := d.Discard(card(t, "7S"), card(t, "8S")); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("second discard: %v", err)
	}
}

// TestThreePlayerDeal plays a whole deal in card notation: the discards' points go to the
// winner of the last trick.
func TestThreePlayerDeal(t *testing.T) {
	for _, discard := range []struct {
		a, b     string
		lastWins int // card points of the last trick
	}{{"7C", "8C", 15}, {"7C", "TC", 25}} {
		rs, s := orderedThree(t)
		if discard.b == "TC" {
			// North holds TC instead of 8C, East 8C instead of TC.
			s.Hands[0] = cards(t, "7C TC 9C 8D 9D TD JD QH KH AH")
			s.Hands[1] = cards(t, "8C JC QC QD KD AD 7H 7S 8S 9S")
		}
		d, err := NewDeal(rs, s)
		if err != nil {
			t.Fatal(err)
		}
		bid(t, d, "D")
		if err := d.Discard(card(t, discard.a), card(t, discard.b)); err != nil {
			t.Fatal(err)
		}
		east := "QD KD AD 7S 8S 7H 9S TC JC QC"
		if discard.b == "TC" {
			east = "QD KD AD 7S 8S 7H 9S 8C JC QC"
		}
		e := strings.Fields(east)
		play(t, d, "JD "+e[0]+" 7D  9D "+e[1]+" 8H  TD "+e[2]+" 9H  "+e[3]+" TS AS  KS "+e[4]+" QS  8D "+e[5]+" JH  AH "+e[6]+" TH  KH "+e[7]+" KC  QH "+e[8]+" AC  9C "+e[9]+" JS")
		res := d.Result()
		last := d.Tricks()[9]
		if last.Winner != protocol.East || last.Points != discard.lastWins {
			t.Errorf("last trick won by %s for %d, want East for %d", last.Winner, last.Points, discard.lastWins)
		}
		wantCards := [protocol.MaxSeats]int{126, 21 + discard.lastWins, 0}
		if discard.b == "TC" {
			wantCards[0] = 116 // trick 8 holds 8C instead of TC
		}
		if res.CardPoints != wantCards || res.Outcome != Made || res.TricksWon != [protocol.MaxSeats]int{8, 2, 0} {
			t.Errorf("%+v", res)
		}
		want := [protocol.MaxSeats]int{RoundScore(wantCards[0]), RoundScore(wantCards[1]), 0}
		if res.Score != want {
			t.Errorf("score %v, want %v", res.Score, want)
		}
	}
}

func TestThreePlayerLegal(t *testing.T) {
	rs := three(t, "")
	tests := []struct {
		name, trump, leader, trick, hand, want string
	}{
		{"lead", "H", "N", "", "AS 7H KD 9C", "AS 7H KD 9C"},
		{"follow suit", "H", "N", "7S", "AS KS 7H JH", "AS KS"},
		{"void: must trump", "H", "N", "AS", "AD 7H JH KC", "7H JH"},
		{"void: must overtrump", "H", "N", "AS 9H", "7H AH KC JH", "JH"},
		{"void: compulsory undertrump", "H", "N", "AS JH", "7H 8H KC TD", "7H 8H"},
		{"void: undertrump even when holding only high plain cards", "H", "E", "AD 9H", "AS TS 8H", "8H"},
		{"no partner exception: the leader wins", "H", "N", "AS 7S", "7H KC", "7H"},
		{"void: undertrump the second player's trump", "H", "N", "7S JH", "7H AC", "7H"},
		{"void, no trumps: any card", "H", "N", "AS", "AD KC", "AD KC"},
		{"trumps led: beat", "H", "N", "9H", "JH 7H AS", "JH"},
		{"trumps led: cannot beat, any trump", "H", "N", "9H", "7H 8H AS", "7H 8H"},
		{"trumps led: beat the highest", "H", "N", "TH AH", "KH 9H AS", "9H"},
		{"trumps led: no trumps", "H", "N", "9H", "AS KC", "AS KC"},
	}
	for _, tt := range tests {
		tr := trickOf(t, tt.leader, tt.trick)
		got := Legal(rs, suitOf(t, tt.trump), cards(t, tt.hand), &tr)
		if got != cards(t, tt.hand)&cards(t, tt.want) || got != cards(t, tt.want) {
			t.Errorf("%s: legal %v, want %v", tt.name, got, cards(t, tt.want))
		}
		if ref := referenceLegal3(suitOf(t, tt.trump), cards(t, tt.hand), &tr); ref != got {
			t.Errorf("%s: reference %v, engine %v", tt.name, ref, got)
		}
	}
	// The partner exception is guarded by the table size, not only by play_rule: even an
	// (invalid) Amsterdams ruleset for three players has no partner.
	ams := *rs
	ams.PlayRule, ams.Undertrump = Amsterdams, UndertrumpForbiddenUnlessOnlyTrumps
	tr := trickOf(t, "N", "AS 7S")
	if got := Legal(&ams, suitOf(t, "H"), cards(t, "7H KC"), &tr); got != cards(t, "7H") {
		t.Errorf("partner exception at a table of three: %v", got)
	}
}

func TestThreePlayerRoem(t *testing.T) {
	rs := three(t, "")
	tests := []struct {
		trick, trump string
		want         []string
		total        int
	}{
		{"7S 8S 9S", "H", []string{"sequence_3_S"}, 40},
		{"QS KS AS", "H", []string{"sequence_3_S"}, 40},
		{"9S TS JS", "H", []string{"sequence_3_S"}, 40},
		{"KH QH JH", "H", []string{"sequence_3_H", "stuk"}, 60},
		{"KH QH 7C", "H", []string{"stuk"}, 20},
		{"KH QH 7C", "S", nil, 0},
		{"9C 9D 9S", "H", []string{"three_of_a_kind_9"}, 80},
		{"7C 7D 7H", "H", []string{"three_of_a_kind_7"}, 80},
		{"AC AD AS", "S", []string{"three_of_a_kind_A"}, 80},
		{"JC JD JH", "H", []string{"three_of_a_kind_J"}, 120},
		{"7S 8S TS", "H", nil, 0},
		{"8S 7S JH", "H", nil, 0},
		{"AS 7S 8S", "H", nil, 0}, // runs do not wrap around
	}
	for _, tt := range tests {
		set := cards(t, tt.trick)
		r := TrickRoem(rs, set, suitOf(t, tt.trump))
		var names []string
		for _, it := range r.List() {
			names = append(names, it.String())
		}
		if strings.Join(names, " ") != strings.Join(tt.want, " ") || r.Total() != tt.total {
			t.Errorf("%s (trump %s): %v = %d, want %v = %d", tt.trick, tt.trump, names, r.Total(), tt.want, tt.total)
		}
		if ref := referenceRoem3(set, suitOf(t, tt.trump)); ref.Total() != r.Total() || ref.N != r.N {
			t.Errorf("%s: reference %v", tt.trick, ref.List())
		}
	}
}

func TestRoundScore(t *testing.T) {
	for in, want := range map[int]int{0: 0, 4: 0, 5: 10, 84: 80, 85: 90, 86: 90, 95: 100, 162: 160, 302: 300, -4: 0, -5: 0, -6: -10} {
		if got := RoundScore(in); got != want {
			t.Errorf("RoundScore(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestThreePlayerScore(t *testing.T) {
	rs := three(t, "")
	p := func(n, e, s int) [protocol.MaxSeats]int { return [protocol.MaxSeats]int{n, e, s} }
	tests := []struct {
		name                string
		maker               int
		cards, roem, tricks [protocol.MaxSeats]int
		outcome             Outcome
		pit                 int
		score               [protocol.MaxSeats]int
	}{
		{"made with exactly 82", 0, p(82, 50, 30), p(0, 0, 0), p(5, 3, 2), Made, -1, p(80, 50, 30)},
		{"81 is nat: 162 split", 0, p(81, 51, 30), p(0, 0, 0), p(5, 3, 2), Nat, -1, p(0, 80, 80)},
		{"roem makes 82", 0, p(62, 50, 50), p(20, 0, 0), p(4, 3, 3), Made, -1, p(80, 50, 50)},
		{"halves round up", 1, p(32, 85, 45), p(0, 0, 0), p(2, 5, 3), Made, -1, p(30, 90, 50)},
		{"others' roem scored when made", 1, p(40, 90, 32), p(40, 20, 80), p(3, 5, 2), Made, -1, p(80, 110, 110)},
		{"nat with all roem split", 1, p(90, 60, 12), p(40, 20, 0), p(6, 3, 1), Nat, -1, p(110, 0, 110)},
		{"nat: the Player's roem goes to the others", 2, p(100, 12, 50), p(0, 0, 20), p(6, 1, 3), Nat, -1, p(90, 90, 0)},
		{"pit", 0, p(162, 0, 0), p(40, 0, 0), p(10, 0, 0), Made, 0, p(0+300, 0, 0)},
		{"pit by a defender, Player nat", 1, p(0, 0, 162), p(0, 0, 20), p(0, 0, 10), Nat, 2, p(90, 0, 190)},
	}
	for _, tt := range tests {
		res := ScoreDeal(rs, tt.maker, tt.cards, tt.roem, tt.tricks)
		if res.Outcome != tt.outcome || res.PitSide != tt.pit || res.Score != tt.score {
			t.Errorf("%s: %s pit %d score %v, want %s pit %d score %v", tt.name, res.Outcome, res.PitSide, res.Score, tt.outcome, tt.pit, tt.score)
		}
	}
}

func TestThreePlayerForfeit(t *testing.T) {
	p := func(n, e, s int) [protocol.MaxSeats]int { return [protocol.MaxSeats]int{n, e, s} }
	tests := []struct {
		opts     string
		offender int
		roem     [protocol.MaxSeats]int
		score    [protocol.MaxSeats]int
	}{
		{"", 1, p(0, 0, 0), p(130, 0, 130)},                       // (162+100)/2 = 131
		{"renege_extra_roem=0", 0, p(0, 0, 0), p(0, 80, 80)},      // 81
		{"", 2, p(40, 0, 20), p(160, 160, 0)},                     // (162+60+100)/2 = 161
		{"renege_extra_roem=8", 2, p(20, 0, 0), p(100, 100, 0)},   // 95 rounds up
		{"renege_extra_roem=3", 0, p(0, 0, 0), p(0, 80, 80)},      // 82.5
		{"renege_extra_roem=0", 1, p(0, 120, 0), p(140, 0, 140)},  // the offender's roem is shared too
		{"renege_extra_roem=1000", 0, p(0, 0, 0), p(0, 580, 580)}, // 581
	}
	for _, tt := range tests {
		rs := three(t, tt.opts)
		if res := ScoreForfeit(rs, tt.offender, tt.roem); res.Outcome != Forfeited || res.Score != tt.score {
			t.Errorf("%q offender %d roem %v: %v, want %v", tt.opts, tt.offender, tt.roem, res.Score, tt.score)
		}
	}
	// Through a Deal: forfeits in the bidding, the skart phase and the play.
	for _, moves := range []int{0, 1, 2, 10} {
		rs, s := orderedThree(t)
		d, _ := NewDeal(rs, s)
		bid(t, d, "D")
		if moves > 0 {
			_ = d.Discard(card(t, "7C"), card(t, "8C"))
			play(t, d, strings.Join(strings.Fields("JD QD 7D 9D KD 8H TD AD 9H")[:moves-1], " "))
		}
		offender := d.ToMove()
		d.Forfeit(offender)
		res := d.Result()
		for seat := range 3 {
			want := 130
			if Seat(seat) == offender {
				want = 0
			}
			if res.Score[seat] != want || res.Offender != offender {
				t.Errorf("forfeit by %s after %d moves: %v", offender, moves, res.Score)
			}
		}
	}
}

func TestThreePlayerGame(t *testing.T) {
	rs := three(t, "game_end=deals:3")
	g := NewGame(rs, protocol.South)
	steps := []struct {
		res    Result
		dealer Seat // after Add
		played int
	}{
		{Result{Outcome: Redeal}, protocol.North, 0}, // all passed: the next dealer deals
		{Result{Outcome: Made, Score: [protocol.MaxSeats]int{90, 50, 20}}, protocol.East, 1},
		{Result{Outcome: Nat, Score: [protocol.MaxSeats]int{80, 0, 80}}, protocol.South, 2},
		{Result{Outcome: Redeal}, protocol.North, 2},
		{Result{Outcome: Forfeited, Score: [protocol.MaxSeats]int{130, 130, 0}}, protocol.East, 3},
	}
	for i, st := range steps {
		if g.Over() {
			t.Fatalf("step %d: over too early", i)
		}
		g.Add(st.res)
		if g.Dealer() != st.dealer || g.Played() != st.played {
			t.Errorf("step %d: dealer %s played %d, want %s %d", i, g.Dealer(), g.Played(), st.dealer, st.played)
		}
	}
	if !g.Over() || g.Total != [protocol.MaxSeats]int{300, 180, 100} || g.Leader() != 0 {
		t.Errorf("over %v total %v leader %d", g.Over(), g.Total, g.Leader())
	}
	g = NewGame(three(t, "game_end=target:200"), protocol.North)
	g.Add(Result{Outcome: Made, Score: [protocol.MaxSeats]int{150, 10, 0}})
	g.Add(Result{Outcome: Made, Score: [protocol.MaxSeats]int{40, 0, 200}})
	if !g.Over() || g.Leader() != 2 || g.Dealer() != protocol.South {
		t.Errorf("target: over %v leader %d dealer %s", g.Over(), g.Leader(), g.Dealer())
	}
	// At a table of four a redeal still keeps the dealer.
	g4 := NewGame(ruleset(t, "bidding=draaikaart_opnieuw_schudden"), protocol.West)
	g4.Add(Result{Outcome: Redeal})
	if g4.Dealer() != protocol.West {
		t.Errorf("four players: redeal moved the dealer to %s", g4.Dealer())
	}
}

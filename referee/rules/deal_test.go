package rules

import (
	"errors"
	"slices"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

// The hands of stukDeal (roem_test.go): everybody holds two cards of every suit, so every
// plain lead must be followed.
const (
	stukN = "7C 8C 7D 8D 7H 8H 7S 8S"
	stukE = "9C TC 9D TD 9H TH 9S TS"
	stukS = "JC QC JD QD QH KH JS QS"
	stukW = "KC AC KD AD JH AH KS AS"
)

// newStukDeal starts a deal with the stuk hands: W deals, N and E pass and S plays hearts.
func newStukDeal(t *testing.T, opts string) *Deal {
	t.Helper()
	d, err := NewDeal(ruleset(t, opts), Setup{Dealer: seatOf(t, "W"), Hands: handsOf(t, stukN, stukE, stukS, stukW)})
	if err != nil {
		t.Fatal(err)
	}
	bid(t, d, "pass pass H")
	return d
}

// dealState is what an illegal action must leave unchanged.
type dealState struct {
	phase   Phase
	toMove  Seat
	hands   [protocol.MaxSeats]CardSet
	trick   Trick
	nTricks int
	legal   CardSet
}

func stateOf(d *Deal) dealState {
	var h [protocol.MaxSeats]CardSet
	for s := range 4 {
		h[s] = d.Hand(Seat(s))
	}
	return dealState{d.Phase(), d.ToMove(), h, *d.Trick(), len(d.Tricks()), d.Legal()}
}

// TestPlayIllegalCard: a card not in hand, or against the rules of play, is refused with an
// *IllegalCardError that names the seat, the card and the legal cards; nothing changes.
func TestPlayIllegalCard(t *testing.T) {
	tests := []struct {
		name, opts, before, bad string
		inHand                  bool
		legal                   string
	}{
		{"not in hand, leading", "", "", "JH", false, stukN},
		{"played before", "", "7H 9H KH", "7H", false, "JH"},
		{"must follow a plain suit", "", "7C", "9H", true, "9C TC"},
		{"must follow trumps", "", "7H", "9C", true, "9H TH"},
		{"must beat the trump led", "", "7H 9H KH", "AH", true, "JH"},
		{"cannot beat: any trump, not a plain card", "", "7H 9H", "QC", true, "QH KH"},
		{"rotterdams: same rules when following", "preset=rotterdams", "7C 9C", "KH", true, "JC QC"},
		{"first_lead maker: S leads, N's card is not S's", "first_lead=maker", "", "7C", false, stukS},
		{"second trick: follow the new lead", "", "7H 9H KH JH AC", "8H", true, "7C 8C"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newStukDeal(t, tt.opts)
			play(t, d, tt.before)
			before := stateOf(d)
			c := card(t, tt.bad)
			err := d.Play(c)
			var ice *IllegalCardError
			if !errors.As(err, &ice) {
				t.Fatalf("Play(%s) = %v, want *IllegalCardError", c, err)
			}
			want := IllegalCardError{Seat: before.toMove, Card: c, InHand: tt.inHand, Legal: cards(t, tt.legal)}
			if *ice != want {
				t.Errorf("error %+v, want %+v", *ice, want)
			}
			if ice.Error() == "" {
				t.Error("empty message")
			}
			if after := stateOf(d); after != before {
				t.Errorf("state changed:\n%+v\n%+v", before, after)
			}
			if d.Legal() != cards(t, tt.legal) {
				t.Errorf("Legal() = %v, want %v", d.Legal(), tt.legal)
			}
		})
	}
}

func TestWrongPhase(t *testing.T) {
	// Bidding: no cards, no claims.
	d := startBidding(t, "", "N", "", false)
	if err := d.Play(card(t, "7C")); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("Play while bidding = %v", err)
	}
	if err := d.Claim(0); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("Claim while bidding = %v", err)
	}
	if d.Legal() != 0 {
		t.Errorf("Legal while bidding = %v", d.Legal())
	}
	// Play: no bids; no claims under automatic roem.
	d = newStukDeal(t, "")
	if err := d.Claim(0); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("Claim in play = %v", err)
	}
	if d.LegalBids() != 0 {
		t.Errorf("LegalBids in play = %v", d.LegalBids())
	}
	// Claim phase: no cards, no bids.
	d = newStukDeal(t, "roem_claiming=claim_required")
	play(t, d, "7H TH QH JH")
	if d.Phase() != PhaseClaim {
		t.Fatalf("phase %v, want claim", d.Phase())
	}
	if err := d.Play(card(t, "AC")); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("Play in the claim phase = %v", err)
	}
	if err := d.Bid(BidPass); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("Bid in the claim phase = %v", err)
	}
	if d.Legal() != 0 {
		t.Errorf("Legal in the claim phase = %v", d.Legal())
	}
	// Done: nothing.
	d = stukDeal(t, ruleset(t, ""))
	if err := d.Play(card(t, "7C")); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("Play when done = %v", err)
	}
	if err := d.Bid(BidPass); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("Bid when done = %v", err)
	}
	if err := d.Claim(0); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("Claim when done = %v", err)
	}
	if d.ToMove() != protocol.NoSeat {
		t.Errorf("ToMove when done = %v", d.ToMove())
	}
}

// TestFirstLead: left of the dealer leads whoever made trumps (default); with
// first_lead = maker the maker leads.
func TestFirstLead(t *testing.T) {
	tests := []struct {
		opts, bids, leader string
	}{
		{"", "pass pass H", "N"},
		{"", "H", "N"},
		{"", "pass pass pass D", "N"},
		{"first_lead=maker", "pass pass H", "S"},
		{"first_lead=maker", "pass H", "E"},
		{"first_lead=maker", "pass pass pass D", "W"},
		{"first_lead=maker", "C", "N"},
		{"bidding=nku_dealer_first", "H", "N"}, // W (dealer) plays, N leads
		{"bidding=nku_dealer_first first_lead=maker", "H", "W"},
	}
	for _, tt := range tests {
		d, err := NewDeal(ruleset(t, tt.opts), Setup{Dealer: seatOf(t, "W"), Hands: handsOf(t, stukN, stukE, stukS, stukW)})
		if err != nil {
			t.Fatal(err)
		}
		bid(t, d, tt.bids)
		if d.ToMove() != seatOf(t, tt.leader) || d.Trick().Leader != seatOf(t, tt.leader) || d.Legal() != d.Hand(seatOf(t, tt.leader)) {
			t.Errorf("[%s] %s: leader %v, want %s", tt.opts, tt.bids, d.ToMove(), tt.leader)
		}
	}
}

// TestClaims is roem_claiming = claim_required: the trick's winner claims; an unclaimed roem
// is lost, an over-claim scores nothing and gives the opponents false_claim_penalty.
// Trick 1 "7H TH QH JH" holds the run T-J-Q of trumps (20) and is won by W (JH);
// trick 1 "7H 9H KH JH" holds no roem.
func TestClaims(t *testing.T) {
	tests := []struct {
		name, opts, trick string
		claim             int
		roem              [4]int // NS, EW after the claim
		scored            int
	}{
		{"exact", "", "7H TH QH JH", 20, sides(0, 20), 20},
		{"nothing claimed: lost", "", "7H TH QH JH", 0, sides(0, 0), 0},
		{"over-claim, no penalty", "", "7H TH QH JH", 50, sides(0, 0), 0},
		{"over-claim, penalty 20", "false_claim_penalty=20", "7H TH QH JH", 40, sides(20, 0), 0},
		{"exact, penalty option", "false_claim_penalty=20", "7H TH QH JH", 20, sides(0, 20), 20},
		{"claim without roem, penalty", "false_claim_penalty=20", "7H 9H KH JH", 20, sides(20, 0), 0},
		{"claim without roem, no penalty", "", "7H 9H KH JH", 20, sides(0, 0), 0},
		{"nothing to claim", "false_claim_penalty=20", "7H 9H KH JH", 0, sides(0, 0), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newStukDeal(t, "roem_claiming=claim_required "+tt.opts)
			play(t, d, tt.trick)
			if d.Phase() != PhaseClaim || d.ToMove() != seatOf(t, "W") {
				t.Fatalf("phase %v to move %v, want claim by W", d.Phase(), d.ToMove())
			}
			if err := d.Claim(tt.claim); err != nil {
				t.Fatal(err)
			}
			if d.Phase() != PhasePlay || d.ToMove() != seatOf(t, "W") || d.Trick().N != 0 || d.Trick().Leader != seatOf(t, "W") {
				t.Errorf("after the claim: phase %v to move %v trick %+v, want W to lead", d.Phase(), d.ToMove(), *d.Trick())
			}
			if got := d.Tricks()[0].Scored; got != tt.scored {
				t.Errorf("scored %d, want %d", got, tt.scored)
			}
			cp := *d
			cp.Forfeit(seatOf(t, "N")) // shows the roem so far
			if got := cp.Result().Roem; got != tt.roem {
				t.Errorf("roem %v, want %v", got, tt.roem)
			}
		})
	}
}

// TestFalseClaimScoresNothingInReusedDeal: after a false claim the trick records 0 scored
// roem, also when the Deal is reused (Start) and the same trick of the previous deal scored
// its roem.
func TestFalseClaimScoresNothingInReusedDeal(t *testing.T) {
	d := newStukDeal(t, "roem_claiming=claim_required false_claim_penalty=20")
	play(t, d, "7H TH QH JH")
	if err := d.Claim(20); err != nil || d.Tricks()[0].Scored != 20 {
		t.Fatalf("first deal: claim %v, scored %d, want 20", err, d.Tricks()[0].Scored)
	}
	if err := d.Start(d.Rules(), Setup{Dealer: seatOf(t, "W"), Hands: handsOf(t, stukN, stukE, stukS, stukW)}); err != nil {
		t.Fatal(err)
	}
	bid(t, d, "pass pass H")
	play(t, d, "7H TH QH JH")
	if got := d.Tricks()[0].Scored; got != 0 {
		t.Errorf("in the claim phase the trick shows %d scored, want 0 until the claim", got)
	}
	if err := d.Claim(50); err != nil {
		t.Fatal(err)
	}
	if got := d.Tricks()[0].Scored; got != 0 {
		t.Errorf("false claim of 50 for 20 roem: scored %d, want 0", got)
	}
	cp := *d
	cp.Forfeit(seatOf(t, "N"))
	if got := cp.Result().Roem; got != sides(20, 0) {
		t.Errorf("roem %v, want the penalty 20 to NS and nothing to EW", got)
	}
}

// TestClaimWithStukAnnouncedByHolder: with stuk_scoring = announced_by_holder the stuk is
// scored for the holder when he plays the second of trump king and queen, with no claim;
// it is not in the trick's roem, so claiming it is a false claim (spec.md §5).
func TestClaimWithStukAnnouncedByHolder(t *testing.T) {
	d := newStukDeal(t, "stuk_scoring=announced_by_holder roem_claiming=claim_required false_claim_penalty=20")
	play(t, d, "7H 9H KH JH") // S plays the king of trumps; W wins
	if err := d.Claim(0); err != nil {
		t.Fatal(err)
	}
	play(t, d, "AH 8H TH QH") // S plays the queen: stuk for NS, in a trick won by W
	if d.Phase() != PhaseClaim || d.ToMove() != seatOf(t, "W") {
		t.Fatalf("phase %v to move %v, want W to claim", d.Phase(), d.ToMove())
	}
	if got := d.Tricks()[1].Roem.Total(); got != 0 {
		t.Errorf("the trick holds %d roem to claim, want 0: the stuk is the holder's", got)
	}
	if err := d.Claim(20); err != nil { // W claims the stuk: a false claim
		t.Fatal(err)
	}
	if got := d.Tricks()[1].Scored; got != 0 {
		t.Errorf("claiming the stuk scored %d for the trick, want 0", got)
	}
	cp := *d
	cp.Forfeit(seatOf(t, "E"))
	if got := cp.Result().Roem; got != sides(40, 0) {
		t.Errorf("roem %v, want NS 20 for the stuk + 20 for W's false claim", got)
	}
}

func TestClaimNegative(t *testing.T) {
	d := newStukDeal(t, "roem_claiming=claim_required")
	play(t, d, "7H TH QH JH")
	if err := d.Claim(-20); err == nil {
		t.Fatal("Claim(-20) accepted")
	}
	if d.Phase() != PhaseClaim || d.ToMove() != seatOf(t, "W") {
		t.Errorf("after a rejected claim: phase %v to move %v", d.Phase(), d.ToMove())
	}
	if err := d.Claim(20); err != nil {
		t.Fatal(err)
	}
}

// TestClaimWholeDeal plays the whole stuk deal (no trick holds roem) under claim_required,
// claiming 0 after every trick, including the last: the result equals the automatic one.
func TestClaimWholeDeal(t *testing.T) {
	d := newStukDeal(t, "roem_claiming=claim_required")
	tricks := []string{"7H 9H KH JH", "AH 8H TH QH", "AC 7C TC QC", "KC 8C 9C JC", "AD 7D TD QD", "KD 8D 9D JD", "AS 7S TS QS", "KS 8S 9S JS"}
	for i, tr := range tricks {
		play(t, d, tr)
		if d.Phase() != PhaseClaim {
			t.Fatalf("trick %d: phase %v, want claim", i+1, d.Phase())
		}
		if err := d.Claim(0); err != nil {
			t.Fatal(err)
		}
	}
	if d.Phase() != PhaseDone {
		t.Fatalf("phase %v", d.Phase())
	}
	if res := d.Result(); res.Score != sides(0, 262) || res.Outcome != Nat {
		t.Errorf("%v %v, want nat 0/262", res.Outcome, res.Score)
	}
}

// TestForfeit is RULES.md §7.4 through a Deal: in the bidding, and in the play with the
// roem made so far.
func TestForfeit(t *testing.T) {
	tests := []struct {
		name, opts, cards, offender string
		score, roem                 [4]int
	}{
		{"bidding, NS", "", "", "N", sides(0, 262), sides(0, 0)},
		{"bidding, EW", "", "", "W", sides(262, 0), sides(0, 0)},
		{"bidding, no extra", "renege_extra_roem=0", "", "S", sides(0, 162), sides(0, 0)},
		// Trick 1 gives EW the run T-J-Q of trumps: 20 roem.
		{"play, NS offend", "", "7H TH QH JH AC", "N", sides(0, 162+20+100), sides(0, 20)},
		{"play, EW offend", "", "7H TH QH JH AC", "E", sides(162+20+100, 0), sides(0, 20)},
		{"play, EW offend, no extra", "renege_extra_roem=0", "7H TH QH JH AC 7C", "E", sides(182, 0), sides(0, 20)},
		{"play, first card", "", "7C", "E", sides(262, 0), sides(0, 0)},
		{"play, stuk announced so far", "stuk_scoring=announced_by_holder", "7H 9H KH JH AH 8H TH QH", "W", sides(162+20+100, 0), sides(20, 0)},
		{"play, rotterdams", "preset=rotterdams", "7H TH QH JH", "S", sides(0, 282), sides(0, 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ruleset(t, tt.opts)
			d, err := NewDeal(r, Setup{Dealer: seatOf(t, "W"), Hands: handsOf(t, stukN, stukE, stukS, stukW)})
			if err != nil {
				t.Fatal(err)
			}
			if tt.cards != "" {
				bid(t, d, "pass pass H")
				play(t, d, tt.cards)
			}
			d.Forfeit(seatOf(t, tt.offender))
			res := d.Result()
			if d.Phase() != PhaseDone || res.Outcome != Forfeited || res.Offender != seatOf(t, tt.offender) || res.Score != tt.score || res.Roem != tt.roem {
				t.Errorf("phase %v outcome %v offender %v score %v roem %v, want forfeit by %s %v %v",
					d.Phase(), res.Outcome, res.Offender, res.Score, res.Roem, tt.offender, tt.score, tt.roem)
			}
			// A second forfeit and further actions change nothing.
			d.Forfeit(seatOf(t, "E"))
			if d.Result() != res {
				t.Errorf("second Forfeit changed the result: %+v", d.Result())
			}
			if err := d.Play(card(t, "AC")); !errors.Is(err, ErrWrongPhase) {
				t.Errorf("Play after a forfeit = %v", err)
			}
		})
	}
}

func TestForfeitAfterDone(t *testing.T) {
	d := stukDeal(t, ruleset(t, ""))
	res := d.Result()
	d.Forfeit(seatOf(t, "E"))
	if d.Result() != res || res.Outcome != Nat {
		t.Errorf("Forfeit after the end changed %+v to %+v", res, d.Result())
	}
}

// TestSetupValidation: NewDeal refuses hands of the wrong size, cards dealt twice, a bad
// dealer and an incomplete or wrong trump pile, with an error wrapping ErrBadSetup.
func TestSetupValidation(t *testing.T) {
	good := handsOf(t, stukN, stukE, stukS, stukW)
	full := protocol.FullPile(false)
	withJokers := protocol.FullPile(true)
	tests := []struct {
		name  string
		opts  string
		setup Setup
		ok    bool
	}{
		{"valid", "", Setup{Dealer: protocol.West, Hands: good}, true},
		{"valid, pile ignored without a pile procedure", "", Setup{Dealer: protocol.West, Hands: good, Pile: full[:3]}, true},
		{"valid draaikaart", "bidding=draaikaart", Setup{Dealer: protocol.West, Hands: good, Pile: full}, true},
		{"valid draaikaart with jokers", "bidding=draaikaart draaikaart_jokers=true", Setup{Dealer: protocol.West, Hands: good, Pile: withJokers}, true},
		{"valid bga_draw", "bidding=bga_draw", Setup{Dealer: protocol.West, Hands: good, Pile: full}, true},
		{"seven cards", "", Setup{Dealer: protocol.West, Hands: handsOf(t, "7C 8C 7D 8D 7H 8H 7S", stukE, stukS, stukW)}, false},
		{"nine and seven cards", "", Setup{Dealer: protocol.West, Hands: handsOf(t, stukN+" 9C", "TC 9D TD 9H TH 9S TS", stukS, stukW)}, false},
		{"empty hands", "", Setup{Dealer: protocol.West}, false},
		{"a card dealt twice", "", Setup{Dealer: protocol.West, Hands: handsOf(t, stukN, "7C TC 9D TD 9H TH 9S TS", stukS, stukW)}, false},
		{"the same hand twice", "", Setup{Dealer: protocol.West, Hands: handsOf(t, stukN, stukN, stukS, stukW)}, false},
		{"dealer not at the table", "", Setup{Dealer: Seat(4), Hands: good}, false},
		{"no seat", "", Setup{Dealer: protocol.NoSeat, Hands: good}, false},
		{"draaikaart without a pile", "bidding=draaikaart", Setup{Dealer: protocol.West, Hands: good}, false},
		{"draaikaart, 19 cards", "bidding=draaikaart", Setup{Dealer: protocol.West, Hands: good, Pile: full[1:]}, false},
		{"draaikaart, a repeated card", "bidding=draaikaart", Setup{Dealer: protocol.West, Hands: good, Pile: append([]protocol.PileCard{full[1]}, full[1:]...)}, false},
		{"draaikaart, a joker without jokers", "bidding=draaikaart", Setup{Dealer: protocol.West, Hands: good, Pile: append([]protocol.PileCard{protocol.Joker}, full[1:]...)}, false},
		{"draaikaart, a 7 in the pile", "bidding=draaikaart", Setup{Dealer: protocol.West, Hands: good, Pile: append([]protocol.PileCard{protocol.NewPileCard(7, protocol.Clubs)}, full[1:]...)}, false},
		{"jokers on, pile without jokers", "bidding=draaikaart draaikaart_jokers=true", Setup{Dealer: protocol.West, Hands: good, Pile: full}, false},
		{"jokers on, three jokers", "bidding=draaikaart draaikaart_jokers=true", Setup{Dealer: protocol.West, Hands: good, Pile: append([]protocol.PileCard{protocol.Joker}, withJokers[1:]...)}, false},
		{"bga_draw without a pile", "bidding=bga_draw", Setup{Dealer: protocol.West, Hands: good}, false},
		{"opnieuw_schudden, 21 cards", "bidding=draaikaart_opnieuw_schudden", Setup{Dealer: protocol.West, Hands: good, Pile: append(slices.Clone(full), full[0])}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := NewDeal(ruleset(t, tt.opts), tt.setup)
			if tt.ok {
				if err != nil || d == nil {
					t.Fatalf("NewDeal: %v", err)
				}
				if d.Phase() != PhaseBidding && d.Phase() != PhasePlay {
					t.Errorf("phase %v", d.Phase())
				}
				return
			}
			if !errors.Is(err, ErrBadSetup) {
				t.Errorf("NewDeal = %v, want an error wrapping ErrBadSetup", err)
			}
			if d != nil {
				t.Errorf("NewDeal returned a deal with its error")
			}
		})
	}
}

// TestDealRestart: Start reuses a finished deal; nothing of the old deal remains.
func TestDealRestart(t *testing.T) {
	d := stukDeal(t, ruleset(t, "stuk_scoring=announced_by_holder"))
	r := ruleset(t, "")
	if err := d.Start(r, Setup{Dealer: protocol.West, Hands: handsOf(t, stukN, stukE, stukS, stukW)}); err != nil {
		t.Fatal(err)
	}
	if d.Phase() != PhaseBidding || len(d.Bids()) != 0 || len(d.Tricks()) != 0 || d.Maker() != protocol.NoSeat ||
		d.Trump() != protocol.NoSuit || d.ToMove() != protocol.North || d.Hand(protocol.South) != cards(t, stukS) ||
		d.Rules().StukScoring != StukInTrick {
		t.Fatalf("restarted deal not fresh: phase %v bids %v tricks %d", d.Phase(), d.Bids(), len(d.Tricks()))
	}
	bid(t, d, "pass pass H")
	play(t, d, "7H 9H KH JH  AH 8H TH QH  AC 7C TC QC  KC 8C 9C JC  AD 7D TD QD  KD 8D 9D JD  AS 7S TS QS  KS 8S 9S JS")
	if res := d.Result(); res.Roem != sides(0, 0) || res.Score != sides(0, 262) || res.TricksWon != sides(0, 8) {
		t.Errorf("after restart: roem %v score %v tricks %v, want no roem, 0/262, 0/8", res.Roem, res.Score, res.TricksWon)
	}
}

// TestDealHandsAndTricks follows hands and trick records through a deal.
func TestDealHandsAndTricks(t *testing.T) {
	d := newStukDeal(t, "")
	play(t, d, "7H 9H KH JH AH")
	if d.Hand(protocol.North) != cards(t, "7C 8C 7D 8D 8H 7S 8S") || d.Dealt(protocol.North) != cards(t, stukN) {
		t.Errorf("N hand %v dealt %v", d.Hand(protocol.North), d.Dealt(protocol.North))
	}
	if d.Hand(protocol.West) != cards(t, "KC AC KD AD KS AS") {
		t.Errorf("W hand %v", d.Hand(protocol.West))
	}
	recs := d.Tricks()
	if len(recs) != 1 || recs[0].Winner != protocol.West || recs[0].Points != 38 || recs[0].Leader != protocol.North || recs[0].Scored != 0 {
		t.Errorf("trick records %+v", recs)
	}
	if tr := d.Trick(); tr.Leader != protocol.West || tr.N != 1 || tr.Cards[0] != card(t, "AH") || d.ToMove() != protocol.North {
		t.Errorf("trick in progress %+v, to move %v", *tr, d.ToMove())
	}
	if d.NumTricks() != 8 || d.Dealer() != protocol.West {
		t.Errorf("NumTricks %d Dealer %v", d.NumTricks(), d.Dealer())
	}
}

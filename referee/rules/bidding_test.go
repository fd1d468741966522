package rules

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

const (
	pass4 = "pass pass pass pass"
	pass8 = pass4 + " " + pass4
)

// bidCase is a trump-choosing procedure (RULES.md §4) after some bids. Either trumps are made
// (maker, trump; the first leader is left of the dealer unless first_lead = maker), or it
// is a redeal, or the bidding goes on with toMove to choose from legal (offer is the suit on
// offer, "-" when he names any suit).
type bidCase struct {
	name   string
	opts   string
	dealer string
	first  bool   // FirstOfMatch
	pile   string // the first cards of the trump pile
	bids   string
	turned string // pile cards turned so far

	maker, trump, leader string
	redeal               bool
	toMove, offer, legal string
}

func startBidding(t *testing.T, opts, dealer, pileTop string, first bool) *Deal {
	t.Helper()
	r := ruleset(t, opts)
	s := Setup{Dealer: seatOf(t, dealer), FirstOfMatch: first}
	s.Hands = orderedHands(r, s.Dealer)
	if r.Bidding.UsesPile() {
		s.Pile = pile(t, r.DraaikaartJokers, pileTop)
	}
	d, err := NewDeal(r, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func pileString(p []protocol.PileCard) string {
	var parts []string
	for _, c := range p {
		parts = append(parts, c.String())
	}
	return strings.Join(parts, " ")
}

func TestBidding(t *testing.T) {
	const dk, dkj = "bidding=draaikaart", "bidding=draaikaart draaikaart_jokers=true"
	tests := []bidCase{
		// direct_kiezen: from left of the dealer, name a suit or pass; four passes: left must name.
		{name: "dk start", dealer: "N", toMove: "E", offer: "-", legal: "C D H S pass"},
		{name: "dk left plays", dealer: "N", bids: "H", maker: "E", trump: "H", leader: "E"},
		{name: "dk second plays", dealer: "N", bids: "pass D", maker: "S", trump: "D", leader: "E"},
		{name: "dk third plays", dealer: "N", bids: "pass pass S", maker: "W", trump: "S", leader: "E"},
		{name: "dk dealer plays", dealer: "N", bids: "pass pass pass C", maker: "N", trump: "C", leader: "E"},
		{name: "dk four passes", dealer: "N", bids: pass4, toMove: "E", offer: "-", legal: "C D H S"},
		{name: "dk forced left", dealer: "N", bids: pass4 + " H", maker: "E", trump: "H", leader: "E"},
		{name: "dk dealer W", dealer: "W", bids: "pass H", maker: "E", trump: "H", leader: "N"},
		{name: "dk dealer S, four passes", dealer: "S", bids: pass4, toMove: "W", offer: "-", legal: "C D H S"},
		{name: "first_lead maker", opts: "first_lead=maker", dealer: "N", bids: "pass D", maker: "S", trump: "D", leader: "S"},
		{name: "first_lead maker, left", opts: "first_lead=maker", dealer: "W", bids: "C", maker: "N", trump: "C", leader: "N"},

		// direct_kiezen_verplicht: left of the dealer must name trumps.
		{name: "dkv start", opts: "bidding=direct_kiezen_verplicht", dealer: "N", toMove: "E", offer: "-", legal: "C D H S"},
		{name: "dkv plays", opts: "bidding=direct_kiezen_verplicht", dealer: "N", bids: "S", maker: "E", trump: "S", leader: "E"},
		{name: "dkv dealer S", opts: "bidding=direct_kiezen_verplicht", dealer: "S", bids: "D", maker: "W", trump: "D", leader: "W"},

		// direct_kiezen_dealer_verplicht: three passes oblige the dealer.
		{name: "dkdv start", opts: "bidding=direct_kiezen_dealer_verplicht", dealer: "N", toMove: "E", offer: "-", legal: "C D H S pass"},
		{name: "dkdv two passes", opts: "bidding=direct_kiezen_dealer_verplicht", dealer: "N", bids: "pass pass", toMove: "W", offer: "-", legal: "C D H S pass"},
		{name: "dkdv three passes", opts: "bidding=direct_kiezen_dealer_verplicht", dealer: "N", bids: "pass pass pass", toMove: "N", offer: "-", legal: "C D H S"},
		{name: "dkdv dealer forced", opts: "bidding=direct_kiezen_dealer_verplicht", dealer: "N", bids: "pass pass pass H", maker: "N", trump: "H", leader: "E"},
		{name: "dkdv second plays", opts: "bidding=direct_kiezen_dealer_verplicht", dealer: "N", bids: "pass C", maker: "S", trump: "C", leader: "E"},
		{name: "dkdv dealer E", opts: "bidding=direct_kiezen_dealer_verplicht", dealer: "E", bids: "pass pass pass", toMove: "E", offer: "-", legal: "C D H S"},

		// nku_dealer_first: the dealer speaks first; four passes oblige the dealer; left leads.
		{name: "nku start", opts: "bidding=nku_dealer_first", dealer: "N", toMove: "N", offer: "-", legal: "C D H S pass"},
		{name: "nku dealer plays", opts: "bidding=nku_dealer_first", dealer: "N", bids: "H", maker: "N", trump: "H", leader: "E"},
		{name: "nku third plays", opts: "bidding=nku_dealer_first", dealer: "N", bids: "pass pass D", maker: "S", trump: "D", leader: "E"},
		{name: "nku four passes", opts: "bidding=nku_dealer_first", dealer: "N", bids: pass4, toMove: "N", offer: "-", legal: "C D H S"},
		{name: "nku dealer forced", opts: "bidding=nku_dealer_first", dealer: "N", bids: pass4 + " S", maker: "N", trump: "S", leader: "E"},
		{name: "nku dealer E", opts: "bidding=nku_dealer_first", dealer: "E", bids: "pass C", maker: "S", trump: "C", leader: "S"},
		{name: "nku preset", opts: "preset=nku_rotterdams_tournament", dealer: "W", bids: "pass pass pass", toMove: "S", offer: "-", legal: "C D H S pass"},

		// draaikaart: play on the turned suit or pass; a second round on a new suit; then the
		// left player must play the next new suit.
		{name: "dr start", opts: dk, dealer: "N", pile: "4H 2H 3S 5S 6D", turned: "4H", toMove: "E", offer: "H", legal: "H pass"},
		{name: "dr second plays", opts: dk, dealer: "N", pile: "4H 2H 3S 5S 6D", bids: "pass H", turned: "4H", maker: "S", trump: "H", leader: "E"},
		{name: "dr round two", opts: dk, dealer: "N", pile: "4H 2H 3S 5S 6D", bids: pass4, turned: "4H 2H 3S", toMove: "E", offer: "S", legal: "S pass"},
		{name: "dr round two plays", opts: dk, dealer: "N", pile: "4H 2H 3S 5S 6D", bids: pass4 + " pass pass S", turned: "4H 2H 3S", maker: "W", trump: "S", leader: "E"},
		{name: "dr forced third suit", opts: dk, dealer: "N", pile: "4H 2H 3S 5S 6D", bids: pass8, turned: "4H 2H 3S 5S 6D", maker: "E", trump: "D", leader: "E"},
		{name: "dr forced, dealer W", opts: dk, dealer: "W", pile: "2C 3D 4C 5D 6S", bids: pass8, turned: "2C 3D 4C 5D 6S", maker: "N", trump: "S", leader: "N"},
		{name: "dr first deal clubs", opts: dk, dealer: "N", first: true, pile: "2C 4H 3C 3H 5D", turned: "", toMove: "E", offer: "C", legal: "C pass"},
		{name: "dr first deal clubs, round two skips clubs", opts: dk, dealer: "N", first: true, pile: "2C 4H 3C 3H 5D", bids: pass4, turned: "2C 4H", toMove: "E", offer: "H", legal: "H pass"},
		{name: "dr first deal clubs, forced", opts: dk, dealer: "N", first: true, pile: "2C 4H 3C 3H 5D", bids: pass8, turned: "2C 4H 3C 3H 5D", maker: "E", trump: "D", leader: "E"},
		{name: "dr first deal clubs played", opts: dk, dealer: "N", first: true, pile: "4H", bids: "pass pass pass C", turned: "", maker: "N", trump: "C", leader: "E"},
		{name: "dr first deal, clubs off", opts: "bidding=draaikaart draaikaart_first_deal_clubs=false", dealer: "N", first: true, pile: "4H", turned: "4H", toMove: "E", offer: "H", legal: "H pass"},
		{name: "dr not first deal", opts: dk, dealer: "N", first: false, pile: "4H", turned: "4H", toMove: "E", offer: "H", legal: "H pass"},
		{name: "dr not first deal, clubs turned", opts: dk, dealer: "N", first: false, pile: "2C", turned: "2C", toMove: "E", offer: "C", legal: "C pass"},

		// draaikaart_jokers: on a joker the first player chooses freely.
		{name: "drj joker first", opts: dkj, dealer: "N", pile: "JK 4H", turned: "JK", toMove: "E", offer: "-", legal: "C D H S"},
		{name: "drj joker first, chosen", opts: dkj, dealer: "N", pile: "JK 4H", bids: "D", turned: "JK", maker: "E", trump: "D", leader: "E"},
		{name: "drj joker first, dealer S", opts: dkj, dealer: "S", pile: "JK", turned: "JK", toMove: "W", offer: "-", legal: "C D H S"},
		{name: "drj joker second", opts: dkj, dealer: "N", pile: "4H JK", bids: pass4, turned: "4H JK", toMove: "E", offer: "-", legal: "C D H S"},
		{name: "drj joker third", opts: dkj, dealer: "N", pile: "4H 3S JK", bids: pass8, turned: "4H 3S JK", toMove: "E", offer: "-", legal: "C D H S"},
		{name: "drj joker third, chosen", opts: dkj, dealer: "N", pile: "4H 3S JK", bids: pass8 + " H", turned: "4H 3S JK", maker: "E", trump: "H", leader: "E"},
		{name: "drj no joker", opts: dkj, dealer: "N", pile: "4H 4S", bids: pass8, turned: "4H 4S 2C", maker: "E", trump: "C", leader: "E"},
		{name: "drj first deal clubs, then joker", opts: dkj, dealer: "N", first: true, pile: "JK", bids: pass4, turned: "JK", toMove: "E", offer: "-", legal: "C D H S"},

		// draaikaart_opnieuw_schudden: two rounds of passes: redeal.
		{name: "dro start", opts: "bidding=draaikaart_opnieuw_schudden", dealer: "N", pile: "4H 2H 3S", turned: "4H", toMove: "E", offer: "H", legal: "H pass"},
		{name: "dro round two", opts: "bidding=draaikaart_opnieuw_schudden", dealer: "N", pile: "4H 2H 3S", bids: pass4, turned: "4H 2H 3S", toMove: "E", offer: "S", legal: "S pass"},
		{name: "dro round two plays", opts: "bidding=draaikaart_opnieuw_schudden", dealer: "N", pile: "4H 2H 3S", bids: pass4 + " pass S", turned: "4H 2H 3S", maker: "S", trump: "S", leader: "E"},
		{name: "dro redeal", opts: "bidding=draaikaart_opnieuw_schudden", dealer: "N", pile: "4H 2H 3S", bids: pass8, turned: "4H 2H 3S", redeal: true},
		{name: "dro redeal, first deal clubs", opts: "bidding=draaikaart_opnieuw_schudden", dealer: "E", first: true, pile: "4H", bids: pass8, turned: "4H", redeal: true},
		{name: "dro joker", opts: "bidding=draaikaart_opnieuw_schudden draaikaart_jokers=true", dealer: "N", pile: "JK", turned: "JK", toMove: "E", offer: "-", legal: "C D H S"},

		// draaikaart_vrij_kiezen: two rounds of passes: the first player names any suit.
		{name: "drv round two", opts: "bidding=draaikaart_vrij_kiezen", dealer: "N", pile: "4H 2H 3S", bids: pass4, turned: "4H 2H 3S", toMove: "E", offer: "S", legal: "S pass"},
		{name: "drv free choice", opts: "bidding=draaikaart_vrij_kiezen", dealer: "N", pile: "4H 2H 3S", bids: pass8, turned: "4H 2H 3S", toMove: "E", offer: "-", legal: "C D H S"},
		{name: "drv free choice of an offered suit", opts: "bidding=draaikaart_vrij_kiezen", dealer: "N", pile: "4H 2H 3S", bids: pass8 + " H", turned: "4H 2H 3S", maker: "E", trump: "H", leader: "E"},
		{name: "drv free choice, dealer W", opts: "bidding=draaikaart_vrij_kiezen", dealer: "W", pile: "4H 2H 3S", bids: pass8 + " D", turned: "4H 2H 3S", maker: "N", trump: "D", leader: "N"},
		{name: "drv dealer plays round two", opts: "bidding=draaikaart_vrij_kiezen", dealer: "N", pile: "4H 2H 3S", bids: pass4 + " pass pass pass S", turned: "4H 2H 3S", maker: "N", trump: "S", leader: "E"},

		// draaikaart_dan_verplicht_kiezen: one round; then the first player names a suit.
		{name: "drdv start", opts: "bidding=draaikaart_dan_verplicht_kiezen", dealer: "N", pile: "4H 2S", turned: "4H", toMove: "E", offer: "H", legal: "H pass"},
		{name: "drdv third plays", opts: "bidding=draaikaart_dan_verplicht_kiezen", dealer: "N", pile: "4H 2S", bids: "pass pass H", turned: "4H", maker: "W", trump: "H", leader: "E"},
		{name: "drdv forced choice", opts: "bidding=draaikaart_dan_verplicht_kiezen", dealer: "N", pile: "4H 2S", bids: pass4, turned: "4H", toMove: "E", offer: "-", legal: "C D H S"},
		{name: "drdv forced chosen", opts: "bidding=draaikaart_dan_verplicht_kiezen", dealer: "N", pile: "4H 2S", bids: pass4 + " C", turned: "4H", maker: "E", trump: "C", leader: "E"},
		{name: "drdv first deal clubs", opts: "bidding=draaikaart_dan_verplicht_kiezen", dealer: "N", first: true, pile: "4H", bids: pass4, turned: "", toMove: "E", offer: "-", legal: "C D H S"},

		// bga_draw: the drawn suit is trump, left of the dealer is the maker; a joker lets him choose.
		{name: "bga draw", opts: "bidding=bga_draw", dealer: "N", pile: "4H", turned: "4H", maker: "E", trump: "H", leader: "E"},
		{name: "bga draw dealer S", opts: "bidding=bga_draw", dealer: "S", pile: "2D", turned: "2D", maker: "W", trump: "D", leader: "W"},
		{name: "bga draw, first deal: no clubs rule", opts: "bidding=bga_draw", dealer: "N", first: true, pile: "6S", turned: "6S", maker: "E", trump: "S", leader: "E"},
		{name: "bga joker", opts: "bidding=bga_draw draaikaart_jokers=true", dealer: "N", pile: "JK", turned: "JK", toMove: "E", offer: "-", legal: "C D H S"},
		{name: "bga joker chosen", opts: "bidding=bga_draw draaikaart_jokers=true", dealer: "N", pile: "JK", bids: "S", turned: "JK", maker: "E", trump: "S", leader: "E"},
		{name: "bga jokers in pile, suit drawn", opts: "bidding=bga_draw draaikaart_jokers=true", dealer: "N", pile: "5C JK", turned: "5C", maker: "E", trump: "C", leader: "E"},
		{name: "bga preset", opts: "preset=bga_rotterdams", dealer: "W", pile: "3H", turned: "3H", maker: "N", trump: "H", leader: "N"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := startBidding(t, tt.opts, tt.dealer, tt.pile, tt.first)
			bid(t, d, tt.bids)
			if d.Rules().Bidding.UsesPile() {
				if got := pileString(d.Turned()); got != tt.turned {
					t.Errorf("turned %q, want %q", got, tt.turned)
				}
			}
			switch {
			case tt.redeal:
				if d.Phase() != PhaseDone || d.Result().Outcome != Redeal || d.Maker() != protocol.NoSeat || d.Trump() != protocol.NoSuit {
					t.Errorf("phase %v outcome %v maker %v trump %v, want a redeal", d.Phase(), d.Result().Outcome, d.Maker(), d.Trump())
				}
				if res := d.Result(); res.Score != sides(0, 0) {
					t.Errorf("redeal scores %v", res.Score)
				}
			case tt.maker != "":
				if d.Phase() != PhasePlay || d.Maker() != seatOf(t, tt.maker) || d.Trump() != suitOf(t, tt.trump) || d.ToMove() != seatOf(t, tt.leader) {
					t.Errorf("phase %v maker %v trump %v leader %v, want play %s %s %s", d.Phase(), d.Maker(), d.Trump(), d.ToMove(), tt.maker, tt.trump, tt.leader)
				}
				if d.LegalBids() != 0 || d.Offered() != protocol.NoSuit {
					t.Errorf("after bidding: legal bids %v offered %v", d.LegalBids(), d.Offered())
				}
			default:
				offer := "-"
				if d.Offered() != protocol.NoSuit {
					offer = d.Offered().String()
				}
				if d.Phase() != PhaseBidding || d.ToMove() != seatOf(t, tt.toMove) || offer != tt.offer || d.LegalBids() != bidsOf(t, tt.legal) {
					t.Errorf("phase %v to move %v offer %s legal %v, want bidding %s %s %v",
						d.Phase(), d.ToMove(), offer, d.LegalBids(), tt.toMove, tt.offer, bidsOf(t, tt.legal))
				}
				if d.Maker() != protocol.NoSeat || d.Trump() != protocol.NoSuit || d.Legal() != 0 {
					t.Errorf("during bidding: maker %v trump %v legal cards %v", d.Maker(), d.Trump(), d.Legal())
				}
			}
		})
	}
}

// TestIllegalBid: a bid the player to move may not make gives an *IllegalBidError and
// changes nothing; a legal bid is still accepted afterwards.
func TestIllegalBid(t *testing.T) {
	tests := []struct {
		name, opts, pile, bids string
		bad                    string // the illegal bid: "pass" or a suit letter, "?" for Bid(7)
		good                   string // a legal bid afterwards
	}{
		{"verplicht: left cannot pass", "bidding=direct_kiezen_verplicht", "", "", "pass", "H"},
		{"direct_kiezen: no pass after four passes", "", "", pass4, "pass", "C"},
		{"dealer_verplicht: dealer cannot pass", "bidding=direct_kiezen_dealer_verplicht", "", "pass pass pass", "pass", "D"},
		{"nku: dealer cannot pass twice", "bidding=nku_dealer_first", "", pass4, "pass", "S"},
		{"draaikaart: only the turned suit", "bidding=draaikaart", "4H 2S", "", "S", "H"},
		{"draaikaart: not an unturned suit", "bidding=draaikaart", "4H 2S", "pass", "C", "pass"},
		{"draaikaart round two: not the first suit", "bidding=draaikaart", "4H 2S", pass4, "H", "S"},
		{"draaikaart joker: no pass", "bidding=draaikaart draaikaart_jokers=true", "JK", "", "pass", "D"},
		{"vrij_kiezen: no pass at the end", "bidding=draaikaart_vrij_kiezen", "4H 2S", pass8, "pass", "C"},
		{"opnieuw_schudden: only the turned suit", "bidding=draaikaart_opnieuw_schudden", "4H 2S", pass4, "D", "pass"},
		{"dan_verplicht: no pass at the end", "bidding=draaikaart_dan_verplicht_kiezen", "4H", pass4, "pass", "S"},
		{"bga joker: no pass", "bidding=bga_draw draaikaart_jokers=true", "JK", "", "pass", "H"},
		{"not a bid", "", "", "", "?", "pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := startBidding(t, tt.opts, "N", tt.pile, false)
			bid(t, d, tt.bids)
			type state struct {
				phase  Phase
				toMove Seat
				offer  Suit
				legal  Bids
				nbids  int
				turned string
				maker  Seat
			}
			snap := func() state {
				return state{d.Phase(), d.ToMove(), d.Offered(), d.LegalBids(), len(d.Bids()), pileString(d.Turned()), d.Maker()}
			}
			before := snap()
			b := Bid(7)
			switch tt.bad {
			case "pass":
				b = BidPass
			case "?":
			default:
				b = PlaySuit(suitOf(t, tt.bad))
			}
			err := d.Bid(b)
			var ibe *IllegalBidError
			if !errors.As(err, &ibe) {
				t.Fatalf("Bid(%v) = %v, want *IllegalBidError", b, err)
			}
			if ibe.Seat != before.toMove || ibe.Bid != b || ibe.Legal != before.legal {
				t.Errorf("error %+v, want seat %v bid %v legal %v", *ibe, before.toMove, b, before.legal)
			}
			if ibe.Error() == "" {
				t.Error("empty message")
			}
			if after := snap(); after != before {
				t.Errorf("state changed: %+v -> %+v", before, after)
			}
			bid(t, d, tt.good)
		})
	}
}

func TestBidWrongPhase(t *testing.T) {
	d := startBidding(t, "", "N", "", false)
	bid(t, d, "H")
	if err := d.Bid(BidPass); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("Bid in play = %v, want ErrWrongPhase", err)
	}
	d = startBidding(t, "bidding=bga_draw", "N", "4H", false)
	if err := d.Bid(PlaySuit(protocol.Hearts)); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("Bid after bga_draw = %v, want ErrWrongPhase", err)
	}
	d = startBidding(t, "bidding=draaikaart_opnieuw_schudden", "N", "4H 2S", false)
	bid(t, d, pass8)
	if err := d.Bid(BidPass); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("Bid after a redeal = %v, want ErrWrongPhase", err)
	}
	if d.LegalBids() != 0 {
		t.Errorf("LegalBids after a redeal = %v", d.LegalBids())
	}
}

func TestBidsRecord(t *testing.T) {
	d := startBidding(t, "", "W", "", false)
	bid(t, d, "pass pass D")
	want := []SeatBid{{protocol.North, BidPass}, {protocol.East, BidPass}, {protocol.South, PlaySuit(protocol.Diamonds)}}
	if got := d.Bids(); !slices.Equal(got, want) {
		t.Errorf("bids %v, want %v", got, want)
	}
	if BidPass.Suit() != protocol.NoSuit || PlaySuit(protocol.Spades).Suit() != protocol.Spades {
		t.Error("Bid.Suit wrong")
	}
}

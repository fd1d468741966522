package check

import (
	"context"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

func mustCards(t *testing.T, text string) protocol.CardSet {
	t.Helper()
	s, err := protocol.ParseCardSet(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSteadyBid(t *testing.T) {
	all := protocol.Bids(0).Add(protocol.BidPass).Add(protocol.PlaySuit(protocol.Clubs)).Add(protocol.PlaySuit(protocol.Hearts))
	strong := mustCards(t, "JH 9H AH 7C 8C 7D 8D 7S")
	if b := steadyBid(strong, all); b != protocol.PlaySuit(protocol.Hearts) {
		t.Errorf("jack, nine and ace of hearts: bid %s, want H", b)
	}
	weak := mustCards(t, "7H 8H 7C 8C 9C 7D 8D 7S")
	if b := steadyBid(weak, all); b != protocol.BidPass {
		t.Errorf("a weak hand: bid %s, want pass", b)
	}
	forced := protocol.Bids(0).Add(protocol.PlaySuit(protocol.Clubs)).Add(protocol.PlaySuit(protocol.Hearts))
	if b := steadyBid(weak, forced); b != protocol.PlaySuit(protocol.Clubs) {
		t.Errorf("a weak hand that may not pass: bid %s, want C (clubs' 9 is worth more than hearts' 7 8)", b)
	}
}

func TestSteadyCard(t *testing.T) {
	c := func(s string) protocol.Card {
		card, err := protocol.ParseCard(s)
		if err != nil {
			t.Fatal(err)
		}
		return card
	}
	legal := mustCards(t, "7S KS AS")
	if got := steadyCard(legal, []protocol.Card{c("QS")}, protocol.Hearts); got != c("KS") {
		t.Errorf("QS led: played %s, want KS (the cheapest card that wins)", got)
	}
	if got := steadyCard(legal, []protocol.Card{c("TS")}, protocol.Hearts); got != c("AS") {
		t.Errorf("TS led: played %s, want AS (the only card that wins)", got)
	}
	if got := steadyCard(legal, []protocol.Card{c("QS"), c("7H")}, protocol.Hearts); got != c("7S") {
		t.Errorf("QS trumped: played %s, want 7S (nothing wins: the cheapest)", got)
	}
	if got := steadyCard(legal, nil, protocol.Hearts); got != c("7S") {
		t.Errorf("leading: played %s, want 7S", got)
	}
}

// TestOpponentPlaysCleanly: four opponents play a duplicate match through the referee without
// a fault, and every record re-referees.
func TestOpponentPlaysCleanly(t *testing.T) {
	e := referee.Entrant{Name: opponentName, Start: referee.NewInProcess(opponent())}
	var deals []*referee.DealRecord
	cfg := referee.Config{ID: "steady", Rules: rules.Default(), Games: 2, Duplicate: true, Seed: 9, Records: collect(&deals)}
	res, err := referee.Run(context.Background(), cfg, []referee.Entrant{e, e, e, e})
	if err != nil {
		t.Fatal(err)
	}
	if len(deals) != res.Deals || len(deals) < 4*16 {
		t.Fatalf("%d records for %d deals", len(deals), res.Deals)
	}
	for _, rec := range deals {
		if len(rec.Faults) > 0 {
			t.Fatalf("game %d deal %d: fault %v", rec.Game, rec.Deal, rec.Faults[0])
		}
		if err := rec.Verify(); err != nil {
			t.Fatalf("game %d deal %d: %v", rec.Game, rec.Deal, err)
		}
	}
}

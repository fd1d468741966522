package human

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

func lowestBot() bot.Bot {
	return bot.Bot{Name: "lowest", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.BidKind:
			return bot.Answer{Bid: d.LegalBids.All()[0]}
		case bot.DiscardKind:
			return bot.Answer{Discard: bot.LowestDiscard(s.Hand, s.Trump)}
		case bot.ClaimKind:
			return bot.Answer{}
		}
		return bot.Answer{Card: d.LegalCards.Lowest()}
	}}
}

// play runs a match with the person at seat S typing input, the bots in-process.
func play(t *testing.T, preset string, table int, input string) (*referee.Result, string) {
	t.Helper()
	rs, _ := rules.Preset(preset)
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 4}
	var screen bytes.Buffer
	names := make([]string, table)
	entrants := make([]referee.Entrant, table)
	for i := range entrants {
		names[i] = "lowest"
		entrants[i] = referee.Entrant{Name: "lowest", Start: referee.NewInProcess(lowestBot())}
	}
	names[protocol.South] = "person"
	entrants[protocol.South] = referee.Entrant{Name: "person", Start: Starter(Options{Name: "person", In: strings.NewReader(input), Out: &screen,
		Names: names, Card: protocol.Card.String, Suit: protocol.Suit.String})}
	res, err := referee.Run(context.Background(), referee.Config{ID: "t", Rules: rs, Games: 1, Seed: 4}, entrants)
	if err != nil {
		t.Fatal(err)
	}
	return res, screen.String()
}

// TestPersonPlaysAGame: a person who always types 1 (the first legal bid or card, the first
// two cards to discard) plays whole games without a fault, and sees them.
func TestPersonPlaysAGame(t *testing.T) {
	for _, c := range []struct {
		preset string
		table  int
		input  string
	}{{"amsterdams", 4, "1\n"}, {"drie_spelers", 3, "1 2\n"}, {"drie_spelers", 4, "1 2\n"}} {
		// "1 2" answers a discard; as a card or a bid it is refused, and "1" answers it.
		res, screen := play(t, c.preset, c.table, strings.Repeat(c.input+"1\n", 200))
		if f := res.Bots[protocol.South].Faults; len(f) > 0 || res.Bots[protocol.South].Decisions == 0 {
			t.Fatalf("%s at %d: faults %v, %d decisions\n%s", c.preset, c.table, f, res.Bots[protocol.South].Decisions, screen)
		}
		for _, want := range []string{"=== game 1", "your hand", "=== game over"} {
			if !strings.Contains(screen, want) {
				t.Errorf("%s at %d: the screen never showed %q", c.preset, c.table, want)
			}
		}
	}
}

// TestPersonLeaves: at the end of the input the person's seat faults, is restarted, and is
// disabled after the match's most faults, so the game still ends.
func TestPersonLeaves(t *testing.T) {
	res, _ := play(t, "amsterdams", 4, "1\n1\n")
	if f := res.Bots[protocol.South].Faults; f[referee.FaultCrash] != 3 {
		t.Fatalf("faults %v, want 3 crashes (the end of the input) before the seat is disabled", f)
	}
}

func TestPickBid(t *testing.T) {
	bids := []protocol.Bid{protocol.PlaySuit(protocol.Hearts), protocol.BidPass}
	for text, want := range map[string]protocol.Bid{"1": bids[0], "2": protocol.BidPass, "pass": protocol.BidPass, "PASS": protocol.BidPass, "h": bids[0], "H": bids[0]} {
		if got, ok := pickBid(text, bids); !ok || got != want {
			t.Errorf("%q: %v %v, want %v", text, got, ok, want)
		}
	}
	for _, text := range []string{"0", "3", "S", "x", ""} {
		if got, ok := pickBid(text, bids); ok {
			t.Errorf("%q: accepted as %v", text, got)
		}
	}
}

func TestPickCard(t *testing.T) {
	var screen bytes.Buffer
	c := &conn{opt: Options{Out: &screen, Card: protocol.Card.String}}
	hand, _ := protocol.ParseCardSet("7H TH AS")
	legal := []protocol.Card{mustCard("7H"), mustCard("TH")}
	for text, want := range map[string]string{"1": "7H", "2": "TH", "th": "TH", "10h": "TH", "7H": "7H"} {
		if got, ok := c.pickCard(text, legal, hand); !ok || got.String() != want {
			t.Errorf("%q: %v %v, want %s", text, got, ok, want)
		}
	}
	for text, says := range map[string]string{"AS": "may not be played now", "KD": "do not hold", "zz": "is not a card", "3": "is not a card"} {
		screen.Reset()
		if got, ok := c.pickCard(text, legal, hand); ok || !strings.Contains(screen.String(), says) {
			t.Errorf("%q: %v %v, said %q, want %q", text, got, ok, screen.String(), says)
		}
	}
}

func mustCard(s string) protocol.Card {
	c, err := protocol.ParseCard(s)
	if err != nil {
		panic(err)
	}
	return c
}

package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

func TestLowestDiscard(t *testing.T) {
	cases := []struct {
		hand  string
		trump protocol.Suit
		want  string
	}{
		{"7C 9C KC JD AD 9H JH QH 8S QS KS AS", protocol.Hearts, "7C 8S"}, // 0-point cards, lower rank first
		{"TC AC JH 9H 7H 8H QH KH AH TH JD KD", protocol.Hearts, "JD KD"}, // points decide: J 2, K 4
		{"JH 9H 7H 8H QH KH AH TH TC AC JC QC", protocol.Hearts, "JC QC"},
		{"JH 9H 7H 8H QH KH AH TH TS AS JC QC", protocol.Spades, "7H 8H"}, // plain hearts before spade trumps
		{"7S 8S 9S TS JS QS KS AS JD 7H 8C 9C", protocol.Spades, "7H 8C"}, // the lower rank, whatever the suit
	}
	for _, tc := range cases {
		hand, err := protocol.ParseCardSet(tc.hand)
		if err != nil {
			t.Fatal(err)
		}
		got := LowestDiscard(hand, tc.trump)
		if s := got[0].String() + " " + got[1].String(); s != tc.want {
			t.Errorf("LowestDiscard(%s, %s) = %s, want %s", tc.hand, tc.trump, s, tc.want)
		}
	}
	allTrumps, _ := protocol.ParseCardSet("JS 9S AS TS 7S 8S 7H")
	if got := LowestDiscard(allTrumps, protocol.Spades); got != [2]protocol.Card{protocol.NewCard(protocol.Seven, protocol.Hearts), protocol.NewCard(protocol.Seven, protocol.Spades)} {
		t.Errorf("one plain card: %v, want 7H then the cheapest trump 7S", got)
	}
}

// TestRefusesThreePlayerUnlessAble: a bot without ThreePlayer refuses players=3 at the
// handshake; one with it accepts and answers a discard request.
func TestRefusesThreePlayerUnlessAble(t *testing.T) {
	decide := func(s *State, d Decision) Answer { return Answer{Discard: LowestDiscard(s.Hand, s.Trump)} }
	four := NewSession(Bot{Name: "four", Decide: decide})
	if reply, _, err := four.Handle("rules players=3"); err != nil || !strings.HasPrefix(reply, "refuse three-player") {
		t.Errorf("four-player bot: %q %v", reply, err)
	}
	three := NewSession(Bot{Name: "three", Decide: decide, ThreePlayer: true})
	for _, line := range []string{"rules players=3", "game 1 E 1000 0 0", "dealt 1 N 8C,TC,AC,7D,9D,JD,8H,KH,AH,QS", "trump H E"} {
		if _, _, err := three.Handle(line); err != nil {
			t.Fatal(err)
		}
	}
	reply, isRequest, err := three.Handle("discard 1000 H 9H,7S 8C,TC,AC,7D,9D,JD,8H,9H,KH,AH,7S,QS")
	if err != nil || !isRequest || reply != "7D 7S" || three.State().Players != 3 || three.State().Hand.Len() != 10 {
		t.Errorf("discard reply %q %v %v, state %+v", reply, isRequest, err, three.State())
	}
	if _, _, err := three.Handle("dealt 2 E -"); err != nil || !three.State().SitsOut {
		t.Errorf("a dealer sitting out: %v %+v", err, three.State())
	}
}

// TestPlayingSeats: State.Playing is the seats of the deal in play order from the player
// left of the dealer: every seat at four and at a table of three, and at a table of four
// playing the three-player game the three seats of the active event.
func TestPlayingSeats(t *testing.T) {
	decide := func(s *State, d Decision) Answer { return Answer{} }
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"rules players=4", "game 1 N 1000 0 0", "dealt 1 S 7C,8C,9C,TC,JC,QC,KC,AC"}, "[W N E S]"},
		{[]string{"rules players=3", "game 1 N 1000 0 0", "dealt 1 E 7C,8C,9C,TC,JC,QC,KC,AC,7D,8D"}, "[S N E]"},
		{[]string{"rules players=3", "game 1 N 1000 0 0", "dealt 1 E 7C,8C,9C,TC,JC,QC,KC,AC,7D,8D", "active S W N"}, "[S W N]"},
		{[]string{"rules players=3", "game 1 E 1000 0 0", "dealt 2 E -", "active S W N"}, "[S W N]"},
	} {
		s := NewSession(Bot{Name: "b", Decide: decide, ThreePlayer: true})
		for _, line := range tc.lines {
			if _, _, err := s.Handle(line); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
		}
		if got := fmt.Sprint(s.State().Playing); got != tc.want || len(s.State().Unknown) != 0 {
			t.Errorf("%q: playing %s (unknown %q), want %s", tc.lines, got, s.State().Unknown, tc.want)
		}
	}
}

package referee

import (
	"context"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// TestInformationHiding checks that a seat is told only what a player at a real table would
// know: its own hand, and other cards only once they are played.
func TestInformationHiding(t *testing.T) {
	for _, preset := range []string{"amsterdams", "klaver_live", "nku_rotterdams_tournament"} {
		rs, _ := rules.Preset(preset)
		var transcripts [4][]string
		entrants := randomEntrants()
		for i := range entrants {
			entrants[i].Start = recorded(entrants[i].Start, &transcripts[i])
		}
		if _, err := Run(context.Background(), Config{Rules: rs, Games: 2, Duplicate: true, Seed: 3}, entrants[:]); err != nil {
			t.Fatal(err)
		}
		for seat, lines := range transcripts {
			var hand, seen protocol.CardSet // dealt to this seat; played by anyone so far in the deal
			for _, l := range lines {
				if !strings.HasPrefix(l, "< ") {
					continue
				}
				msg, err := protocol.ParseMessage(l[2:])
				if err != nil {
					t.Fatalf("seat %s got an unparsable line %q: %v", protocol.Seat(seat), l, err)
				}
				known := func(cards protocol.CardSet, what string) {
					if leak := cards &^ hand &^ seen; leak != 0 {
						t.Fatalf("%s: seat %s was shown %v in %s before they were played: %q", preset, protocol.Seat(seat), leak, what, l)
					}
				}
				switch m := msg.(type) {
				case *protocol.Dealt:
					hand, seen = m.Hand, 0
					if m.Hand.Len() != 8 {
						t.Fatalf("dealt %d cards", m.Hand.Len())
					}
				case *protocol.Played:
					seen = seen.Add(m.Card)
				case *protocol.BidRequest:
					known(m.Hand, "a bid request")
				case *protocol.PlayRequest:
					known(m.Hand|m.Legal|protocol.SetOf(m.Trick...), "a play request")
					if m.Hand&^hand != 0 || m.Legal&^m.Hand != 0 {
						t.Fatalf("play request hand %v / legal %v not within the dealt hand %v", m.Hand, m.Legal, hand)
					}
				case *protocol.ClaimRequest:
					known(protocol.SetOf(m.Trick...), "a claim request")
				}
			}
		}
	}
}

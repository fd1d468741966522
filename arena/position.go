package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/klaverjas-arena/arena/arena/ask"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// printPosition shows a logged deal as it stood at its decision index (from 1), the way
// replay shows a deal: the cards each seat still holds, the bids, the tricks so far, the
// trick being played, and who is to move.
func printPosition(w io.Writer, d *located, index int, st cardStyle) {
	r := &d.rec
	fmt.Fprintf(w, "  match %s, game %d, deal %d, dealer %s, decision %d   [%s]\n", r.Match, r.Game, r.Deal, r.Dealer, index, d.where)
	deal, seating, err := ask.Position(r, index)
	if err != nil {
		fmt.Fprintf(w, "  cannot rebuild the position: %v\n", err)
		return
	}
	toMove := seating.TableSeat(deal.ToMove())
	for i, name := range r.Seats[:seating.Table] {
		hand := "(sits out)"
		if ds := seating.DealSeat(protocol.Seat(i)); ds != protocol.NoSeat {
			hand = st.hand(deal.Hand(ds))
		}
		mark := " "
		if protocol.Seat(i) == toMove {
			mark = "*"
		}
		fmt.Fprintf(w, "  %s%s %-14s %s\n", mark, protocol.Seat(i), name, hand)
	}
	var bids []string
	for _, a := range r.Actions[:index-1] {
		if a.Bid != "" {
			bid := a.Bid
			if su, err := protocol.ParseSuit(bid); err == nil {
				bid = st.suit(su)
			}
			bids = append(bids, a.Seat+" "+bid)
		}
	}
	if len(bids) > 0 {
		fmt.Fprintf(w, "  bids: %s\n", strings.Join(bids, ", "))
	}
	if deal.Maker() != protocol.NoSeat {
		fmt.Fprintf(w, "  trump %s by %s\n", st.suit(deal.Trump()), seating.TableSeat(deal.Maker()))
	}
	players := r.Rules.Players
	for i, t := range deal.Tricks() {
		var cards []string
		for j := range t.N {
			cards = append(cards, seating.TableSeat(t.Seat(j, players)).String()+" "+st.card(t.Cards[j]))
		}
		fmt.Fprintf(w, "  trick %d: %s  -> %s wins %d\n", i+1, strings.Join(cards, ", "), seating.TableSeat(t.Winner), t.Points)
	}
	if deal.Phase() == rules.PhasePlay {
		tr := deal.Trick()
		var cards []string
		for j := range tr.N {
			cards = append(cards, seating.TableSeat(tr.Seat(j, players)).String()+" "+st.card(tr.Cards[j]))
		}
		fmt.Fprintf(w, "  trick %d so far: %s\n", len(deal.Tricks())+1, orDash(strings.Join(cards, ", ")))
	}
	verb := map[rules.Phase]string{rules.PhaseBidding: "bid", rules.PhasePlay: "play", rules.PhaseClaim: "claim roem", rules.PhaseSkart: "discard"}[deal.Phase()]
	fmt.Fprintf(w, "  %s (%s) to %s\n", toMove, r.Seats[toMove], verb)
}

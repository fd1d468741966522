package textview

import (
	"fmt"
	"io"
	"strings"

	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/protocol"
)

// requestVerbs says what a seat does for each request.
var requestVerbs = map[string]string{"bid": "bid", "play": "play", "claim": "claim roem", "discard": "discard"}

// Position writes a deal as it stood at a decision, indented under the line that names the
// decision (arena ask): the header as arena replay writes it, the cards each seat still
// held (* before the seat to move), the bids, trump, the tricks so far as replay writes them,
// the trick being played, and who is to do what.
func Position(w io.Writer, p *view.Position, st Style) {
	fmt.Fprintf(w, "  match %s, game %d, deal %d, dealer %s, decision %d   [%s]\n", p.Match, p.Game, p.Number, p.Dealer, p.Decision, p.Where)
	if p.Problem != "" {
		fmt.Fprintf(w, "  %s\n", p.Problem)
		return
	}
	for _, s := range p.Seats {
		hand, mark := "(sits out)", " "
		if !s.SitsOut {
			hand = st.Hand(s.Hand)
		}
		if s.Seat == p.ToMove {
			mark = "*"
		}
		fmt.Fprintf(w, "  %s%s %-14s %s\n", mark, s.Seat, s.Bot, hand)
	}
	var bids []string
	for _, b := range p.Bids {
		bid := b.Bid
		if su, err := protocol.ParseSuit(bid); err == nil {
			bid = st.Suit(su)
		}
		bids = append(bids, b.Seat+" "+bid)
	}
	if len(bids) > 0 {
		fmt.Fprintf(w, "  bids: %s\n", strings.Join(bids, ", "))
	}
	if p.Maker != protocol.NoSeat {
		fmt.Fprintf(w, "  trump %s by %s\n", st.Suit(p.Trump), p.Maker)
	}
	for _, t := range p.Tricks {
		replayTrick(w, &t, st)
	}
	if p.Playing {
		cards := "-"
		if len(p.Trick) > 0 {
			var played []string
			for _, c := range p.Trick {
				played = append(played, c.Seat.String()+" "+st.Card(c.Card))
			}
			cards = strings.Join(played, ", ")
		}
		fmt.Fprintf(w, "  trick %d so far: %s\n", len(p.Tricks)+1, cards)
	}
	if p.ToMove != protocol.NoSeat {
		fmt.Fprintf(w, "  %s (%s) to %s\n", p.ToMove, p.Seats[p.ToMove].Bot, requestVerbs[p.Request])
	}
}

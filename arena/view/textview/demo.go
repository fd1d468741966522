package textview

import (
	"fmt"
	"io"
	"strings"

	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// DemoDeal writes a deal played in-process as arena demo shows it: the hands as dealt, the
// turned cards, the bids in words, the trump and maker, and every trick with its leader.
func DemoDeal(w io.Writer, d *view.Deal) {
	fmt.Fprintf(w, "deal %d, dealer %s\n", d.Number, d.Dealer)
	for _, s := range d.Seats {
		fmt.Fprintf(w, "  %s  %s\n", s.Seat, s.Hand)
	}
	if len(d.Turned) > 0 {
		fmt.Fprintf(w, "  turned: %v\n", d.Turned)
	}
	var bids []string
	for _, s := range d.Steps {
		if s.Kind == view.BidStep {
			bids = append(bids, s.Seat+" "+bidWords(s.Bid))
		}
	}
	if len(bids) > 0 {
		fmt.Fprintf(w, "  bids: %s\n", strings.Join(bids, ", "))
	}
	res := &d.Result
	if maker, err := protocol.ParseSeat(res.Maker); err == nil {
		fmt.Fprintf(w, "  trump %s, maker %s (%s)\n", res.Trump, maker, protocol.TeamOf(maker))
	}
	for _, t := range d.Tricks {
		cards := make([]string, len(t.Plays))
		for k, p := range t.Plays {
			cards[k] = p.Card.String()
		}
		roem := ""
		if t.Scored > 0 {
			roem = fmt.Sprintf(" + %d roem %v", t.Scored, t.Roem)
		}
		fmt.Fprintf(w, "  trick %d: %s leads %s -> %s wins %d%s\n", t.Number, t.Leader, strings.Join(cards, " "), t.Winner, t.Points, roem)
	}
}

// DemoResult is a deal's result on one line, as arena demo writes it (four players).
func DemoResult(d *view.Deal) string {
	res := &d.Result
	s := fmt.Sprintf("%-7s", res.Outcome)
	if res.Outcome == rules.Redeal.String() {
		return s + " everybody passed twice: the same dealer deals again"
	}
	s += fmt.Sprintf(" trump %s maker %s  cards NS %3d EW %3d  roem NS %3d EW %3d  score NS %3d EW %3d",
		res.Trump, res.Maker, res.Cards[protocol.NS], res.Cards[protocol.EW],
		res.Roem[protocol.NS], res.Roem[protocol.EW], res.Score[protocol.NS], res.Score[protocol.EW])
	if res.Pit != "" {
		s += "  pit " + res.Pit
	}
	return s
}

func bidWords(bid string) string {
	if bid == protocol.BidPass.String() {
		return "pass"
	}
	return "play " + bid
}

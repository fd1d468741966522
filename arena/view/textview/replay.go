package textview

import (
	"fmt"
	"io"
	"strings"

	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/protocol"
)

// Replay writes a stored or logged deal as arena replay shows it: the hands, the bids, each
// trick with its roem as it finishes, the result and score, the rejections and faults.
func Replay(w io.Writer, d *view.Deal, st Style) {
	mirror := ""
	switch {
	case d.Rotation > 0:
		mirror = fmt.Sprintf(", duplicate replay (hands moved %d)", d.Rotation)
	case d.Mirror:
		mirror = ", duplicate replay"
	}
	attempt := ""
	if d.Attempt > 0 {
		attempt = fmt.Sprintf(" (redeal %d)", d.Attempt)
	}
	fmt.Fprintf(w, "match %s, game %d%s, deal %d%s, dealer %s   [%s]\n", d.Match, d.Game, mirror, d.Number, attempt, d.Dealer, d.Where)
	if d.Problem != "" {
		fmt.Fprintf(w, "  %s\n", d.Problem)
		return
	}
	for _, s := range d.Seats {
		hand := "(sits out)"
		if !s.SitsOut {
			hand = st.Hand(s.Hand)
		}
		fmt.Fprintf(w, "  %s %-14s %s\n", s.Seat, s.Bot, hand)
	}
	if d.Skart != 0 {
		fmt.Fprintf(w, "  skart: %s\n", st.Hand(d.Skart))
	}
	if len(d.Pile) > 0 {
		fmt.Fprintf(w, "  pile: %s\n", strings.Join(d.Pile, " "))
	}
	var bids []string
	flushBids := func() {
		if len(bids) > 0 {
			fmt.Fprintf(w, "  bids: %s\n", strings.Join(bids, ", "))
			bids = nil
		}
	}
	tricks := d.Tricks
	for _, s := range d.Steps {
		switch s.Kind {
		case view.BidStep:
			bid := s.Bid
			if su, err := protocol.ParseSuit(bid); err == nil {
				bid = st.Suit(su)
			}
			bids = append(bids, s.Seat+" "+bid)
		case view.CardStep:
			flushBids()
		case view.DiscardStep:
			flushBids()
			fmt.Fprintf(w, "  %s takes the skart and discards %s\n", s.Seat, s.Discard)
		}
		if s.Illegal != "" {
			fmt.Fprintf(w, "  %s\n", s.Illegal)
		}
		for _, t := range tricks[:s.Tricks] {
			replayTrick(w, &t, st)
		}
		tricks = tricks[s.Tricks:]
	}
	flushBids()
	if len(d.Unfinished) > 0 {
		fmt.Fprintf(w, "  unfinished trick: %s\n", strings.Join(d.Unfinished, " "))
	}
	replayResult(w, d, st)
	for _, x := range d.Rejected {
		fmt.Fprintf(w, "  rejected: %s (%s) decision %d (%s) %s: %s\n", x.Seat, x.Bot, x.Decision, x.Request, x.Kind, x.Detail)
	}
	for _, f := range d.Faults {
		fmt.Fprintf(w, "  fault: %s (%s) %s: %s\n", f.Seat, f.Bot, f.Kind, f.Detail)
	}
}

func replayTrick(w io.Writer, t *view.Trick, st Style) {
	var cards []string
	for _, p := range t.Plays {
		cards = append(cards, p.Seat.String()+" "+st.Card(p.Card))
	}
	roem := ""
	if t.Scored > 0 {
		roem = fmt.Sprintf(", roem %d", t.Scored)
	}
	fmt.Fprintf(w, "  trick %d: %s  %s %s wins %d%s\n", t.Number, strings.Join(cards, ", "), st.arrow(), t.Winner, t.Points, roem)
}

func replayResult(w io.Writer, d *view.Deal, st Style) {
	res := &d.Result
	fmt.Fprintf(w, "  result: %s", res.Outcome)
	if res.Trump != "" {
		ts, _ := protocol.ParseSuit(res.Trump)
		fmt.Fprintf(w, ", trump %s by %s", st.Suit(ts), res.Maker)
	}
	if res.Pit != "" {
		fmt.Fprintf(w, ", pit by %s", res.Pit)
	}
	if res.Offender != "" {
		fmt.Fprintf(w, ", offender %s", res.Offender)
	}
	fmt.Fprintln(w)
	if n := len(res.Score); n >= 2 && len(res.Cards) == n && len(res.Roem) == n {
		names := []string{"NS", "EW"}
		if d.Players == 3 {
			names = []string{"N", "E", "S", "W"}[:min(n, 4)]
		}
		var parts []string
		for i, name := range names {
			parts = append(parts, fmt.Sprintf("%s %d (cards %d + roem %d)", name, res.Score[i], res.Cards[i], res.Roem[i]))
		}
		fmt.Fprintf(w, "  score   %s\n", strings.Join(parts, "   "))
	}
}

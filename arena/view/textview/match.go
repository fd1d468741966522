package textview

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/klaverjas-arena/arena/arena/view"
)

// Match writes a match summary as arena match prints it below its header line: the sides,
// the bots with their decision times and faults, and the duplicate or pairwise shares.
func Match(w io.Writer, m *view.MatchSummary) {
	side := "team"
	if m.Players == 3 {
		side = "seat"
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tbots\tpoints\tshare\twon\tdrawn\tmade\tnat\tpit\tforfeits\t\n", side)
	for i, s := range m.Sides {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f%%\t%d\t%d\t%d\t%d\t%d\t%d\t\n", s.Name, strings.Join(s.Bots, " + "), s.Points, m.Percent(i), s.GamesWon, s.Draws, s.Made, s.Nat, s.Pit, s.Forfeits)
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "seat\tbot\tdecisions\tmean ms\tmax ms\tcpu ms\tfaults\t")
	for _, b := range m.Bots {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.1f\t%.0f\t%s\t\n", b.Seat, b.Name, b.Decisions, b.MeanMS, b.MaxMS, b.CPUMS, FaultList(b.Faults)+BusyNote(b.BusyTimeouts))
	}
	tw.Flush()
	switch {
	case m.Players == 3:
		fmt.Fprintln(w, "\npairwise points share:")
		for _, p := range m.Pairwise {
			fmt.Fprintf(w, "  %s %s %.1f%% vs %s %s\n", p.A, p.BotA, 100*p.Share, p.B, p.BotB)
		}
	case m.Pairs > 0:
		fmt.Fprintf(w, "\nduplicate pairs: %d, NS points share over the pairs %.1f%%\n", m.Pairs, 100*m.PairShare)
	}
}

package textview

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/klaverjas-arena/arena/arena/view"
)

// StandingsJSON writes the standings as indented JSON (arena standings --json).
func StandingsJSON(w io.Writer, tab *view.Standings) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(tab)
}

// Standings writes the standings table (with the bots' author lines last when any has one),
// then the likelihood-of-superiority matrix when the
// standings have one.
func Standings(w io.Writer, tab *view.Standings) error {
	fmt.Fprintf(w, "league %s: %d matches, %d deals\n", tab.League, tab.Matches, tab.Deals)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	authors := slices.ContainsFunc(tab.Standings, func(s view.Standing) bool { return s.Author != "" })
	header := "rank\tbot\telo\t±95%\tgame elo\t±95%\tgames\tdeals\tpoints\tW-D-L\tnat\tpit\tfaults\t"
	if authors {
		header += "  author" // after the last tab: left-aligned, not a column of the right-aligned table
	}
	fmt.Fprintln(tw, header)
	for _, s := range tab.Standings {
		author := ""
		if s.Author != "" {
			author = "  " + s.Author
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%.1f%%\t%d-%d-%d\t%.1f%%\t%.1f%%\t%s\t%s\n", s.Rank, s.Bot,
			num(s.Elo, "%+.0f"), num(s.CI95, "%.0f"), num(s.GameElo, "%+.0f"), num(s.GameCI95, "%.0f"),
			s.Games, s.Deals, 100*s.Share, s.Wins, s.Draws, s.Losses, 100*s.NatRate, 100*s.PitRate, FaultList(s.Faults)+BusyNote(s.BusyTimeouts), author)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if tab.Note != "" {
		fmt.Fprintln(w, tab.Note)
	}
	if len(tab.LOS) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nlikelihood of superiority (row over column):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header = "\t"
	for _, s := range tab.Standings {
		header += s.Bot + "\t"
	}
	fmt.Fprintln(tw, header)
	for i, s := range tab.Standings {
		line := s.Bot + "\t"
		for j := range tab.Standings {
			if i == j {
				line += "-\t"
				continue
			}
			line += fmt.Sprintf("%.1f%%\t", 100*tab.LOS[i][j])
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}

func num(v *float64, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}

// BusyNote is what follows a fault list when n of its timeouts were on a busy machine:
// " (n on a busy machine)", or "" for none.
func BusyNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d on a busy machine)", n)
}

// FaultList writes fault counts by kind, e.g. "crash:1,timeout:2", or "-" for none.
func FaultList[K ~string](f map[K]int) string {
	if len(f) == 0 {
		return "-"
	}
	var parts []string
	for k, n := range f {
		parts = append(parts, fmt.Sprintf("%s:%d", k, n))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

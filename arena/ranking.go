package main

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/league/pairing"
	"github.com/klaverjas-arena/arena/arena/store"
)

// printRanking prints the ranking of a stored league whose format has its own (Swiss,
// knockout) over its finished rounds; nothing for the other formats.
func printRanking(w io.Writer, db *store.DB, name string) error {
	l, err := db.League(name)
	if err != nil {
		return err
	}
	f, err := league.Stored(l)
	if err != nil {
		return fmt.Errorf("league %s: its stored league file: %w", name, err)
	}
	ranker, ok := f.Pairing.(pairing.Ranker)
	if !ok {
		return nil
	}
	matches, err := db.Matches(name)
	if err != nil {
		return err
	}
	plan, err := f.Plan(matches)
	if err != nil {
		return err
	}
	rk, err := ranker.Rank(plan.Results)
	if err != nil {
		return fmt.Errorf("league %s: %w", name, err)
	}
	state := "finished"
	if len(plan.Todo) > 0 {
		state = fmt.Sprintf("round %d is being played", len(plan.Rounds))
	}
	fmt.Fprintf(w, "\n%s ranking after %d rounds (%s):\n", f.Format, len(plan.Results), state)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "place\tbot\t")
	for _, c := range rk.Columns {
		fmt.Fprintf(tw, "%s\t", c)
	}
	fmt.Fprintln(tw)
	for _, r := range rk.Rows {
		fmt.Fprintf(tw, "%d\t%s\t", r.Place, f.Bots[r.Bot].Name)
		for _, v := range r.Values {
			fmt.Fprintf(tw, "%s\t", strconv.FormatFloat(v, 'f', -1, 64))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

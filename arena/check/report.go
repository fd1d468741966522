package check

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText writes the report for a person: one line per item, the evidence under each
// failure or warning, the timing table and a final verdict line.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "arena check %s", r.Bot)
	if r.Name != "" {
		fmt.Fprintf(&b, " (hello: %s, %s)", r.Name, r.Author)
	}
	b.WriteString("\n\n")
	for _, it := range r.Items {
		fmt.Fprintf(&b, "%-4s  %s", it.Status, it.Name)
		if it.Detail != "" {
			fmt.Fprintf(&b, ": %s", it.Detail)
		}
		b.WriteByte('\n')
		if it.Status == Fail || it.Status == Warn {
			if it.Sent != "" {
				fmt.Fprintf(&b, "        arena sent: %s\n", strings.ReplaceAll(it.Sent, "\n", "\n                    "))
			}
			if it.Got != "" || it.Sent != "" {
				fmt.Fprintf(&b, "        bot sent:   %s\n", gotText(&it))
			}
			if it.Want != "" {
				fmt.Fprintf(&b, "        expected:   %s\n", it.Want)
			}
			if it.Stderr != "" {
				fmt.Fprintf(&b, "        stderr:     %s\n", strings.ReplaceAll(it.Stderr, "\n", "\n                    "))
			}
		}
	}
	if len(r.Timings) > 0 {
		b.WriteString("\nresponse times\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "kind\tcount\tmedian ms\tworst ms\tlimit ms\t")
		for _, t := range r.Timings {
			fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%.0f\t\n", t.Kind, t.Count, t.MedianMS, t.WorstMS, t.LimitMS)
		}
		tw.Flush()
	}
	fmt.Fprintf(&b, "\n%s\n", r.Summary)
	_, err := io.WriteString(w, b.String())
	return err
}

// gotText is the bot's answer as the report shows it: quoted, or what came in its place.
func gotText(it *Item) string {
	switch {
	case it.Got != "":
		return fmt.Sprintf("%q", it.Got)
	case it.Fault != "":
		return "(no answer: the " + it.Fault + " fault above)"
	}
	return "(nothing)"
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

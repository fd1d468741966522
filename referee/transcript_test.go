package referee

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// TestTranscriptIsWhatTheSeatReceived plays matches with a trace per seat and checks that
// Transcript rebuilds, from each logged deal alone, exactly the lines every seat's bot
// received in that deal and the answers it gave: four players, the three-player game at a
// table of three and of four, answers rejected under fault_policy = retry, and deals
// forfeited for an illegal card.
func TestTranscriptIsWhatTheSeatReceived(t *testing.T) {
	four := rules.Default()
	four.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 4}
	three, _ := rules.Preset("drie_spelers")
	three.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 3}
	retry := four
	retry.FaultPolicy = rules.FaultRetry
	sloppy := func() []Entrant {
		e := randomEntrants()
		asked := 0
		inner := NewInProcess(randomBot("sloppy", 4))
		e[2] = Entrant{Name: "sloppy", Start: func(ctx context.Context) (Conn, error) {
			c, err := inner(ctx)
			return retryConn{Conn: c, asked: &asked}, err
		}}
		return e
	}
	reneger := func() []Entrant {
		e := randomEntrants()
		inner := NewInProcess(randomBot("reneger", 3))
		e[1] = Entrant{Name: "reneger", Start: func(ctx context.Context) (Conn, error) {
			c, err := inner(ctx)
			return illegalConn{c}, err
		}}
		return e
	}
	cases := []struct {
		name     string
		rules    rules.Ruleset
		entrants []Entrant
	}{
		{"four", four, randomEntrants()},
		{"three", three, threeEntrants(3)},
		{"three-at-four", three, threeEntrants(4)},
		{"retry", retry, sloppy()},
		{"forfeits", four, reneger()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			traces := make([]*bytes.Buffer, len(tc.entrants))
			seatTraces := make([]io.Writer, len(tc.entrants))
			for i := range traces {
				traces[i] = &bytes.Buffer{}
				seatTraces[i] = traces[i]
			}
			cfg := Config{ID: "t", Rules: tc.rules, Games: 1, Seed: 7, Records: NewLogWriter(&log), SeatTraces: seatTraces, MaxFaults: 100}
			if _, err := Run(context.Background(), cfg, tc.entrants); err != nil {
				t.Fatal(err)
			}
			recs := records(t, &log)
			rejected, forfeits := 0, 0
			for k := range recs {
				rec := &recs[k]
				rejected += len(rec.Rejected)
				forfeits += len(rec.Faults)
				ts, err := Transcript(rec, DefaultTimeControl)
				if err != nil {
					t.Fatalf("deal %d: %v", k+1, err)
				}
				if len(ts) != len(tc.entrants) {
					t.Fatalf("%d transcripts for %d seats", len(ts), len(tc.entrants))
				}
				for s, exs := range ts {
					got := transcriptText(exs)
					if !strings.HasPrefix(got, "< klaverjas 1\n> hello 1 logged\n< rules ") {
						t.Fatalf("deal %d seat %d does not start with the handshake:\n%s", k+1, s, got)
					}
					at := strings.Index(got, "< dealt ")
					if at < 0 {
						if decisions(exs) > 0 {
							t.Fatalf("deal %d seat %d: decisions without the deal:\n%s", k+1, s, got)
						}
						continue // asked nothing in this deal (the dealer sitting out): nothing sent
					}
					got = got[at:]
					received := traces[s].String()
					for range k {
						received = received[strings.Index(received, "< dealt ")+1:]
					}
					received = received[strings.Index(received, "< dealt "):]
					if !linesPrefix(received, got) {
						t.Fatalf("deal %d seat %d: the transcript\n%s\nis not what the seat received:\n%s", k+1, s, got, received[:min(len(received), len(got)+200)])
					}
				}
			}
			if tc.name == "retry" && rejected == 0 || tc.name == "forfeits" && forfeits == 0 {
				t.Fatalf("%d rejected answers and %d faults: the case tests nothing", rejected, forfeits)
			}
		})
	}
}

// anyAnswer in a transcript's text stands for any answer of the bot.
const anyAnswer = "> (any)"

// linesPrefix reports whether want's lines begin text, anyAnswer matching any answer.
func linesPrefix(text, want string) bool {
	got := strings.SplitAfter(text, "\n")
	for i, w := range strings.SplitAfter(want, "\n") {
		switch {
		case w == "":
		case i >= len(got):
			return false
		case w == anyAnswer+"\n" && strings.HasPrefix(got[i], "> "):
		case w != got[i]:
			return false
		}
	}
	return true
}

// decisions counts the requests among exchanges.
func decisions(exs []Exchange) int {
	n := 0
	for _, ex := range exs {
		if ex.Decision > 0 {
			n++
		}
	}
	return n
}

// transcriptText writes exchanges as a seat trace: "< " lines to the bot, "> " its answers.
func transcriptText(exs []Exchange) string {
	var b strings.Builder
	for _, ex := range exs {
		for line := range bytes.Lines(ex.Lines) {
			fmt.Fprintf(&b, "< %s", line)
		}
		switch {
		case ex.Rejected != nil, ex.Fault != nil && (ex.Fault.Kind == FaultIllegal || ex.Fault.Kind == FaultGarbage):
			b.WriteString(anyAnswer + "\n") // the log keeps the fault's detail, not the answer
		case ex.Want && ex.Fault == nil:
			fmt.Fprintf(&b, "> %s\n", ex.Reply)
		}
	}
	return b.String()
}

// TestTranscriptRefusesAnInconsistentRecord: a record whose actions are not legal is
// reported, not re-refereed.
func TestTranscriptRefusesAnInconsistentRecord(t *testing.T) {
	var log bytes.Buffer
	rs := rules.Default()
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 1}
	if _, err := Run(context.Background(), Config{ID: "t", Rules: rs, Games: 1, Seed: 3, Records: NewLogWriter(&log)}, randomEntrants()); err != nil {
		t.Fatal(err)
	}
	rec := records(t, &log)[0]
	rec.Actions[0], rec.Actions[1] = rec.Actions[1], rec.Actions[0]
	if _, err := Transcript(&rec, DefaultTimeControl); err == nil {
		t.Fatal("a record with its first two decisions swapped gave a transcript")
	}
}

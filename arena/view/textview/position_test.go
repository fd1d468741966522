package textview

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/view"
)

// TestPositionText: a position is written as arena replay writes its deal: each finished
// trick's line is the replay's line for that trick (but for the roem: under claim_required
// replay writes a trick as it finished, before the claim, and a position after it); one
// seat is marked to move, and the last line says who is to do what.
func TestPositionText(t *testing.T) {
	for _, name := range []string{"four.jsonl", "three.jsonl", "claims.jsonl"} {
		r := records(t, name)[0]
		var replay bytes.Buffer
		Replay(&replay, view.DealFromRecord(&r, name), Style{})
		tricks := noRoem.ReplaceAllString(replay.String(), "")
		for n, a := range r.Actions {
			var out bytes.Buffer
			Position(&out, view.PositionFromRecord(&r, name, n+1), Style{})
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			marked := 0
			for _, l := range lines {
				if strings.HasPrefix(l, "  *") {
					marked++
				}
				if strings.HasPrefix(l, "  trick ") && !strings.Contains(l, "so far") && !strings.Contains(tricks, noRoem.ReplaceAllString(l, "")+"\n") {
					t.Errorf("%s decision %d: %q is not a line of the replay:\n%s", name, n+1, l, replay.String())
				}
			}
			if last := lines[len(lines)-1]; marked != 1 || !strings.HasPrefix(last, "  "+a.Seat+" ("+r.Seats[strings.Index("NESW", a.Seat)]+") to ") {
				t.Fatalf("%s decision %d by %s: %d seats marked, last line %q:\n%s", name, n+1, a.Seat, marked, last, out.String())
			}
		}
	}
}

// noRoem matches the roem at the end of a trick's line.
var noRoem = regexp.MustCompile(`, roem \d+`)

package textview

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/referee"
)

// TestReplayGolden: deals exported from real leagues (four players, three with the skart,
// claimed roem, and damaged records) replay exactly as arena replay showed them before the
// view layer existed; the .golden files are that output, as ASCII and on a terminal, except
// that a trick's roem claimed after the trick (roem_claiming = claim_required) is now shown,
// which the old replay missed.
func TestReplayGolden(t *testing.T) {
	for _, name := range []string{"four", "three", "claims", "damaged"} {
		for _, tty := range []bool{false, true} {
			golden := filepath.Join("..", "testdata", name+".golden")
			if tty {
				golden = filepath.Join("..", "testdata", name+"-tty.golden")
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			for i, r := range records(t, name+".jsonl") {
				if i > 0 {
					fmt.Fprintln(&got)
				}
				Replay(&got, view.DealFromRecord(&r, fmt.Sprintf("%s.jsonl:%d", name, i+1)), Style{Symbols: tty, Colour: tty})
			}
			if got.String() != string(want) {
				t.Errorf("%s differs from %s:\n%s", name, golden, got.String())
			}
		}
	}
}

func records(t *testing.T, name string) []referee.DealRecord {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []referee.DealRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r referee.DealRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func TestStatusLine(t *testing.T) {
	for _, c := range []struct {
		s    view.Status
		want string
	}{
		{view.Status{Total: 6}, "matches 0/6  0 deals/s  ETA -  leader -"},
		{view.Status{Total: 6, Done: 2, Rate: 812.4, ETA: 90*time.Second + 400*time.Millisecond, ETAKnown: true, Leader: "<b>", LeaderShare: 0.5432},
			"matches 2/6  812 deals/s  ETA 1m30s  leader <b> (54.3%)"},
	} {
		if got := StatusLine(c.s); got != c.want {
			t.Errorf("StatusLine = %q, want %q", got, c.want)
		}
	}
}

func TestStandingsText(t *testing.T) {
	one := 1.0
	tab := &view.Standings{League: "l", Matches: 1, Deals: 16, Note: "no ratings yet: too few",
		Standings: []view.Standing{{Rank: 1, Bot: "a", Author: "A. Jansen <a@example.org>", Elo: &one, Share: 0.6, Faults: map[string]int{"timeout": 2, "crash": 1}}, {Rank: 2, Bot: "b"}},
		LOS:       [][]float64{{0.5, 0.75}, {0.25, 0.5}}}
	var b strings.Builder
	if err := Standings(&b, tab); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"league l: 1 matches, 16 deals", "+1", "60.0%", "crash:1,timeout:2", "no ratings yet: too few", "(row over column)", "75.0%", "faults  author", "A. Jansen <a@example.org>"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := StandingsJSON(&b, tab); err != nil || !strings.Contains(b.String(), `"points_share": 0.6`) {
		t.Errorf("json: %v\n%s", err, b.String())
	}
}

package league

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
)

// TestExamples: every example league file is valid (its bots are not checked: they may not
// be built) and says what it plays.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob("examples/*.toml")
	if len(files) < 3 {
		t.Fatalf("examples: %v", files)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parse(data, path, false)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if p, err := f.Plan(nil); err != nil || len(p.Todo) == 0 || f.Pairing.Matches() < len(p.Todo) {
			t.Errorf("%s: first round %v, %v", path, p, err)
		}
	}
}

// done returns a done match record of a scheduled match whose first bot scores a and second b
// in each of the set's two games.
func done(s Scheduled, a, b int) store.Match {
	m := s.Record("")
	m.Done = true
	for range 2 {
		g := referee.GameResult{Totals: []int{a, b}, Winner: 0}
		if b > a {
			g.Winner = 1
		}
		m.Games = append(m.Games, g)
	}
	return m
}

// TestPlanRounds: a Swiss league's plan decides round 2 only when round 1 is done, from its
// results, numbers the matches on, and refuses stored matches the format does not decide.
func TestPlanRounds(t *testing.T) {
	four := twoBots + "[[bot]]\nname = \"d\"\ncmd = [\"/bin/cat\"]\n"
	f, err := Parse([]byte("format = \"swiss\"\nseed = 9\n"+four), "/tmp/sw.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.Plan(nil)
	if err != nil || len(p.Rounds) != 1 || len(p.Todo) != 2 || p.Done != 0 {
		t.Fatalf("empty store: %+v %v", p, err)
	}
	r1 := p.Todo
	stored := []store.Match{done(r1[0], 300, 100)}
	if p, err = f.Plan(stored); err != nil || len(p.Rounds) != 1 || len(p.Todo) != 1 || p.Done != 1 {
		t.Fatalf("round 1 half done: %+v %v", p, err)
	}
	stored = append(stored, done(r1[1], 100, 300))
	p, err = f.Plan(stored)
	if err != nil || len(p.Rounds) != 2 || len(p.Results) != 1 || len(p.Todo) != 2 || p.Done != 2 {
		t.Fatalf("round 1 done: %+v %v", p, err)
	}
	// a (bot 0) and d (bot 3) won round 1: they meet, and so do the losers.
	if r2 := p.Todo; r2[0].Index != 2 || r2[0].ID != "sw/2" || r2[0].Round != 1 ||
		!(r2[0].Bots[0] == 3 && r2[0].Bots[1] == 0 || r2[0].Bots[0] == 0 && r2[0].Bots[1] == 3) {
		t.Errorf("round 2: %+v", r2)
	}
	for _, m := range p.Todo {
		stored = append(stored, done(m, 200, 100))
	}
	if p, err = f.Plan(stored); err != nil || len(p.Todo) != 0 || p.Done != 4 || len(p.Matches()) != 4 {
		t.Fatalf("finished: %+v %v", p, err)
	}
	// Stored matches that are not the format's are refused, naming the match.
	wrong := append([]store.Match(nil), stored...)
	wrong[2].Seats = []int{1, 2, 1, 2}
	if _, err := f.Plan(wrong); err == nil || !strings.Contains(err.Error(), "match sw/2 is stored with seats [b c b c]") {
		t.Errorf("foreign seats: %v", err)
	}
	extra := append(append([]store.Match(nil), stored[:2]...), store.Match{Index: 7, ID: "sw/7"})
	if _, err := f.Plan(extra); err == nil || !strings.Contains(err.Error(), "match sw/7 is stored, but the league file decides no such match") {
		t.Errorf("a match beyond the plan: %v", err)
	}
}

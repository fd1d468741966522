package league

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/arena/store"
)

const twoBots = `
[[bot]]
name = "a"
cmd = ["/bin/cat"]
[[bot]]
name = "b"
cmd = ["/bin/cat"]
[[bot]]
name = "c"
cmd = ["/bin/cat"]
`

func TestParseDefaults(t *testing.T) {
	f, err := Parse([]byte(twoBots), "/tmp/x.toml")
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "x" || f.Format != "round_robin" || f.Games != 2 || f.Concurrency < 1 || f.Time.Decision == 0 || f.Bots[0].Dir != "/tmp" {
		t.Errorf("defaults: %+v", f)
	}
	if !f.Keep() {
		t.Error("keep_bots: want true by default")
	}
	for text, want := range map[string]bool{"keep_bots = false\n": false, "keep_bots = true\n": true} {
		if f, err := Parse([]byte(text+twoBots), "/tmp/x.toml"); err != nil || f.Keep() != want {
			t.Errorf("%q: Keep() = %v (%v), want %v", text, f != nil && f.Keep(), err, want)
		}
	}
}

// schedule returns the matches of a league of a format that decides them all at once.
func schedule(t *testing.T, f *File) []Scheduled {
	t.Helper()
	p, err := f.Plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rounds) != 1 || len(p.Todo) != f.Pairing.Matches() {
		t.Fatalf("%d rounds, %d matches to play, %d in the league: want all in one round", len(p.Rounds), len(p.Todo), f.Pairing.Matches())
	}
	return p.Todo
}

func TestSchedule(t *testing.T) {
	f, err := Parse([]byte("games = 4\nseed = 3\n"+twoBots), "/tmp/rr.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := schedule(t, f)
	if len(s) != 6 { // 3 pairings × 2 pairs
		t.Fatalf("%d matches", len(s))
	}
	seeds := map[uint64]bool{}
	count := map[[2]int]int{}
	for i, m := range s {
		if m.Index != i || m.ID != "rr/"+string(rune('0'+i)) || len(m.Bots) != 2 || m.Bots[0] == m.Bots[1] {
			t.Errorf("match %d: %+v", i, m)
		}
		seeds[m.Seed] = true
		count[[2]int{min(m.Bots[0], m.Bots[1]), max(m.Bots[0], m.Bots[1])}]++
	}
	if len(seeds) != 6 || len(count) != 3 {
		t.Errorf("seeds %d, pairings %v", len(seeds), count)
	}
	// The same file gives the same schedule: resuming replays nothing differently.
	again := schedule(t, f)
	for i := range s {
		if !reflect.DeepEqual(s[i], again[i]) {
			t.Errorf("schedule not deterministic at %d", i)
		}
	}
	g, err := Parse([]byte("format = \"gauntlet\"\ngauntlet = \"c\"\ngames = 2\n"+twoBots), "/tmp/g.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range schedule(t, g) {
		if !slices.Contains(m.Bots, 2) {
			t.Errorf("gauntlet match without the gauntlet bot: %+v", m)
		}
	}
	if n := len(schedule(t, g)); n != 2 {
		t.Errorf("gauntlet: %d matches", n)
	}
}

func TestParseErrorsTogether(t *testing.T) {
	_, err := Parse([]byte("games = -2\nconcurrency = -1\nformat = \"swizz\"\n[[bot]]\nname = \"a\"\n"), "/tmp/bad.toml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"games = -2", "concurrency = -1", "format = \"swizz\"", `bot "a" has no cmd`, "at least 2 bots"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in %v", want, err)
		}
	}
}

// TestParseAuthor: an author line is read, kept with the league, and checked whether or not
// the bots can run here.
func TestParseAuthor(t *testing.T) {
	text := strings.Replace(twoBots, "name = \"a\"\n", "name = \"a\"\nauthor = \"<i>me</i> <me@example.org>\"\n", 1)
	f, err := Parse([]byte(text), "/tmp/au.toml")
	if err != nil {
		t.Fatal(err)
	}
	if got := f.BotAuthors(); !slices.Equal(got, []string{"<i>me</i> <me@example.org>", "", ""}) {
		t.Errorf("authors %q", got)
	}
	if f, _ := Parse([]byte(twoBots), "/tmp/au.toml"); f.BotAuthors() != nil {
		t.Errorf("no author lines: %q, want nil", f.BotAuthors())
	}
	bad := strings.Replace(twoBots, "name = \"a\"\n", "name = \"a\"\nauthor = \"one\\ntwo\"\n", 1)
	want := `bot "a": author "one\ntwo": one line of text, no control characters or tabs`
	if _, err := Parse([]byte(bad), "/tmp/au.toml"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("an author of two lines: %v", err)
	}
	if _, err := Stored(&store.League{Config: bad, File: "/tmp/au.toml"}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("an author of two lines, stored: %v", err)
	}
}

func TestCompareFindsDifferences(t *testing.T) {
	base := func() *store.Totals {
		return &store.Totals{Matches: 2, Deals: 64, Bots: []store.BotTotals{{Name: "a", Wins: 3}, {Name: "b", Losses: 3}},
			Pairings: []rating.Pairing{{Team1: rating.Solo(0), Team2: rating.Solo(1), Points: rating.Sums{Clusters: 2, N: 2, S: 1.2, SS: 0.74}}}}
	}
	if err := Compare(base(), base()); err != nil {
		t.Fatalf("equal totals: %v", err)
	}
	for name, spoil := range map[string]func(*store.Totals){
		"deals":   func(t *store.Totals) { t.Deals++ },
		"bot":     func(t *store.Totals) { t.Bots[1].Losses = 2 },
		"sum":     func(t *store.Totals) { t.Pairings[0].Points.S += 1e-6 },
		"cluster": func(t *store.Totals) { t.Pairings[0].Points.Clusters = 3 },
		"pairing": func(t *store.Totals) { t.Pairings[0].Team2 = rating.Solo(0) },
	} {
		spoiled := base()
		spoil(spoiled)
		if err := Compare(base(), spoiled); err == nil {
			t.Errorf("%s: a difference was not reported", name)
		}
	}
}

// TestThreePlayerSchedule: a three-player league plays every three bots (a gauntlet: every
// three with the gauntlet bot) in duplicate sets of three games, play order reversed from
// round to round.
func TestThreePlayerSchedule(t *testing.T) {
	four := twoBots + "[[bot]]\nname = \"d\"\ncmd = [\"/bin/cat\"]\n"
	f, err := Parse([]byte("games = 6\n"+four+"[rules]\npreset = \"drie_spelers\"\n"), "/tmp/three.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := schedule(t, f)
	if f.SetGames() != 3 || len(s) != 8 { // 4 triples × 2 rounds
		t.Fatalf("set games %d, %d matches", f.SetGames(), len(s))
	}
	seen := map[[3]int]int{}
	for i, m := range s {
		if len(m.Bots) != 3 || !slices.Equal(m.Seats(), m.Bots) {
			t.Fatalf("match %d: %+v", i, m)
		}
		sorted := slices.Sorted(slices.Values(m.Bots))
		seen[[3]int(sorted)]++
		back := slices.Clone(m.Bots)
		slices.Reverse(back)
		if i >= 4 && !slices.Equal(back, s[i-4].Bots) {
			t.Errorf("round 2 match %v does not reverse round 1's %v", m.Bots, s[i-4].Bots)
		}
	}
	if len(seen) != 4 {
		t.Errorf("triples %v", seen)
	}
	g, err := Parse([]byte("format = \"gauntlet\"\ngauntlet = \"d\"\n"+four+"[rules]\npreset = \"drie_spelers\"\n"), "/tmp/g3.toml")
	if err != nil {
		t.Fatal(err)
	}
	if gs := schedule(t, g); len(gs) != 3 || g.Games != 3 {
		t.Errorf("gauntlet of three: %d matches, games %d", len(gs), g.Games)
	}
	for _, bad := range []string{"games = 4\n", ""} {
		text := bad + "[[bot]]\nname = \"a\"\ncmd = [\"/bin/cat\"]\n[[bot]]\nname = \"b\"\ncmd = [\"/bin/cat\"]\n[rules]\npreset = \"drie_spelers\"\n"
		_, err := Parse([]byte(text), "/tmp/bad3.toml")
		if err == nil || !strings.Contains(err.Error(), "at least 3 bots") || (bad != "" && !strings.Contains(err.Error(), "multiple of 3")) {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
}

// A program given as "./true" is the league directory's true, not the one on PATH, even when
// the league file is in the current directory (filepath.Join(".", "./true") is "true").
func TestParseProgramRelativeToLeagueDir(t *testing.T) {
	text := "[[bot]]\nname = \"a\"\ncmd = [\"./true\"]\n[[bot]]\nname = \"b\"\ncmd = [\"true\"]\n"
	_, err := Parse([]byte(text), "here.toml")
	if err == nil || !strings.Contains(err.Error(), `bot "a": program ./true`) {
		t.Errorf("a missing ./true in the league's directory: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), `bot "b"`) {
		t.Errorf("true on PATH refused: %v", err)
	}
}

package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/urfave/cli/v2"
)

// parseMatch reads an arena match command line as the arena does (flagsFirst, then
// urfave/cli) and returns its configuration, without checking or running anything.
func parseMatch(t *testing.T, args ...string) matchConfig {
	t.Helper()
	app := newApp(io.Discard, io.Discard)
	var mc matchConfig
	parsed := false
	app.Command("match").Action = func(c *cli.Context) error {
		mc, parsed = matchConfigFromFlags(c), true
		return nil
	}
	if err := app.Run(flagsFirst(app, append([]string{"arena", "match"}, args...))); err != nil || !parsed {
		t.Fatalf("%q: %v", args, err)
	}
	return mc
}

func TestMatchConfigFromFlags(t *testing.T) {
	mc := parseMatch(t, "/bin/cat", "--games", "4", "/bin/cat -u", "--seat", "E=x y", "-o", "deal_packets=[4,4]", "--time", "250ms")
	if strings.Join(mc.Args, "|") != "/bin/cat|/bin/cat -u" || mc.Games != 4 || len(mc.Seats) != 1 || mc.Seats[0] != "E=x y" {
		t.Errorf("arguments and flags: %+v", mc)
	}
	if len(mc.Ruleset.Options) != 1 || mc.Ruleset.Options[0] != "deal_packets=[4,4]" || mc.Ruleset.Preset != "amsterdams" || mc.Ruleset.PresetSet {
		t.Errorf("ruleset: %+v", mc.Ruleset)
	}
	if mc.Time.Decision != 250*time.Millisecond || mc.Time.Startup != referee.DefaultTimeControl.Startup || mc.SeedSet || !mc.Duplicate || mc.MaxFaults != 3 {
		t.Errorf("defaults: %+v", mc)
	}
}

// TestMatchValidate_EveryProblemTogether: validate reports every problem of a command line,
// one per line, and starts nothing.
func TestMatchValidate_EveryProblemTogether(t *testing.T) {
	dir := t.TempDir()
	notADir := filepath.Join(dir, "file")
	if err := os.WriteFile(notADir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	mc := parseMatch(t, "/no/such/bot", "'unclosed", "--games", "0", "--max-faults", "-1", "--time", "0s",
		"--grace", "-1s", "--bank", "2h", "-o", "bidding=blind", "--affinity", "everywhere", "--sandbox", "maybe",
		"--seat", "X=/bin/cat", "--deals", filepath.Join(dir, "nosuch.deals"), "--sprt", "elo0=1", "--duplicate=false",
		"--trace-dir", filepath.Join(notADir, "traces"))
	_, err := mc.validate(dir)
	if err == nil {
		t.Fatal("accepted")
	}
	got := strings.Split(err.Error(), "\n")
	want := []string{
		`ruleset option bidding: bad value "blind" (allowed: `,
		`bot "bot": program /no/such/bot: stat /no/such/bot: no such file or directory`,
		`bot "'unclosed": `,
		`--seat "X=/bin/cat": want SEAT=BOT with SEAT one of N E S W`,
		"--games 0: must be at least 1",
		"--max-faults -1: must be at least 1",
		"--time 0s: must be more than 0",
		"--grace -1s: must not be negative",
		"--bank 2h0m0s: at most 1h0m0s",
		"--deals " + filepath.Join(dir, "nosuch.deals") + ": no such file (spec.md §13 describes the file)",
		`--sprt "elo0=1": elo0 and elo1 are required`,
		"--sprt tests duplicate pairs: it needs --duplicate",
		"--trace-dir " + filepath.Join(notADir, "traces") + ": " + notADir + " is not a directory",
		`--affinity "everywhere": want shared, spread or none`,
		"--sandbox: ",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(got), len(want), err)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d: %q, want it to start %q", i+1, got[i], want[i])
		}
	}
}

// TestMatchValidate_FilesAndRules: a file that a flag names and that is missing, or in the
// way, is one line naming the flag and saying what to do; a mistyped preset is counted as the
// preset it is nearest to (no cascade of seating problems), two copies of one missing bot are
// one problem, and nothing is created.
func TestMatchValidate_FilesAndRules(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such")
	badRules := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(badRules, []byte("x = \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want []string // each problem's start
	}{
		{[]string{"/no/bot", "/no/bot", "--bots", missing, "--key", missing, "--log", missing + "/log", "--trace", dir},
			[]string{"--bots " + missing + ": no such file", `bot "bot": program /no/bot`, "--key " + missing + ": no such file (arena keygen FILE makes one)",
				"--log " + missing + "/log: no directory " + missing + " to write it in", "--trace " + dir + ": is a directory; give a file"}},
		{[]string{"/bin/cat", "/bin/cat", "/bin/cat", "--preset", "drie_speler"}, []string{`--preset drie_speler: no such preset; did you mean "drie_spelers"?`}},
		{[]string{"/bin/cat", "/bin/cat", "--preset", "nothing_like_it", "-o", "bidding=blind"}, []string{"--preset nothing_like_it: no such preset (the presets: amsterdams,", `ruleset option bidding: bad value "blind"`}},
		{[]string{"/bin/cat", "/bin/cat", "--rules", "rotterdams"}, []string{"--rules rotterdams: no such file; the preset of that name is --preset rotterdams"}},
		{[]string{"/bin/cat", "/bin/cat", "--rules", missing}, []string{"--rules " + missing + ": no such file (a ruleset file, .toml or .json"}},
		{[]string{"/bin/cat", "/bin/cat", "--rules", badRules}, []string{"--rules " + badRules + ": ruleset TOML: "}},
		{[]string{"/bin/cat", "/bin/cat", "--rules", dir}, []string{"--rules " + dir + ": is a directory"}},
	} {
		_, err := parseMatch(t, append(c.args, "--sandbox", "off")...).validate(dir)
		if err == nil {
			t.Errorf("%q: accepted", c.args)
			continue
		}
		got := strings.Split(err.Error(), "\n")
		if len(got) != len(c.want) {
			t.Errorf("%q: %d problems, want %d:\n%v", c.args, len(got), len(c.want), err)
			continue
		}
		for i, want := range c.want {
			if !strings.HasPrefix(got[i], want) {
				t.Errorf("%q: problem %d %q, want it to start %q", c.args, i+1, got[i], want)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("validate made the missing directory: %v", err)
	}
}

func TestMatchValidate_Seating(t *testing.T) {
	dir := t.TempDir()
	bots := filepath.Join(dir, "bots.toml")
	if err := os.WriteFile(bots, []byte("[[bot]]\nname = \"c\"\ncmd = [\"/bin/cat\"]\ndecision = \"3s\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  []string
		seats string // bot names by seat
		err   string
	}{
		{[]string{"c", "/bin/cat -u", "--bots", bots}, "c cat c cat", ""},
		{[]string{"c", "/bin/cat", "--bots", bots, "--seat", "W=/bin/true"}, "c cat c true", ""},
		{[]string{"--seat", "N=c", "--seat", "E=c", "--seat", "S=c", "--seat", "W=/bin/true", "--bots", bots}, "c c c true", ""},
		{[]string{"/bin/cat", "/bin/true", "/bin/false", "--preset", "drie_spelers"}, "cat true false", ""},
		{[]string{"/bin/cat", "/bin/true", "/bin/false", "/bin/cat", "--preset", "drie_spelers"}, "cat true false cat", ""},
		{[]string{"/bin/cat"}, "", "want two bots A and B (or --seat for all four seats), got 1 arguments"},
		{[]string{"/bin/cat", "/bin/true", "/bin/false"}, "", "want two bots A and B (or --seat for all four seats), got 3 arguments; three bots play the three-player game: add --preset drie_spelers"},
		{[]string{"--seat", "N=/bin/cat", "--seat", "E=/bin/cat", "--seat", "S=/bin/cat"}, "", "want two bots A and B (or --seat for all four seats), got 0 arguments"},
		{[]string{"/bin/cat", "/bin/cat", "--preset", "drie_spelers"}, "", "the three-player game wants three bots"},
		{[]string{"/bin/cat", "/bin/cat", "/bin/cat", "--preset", "drie_spelers", "--seat", "W=/bin/cat"}, "", `--seat "W=/bin/cat": want SEAT=BOT with SEAT one of N E S`},
	} {
		p, err := parseMatch(t, append(c.args, "--sandbox", "off")...).validate(dir)
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		var names []string
		for _, b := range p.bots {
			names = append(names, b.Name)
		}
		if got := strings.Join(names, " "); got != c.seats {
			t.Errorf("%q: seats %s, want %s", c.args, got, c.seats)
		}
	}
	p, err := parseMatch(t, "c", "c", "--bots", bots, "--sandbox", "off").validate(dir)
	if err != nil || len(p.notes) != 1 || !strings.Contains(p.notes[0], "bot c asks for 3s per decision") {
		t.Errorf("a bot's own decision time: notes %q, %v", p.notes, err)
	}
}

// TestMatchValidate_TraceDir: --trace-dir is read by matchConfigFromFlags, checked by
// validate without creating anything (a directory to be made is fine, a file in the way is
// not), and hidden from the bots.
func TestMatchValidate_TraceDir(t *testing.T) {
	dir := t.TempDir()
	traces := filepath.Join(dir, "new", "traces")
	mc := parseMatch(t, "/bin/cat", "/bin/cat", "--sandbox", "off", "--trace-dir", traces)
	if mc.TraceDir != traces {
		t.Fatalf("TraceDir %q, want %q", mc.TraceDir, traces)
	}
	p, err := mc.validate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.traceDir != traces || !slices.Contains(p.policy.Hide, traces) {
		t.Errorf("plan: trace dir %q, hidden %q; want %q in both", p.traceDir, p.policy.Hide, traces)
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("validate created the trace directory's parent: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "taken"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = parseMatch(t, "/bin/cat", "/bin/cat", "--sandbox", "off", "--trace-dir", filepath.Join(dir, "taken")).validate(dir)
	if err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("a file as the trace directory: %v", err)
	}
}

// TestMatchValidate_DealsFileHidden: a --deals file holds every hand of every deal, so the
// bots' sandboxes hide it like the log and the key, also when it lies in the bots' directory.
func TestMatchValidate_DealsFileHidden(t *testing.T) {
	dir := t.TempDir()
	deals := filepath.Join(dir, "secret.deals")
	text := "dealer W\nN 7C 8C 9C JD QD JH QH KH\nE TC JC QC KD AD AH 7S 8S\nS KC AC 7D 7H 8H 9S TS JS\nW 8D 9D TD 9H TH QS KS AS\n"
	if err := os.WriteFile(deals, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := parseMatch(t, "/bin/cat", "/bin/cat", "--sandbox", "off", "--deals", deals).validate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.cfg.Deals) != 1 || !slices.Contains(p.policy.Hide, deals) {
		t.Errorf("plan: %d deals, hidden %q; want the deals file %s hidden", len(p.cfg.Deals), p.policy.Hide, deals)
	}
}

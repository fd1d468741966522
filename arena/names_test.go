package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee"
)

// namedBot writes dir/bot.sh, a bash bot that says hello with the given name and plays its
// first legal choice.
func namedBot(t *testing.T, dir, hello string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := strings.NewReplacer("BOTNAME", hello, "MISBEHAVE", ":", "RULES_ANSWER", "echo ok").Replace(hostileBot)
	path := filepath.Join(dir, "bot.sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMatchShowsHelloNames: two different programs given as commands are shown by the names
// they say in hello, even when their files have the same name; two that say the same name
// (two builds of one bot) are kept apart, the second in seat order with "-2"; one program
// against itself is one bot; a bots file's names win, and an unnamed bot whose hello says
// the name of a bots file's bot is kept apart from it.
func TestMatchShowsHelloNames(t *testing.T) {
	dir := t.TempDir()
	a, b := namedBot(t, filepath.Join(dir, "a"), "alpha"), namedBot(t, filepath.Join(dir, "b"), "beta")
	run := func(args ...string) *referee.Result {
		t.Helper()
		out, errOut, err := runArena(t, append([]string{"match", "--games", "1", "-o", "game_end=deals:1", "--seed", "3", "--json"}, args...)...)
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		var res referee.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		return &res
	}
	names := func(res *referee.Result) string {
		var out []string
		for _, b := range res.Bots {
			out = append(out, b.Name)
		}
		for _, s := range res.Sides {
			out = append(out, strings.Join(s.Bots, "+"))
		}
		return strings.Join(out, " ")
	}
	if got, want := names(run("bash "+a, "bash "+b)), "alpha beta alpha beta alpha+alpha beta+beta"; got != want {
		t.Errorf("bots given as commands are shown as %q, want their hello names %q", got, want)
	}
	same := namedBot(t, filepath.Join(dir, "c"), "alpha")
	if got, want := names(run("bash "+a, "bash "+same)), "alpha alpha-2 alpha alpha-2 alpha+alpha alpha-2+alpha-2"; got != want {
		t.Errorf("two programs that say the same name are shown as %q, want %q", got, want)
	}
	if got, want := names(run("bash "+a, "bash "+a)), "alpha alpha alpha alpha alpha+alpha alpha+alpha"; got != want {
		t.Errorf("a program against itself is shown as %q, want %q", got, want)
	}
	bots := filepath.Join(dir, "bots.toml")
	file := fmt.Sprintf("[[bot]]\nname = \"first\"\ncmd = [\"bash\", %q]\n[[bot]]\nname = \"second\"\ncmd = [\"bash\", %q]\n", a, b)
	if err := os.WriteFile(bots, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := names(run("--bots", bots, "first", "second")), "first second first second first+first second+second"; got != want {
		t.Errorf("bots named in a bots file are shown as %q, want %q", got, want)
	}
	imitator := namedBot(t, filepath.Join(dir, "d"), "first")
	if got, want := names(run("--bots", bots, "first", "bash "+imitator)), "first first-2 first first-2 first+first first-2+first-2"; got != want {
		t.Errorf("an unnamed bot whose hello names a bots file's bot is shown as %q, want %q", got, want)
	}
}

// TestOptionValuesWithCommas: -o and --seat take one value each, commas included.
func TestOptionValuesWithCommas(t *testing.T) {
	out, errOut, err := runArena(t, "rules", "-o", "deal_packets=[4,4]", "-o", "bidding=draaikaart", "--format", "json")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.Contains(out, `"deal_packets":[4,4]`) || !strings.Contains(out, `"bidding":"draaikaart"`) {
		t.Errorf("arena rules -o deal_packets=[4,4] -o bidding=draaikaart:\n%s", out)
	}
	if _, _, err := runArena(t, "rules", "--preset", "drie_spelers", "-o", "deal_packets=[3,4,3]"); err != nil {
		t.Errorf("-o deal_packets=[3,4,3] with the three-player preset: %v", err)
	}
	dir := t.TempDir()
	bot := namedBot(t, dir, "commas")
	log := filepath.Join(dir, "log.jsonl")
	_, errOut, err = runArena(t, "match", "bash "+bot, "bash "+bot, "--seat", "E=bash "+bot+" x,y", "--games", "1",
		"-o", "game_end=deals:2", "-o", "deal_packets=[4,4]", "--log", log)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	data, _ := os.ReadFile(log)
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec referee.DealRecord
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Rules.DealPackets.String() != "[4,4]" || len(rec.Faults) > 0 || rec.Verify() != nil {
			t.Errorf("deal %d: deal_packets %s, faults %v, verify %v", i+1, rec.Rules.DealPackets, rec.Faults, rec.Verify())
		}
	}
}

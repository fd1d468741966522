package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee"
)

// TestMatchConcurrency: --concurrency plays pairs side by side with the same result as one
// after another (the bots are deterministic), a log that verifies, and an SPRT that stops.
func TestMatchConcurrency(t *testing.T) {
	_, bot := buildTools(t)
	botArg := strings.Join(bot, " ")
	dir := t.TempDir()
	play := func(log string, extra ...string) referee.Result {
		t.Helper()
		args := append([]string{"match", botArg, botArg, "--games", "6", "--seed", "3", "--sandbox", "off", "--json", "--log", log}, extra...)
		out, errOut, err := runArena(t, args...)
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		var res referee.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	seq := play(filepath.Join(dir, "seq.jsonl"))
	par := play(filepath.Join(dir, "par.jsonl"), "--concurrency", "3")
	if len(par.Games) != len(seq.Games) || par.Deals != seq.Deals {
		t.Fatalf("%d games %d deals side by side, %d games %d deals one after another", len(par.Games), par.Deals, len(seq.Games), seq.Deals)
	}
	for s := range seq.Sides {
		if par.Sides[s].Points != seq.Sides[s].Points || par.Sides[s].GamesWon != seq.Sides[s].GamesWon {
			t.Errorf("side %d: %+v side by side, %+v one after another", s, par.Sides[s], seq.Sides[s])
		}
	}
	for i := range seq.Games {
		if par.Games[i].Number != seq.Games[i].Number || par.Games[i].Totals[0] != seq.Games[i].Totals[0] {
			t.Errorf("game %d: %+v side by side, %+v one after another", i, par.Games[i], seq.Games[i])
		}
	}
	if out, _, err := runArena(t, "replay", "--verify", "--log", filepath.Join(dir, "par.jsonl")); err != nil {
		t.Errorf("the log of pairs side by side does not verify: %v\n%s", err, out)
	}
}

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMemoryBotNeverSeesADealTwice runs arena/testdata/memorybot.py, a cheating bot that
// remembers every hand it has seen played and reports, for each deal, whether its hand is one
// it has seen, in real `arena match` and `arena league` runs (the league with a fresh process
// per match and with keep_bots). In a duplicate match every game of a deal set is played by
// processes of its own (referee.Rooms), so it must never recognise a hand: at a real table
// the duplicate replay is played by other players. (Before the rooms, every deal of each
// mirror game was one it had seen.)
func TestMemoryBotNeverSeesADealTwice(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the memory bot is a Python script")
	}
	arena, _ := buildTools(t)
	script, _ := filepath.Abs(filepath.Join("testdata", "memorybot.py"))
	entries := func(dir string) string {
		return fmt.Sprintf("[[bot]]\nname = \"mem\"\ncmd = [%q, %q]\nstderr = %q\n[[bot]]\nname = \"rnd\"\ncmd = [%q, \"-seed\", \"3\"]\n",
			python, script, filepath.Join(dir, "mem.err"), randomBot)
	}
	// count returns the memory bot's reports: deals it was dealt a hand it knew, and new ones.
	count := func(t *testing.T, dir string) (seen, fresh int) {
		data, err := os.ReadFile(filepath.Join(dir, "mem.err"))
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
			switch {
			case strings.HasPrefix(line, "memorybot: ") && strings.HasSuffix(line, " seen"):
				seen++
			case strings.HasPrefix(line, "memorybot: ") && strings.HasSuffix(line, " new"):
				fresh++
			default:
				t.Errorf("memory bot's stderr: %q", line)
			}
		}
		return seen, fresh
	}
	check := func(t *testing.T, dir string, wantDeals int, out []byte) {
		seen, fresh := count(t, dir)
		if seen != 0 || fresh != wantDeals {
			t.Errorf("the memory bot knew its hand in %d deals, and had a new one in %d (want 0 and %d, one report per deal and process)\n%s", seen, fresh, wantDeals, out)
		}
	}

	t.Run("match", func(t *testing.T) {
		dir := t.TempDir()
		bots := filepath.Join(dir, "bots.toml")
		if err := os.WriteFile(bots, []byte(entries(dir)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := arenaCommand(arena, "match", "--bots", bots, "mem", "rnd", "--games", "3", "--seed", "5",
			"-o", "game_end=deals:8").CombinedOutput()
		if err != nil {
			t.Fatalf("match: %v\n%s", err, out)
		}
		check(t, dir, 3*2*8*2, out) // 3 sets, 2 games each, 8 deals, 2 copies of the bot
	})
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("league keep_bots=%t", keep), func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "league.toml")
			text := fmt.Sprintf("name = \"rooms\"\ngames = 6\nseed = 9\nconcurrency = 1\nkeep_bots = %t\n[rules]\ngame_end = \"deals:4\"\n", keep) + entries(dir)
			if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := arenaCommand(arena, "league", "--quiet", "--db", filepath.Join(dir, "arena.db"), file).CombinedOutput()
			if err != nil {
				t.Fatalf("league: %v\n%s", err, out)
			}
			check(t, dir, 3*2*4*2, out) // 3 matches of one set, 2 games, 4 deals, 2 copies
		})
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/referee"
)

// TestShardKill9Merge plays a league in two shards of real arena processes: shard 1 is
// killed with SIGKILL at random moments and resumed, and merged while it runs (from the copy
// it keeps); then both shards are merged again. The merged database must pass every check
// of a league's store and equal the league played whole with the same key: the same deals
// (but for the bots' times), totals and ratings.
func TestShardKill9Merge(t *testing.T) {
	arena, _ := buildTools(t)
	dir := botDir(t)
	file := writeLeague(t, dir, 3, 40, "")
	key := filepath.Join(dir, "deal.key")
	if err := writeKeyFile(key); err != nil {
		t.Fatal(err)
	}
	shard := func(i int) []string {
		return []string{"league", "--shard", fmt.Sprintf("%d/2", i), "--key", key, "--db", filepath.Join(dir, fmt.Sprintf("shard-%d.db", i)), file}
	}
	out := filepath.Join(dir, "merged.db")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	// A kill's moment is drawn from a window that widens each time a kill left no match half
	// played and narrows (starting shard 1 afresh) each time the shard finished first: the
	// kills must hit a match in the middle however fast or loaded the machine is.
	partial, mergedRunning := false, false
	window := 1.0
	for kills, attempt := 0, 0; (kills < 5 || !partial) && attempt < 20; attempt++ {
		cmd := arenaCommand(arena, shard(1)...)
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		if !mergedRunning { // until a merge caught the shard running (a fast one may end first)
			mergedRunning = mergeRunningShard(t, arena, out, filepath.Join(dir, "shard-1.db"), done)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("shard 1 exited early: %v\n%s", err, log.String())
			}
			if partial {
				kills = 5
				continue
			}
			t.Logf("shard 1 finished before a kill hit a match half played (window %.2g): starting it afresh", window)
			files, _ := filepath.Glob(filepath.Join(dir, "shard-1.db*"))
			for _, f := range files {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
			window = max(window/2, 0.05)
		case <-time.After(time.Duration(window*float64(50+rng.IntN(400))) * time.Millisecond):
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-done
			kills++
			if partialIndex(t, filepath.Join(dir, "shard-1.db")) >= 0 {
				partial = true
			} else {
				window = min(2*window, 16)
			}
		}
	}
	if !mergedRunning {
		t.Error("arena merge never read shard 1 while it ran")
	}
	if !partial {
		t.Error("no kill left a match of shard 1 half played: the kills tested nothing")
	}
	for i := 1; i <= 2; i++ {
		if text, err := arenaCommand(arena, shard(i)...).CombinedOutput(); err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, text)
		}
	}
	if _, err := os.Stat(store.CopyPath(filepath.Join(dir, "shard-1.db"))); err == nil {
		t.Error("a finished shard left its copy (which holds the key) behind")
	}
	// A shard killed after its last match leaves its copy: running it again removes it.
	if err := os.WriteFile(store.CopyPath(filepath.Join(dir, "shard-1.db")), []byte("stale"), 0o600); err != nil {
		t.Fatal(err)
	}
	if text, err := arenaCommand(arena, shard(1)...).CombinedOutput(); err != nil || !bytes.Contains(text, []byte("is finished")) {
		t.Fatalf("finished shard 1 again: %v\n%s", err, text)
	}
	if _, err := os.Stat(store.CopyPath(filepath.Join(dir, "shard-1.db"))); err == nil {
		t.Error("a finished shard run again left the copy of a killed run behind")
	}
	text, err := arenaCommand(arena, "merge", "--complete", out, filepath.Join(dir, "shard-1.db"), filepath.Join(dir, "shard-2.db")).CombinedOutput()
	if err != nil || !bytes.Contains(text, []byte("league t is complete")) {
		t.Fatalf("merge: %v\n%s", err, text)
	}
	ref := filepath.Join(dir, "whole.db")
	if text, err := arenaCommand(arena, "league", "--key", key, "--db", ref, file).CombinedOutput(); err != nil {
		t.Fatalf("whole league: %v\n%s", err, text)
	}
	got, want := checkStore(t, out, file), checkStore(t, ref, file)
	for i := range want.Bots {
		if fmt.Sprint(got.Bots[i]) != fmt.Sprint(want.Bots[i]) {
			t.Errorf("bot %d merged: %+v\nwhole: %+v", i, got.Bots[i], want.Bots[i])
		}
	}
	if a, b := untimedDeals(t, out), untimedDeals(t, ref); a != b {
		t.Error("the merged deals differ from the whole league's")
	}
	ea, eb := standingsElo(t, out), standingsElo(t, ref)
	for bot, e := range eb {
		if math.Abs(ea[bot]-e) > 1e-6 {
			t.Errorf("%s: merged elo %v, whole %v", bot, ea[bot], e)
		}
	}
}

// mergeRunningShard merges the shard at path into out while the shard runs, once the shard
// has written the copy it keeps, and reports whether merge read that copy and listed the
// matches still missing. It returns false without merging if the shard exits first.
func mergeRunningShard(t *testing.T, arena, out, path string, exited <-chan error) bool {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline) && len(exited) == 0; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(store.CopyPath(path)); err == nil {
			break
		}
	}
	if len(exited) > 0 {
		return false
	}
	text, err := arenaCommand(arena, "merge", out, path).CombinedOutput()
	if err != nil {
		t.Fatalf("merge while shard 1 runs: %v\n%s", err, text)
	}
	ok := bytes.Contains(text, []byte("held by a running shard: merging its copy")) && bytes.Contains(text, []byte("missing: "))
	if !ok {
		t.Logf("merge did not read a running shard:\n%s", text)
	}
	return ok
}

// untimedDeals returns every deal of league t as JSON lines without the bots' times.
func untimedDeals(t *testing.T, path string) string {
	t.Helper()
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	err = db.Deals("t", -1, func(_ *store.Match, rec *referee.DealRecord) error {
		for i := range rec.Actions {
			rec.Actions[i].MS, rec.Actions[i].CPUMS = 0, 0
		}
		line, err := json.Marshal(rec)
		b.Write(append(line, '\n'))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// standingsElo returns each bot's points rating from arena standings --json.
func standingsElo(t *testing.T, path string) map[string]float64 {
	t.Helper()
	text, _, err := runArena(t, "standings", "--db", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var tab view.Standings
	if err := json.Unmarshal([]byte(text), &tab); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, s := range tab.Standings {
		if s.Elo == nil {
			t.Fatalf("%s has no rating", s.Bot)
		}
		out[s.Bot] = *s.Elo
	}
	return out
}

// TestShardBotDoesNotStart: a shard whose bot does not start fails before its first match,
// naming the bot and the node.
func TestShardBotDoesNotStart(t *testing.T) {
	dir := botDir(t)
	file := writeLeague(t, dir, 2, 4, "")
	text, _ := os.ReadFile(file)
	text = append(text, "[[bot]]\nname = \"broken\"\ncmd = [\"/bin/sh\", \"-c\", \"echo no such interpreter >&2; exit 3\"]\n"...)
	if err := os.WriteFile(file, text, 0o644); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(dir, "deal.key")
	if err := writeKeyFile(key); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "shard.db")
	start := time.Now()
	_, _, err := runArena(t, "league", "--shard", "1/1", "--key", key, "--db", db, file)
	host, _ := os.Hostname()
	if err == nil || !strings.Contains(err.Error(), "bot broken does not start on node "+host) || !strings.Contains(err.Error(), "no such interpreter") {
		t.Fatalf("broken bot: %v", err)
	}
	if strings.Contains(err.Error(), "bot bot0 ") || strings.Contains(err.Error(), "bot bot1 ") {
		t.Errorf("working bots reported: %v", err)
	}
	if matches := partialIndex(t, db); matches >= 0 {
		t.Errorf("a match was played: %d", matches)
	}
	t.Logf("failed after %v", time.Since(start))
	_, _, err = runArena(t, "league", "--shard", "1/2", "--db", db, file)
	if err == nil || !strings.Contains(err.Error(), "--shard needs --key") {
		t.Errorf("--shard without --key: %v", err)
	}
}

package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
)

// TestSwissKill9MidRound runs a Swiss league of five real bots (a bye every round) and kills
// the arena with SIGKILL in the middle of a round that was paired from results, then at
// random moments; the resumed league must hold every decided match once, pair every round
// as an uninterrupted run with the same key does (the bots are deterministic), and give the
// same totals and Swiss ranking.
func TestSwissKill9MidRound(t *testing.T) {
	testKill9MidRound(t, "format = \"swiss\"\nrounds = 2\n", 5, 8, "swiss ranking after 2 rounds (finished)")
}

// TestKnockoutKill9MidRound does the same with a knockout of six bots: two byes, two
// quarter-finals, two semi-finals and the final, every tie four duplicate sets.
func TestKnockoutKill9MidRound(t *testing.T) {
	testKill9MidRound(t, "format = \"knockout\"\n", 6, 8, "knockout ranking after 3 rounds (finished)")
}

func testKill9MidRound(t *testing.T, extra string, bots, games int, ranking string) {
	arena, _ := buildTools(t)
	dir := botDir(t)
	file := writeLeague(t, dir, bots, games, extra)
	f, err := league.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	first, err := f.Plan(nil)
	if err != nil {
		t.Fatal(err)
	}
	round1 := len(first.Todo)
	db := filepath.Join(dir, "kill.db")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d; round 1 has %d of %d matches", seed, round1, f.Pairing.Matches())
	rng := rand.New(rand.NewPCG(seed, 0))
	// The loop ends after six kills once one has hit a later round's match half played. A
	// league that finishes before that is played afresh, up to twenty runs in all.
	midRound, finished := false, false
	for kill := 0; kill < 20 && !finished && (kill < 6 || !midRound); kill++ {
		cmd := arenaCommand(arena, "league", "--db", db, file)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		// Until a kill has hit a match of a later round half played, each kill waits for
		// that round to be under way; the others come at random moments.
		var wait <-chan time.Time
		if !midRound {
			wait = laterRound(snapshotPath(db), round1, 0.2+0.5*rng.Float64(), done)
		} else {
			wait = time.After(time.Duration(50+rng.IntN(400)) * time.Millisecond)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("arena exited early: %v\n%s", err, out.String())
			}
			if midRound {
				finished = true
				continue
			}
			t.Logf("the league finished before a kill hit a later round's match half played: playing it afresh")
			files, _ := filepath.Glob(db + "*")
			for _, f := range files {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
		case <-wait:
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-done
			if partial := partialIndex(t, db); partial >= round1 {
				midRound = true
			}
		}
	}
	if !midRound {
		t.Fatal("no kill left a match of a round paired from results half played: the test tested nothing")
	}
	out, err := arenaCommand(arena, "league", "--db", db, file).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	ref, key := filepath.Join(dir, "ref.db"), filepath.Join(dir, "deal.key")
	writeStoredKey(t, db, "t", key)
	if out, err := arenaCommand(arena, "league", "--db", ref, "--key", key, file).CombinedOutput(); err != nil {
		t.Fatalf("reference run: %v\n%s", err, out)
	}
	got, want := checkStore(t, db, file), checkStore(t, ref, file)
	for i := range want.Bots {
		if fmt.Sprint(got.Bots[i]) != fmt.Sprint(want.Bots[i]) {
			t.Errorf("bot %d after kills: %+v\nuninterrupted: %+v", i, got.Bots[i], want.Bots[i])
		}
	}
	if a, b := seatsByMatch(t, db), seatsByMatch(t, ref); !slices.EqualFunc(a, b, slices.Equal) {
		t.Errorf("pairings after kills %v, uninterrupted %v", a, b)
	}
	standings := func(path string) string {
		out, _, err := runArena(t, "standings", "--db", path)
		if err != nil {
			t.Fatal(err)
		}
		_, rank, ok := strings.Cut(out, "\n"+strings.SplitN(ranking, " ", 2)[0]+" ranking")
		if !ok || !strings.Contains(out, ranking) {
			t.Fatalf("standings without %q:\n%s", ranking, out)
		}
		return rank
	}
	if a, b := standings(db), standings(ref); a != b {
		t.Errorf("ranking after kills:\n%s\nuninterrupted:\n%s", a, b)
	}
}

// laterRound fires in the middle of a match of a round after the first n matches: once two
// matches have finished while it watched the league's snapshot, the later after match n, it
// waits the given fraction of the time between them, so that the next match is under way
// however fast the machine plays.
func laterRound(snapshot string, n int, fraction float64, exited <-chan error) <-chan time.Time {
	fire := make(chan time.Time, 1)
	go func() {
		prev, last := -1, time.Time{}
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if len(exited) > 0 {
				return
			}
			s, err := league.ReadSnapshot(snapshot)
			if err != nil || s.Totals.Matches == prev {
				continue
			}
			now := time.Now()
			if prev >= 0 && !last.IsZero() && s.Totals.Matches > n {
				time.Sleep(time.Duration(fraction * float64(now.Sub(last))))
				fire <- time.Now()
				return
			}
			if prev >= 0 {
				last = now
			}
			prev = s.Totals.Matches
		}
	}()
	return fire
}

// partialIndex returns the index of a match whose deals are partly stored, or -1.
func partialIndex(t *testing.T, path string) int {
	t.Helper()
	db, err := store.Open(path, store.Options{ReadOnly: true, Timeout: 2 * time.Second})
	if err != nil {
		return -1 // killed before the database was made
	}
	defer db.Close()
	matches, err := db.Matches("t")
	if err != nil {
		return -1
	}
	for _, m := range matches {
		n := 0
		_ = db.Deals("t", m.Index, func(*store.Match, *referee.DealRecord) error { n++; return nil })
		if !m.Done && n > 0 {
			return m.Index
		}
	}
	return -1
}

// seatsByMatch returns every stored match's seats, by index.
func seatsByMatch(t *testing.T, path string) [][]int {
	t.Helper()
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	matches, err := db.Matches("t")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]int
	for _, m := range matches {
		out = append(out, m.Seats)
	}
	return out
}

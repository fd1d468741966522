package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/referee"
)

var (
	buildOnce  sync.Once
	buildDir   string
	arenaBin   string
	fastBot    string
	randomBot  string
	buildError error
)

// buildTools builds the arena binary and a fast deterministic bot (the C bot of
// testdata/firstbot.c, or the Go random bot with a fixed seed when there is no C
// compiler) once for the test binary; the bots of a league are that bot, then random
// bots with fixed seeds, all deterministic and stateless: each decision depends on the
// position alone, so that a bot started afresh in the middle of a resumed match plays on as
// the uninterrupted one would.
func buildTools(t testing.TB) (arena string, bot []string) {
	t.Helper()
	buildOnce.Do(func() {
		// Beside the test binary: go test removes its work directory afterwards.
		exe, err := os.Executable()
		if err != nil {
			buildError = err
			return
		}
		buildDir, buildError = os.MkdirTemp(filepath.Dir(exe), "league-tools-")
		if buildError != nil {
			return
		}
		// Open to the sandbox's user: the bots run from here.
		if buildError = os.Chmod(buildDir, 0o755); buildError != nil {
			return
		}
		arenaBin = filepath.Join(buildDir, "arena")
		if out, err := exec.Command("go", "build", "-o", arenaBin, ".").CombinedOutput(); err != nil {
			buildError = fmt.Errorf("go build: %v: %s", err, out)
			return
		}
		randomBot = filepath.Join(buildDir, "random")
		if out, err := exec.Command("go", "build", "-o", randomBot, "../examplebots/go/random").CombinedOutput(); err != nil {
			buildError = fmt.Errorf("go build random: %v: %s", err, out)
			return
		}
		fastBot = filepath.Join(buildDir, "firstbot")
		if err := exec.Command("cc", "-O2", "-o", fastBot, "testdata/firstbot.c").Run(); err != nil {
			fastBot = randomBot
		}
	})
	if buildError != nil {
		t.Fatal(buildError)
	}
	bot = []string{fastBot}
	if filepath.Base(fastBot) == "random" {
		bot = append(bot, "-seed", "7", "-stateless")
	}
	return arenaBin, bot
}

// writeLeague writes a round-robin league of n copies of the fast bot.
func writeLeague(t testing.TB, dir string, n, games int, extra string) string {
	t.Helper()
	_, bot := buildTools(t)
	var b strings.Builder
	fmt.Fprintf(&b, "name = \"t\"\ngames = %d\nseed = 42\nconcurrency = 2\n%s\n", games, extra)
	for i := range n {
		if i > 0 {
			bot = []string{randomBot, "-seed", strconv.Itoa(i), "-stateless"}
		}
		fmt.Fprintf(&b, "[[bot]]\nname = \"bot%d\"\ncmd = [%s]\n", i, quoteAll(bot))
	}
	path := filepath.Join(dir, "league.toml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}

// TestLeagueKill9Resume kills the arena with SIGKILL at random moments, resumes, and
// checks the store against the schedule: every scheduled deal exactly once, every deal
// consistent with the rules, the totals and rating sums equal to a recomputation from
// the stored deals, no stored deal played again (killAndResume), and the same results as an
// uninterrupted run dealt with the key the league made and kept (the bots are deterministic
// and stateless: a resumed match goes on as the uninterrupted one). ARENA_SOAK=N kills N
// times instead of 8.
func TestLeagueKill9Resume(t *testing.T) {
	arena, _ := buildTools(t)
	dir := botDir(t)
	file := writeLeague(t, dir, 3, 20, "")
	db := filepath.Join(dir, "kill.db")
	kills := 8
	if n, err := strconv.Atoi(os.Getenv("ARENA_SOAK")); err == nil {
		kills = n
		// Enough matches for every kill to find the league running: with its processes kept
		// (keep_bots), a league of these bots plays about 1,000 deals between two kills.
		file = writeLeague(t, dir, 4, max(40, 15*n), "")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d (kills %d)", seed, kills)
	killAndResume(t, arena, db, file, kills, rand.New(rand.NewPCG(seed, 0)))
	// The reference league deals with the key the killed league made and kept (which every
	// resume without --key used).
	ref, key := filepath.Join(dir, "ref.db"), filepath.Join(dir, "deal.key")
	writeStoredKey(t, db, "t", key)
	if out, err := arenaCommand(arena, "league", "--db", ref, "--key", key, file).CombinedOutput(); err != nil {
		t.Fatalf("reference run: %v\n%s", err, out)
	}
	// Bots die with the arena (Pdeathsig): none is left behind.
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		left := survivors(buildDir)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("bots left behind: %v", left)
			break
		}
	}
	got := checkStore(t, db, file)
	want := checkStore(t, ref, file)
	for i := range want.Bots {
		if fmt.Sprint(got.Bots[i]) != fmt.Sprint(want.Bots[i]) {
			t.Errorf("bot %d after kills: %+v\nuninterrupted: %+v", i, got.Bots[i], want.Bots[i])
		}
	}
}

// killAndResume runs the league of file into db and kills the arena with SIGKILL at random
// moments, kills times or until the league finishes, then resumes it to its end. It fails
// the test if no kill hit a match in the middle, if the resume after a kill did not check
// the database, or if a match a kill left half played was played again from its start: each
// such match must have been resumed after the deals stored at the kill (Match.Resumed), and
// must hold those very deals at the end, to their times. It returns the kills made.
func killAndResume(t *testing.T, arena, db, file string, kills int, rng *rand.Rand) int {
	t.Helper()
	// A kill's moment is drawn from a window that widens each time a kill left no match half
	// played (on a loaded machine the arena may not have started a match within the first one)
	// and narrows again each time one did (a fast league would otherwise run through its
	// matches in a few wide windows).
	killed, partial, window := 0, 0, 1
	var left []map[int][]string // per kill, the deals of the matches it left half played
	for killed < kills {
		cmd := arenaCommand(arena, "league", "--db", db, file)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("arena exited early: %v\n%s", err, out.String())
			}
			t.Logf("league finished after %d kills", killed)
			killed = kills + 1
		case <-time.After(time.Duration(window*(50+rng.IntN(400))) * time.Millisecond):
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-done
			killed++
			p := partialMatches(t, db)
			if len(p) == 0 {
				window = min(2*window, 16)
			} else {
				partial++
				window = max(window/2, 1)
			}
			left = append(left, p)
		}
	}
	t.Logf("%d kills left a match half played", partial)
	if killed == kills && partial == 0 {
		t.Error("no kill hit a match in the middle: the test tested nothing")
	}
	out, err := arenaCommand(arena, "league", "--db", db, file).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	if killed == kills && !bytes.Contains(out, []byte("did not stop cleanly")) {
		t.Errorf("resume after kill -9 did not check the database:\n%s", out)
	}
	checkResumed(t, db, left)
	return killed
}

// checkResumed checks that every match a kill left half played was resumed after the deals
// stored at the kill, not played again: the finished match records a resume after that many
// deals, and begins with them, unchanged to their times.
func checkResumed(t *testing.T, path string, left []map[int][]string) {
	t.Helper()
	final := storedDeals(t, path, true)
	resumed, replayed := 0, 0
	for kill, matches := range left {
		for index, deals := range matches {
			m := final[index]
			if !slices.Contains(m.resumed, len(deals)) {
				t.Errorf("kill %d left match %d with %d deals stored; its runs resumed it after %v", kill+1, index, len(deals), m.resumed)
			}
			if len(m.deals) < len(deals) || !slices.Equal(m.deals[:len(deals)], deals) {
				replayed++
				continue
			}
			resumed++
		}
	}
	if replayed > 0 {
		t.Errorf("%d matches a kill left half played were played again from their start (their stored deals replaced)", replayed)
	}
	t.Logf("%d matches left half played by a kill went on after their stored deals", resumed)
}

// storedMatch is a match's deals as stored (log lines, times included) and its resumes.
type storedMatch struct {
	deals   []string
	resumed []int
}

// storedDeals returns the store's matches by index: all of them, or (done false) those not
// done that have deals stored.
func storedDeals(t *testing.T, path string, done bool) map[int]storedMatch {
	t.Helper()
	db, err := store.Open(path, store.Options{ReadOnly: true, Timeout: 2 * time.Second})
	if errors.Is(err, store.ErrNoDatabase) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	matches, err := db.Matches("t")
	if err != nil {
		return nil // killed before the league was stored
	}
	out := map[int]storedMatch{}
	for _, m := range matches {
		if m.Done && !done {
			continue
		}
		sm := storedMatch{resumed: m.Resumed}
		err := db.Deals("t", m.Index, func(_ *store.Match, rec *referee.DealRecord) error {
			line, err := json.Marshal(rec)
			sm.deals = append(sm.deals, string(line))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if done || len(sm.deals) > 0 {
			out[m.Index] = sm
		}
	}
	return out
}

// TestLeagueFreshBotsKill9: with keep_bots = false (fresh bot processes for every match; the
// default, kept processes, is TestLeagueKill9Resume's), a league killed with SIGKILL and
// resumed still stores every scheduled deal exactly once, with totals equal to a
// recomputation from the deals.
func TestLeagueFreshBotsKill9(t *testing.T) {
	arena, _ := buildTools(t)
	dir := botDir(t)
	file := writeLeague(t, dir, 3, 40, "keep_bots = false")
	db := filepath.Join(dir, "fresh.db")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	killAndResume(t, arena, db, file, 8, rand.New(rand.NewPCG(seed, 0)))
	checkStore(t, db, file)
}

// writeStoredKey writes the league's stored deal key to a key file, as arena keygen would.
func writeStoredKey(t *testing.T, path, name, keyFile string) {
	t.Helper()
	db, err := store.Open(path, store.Options{ReadOnly: true, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	key, err := db.DealKey(name)
	if err != nil || key == nil {
		t.Fatalf("league %s has no key: %v", name, err)
	}
	if err := os.WriteFile(keyFile, []byte(hex.EncodeToString(key)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// partialMatches returns the deals (as log lines) of the matches that are not done but have
// deals stored, by match index.
func partialMatches(t *testing.T, path string) map[int][]string {
	t.Helper()
	out := map[int][]string{}
	for index, m := range storedDeals(t, path, false) {
		out[index] = m.deals
	}
	return out
}

// checkStore checks a finished league's store against its schedule and returns its totals.
func checkStore(t *testing.T, path, file string) *store.Totals {
	t.Helper()
	f, err := league.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	matches, err := db.Matches(f.Name)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := f.Plan(matches)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Todo) > 0 {
		t.Fatalf("league not finished: %d matches to play", len(plan.Todo))
	}
	sched := plan.Matches()
	if len(matches) != len(sched) {
		t.Fatalf("%d match records, schedule has %d", len(matches), len(sched))
	}
	recomputed := &store.Totals{Bots: make([]store.BotTotals, len(f.Bots))}
	for i, b := range f.Bots {
		recomputed.Bots[i].Name = b.Name
	}
	dealsPerGame := f.Rules.GameEnd.N
	total := 0
	for i, s := range sched {
		m := matches[i]
		if !m.Done || m.Index != s.Index || m.Seed != s.Seed || !slices.Equal(m.Seats, s.Seats()) {
			t.Fatalf("match %d: %+v, scheduled %+v", i, m, s)
		}
		var deals []referee.DealRecord
		seen := map[[3]int]bool{}
		scored := 0 // deals that count: redeals do not
		err := db.Deals(f.Name, i, func(_ *store.Match, rec *referee.DealRecord) error {
			k := [3]int{rec.Game, rec.Deal, rec.Attempt}
			if seen[k] {
				t.Errorf("match %d: game %d deal %d attempt %d twice", i, rec.Game, rec.Deal, rec.Attempt)
			}
			seen[k] = true
			if rec.Result.Outcome != "redeal" {
				scored++
			}
			if err := rec.Verify(); err != nil {
				t.Errorf("match %d game %d deal %d: %v", i, rec.Game, rec.Deal, err)
			}
			deals = append(deals, *rec)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if want := f.SetGames() * dealsPerGame; scored != want {
			t.Errorf("match %d: %d deals stored, want %d", i, scored, want)
		}
		total += len(deals)
		m2 := s.Record(f.Hash)
		if err := league.Summarize(deals, &m2, recomputed); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := db.DealCount(f.Name); n != total {
		t.Errorf("%d deals in the store, %d belong to scheduled matches", n, total)
	}
	stored, err := db.Totals(f.Name)
	if err != nil {
		t.Fatal(err)
	}
	if err := league.Compare(stored, recomputed); err != nil {
		t.Error(err)
	}
	viaCommand, err := league.Recompute(db, f.Name)
	if err != nil {
		t.Fatal(err)
	}
	if err := league.Compare(stored, viaCommand); err != nil {
		t.Errorf("league.Recompute (arena standings --recompute): %v", err)
	}
	// Standings from the stored sums equal standings from the raw deals.
	a, err1 := view.ComputeStandings(f.Name, stored, view.StandingsOptions{})
	b, err2 := view.ComputeStandings(f.Name, recomputed, view.StandingsOptions{})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	for i := range a.Standings {
		x, y := a.Standings[i], b.Standings[i]
		if x.Bot != y.Bot || x.Elo == nil || y.Elo == nil || math.Abs(*x.Elo-*y.Elo) > 1e-6 || math.Abs(*x.CI95-*y.CI95) > 1e-6 {
			t.Errorf("standings row %d: stored %+v, from raw deals %+v", i, x, y)
		}
	}
	return stored
}

// TestLeagueThreePlayer runs a three-player league of real bot processes (every three of
// four bots, one duplicate set of three games each), checks the store as above, and that the
// standings rate every bot from the pairwise results.
func TestLeagueThreePlayer(t *testing.T) {
	arena, _ := buildTools(t)
	dir := botDir(t)
	file := writeLeague(t, dir, 4, 3, "[rules]\npreset = \"drie_spelers\"\ngame_end = \"deals:6\"\n")
	db := filepath.Join(dir, "three.db")
	if out, err := arenaCommand(arena, "league", "--db", db, file).CombinedOutput(); err != nil {
		t.Fatalf("league: %v\n%s", err, out)
	}
	totals := checkStore(t, db, file)
	if totals.Matches != 4 || len(totals.Pairings) != 6 {
		t.Errorf("%d matches, %d pairings: want every three of four bots (4) and every pair rated (6)", totals.Matches, len(totals.Pairings))
	}
	for _, b := range totals.Bots {
		if b.Matches != 3 || b.Games != 9 || b.Wins+b.Draws+b.Losses != 9 || b.PointsFor == 0 {
			t.Errorf("bot %s: %+v, want 3 matches of 3 games", b.Name, b)
		}
	}
	out, err := arenaCommand(arena, "standings", "--db", db, "--json").CombinedOutput()
	if err != nil {
		t.Fatalf("standings: %v\n%s", err, out)
	}
	var st struct {
		Standings []struct {
			Bot string   `json:"bot"`
			Elo *float64 `json:"elo"`
		} `json:"standings"`
	}
	if err := json.Unmarshal(out, &st); err != nil || len(st.Standings) != 4 {
		t.Fatalf("standings %s: %v", out, err)
	}
	for _, s := range st.Standings {
		if s.Elo == nil {
			t.Errorf("%s has no rating", s.Bot)
		}
	}
	replay, err := arenaCommand(arena, "replay", "--db", db, "--verify", "t/0").CombinedOutput()
	if err != nil || !bytes.Contains(replay, []byte("verified")) {
		t.Errorf("replay --verify: %v\n%s", err, replay)
	}
}

// TestLeagueSecondArena: a second arena on a held database is told who holds it, at once.
func TestLeagueSecondArena(t *testing.T) {
	dir := botDir(t)
	file := writeLeague(t, dir, 2, 2, "")
	path := filepath.Join(dir, "held.db")
	db, err := store.Open(path, store.Options{Command: "arena league held.toml"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := time.Now()
	_, _, err = runArena(t, "league", "--db", path, file)
	want := fmt.Sprintf("held by pid %d (arena league held.toml, started at", os.Getpid())
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("second arena: %v, want %q", err, want)
	}
	_, _, err = runArena(t, "standings", "--db", path)
	if err == nil || !strings.Contains(err.Error(), "run this again when the league stops") {
		t.Errorf("standings on a held database: %v", err)
	}
	// With the running league's snapshot, standings show it.
	err = league.WriteSnapshot(snapshotPath(path), &league.Snapshot{League: "t", PID: os.Getpid(), Time: time.Now(),
		Totals: &store.Totals{Bots: []store.BotTotals{{Name: "bot0", Wins: 1, Games: 1}, {Name: "bot1", Losses: 1, Games: 1}}}})
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runArena(t, "standings", "--db", path)
	if err != nil || !strings.Contains(out, "league t is running, pid") || !strings.Contains(out, "bot1") {
		t.Errorf("standings of a running league: %v\n%s", err, out)
	}
	// A recomputation needs the stored deals: it is refused, not answered by the snapshot.
	out, _, err = runArena(t, "standings", "--db", path, "--recompute")
	if err == nil || !strings.Contains(err.Error(), "run this again when the league stops") || strings.Contains(out, "bot1") {
		t.Errorf("standings --recompute of a running league: %v\n%s", err, out)
	}
	// A damaged or altered snapshot (a win more) is reported, not shown.
	data, err := os.ReadFile(snapshotPath(path))
	if err != nil {
		t.Fatal(err)
	}
	for what, damaged := range map[string][]byte{"altered": bytes.Replace(data, []byte(`"wins":1`), []byte(`"wins":7`), 1),
		"not a snapshot": []byte(`{"league":"t"}`), "plain totals": []byte(`{"league":"t","pid":1,"totals":{}}`)} {
		if bytes.Equal(damaged, data) {
			t.Fatalf("%s: no wins in %s", what, data)
		}
		if err := os.WriteFile(snapshotPath(path), damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		out, _, err = runArena(t, "standings", "--db", path)
		if err == nil || !strings.Contains(err.Error(), "damaged or altered") || strings.Contains(out, "bot1") {
			t.Errorf("standings with a snapshot %s: %v\n%s", what, err, out)
		}
	}
	_, _, err = runArena(t, "export", "--db", path)
	if err == nil || !strings.Contains(err.Error(), "arena export needs to read the database") {
		t.Errorf("export on a held database: %v", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %v", took)
	}
}

// TestLeagueCorruptDB: a garbage or truncated database is refused and left unchanged.
func TestLeagueCorruptDB(t *testing.T) {
	dir := botDir(t)
	file := writeLeague(t, dir, 2, 2, "")
	good := filepath.Join(dir, "good.db")
	if _, _, err := runArena(t, "league", "--db", good, file); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	cases := map[string][]byte{
		"garbage":   bytes.Repeat([]byte("klaverjas"), 2000),
		"truncated": data[:len(data)/3],
		"tiny":      data[:100],
		"one page":  data[:4096],
		"flipped":   flip(data, 0x10, 0x1010),
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".db")
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := runArena(t, "league", "--db", path, file)
			_, _, err2 := runArena(t, "standings", "--db", path)
			if err == nil || err2 == nil {
				// A flipped byte may miss everything bbolt checks; then the data must still read.
				if name != "flipped" {
					t.Fatalf("league: %v, standings: %v", err, err2)
				}
			} else if !strings.Contains(err.Error(), "database") {
				t.Errorf("unclear error: %v", err)
			} else if name == "one page" && !strings.Contains(err.Error(), "restore it from a backup") {
				t.Errorf("a cut-off file: %v, want the advice to restore it", err)
			}
			if after, _ := os.ReadFile(path); name != "flipped" && !bytes.Equal(after, content) {
				t.Error("the corrupt file was changed")
			}
		})
	}
}

func flip(data []byte, offsets ...int) []byte {
	out := bytes.Clone(data)
	for _, o := range offsets {
		if o < len(out) {
			out[o] ^= 0xff
		}
	}
	return out
}

// TestLeagueReadOnlyDir: a database that cannot be written is a clear error; one already
// stored can still be read.
func TestLeagueReadOnlyDir(t *testing.T) {
	dir := botDir(t)
	file := writeLeague(t, dir, 2, 2, "")
	roDir := filepath.Join(dir, "ro")
	if err := os.Mkdir(roDir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(roDir, "arena.db")
	if _, _, err := runArena(t, "league", "--db", path, file); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	newPath := filepath.Join(roDir, "new.db")
	if os.Geteuid() == 0 {
		newPath = "/sys/arena-test.db" // root ignores permissions; sysfs refuses new files
	} else {
		if err := os.Chmod(path, 0o444); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(roDir, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(roDir, 0o755)
		_, _, err := runArena(t, "league", "--db", path, file)
		if err == nil || !strings.Contains(err.Error(), "cannot open database") {
			t.Errorf("league on a read-only database: %v", err)
		}
	}
	_, _, err := runArena(t, "league", "--db", newPath, file)
	if err == nil || !strings.Contains(err.Error(), "cannot open database") || !strings.Contains(err.Error(), "use --db or ARENA_DB") {
		t.Errorf("league in a read-only directory: %v", err)
	}
	out, _, err := runArena(t, "standings", "--db", path)
	if err != nil || !strings.Contains(out, "bot0") {
		t.Errorf("standings from a read-only database: %v\n%s", err, out)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the database changed")
	}
}

// TestLeagueChangedFile: a changed league file is refused, unless --force (recorded). Even
// --force does not change the rules of a league with deals stored (they are read with the
// league's one ruleset), nor its bots; and a forced run refused for another reason (its
// seed) leaves the stored league as it was.
func TestLeagueChangedFile(t *testing.T) {
	dir := botDir(t)
	file := writeLeague(t, dir, 2, 2, "")
	path := filepath.Join(dir, "arena.db")
	if _, _, err := runArena(t, "league", "--db", path, file); err != nil {
		t.Fatal(err)
	}
	out, _, err := runArena(t, "league", "--db", path, file)
	if err != nil || !strings.Contains(out, "league t is finished") {
		t.Errorf("finished league: %v\n%s", err, out)
	}
	file = writeLeague(t, dir, 2, 4, "")
	_, _, err = runArena(t, "league", "--db", path, file)
	if err == nil || !strings.Contains(err.Error(), "changed since the league started") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("changed file: %v", err)
	}
	out, _, err = runArena(t, "league", "--db", path, "--force", file)
	if err != nil || !strings.Contains(out, "resumed: 1 done") {
		t.Fatalf("--force: %v\n%s", err, out)
	}
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	l, err := db.League("t")
	db.Close()
	if err != nil || len(l.Forced) != 1 || l.Matches != 2 || l.Finished.IsZero() {
		t.Errorf("league after --force: %+v, %v", l, err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	unchanged := func(what string) {
		t.Helper()
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("%s: the refused run changed the database", what)
		}
	}
	file = writeLeague(t, dir, 2, 4, "[rules]\npit_bonus = 0\n")
	_, _, err = runArena(t, "league", "--db", path, "--force", file)
	if err == nil || !strings.Contains(err.Error(), "changes the rules (pit_bonus 100 → 0)") || !strings.Contains(err.Error(), "not even --force") {
		t.Errorf("changed rules: %v", err)
	}
	unchanged("changed rules")
	file = writeLeague(t, dir, 2, 4, "")
	text, _ := os.ReadFile(file)
	if err := os.WriteFile(file, bytes.Replace(text, []byte("seed = 42"), []byte("seed = 43"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runArena(t, "league", "--db", path, "--force", file)
	if err == nil || !strings.Contains(err.Error(), "give the league a new name") {
		t.Errorf("changed seed: %v", err)
	}
	unchanged("changed seed")
	file = writeLeague(t, dir, 3, 4, "")
	_, _, err = runArena(t, "league", "--db", path, "--force", file)
	if err == nil || !strings.Contains(err.Error(), "bots and their order cannot change") || !strings.Contains(err.Error(), "(bot0, bot1; the file has bot0, bot1, bot2") {
		t.Errorf("changed bots: %v", err)
	}
	unchanged("changed bots")
	file = writeLeague(t, dir, 2, 4, "")
	if out, _, err := runArena(t, "league", "--db", path, file); err != nil || !strings.Contains(out, "league t is finished") {
		t.Errorf("the file the league runs with, after the refused runs: %v\n%s", err, out)
	}
}

// TestLeagueMendedBeforeDeals: a league stopped before its first deal by a bot that does
// not start (a script its command names but that is not there, which no check before the
// start can know) goes on with the mended file without --force, saying so.
func TestLeagueMendedBeforeDeals(t *testing.T) {
	dir := botDir(t)
	file := writeLeague(t, dir, 2, 2, "")
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(good, []byte("name = \"bot1\"\ncmd = ["), []byte("name = \"bot1\"\ncmd = [\"sh\", \"nonexist.sh\", "), 1)
	if bytes.Equal(bad, good) {
		t.Fatal("the league file has no bot1 entry to spoil")
	}
	if err := os.WriteFile(file, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "arena.db")
	if _, _, err := runArena(t, "league", "--db", path, file); err == nil || !strings.Contains(err.Error(), "did not start") {
		t.Fatalf("a bot that does not start: %v", err)
	}
	if err := os.WriteFile(file, good, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runArena(t, "league", "--db", path, file)
	if err != nil || !strings.Contains(out+errOut, "before any deal was stored; continuing with it") || !strings.Contains(out, "bot0") {
		t.Errorf("the mended file: %v\n%s\n%s", err, out, errOut)
	}
	if _, _, err := runArena(t, "standings", "--db", path, "--recompute"); err != nil {
		t.Errorf("standings --recompute after the mended run: %v", err)
	}
}

// TestLeagueFileErrors: every problem of a league file is reported together, before any
// bot starts.
func TestLeagueFileErrors(t *testing.T) {
	dir := botDir(t)
	text := `games = 3
colour = "red"
format = "gauntlet"
gauntlet = "nobody"
[rules]
bidding = "blind"
[time]
decision = "-1s"
[[bot]]
name = "a"
cmd = ["/nonexistent/bot"]
[[bot]]
name = "a"
cmd = ["` + filepath.Join(dir, "league.toml") + `"]
`
	path := filepath.Join(dir, "league.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runArena(t, "league", "--db", filepath.Join(dir, "x.db"), path)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`unknown key "colour"`, "games = 3", `gauntlet = "nobody"`, "bidding", "must not be negative",
		`two bots are named "a"`, "/nonexistent/bot", "permission denied"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.db")); err == nil {
		t.Error("the database was created for a bad league file")
	}
}

// TestLeagueInterrupt: cancelling stops the league with the resume message; running it
// again finishes it.
func TestLeagueInterrupt(t *testing.T) {
	dir := botDir(t)
	file := writeLeague(t, dir, 3, 12, "")
	path := filepath.Join(dir, "arena.db")
	var out, errOut bytes.Buffer
	app := newApp(&out, &errOut)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	err := app.RunContext(ctx, []string{"arena", "league", "--db", path, "--concurrency", "2", "--standings-every", "5", "--quiet", file})
	if err == nil || !strings.Contains(err.Error(), "to resume, run the same command again") {
		t.Fatalf("interrupted: %v\n%s", err, out.String())
	}
	// The command to run again has every flag that was given.
	if want := "arena league --db " + shellQuote(path) + " --concurrency 2 --standings-every 5 --quiet " + shellQuote(file); !strings.Contains(err.Error(), want) {
		t.Errorf("the resume hint %q lacks %q", err, want)
	}
	if _, _, err := runArena(t, "league", "--db", path, file); err != nil {
		t.Fatal(err)
	}
	checkStore(t, path, file)
}

// TestLeagueDiskFull fills a small tmpfs (root only): the league stops with a clear error
// and what was stored stays readable and consistent.
func TestLeagueDiskFull(t *testing.T) {
	dir := botDir(t)
	file := writeLeague(t, dir, 2, 400, "")
	mnt := filepath.Join(dir, "tiny")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v %s", err, out)
	}
	defer exec.Command("umount", mnt).Run()
	path := filepath.Join(mnt, "arena.db")
	_, _, err := runArena(t, "league", "--db", path, file)
	if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), "nothing already stored is lost") {
		t.Fatalf("league on a full disk: %v", err)
	}
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	matches, _ := db.Matches("t")
	totals, err := db.Totals("t")
	if err != nil {
		t.Fatal(err)
	}
	done := 0
	for _, m := range matches {
		if m.Done {
			done++
			n := 0
			_ = db.Deals("t", m.Index, func(*store.Match, *referee.DealRecord) error { n++; return nil })
			if n != 32 {
				t.Errorf("match %s: %d deals", m.ID, n)
			}
		}
	}
	if done == 0 || totals.Matches != done || totals.Deals != 32*done {
		t.Errorf("%d matches done, totals %d matches %d deals", done, totals.Matches, totals.Deals)
	}
}

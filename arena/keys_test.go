package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
)

func TestKeygen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "deal.key")
	if _, errOut, err := runArena(t, "keygen", path); err != nil {
		t.Fatalf("keygen: %v\n%s", err, errOut)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, %v; want 0600", st.Mode(), err)
	}
	data, _ := os.ReadFile(path)
	key, err := readKeyFile(path)
	if err != nil || len(data) != 2*referee.KeySize+1 || hex.EncodeToString(key)+"\n" != string(data) {
		t.Fatalf("key file %q: %x, %v", data, key, err)
	}
	if _, _, err := runArena(t, "keygen", path); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("keygen over an existing file: %v", err)
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(again, data) {
		t.Error("keygen changed an existing key file")
	}
	other := filepath.Join(dir, "other.key")
	if _, _, err := runArena(t, "keygen", other); err != nil {
		t.Fatal(err)
	}
	if k2, _ := readKeyFile(other); bytes.Equal(k2, key) {
		t.Error("two keygens wrote the same key")
	}

	for name, c := range map[string]struct {
		text string
		mode os.FileMode
		want string
	}{
		"readable":  {string(data), 0o644, "chmod 600"},
		"group":     {string(data), 0o640, "chmod 600"},
		"short":     {string(data[:40]) + "\n", 0o600, "not a deal key"},
		"long":      {string(data[:64]) + "00\n", 0o600, "not a deal key"},
		"not hex":   {"zz" + string(data[2:]), 0o600, "hexadecimal"},
		"two lines": {string(data) + "\n", 0o600, "not a deal key"},
		"spaces":    {" " + string(data[:63]) + "\n", 0o600, "hexadecimal"},
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if err := os.WriteFile(p, []byte(c.text), c.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, c.mode); err != nil {
			t.Fatal(err)
		}
		_, err := readKeyFile(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) || strings.Contains(err.Error(), string(data[:64])) {
			t.Errorf("%s: err = %v, want one naming the file and saying %q, without the key", name, err, c.want)
		}
	}
	if _, err := readKeyFile(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing key file was read")
	}
}

var (
	seedBotOnce sync.Once
	seedBot     string
	seedBotErr  error
)

// buildSeedBot builds testdata/seedbot, the bot that replays the arena's unkeyed shuffle.
func buildSeedBot(t *testing.T) string {
	t.Helper()
	buildTools(t)
	seedBotOnce.Do(func() {
		seedBot = filepath.Join(buildDir, "seedbot")
		if out, err := exec.Command("go", "build", "-o", seedBot, "./testdata/seedbot").CombinedOutput(); err != nil {
			seedBotErr = fmt.Errorf("go build seedbot: %v: %s", err, out)
		}
	})
	if seedBotErr != nil {
		t.Fatal(seedBotErr)
	}
	return seedBot
}

// prediction is one line of the seed bot's report.
type prediction struct {
	game, deal int
	seat       string
	hand       string
	hands      string // N|E|S|W, or "-"; cards separated by commas
}

// reportFiles returns the seed bot's reports in the scratch directory scratch: one in the
// directory of each of its processes, in the order they started.
func reportFiles(t *testing.T, scratch string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(scratch, "*", "report"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no report in the directories of %s: %v", scratch, err)
	}
	return files
}

// readAllPredictions reads the predictions of every report of the seed bot in scratch.
func readAllPredictions(t *testing.T, scratch string) []prediction {
	t.Helper()
	var out []prediction
	for _, f := range reportFiles(t, scratch) {
		out = append(out, readPredictions(t, f)...)
	}
	return out
}

// readPredictions reads one report of the seed bot.
func readPredictions(t *testing.T, path string) []prediction {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []prediction
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var p prediction
		if _, err := fmt.Sscanf(sc.Text(), "%d %d %s %s %s", &p.game, &p.deal, &p.seat, &p.hand, &p.hands); err != nil {
			t.Fatalf("report line %q: %v", sc.Text(), err)
		}
		out = append(out, p)
	}
	return out
}

// readRecords reads a JSON-lines deal log.
func readRecords(t *testing.T, path string) []referee.DealRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []referee.DealRecord
	for line := range bytes.Lines(data) {
		var r referee.DealRecord
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

// seatsOf counts the seats the named bot held over the records.
func seatsOf(recs []referee.DealRecord, name string) int {
	n := 0
	for _, r := range recs {
		n += strings.Count(strings.Join(r.Seats[:], " ")+" ", name+" ")
	}
	return n
}

// TestSeedBotPredictsUnkeyedMatch is the control: given the seed of an unkeyed match (arena
// match --seed), the seed bot knows every hand of every deal, its opponents' included.
func TestSeedBotPredictsUnkeyedMatch(t *testing.T) {
	bot := buildSeedBot(t)
	dir := botDir(t)
	// The report is written from inside the bot's sandbox: into a scratch directory it is
	// granted, with a bots file; each process of the bot writes it in a directory of its own.
	scratch := filepath.Join(dir, "scratch")
	if err := os.Mkdir(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	report, log := filepath.Join(scratch, "report"), filepath.Join(dir, "log.jsonl")
	bots := filepath.Join(dir, "bots.toml")
	text := fmt.Sprintf("[[bot]]\nname = \"seedbot\"\ncmd = [%s]\nscratch = %q\n",
		quoteAll([]string{bot, "-seed", "5", "-pairs", "2", "-report", report}), scratch)
	if err := os.WriteFile(bots, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, err := runArena(t, "match", "seedbot", randomBot+" -seed 3", "--bots", bots,
		"--seed", "5", "--games", "2", "--log", log); err != nil {
		t.Fatalf("match: %v\n%s", err, errOut)
	}
	recs := readRecords(t, log)
	byDeal := map[[2]int]referee.DealRecord{}
	for _, r := range recs {
		byDeal[[2]int{r.Game, r.Deal}] = r
	}
	preds := readAllPredictions(t, scratch)
	if len(preds) != 2*len(recs) || len(preds) == 0 { // it sits N and S
		t.Fatalf("%d predictions for the %d deals the seed bot played twice", len(preds), len(recs))
	}
	// Partners write to scratch directories of their own: each report is one seat's.
	for _, f := range reportFiles(t, scratch) {
		seats := map[string]bool{}
		for _, p := range readPredictions(t, f) {
			seats[p.seat] = true
		}
		if len(seats) != 1 {
			t.Errorf("%s holds the predictions of seats %v, want one process's seat", f, seats)
		}
	}
	for _, p := range preds {
		r := byDeal[[2]int{p.game, p.deal}]
		if actual := strings.ReplaceAll(strings.Join(r.Hands[:], "|"), " ", ","); p.hands != actual {
			t.Errorf("game %d deal %d: predicted %s, dealt %s", p.game, p.deal, p.hands, actual)
		}
	}
}

// TestSeedBotFailsInKeyedLeague: a bot that knows the league file, seed included, and
// replays the arena's shuffle from it learns nothing in a league (keyed by default, or with
// --key): every prediction fails. It plays as it would honestly, so the league's results,
// the opponents' included, are those of the same league with the bot not looking. The key
// is in no output, no export and no file beside the database, and the league refuses
// another key.
func TestSeedBotFailsInKeyedLeague(t *testing.T) {
	arena, _ := buildTools(t)
	bot := buildSeedBot(t)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "deal.key")
	if out, err := arenaCommand(arena, "keygen", keyFile).CombinedOutput(); err != nil {
		t.Fatalf("keygen: %v\n%s", err, out)
	}
	run := func(name string, extra ...string) (file, db, scratch string, out []byte) {
		sub := filepath.Join(dir, name)
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		file, db = filepath.Join(sub, "league.toml"), filepath.Join(sub, "arena.db")
		// The opponents are stateless: their play must not depend on the matches their kept
		// processes played before, which differ from run to run at concurrency 2.
		// The league file is one of the arena's files, which the sandbox hides: the bot gets
		// a copy of it (seed included), named on its command line, and writes its report in
		// its scratch directory (each process in a directory of its own).
		scratch = filepath.Join(sub, "scratch")
		copyDir := filepath.Join(sub, "copy")
		for _, d := range []string{scratch, copyDir} {
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		report := filepath.Join(scratch, "report")
		leagueCopy := filepath.Join(copyDir, "league-copy.toml")
		cheat := []string{bot, "-league", leagueCopy, "-report", report}
		if name == "honest" {
			cheat = []string{bot, "-honest"}
		}
		text := fmt.Sprintf("name = \"t\"\ngames = 2\nseed = 42\nconcurrency = 2\n"+
			"[[bot]]\nname = \"seedbot\"\ncmd = [%s]\nscratch = %q\n[[bot]]\nname = \"r1\"\ncmd = [%q, \"-seed\", \"1\", \"-stateless\"]\n[[bot]]\nname = \"r2\"\ncmd = [%q, \"-seed\", \"2\", \"-stateless\"]\n",
			quoteAll(cheat), scratch, randomBot, randomBot)
		for _, f := range []string{file, leagueCopy} {
			if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out, err := arenaCommand(arena, append([]string{"league", "--db", db, file}, extra...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("league %s: %v\n%s", name, err, out)
		}
		return file, db, scratch, out
	}
	export := func(db string) ([]referee.DealRecord, []byte) {
		path := db + ".export"
		out, err := arenaCommand(arena, "export", "--db", db, "--output", path).CombinedOutput()
		if err != nil {
			t.Fatalf("export: %v\n%s", err, out)
		}
		data, _ := os.ReadFile(path)
		return readRecords(t, path), append(data, out...)
	}
	storedKey := func(db string) []byte {
		d, err := store.Open(db, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		key, err := d.DealKey("t")
		if err != nil || key == nil {
			t.Fatalf("no stored key: %v", err)
		}
		return key
	}

	dbs := map[string]string{}
	for _, name := range []string{"default", "given"} {
		var extra []string
		if name == "given" {
			extra = []string{"--key", keyFile}
		}
		file, db, scratch, out := run(name, extra...)
		dbs[name] = db
		recs, exported := export(db)
		preds := readAllPredictions(t, scratch)
		if len(preds) != seatsOf(recs, "seedbot") || len(preds) == 0 {
			t.Fatalf("%s: %d predictions for %d seats the seed bot held", name, len(preds), seatsOf(recs, "seedbot"))
		}
		for _, p := range preds {
			if p.hands != "-" {
				t.Errorf("%s key: game %d deal %d: the seed bot found its hand from the league seed (seat %s, hand %s, predicted %s)", name, p.game, p.deal, p.seat, p.hand, p.hands)
			}
		}
		for _, r := range recs {
			if !r.Keyed {
				t.Fatalf("%s: exported deal %s %d/%d is not marked keyed", name, r.Match, r.Game, r.Deal)
			}
		}
		key := storedKey(db)
		hexKey := hex.EncodeToString(key)
		leftovers, _ := filepath.Glob(db + "*")
		standings, err := arenaCommand(arena, "standings", "--db", db, "--json").CombinedOutput()
		if err != nil {
			t.Fatalf("standings: %v\n%s", err, standings)
		}
		blobs := map[string][]byte{"league output": out, "export": exported, "standings": standings}
		for _, p := range append(leftovers, reportFiles(t, scratch)...) {
			if p != db {
				blobs[p], _ = os.ReadFile(p)
			}
		}
		for what, data := range blobs {
			if bytes.Contains(data, key) || bytes.Contains(bytes.ToLower(data), []byte(hexKey)) {
				t.Errorf("%s: the deal key is in %s", name, what)
			}
		}
		if st, _ := os.Stat(db); st.Mode().Perm()&0o077 != 0 {
			t.Errorf("database mode %v: others may read the deal key", st.Mode())
		}
		if out, err := arenaCommand(arena, "replay", "--verify", "--db", db).CombinedOutput(); err != nil {
			t.Errorf("%s: replay --verify: %v\n%s", name, err, out)
		}
		if name == "given" {
			if !bytes.Equal(key, mustReadKey(t, keyFile)) {
				t.Error("the league did not keep the key it was given")
			}
			otherKey := filepath.Join(dir, "other.key")
			if out, err := arenaCommand(arena, "keygen", otherKey).CombinedOutput(); err != nil {
				t.Fatalf("keygen: %v\n%s", err, out)
			}
			out, err := arenaCommand(arena, "league", "--db", db, file, "--key", otherKey).CombinedOutput()
			if err == nil || !bytes.Contains(out, []byte("started with another key")) || bytes.Contains(out, []byte(hexKey)) {
				t.Errorf("league resumed with another key: %v\n%s", err, out)
			}
		}
	}

	// The same league with the bot not looking, dealt with the same key: the same results.
	cheatDB := dbs["given"]
	_, honestDB, _, _ := run("honest", "--key", keyFile)
	cheat, _ := export(cheatDB)
	honest, _ := export(honestDB)
	if len(cheat) != len(honest) {
		t.Fatalf("%d deals looking, %d not", len(cheat), len(honest))
	}
	for i := range cheat {
		a, b := cheat[i], honest[i]
		if a.Hands != b.Hands || fmt.Sprint(a.Result) != fmt.Sprint(b.Result) || len(a.Faults)+len(b.Faults) > 0 {
			t.Errorf("deal %d (%s %d/%d): looking %v %v, not looking %v %v", i, a.Match, a.Game, a.Deal, a.Result, a.Faults, b.Result, b.Faults)
		}
	}
	if err := league.Compare(totals(t, cheatDB), totals(t, honestDB)); err != nil {
		t.Errorf("totals with the bot looking and not: %v", err)
	}
}

func mustReadKey(t *testing.T, path string) []byte {
	t.Helper()
	key, err := readKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func totals(t *testing.T, path string) *store.Totals {
	t.Helper()
	d, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tot, err := d.Totals("t")
	if err != nil {
		t.Fatal(err)
	}
	return tot
}

// TestMatchKey: arena match --key deals other cards than the seed alone would, the same ones
// again with the same key and seed, marks its log records keyed, and shows the key nowhere;
// a keyed log verifies from its recorded hands.
func TestMatchKey(t *testing.T) {
	buildTools(t)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "deal.key")
	if _, _, err := runArena(t, "keygen", keyFile); err != nil {
		t.Fatal(err)
	}
	key := mustReadKey(t, keyFile)
	play := func(name string, extra ...string) ([]referee.DealRecord, string) {
		log, trace := filepath.Join(dir, name+".jsonl"), filepath.Join(dir, name+".trace")
		args := append([]string{"match", randomBot + " -seed 1", randomBot + " -seed 2", "--games", "1", "-o", "game_end=deals:3",
			"--seed", "9", "--log", log, "--trace", trace}, extra...)
		out, errOut, err := runArena(t, args...)
		if err != nil {
			t.Fatalf("match: %v\n%s", err, errOut)
		}
		logData, _ := os.ReadFile(log)
		traceData, _ := os.ReadFile(trace)
		return readRecords(t, log), out + errOut + string(logData) + string(traceData)
	}
	keyed, text := play("keyed", "--key", keyFile)
	again, _ := play("again", "--key", keyFile)
	plain, _ := play("plain")
	if !strings.Contains(text, "seed 9 (keyed)") {
		t.Errorf("the output does not say the deals are keyed:\n%s", text[:min(len(text), 400)])
	}
	if strings.Contains(text, string(key)) || strings.Contains(strings.ToLower(text), hex.EncodeToString(key)) {
		t.Error("the key is in the match's output, log or trace")
	}
	for i := range keyed {
		if !keyed[i].Keyed || plain[i].Keyed {
			t.Errorf("deal %d: keyed %v, unkeyed %v", i+1, keyed[i].Keyed, plain[i].Keyed)
		}
		if keyed[i].Hands != again[i].Hands {
			t.Errorf("deal %d: the same key and seed dealt other cards", i+1)
		}
		if keyed[i].Hands == plain[i].Hands {
			t.Errorf("deal %d: the key changed nothing", i+1)
		}
	}
	if out, _, err := runArena(t, "replay", "--verify", "--log", filepath.Join(dir, "keyed.jsonl")); err != nil {
		t.Errorf("replay --verify of a keyed log: %v\n%s", err, out)
	}
	if err := os.Chmod(keyFile, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runArena(t, "match", randomBot, randomBot, "--key", keyFile); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a key file others may read: %v", err)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/arena/view/textview"
	"github.com/klaverjas-arena/arena/referee"
)

// storedLeague runs a one-match league and returns the database and an export of it.
func storedLeague(t *testing.T) (db, log string) {
	t.Helper()
	dir := botDir(t)
	file := writeLeague(t, dir, 2, 2, "")
	db = filepath.Join(dir, "arena.db")
	if _, _, err := runArena(t, "league", "--db", db, file); err != nil {
		t.Fatal(err)
	}
	log = filepath.Join(dir, "export.jsonl")
	if _, _, err := runArena(t, "export", "--db", db, "--output", log); err != nil {
		t.Fatal(err)
	}
	return db, log
}

func TestReplayExportVerify(t *testing.T) {
	db, log := storedLeague(t)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n != 32 {
		t.Fatalf("export wrote %d lines, want 32", n)
	}
	out, _, err := runArena(t, "replay", "--log", log, "--verify")
	if err != nil || !strings.Contains(out, "32 deals verified") {
		t.Errorf("verify log: %v\n%s", err, out)
	}
	out, _, err = runArena(t, "replay", "--db", db, "--verify")
	if err != nil || !strings.Contains(out, "32 deals verified") {
		t.Errorf("verify db: %v\n%s", err, out)
	}
	out, _, err = runArena(t, "replay", "--db", db, "t/0/3")
	for _, want := range []string{"match t/0, game 1, deal 3", "bids:", "trick 8:", "result:", "score   NS"} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("replay t/0/3: missing %q (%v):\n%s", want, err, out)
		}
	}
	for _, r := range out {
		if r > 127 {
			t.Fatalf("non-ASCII %q written to a non-terminal:\n%s", r, out)
		}
	}
	out2, _, err := runArena(t, "replay", "--log", log, "t/0/3")
	if err != nil || out2[strings.Index(out2, "\n"):] != out[strings.Index(out, "\n"):] {
		t.Errorf("replay from the log differs from the database (%v):\n%s\n%s", err, out2, out)
	}

	// A tampered deal is reported with its file and line.
	lines := strings.SplitAfter(string(data), "\n")
	lines[4] = strings.Replace(lines[4], `"score":[`, `"score":[1`, 1)
	bad := filepath.Join(botDir(t), "bad.jsonl")
	os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644)
	out, _, err = runArena(t, "replay", "--log", bad, "--verify")
	if err == nil || !strings.Contains(out, bad+":5: match t/0 game 1 deal 5") || !strings.Contains(err.Error(), "1 of 32 deals") {
		t.Errorf("tampered log: %v\n%s", err, out)
	}
}

func TestReadLogDamage(t *testing.T) {
	_, log := storedLeague(t)
	data, _ := os.ReadFile(log)
	dir := botDir(t)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	torn := write("torn.jsonl", data[:len(data)-50])
	out, errOut, err := runArena(t, "replay", "--log", torn, "--verify")
	if err != nil || !strings.Contains(errOut, "torn.jsonl:32: torn last line") || !strings.Contains(out, "31 deals verified") {
		t.Errorf("torn log: %v\n%s%s", err, out, errOut)
	}
	mid := len(data)/2 + bytes.Index(data[len(data)/2:], []byte(`"actions"`)) // inside a line
	for name, content := range map[string]string{
		"foreign.jsonl":  `{"hello":"world"}` + "\n",
		"version.jsonl":  `{"v":7,"match":"x"}` + "\n",
		"garbage.jsonl":  string(data[:200]) + "\n" + string(data),
		"binary.jsonl":   "\x00\x01\x02\n",
		"midtorn.jsonl":  string(data[:mid]) + "\n" + string(data[mid:]),
		"noscore.jsonl":  `{"v":1,"match":"x"}` + "\n",
		"wrongtyp.jsonl": `{"v":1,"match":"x","seats":"N"}` + "\n",
		// no deal at all: a log truncated to nothing, or to a torn first line, or blank lines
		"empty.jsonl":     "",
		"tornfirst.jsonl": string(data[:100]),
		"blank.jsonl":     "\n\n",
	} {
		p := write(name, []byte(content))
		_, _, err := runArena(t, "replay", "--log", p, "--verify")
		if err == nil || !strings.Contains(err.Error(), name+":") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// FuzzReadLog: the log reader never panics, and what it accepts are deal records.
func FuzzReadLog(f *testing.F) {
	f.Add([]byte(`{"v":1,"match":"m","result":{"score":[1,2]}}` + "\n"))
	f.Add([]byte(`{"v":1,"match":"m","pair":0,"game":1,"deal":1,"hands":["7C","","",""],"result":{"outcome":"made","score":[162,0],"cards":[162,0],"roem":[0,0],"tricks":[8,0]}}`))
	f.Add([]byte("{\"v\":2}\n{"))
	f.Add([]byte("\n\n{\"v\":1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, _, err := readLog(bytes.NewReader(data), "fuzz", io.Discard)
		if err != nil {
			return
		}
		var recs []referee.DealRecord
		for _, e := range entries {
			if e.rec.V != 1 || e.rec.Match == "" {
				t.Fatalf("accepted %+v", e.rec)
			}
			_ = e.rec.Verify()
			textview.Replay(io.Discard, view.DealFromRecord(&e.rec, "fuzz"), textview.Style{Symbols: true, Colour: true})
			recs = append(recs, e.rec)
		}
		referee.VerifyMatch(recs, false)
	})
}

func TestStandingsOutput(t *testing.T) {
	dir := botDir(t)
	file := writeLeague(t, dir, 3, 4, "")
	db := filepath.Join(dir, "arena.db")
	if _, _, err := runArena(t, "league", "--db", db, file); err != nil {
		t.Fatal(err)
	}
	out, _, err := runArena(t, "standings", "--db", db, "--json", "--los", "--anchor", "bot1=1500")
	if err != nil {
		t.Fatal(err)
	}
	var tab view.Standings
	if err := json.Unmarshal([]byte(out), &tab); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if tab.Matches != 6 || tab.Deals != 192 || len(tab.Standings) != 3 || len(tab.LOS) != 3 || tab.Note != "" {
		t.Fatalf("standings: %+v", tab)
	}
	for i, s := range tab.Standings {
		if s.Rank != i+1 || s.Games != 8 || s.Deals != 128 || s.Elo == nil || s.GameElo == nil || s.Wins+s.Draws+s.Losses != 8 {
			t.Errorf("row %+v", s)
		}
		if s.Bot == "bot1" && *s.Elo != 1500 {
			t.Errorf("anchored bot1 at %v", *s.Elo)
		}
	}
	text, _, err := runArena(t, "standings", "--db", db, "--los")
	for _, want := range []string{"league t: 6 matches, 192 deals", "rank", "±95%", "game elo", "W-D-L", "likelihood of superiority"} {
		if err != nil || !strings.Contains(text, want) {
			t.Errorf("missing %q (%v):\n%s", want, err, text)
		}
	}
	if _, _, err := runArena(t, "standings", "--db", db, "--anchor", "nobody=1"); err == nil || !strings.Contains(err.Error(), "--anchor") {
		t.Errorf("bad anchor: %v", err)
	}
}

// TestReadLogLines: the log reader takes UTF-8 names and CRLF line ends, reports an
// over-long line with its number, and tells a torn last line from a bad complete one.
func TestReadLogLines(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("view", "testdata", "four.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	first, second := lines[0], lines[1]
	utf := strings.Replace(first, `"seats":["h"`, `"seats":["hé€"`, 1)
	crlf := strings.TrimSuffix(second, "\n") + "\r\n"
	entries, torn, err := readLog(strings.NewReader(utf+crlf), "x", io.Discard)
	if err != nil || torn || len(entries) != 2 || entries[0].rec.Seats[0] != "hé€" || entries[1].line != 2 {
		t.Fatalf("UTF-8 and CRLF: %v %v %+v", err, torn, entries)
	}
	long := first + strings.Repeat(" ", maxLogLine+1) + "\n" + second
	if _, _, err := readLog(strings.NewReader(long), "x", io.Discard); err == nil || !strings.Contains(err.Error(), "x:2: line too long") {
		t.Errorf("over-long line: %v", err)
	}
	var warn bytes.Buffer
	cut := first + second[:100]
	if entries, torn, err := readLog(strings.NewReader(cut), "x", &warn); err != nil || !torn || len(entries) != 1 || !strings.Contains(warn.String(), "x:2: torn last line") {
		t.Errorf("torn: %v %v %d %q", err, torn, len(entries), warn.String())
	}
	if _, _, err := readLog(strings.NewReader(cut+"\n"), "x", io.Discard); err == nil || !strings.Contains(err.Error(), "x:2: not a deal record") {
		t.Errorf("bad complete last line: %v", err)
	}
	if _, _, err := readLog(strings.NewReader(cut+"\n\n"), "x", io.Discard); err == nil || !strings.Contains(err.Error(), "x:2:") {
		t.Errorf("bad line before an empty one: %v", err)
	}
}

// TestReplayAlteredLog: a log's deal edited by hand (a score, a card) is reported by arena
// replay MATCH/DEAL and by arena serve --log, with its line, not shown or served as if it
// had been played.
func TestReplayAlteredLog(t *testing.T) {
	buildTools(t)
	lines := matchLog(t, randomBot+" -seed 1", randomBot+" -seed 2", "--games", "1", "--seed", "5")
	var rec referee.DealRecord
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	score := rec
	score.Result.Score = slices.Clone(rec.Result.Score)
	score.Result.Score[0] += 100
	card := rec
	card.Actions = slices.Clone(rec.Actions)
	card.Actions[1].Card, card.Actions[2].Card = rec.Actions[2].Card, rec.Actions[1].Card
	for name, altered := range map[string]referee.DealRecord{"score": score, "card": card} {
		data, err := json.Marshal(&altered)
		if err != nil {
			t.Fatal(err)
		}
		log := filepath.Join(t.TempDir(), "altered.jsonl")
		text := string(data) + "\n" + strings.Join(lines[1:], "")
		if err := os.WriteFile(log, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, sel := range []string{rec.Match + "/1", rec.Match} {
			out, errOut, err := runArena(t, "replay", "--log", log, sel)
			if err == nil || !strings.Contains(errOut, log+":1: match "+rec.Match) || !strings.Contains(err.Error(), "inconsistent with the rules") || out != "" {
				t.Errorf("%s: replay %s: %v\nstdout:\n%s\nstderr:\n%s", name, sel, err, out, errOut)
			}
		}
		if out, _, err := runArena(t, "replay", "--log", log, rec.Match+"/2"); err != nil || !strings.Contains(out, "score") {
			t.Errorf("%s: replay of a sound deal of the log: %v\n%s", name, err, out)
		}
		if _, err := logSource(log, io.Discard); err == nil || !strings.Contains(err.Error(), log+":1: match "+rec.Match) {
			t.Errorf("%s: serve --log: %v", name, err)
		}
	}
}

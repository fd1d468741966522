package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/botdef"
	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/referee"
)

// A bad value for a key of a league file or a [[bot]] entry, and the words of the error it
// must cause.
type badValue struct{ key, value, want string }

var badLeagueValues = []badValue{
	{"games", "2000000000", "games = 2000000000"},
	{"games", "-2", "games = -2"},
	{"seed", "-1", "seed = -1"},
	{"concurrency", "-5", "concurrency = -5"},
	{"max_faults", "-1", "max_faults = -1"},
	{"format", `"swiss-ish"`, `format = "swiss-ish"`},
	{"name", `"a b/c"`, `name "a b/c"`},
	{"rules", `"rotterdams"`, "rules: want a table"},
	{"sandbox", `"maybe"`, "sandbox"},
	{"colour", `"red"`, `unknown key "colour"`},
	// values of the wrong type, which TOML's decoder stops at: the other problems are listed too
	{"seed", `"x"`, `(last key "seed"): incompatible types`},
	{"keep_bots", `"yes"`, `(last key "keep_bots"): incompatible types`},
	{"max_faults", `"3"`, `(last key "max_faults"): incompatible types`},
}

var badBotValues = []badValue{
	{"name", `"bad name"`, `"bad name": no spaces`},
	{"cmd", `["./python3", "x.py"]`, "program ./python3"},
	{"cmd", `[]`, "has no cmd"},
	{"cmd", `[""]`, "the program name is empty"},
	{"decision", `"1000000h"`, "decision = 1000000h0m0s: at most 1h0m0s"},
	{"decision", `"-1s"`, "decision = -1s: must not be negative"},
	{"dir", `"nosuch"`, "does not exist"},
	{"stderr", `"nosuch/err.txt"`, `stderr = "nosuch/err.txt": its directory`},
	{"pids", "1", "pids = 1"},
	{"memory", `"1KiB"`, "memory = 1.0 KiB"},
	{"memory", `"lots"`, `(last key "bot.memory"): "lots" is not a size`},
	{"decision", `"5"`, `(last key "bot.decision"): invalid duration: "5"`},
	{"pids", `"x"`, `(last key "bot.pids"): incompatible types`},
	{"env", `"A=1"`, `bot.env = A=1: want a table`},
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestParsers_GeneratedBadLeagueFiles feeds league files with a random handful of bad
// values (printed with the seed) to the parser: it never panics, allocates a few megabytes
// at most whatever the numbers say, and lists every problem together.
func TestParsers_GeneratedBadLeagueFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "l.toml")
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for range 200 {
		var top, bot []badValue
		used := map[string]bool{}
		for _, i := range rng.Perm(len(badLeagueValues))[:1+rng.IntN(4)] {
			if v := badLeagueValues[i]; !used[v.key] {
				used[v.key] = true
				top = append(top, v)
			}
		}
		for _, i := range rng.Perm(len(badBotValues))[:rng.IntN(4)] {
			v := badBotValues[i]
			group := v.key
			if group == "dir" {
				group = "cmd" // no program is looked for in a missing directory
			}
			if !used["bot."+group] {
				used["bot."+group], used["bot."+v.key] = true, true
				bot = append(bot, v)
			}
		}
		var b strings.Builder
		for _, v := range top {
			fmt.Fprintf(&b, "%s = %s\n", v.key, v.value)
		}
		fmt.Fprintf(&b, "[[bot]]\nname = \"one\"\ncmd = [\"/bin/cat\"]\n[[bot]]\n")
		if !used["bot.name"] {
			b.WriteString("name = \"two\"\n")
		}
		if !used["bot.cmd"] {
			b.WriteString("cmd = [\"/bin/cat\"]\n")
		}
		for _, v := range bot {
			fmt.Fprintf(&b, "%s = %s\n", v.key, v.value)
		}
		text := b.String()
		var err error
		n := allocated(func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("panic %v on\n%s", p, text)
				}
			}()
			_, err = league.Parse([]byte(text), path)
		})
		if n > 8<<20 {
			t.Errorf("%d bytes allocated for a %d-byte file:\n%s", n, len(text), text)
		}
		if err == nil {
			t.Fatalf("accepted:\n%s", text)
		}
		for _, v := range append(top, bot...) {
			if !strings.Contains(err.Error(), v.want) {
				t.Errorf("no %q in the error for\n%s\ngot\n%v", v.want, text, err)
			}
		}
	}
}

// TestParsers_GeneratedBadBotsFiles does the same for bots files.
func TestParsers_GeneratedBadBotsFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bots.toml")
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for range 200 {
		var b strings.Builder
		var wants []string
		for i := range 1 + rng.IntN(3) {
			fmt.Fprintf(&b, "[[bot]]\n")
			v := badBotValues[rng.IntN(len(badBotValues))]
			if v.key != "name" {
				fmt.Fprintf(&b, "name = \"b%d\"\n", i)
			}
			if v.key != "cmd" {
				b.WriteString("cmd = [\"/bin/cat\"]\n")
			}
			fmt.Fprintf(&b, "%s = %s\n", v.key, v.value)
			wants = append(wants, v.want)
		}
		text := b.String()
		var err error
		n := allocated(func() { _, err = botdef.Parse([]byte(text), path) })
		if n > 8<<20 {
			t.Errorf("%d bytes allocated for:\n%s", n, text)
		}
		for _, w := range wants {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("no %q in the error for\n%s\ngot\n%v", w, text, err)
			}
		}
	}
}

// TestParsers_BigInputs: files and names far beyond the bounds are refused with a short
// error, without reading more than the bound.
func TestParsers_BigInputs(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.toml")
	name := strings.Repeat("x", 50<<20)
	if err := os.WriteFile(big, []byte("name = \""+name+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	n := allocated(func() { _, err = league.Load(big) })
	if err == nil || !strings.Contains(err.Error(), "at most 1048576") || len(err.Error()) > 200 || n > 1<<20 {
		t.Errorf("a 50 MB league file: %d bytes allocated, error %.200v", n, err)
	}
	n = allocated(func() { _, err = botdef.Load(big) })
	if err == nil || !strings.Contains(err.Error(), "at most 1048576") || n > 1<<20 {
		t.Errorf("a 50 MB bots file: %d bytes allocated, error %.200v", n, err)
	}
	long := "[[bot]]\nname = \"" + strings.Repeat("y", 900<<10) + "\"\ncmd = [\"/bin/cat\"]\n"
	_, err = botdef.Parse([]byte(long), big)
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("a 900 KB name: error of %d bytes", len(fmt.Sprint(err)))
	}
}

// TestParsers_GeneratedBadDeals feeds deals files with random bad lines to the parser: it
// never panics and reports one problem per bad line.
func TestParsers_GeneratedBadDeals(t *testing.T) {
	good := []string{"dealer W", "N 7C 8C 9C JD QD JH QH KH", "E TC JC QC KD AD AH 7S 8S",
		"S KC AC 7D 7H 8H 9S TS JS", "W 8D 9D TD 9H TH QS KS AS", "pile 4H 2C"}
	bad := []string{"pile 2C 2C", "dealer Q", "X 7C", "N 7C 7C", "pile 9C", "hello"}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for range 300 {
		var lines []string
		nbad := 0
		for range 1 + rng.IntN(4) {
			deal := append([]string(nil), good...)
			if rng.IntN(2) == 0 {
				// A bad line replacing the pile line, which no other check depends on.
				deal[5] = bad[rng.IntN(len(bad))]
				if deal[5] != "dealer Q" { // a bad dealer line hides the deal's other problems
					nbad++
				}
			}
			lines = append(lines, deal...)
		}
		text := strings.Join(lines, "\n") + "\n"
		_, err := referee.ParseDeals(strings.NewReader(text), "d.txt")
		got := 0
		if err != nil {
			got = strings.Count(err.Error(), "\n") + 1
		}
		if got < nbad {
			t.Errorf("%d problems reported for %d bad lines:\n%s\n%v", got, nbad, text, err)
		}
	}
}

// FuzzParseLeague: no league file makes the parser panic or allocate much more than the
// file's size.
func FuzzParseLeague(f *testing.F) {
	f.Add("games = 4\nseed = 1\n[[bot]]\nname = \"a\"\ncmd = [\"/bin/cat\"]\n[[bot]]\nname = \"b\"\ncmd = [\"/bin/cat\"]\n")
	for _, v := range badLeagueValues {
		f.Add(v.key + " = " + v.value + "\n")
	}
	f.Fuzz(func(t *testing.T, text string) {
		n := allocated(func() { _, _ = league.Parse([]byte(text), "/tmp/f.toml") })
		if n > 64*uint64(len(text))+8<<20 {
			t.Errorf("%d bytes allocated for %d bytes", n, len(text))
		}
	})
}

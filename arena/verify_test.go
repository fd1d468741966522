package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
)

// passerBot is a bot in bash that passes four bids in five (so that with draaikaart_opnieuw_
// schudden, and in the three-player game, whole deals are thrown in and dealt again) and
// otherwise takes its first legal option; $1 seeds its choices.
const passerBot = `#!/usr/bin/env bash
RANDOM=${1:-1}
while read -r -a w; do
  case ${w[0]} in
    klaverjas) echo "hello 1 passer" ;;
    rules) echo ok ;;
    bid) if [[ " ${w[*]:3} " == *" pass "* ]] && (( RANDOM % 5 )); then echo pass; else echo "${w[3]}"; fi ;;
    play) echo "${w[6]}" ;;
    claim) echo 0 ;;
    discard) IFS=, read -r c1 c2 _ <<<"${w[4]}"; echo "$c1 $c2" ;;
    quit) exit 0 ;;
  esac
done
`

// matchLog plays a match with `arena match ... --log` and returns the log's lines.
func matchLog(t *testing.T, args ...string) []string {
	t.Helper()
	log := filepath.Join(t.TempDir(), "match.jsonl")
	if _, errOut, err := runArena(t, append([]string{"match", "--log", log}, args...)...); err != nil {
		t.Fatalf("arena match: %v\n%s", err, errOut)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	return lines[:len(lines)-1] // after the last newline
}

// verifyLines writes the lines as a log and runs replay --verify on it.
func verifyLines(t *testing.T, lines []string) (path, out string, err error) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = runArena(t, "replay", "--verify", "--log", path)
	return path, out, err
}

// reportedAt reports whether verify's output has a problem at one of the lines.
func reportedAt(out, path string, lines ...int) bool {
	for _, n := range lines {
		if strings.Contains(out, fmt.Sprintf("%s:%d: match ", path, n)) {
			return true
		}
	}
	return false
}

// TestVerifyLogDamage makes real logs (the four-player game; draaikaart with redeals and a
// target score; the three-player game at a table of four, with redeals that pass the deal
// on; the first and the last with a deal key, which verify does not have), checks each
// verifies clean, and then that every deleted, duplicated or swapped line
// is reported at its place.
func TestVerifyLogDamage(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("needs bash")
	}
	buildTools(t)
	passer := filepath.Join(t.TempDir(), "passer.sh")
	if err := os.WriteFile(passer, []byte(passerBot), 0o755); err != nil {
		t.Fatal(err)
	}
	p := func(seed int) string { return passer + " " + strconv.Itoa(seed) }
	keyFile := filepath.Join(t.TempDir(), "deal.key")
	if _, errOut, err := runArena(t, "keygen", keyFile); err != nil {
		t.Fatalf("keygen: %v\n%s", err, errOut)
	}
	logs := map[string][]string{
		"four": matchLog(t, randomBot+" -seed 1", randomBot+" -seed 2", "--games", "2", "--seed", "5"),
		"redeals": matchLog(t, p(1), p(2), "--games", "1", "--seed", "3",
			"-o", "bidding=draaikaart_opnieuw_schudden", "-o", "game_end=target:600"),
		"three-at-four": matchLog(t, p(1), p(2), p(3), p(4), "--preset", "drie_spelers", "--games", "1", "--seed", "3",
			"-o", "game_end=deals:5"),
		// Keyed: the first dealers depend on the key, which verify does without.
		"keyed": matchLog(t, randomBot+" -seed 1", randomBot+" -seed 2", "--games", "2", "--seed", "5", "--key", keyFile),
		"keyed-three-at-four": matchLog(t, p(1), p(2), p(3), p(4), "--preset", "drie_spelers", "--games", "1", "--seed", "3",
			"-o", "game_end=deals:5", "--key", keyFile),
	}
	for name, lines := range logs {
		t.Run(name, func(t *testing.T) {
			n := len(lines)
			redeal := strings.Index(strings.Join(lines, ""), `"outcome":"redeal"`)
			if (name == "redeals" || strings.Contains(name, "three")) && redeal < 0 {
				t.Fatalf("the log has no redeal")
			}
			if _, out, err := verifyLines(t, lines); err != nil {
				t.Fatalf("clean log: %v\n%s", err, out)
			}
			if keyed := strings.Contains(lines[0], `"keyed":true`); keyed != strings.HasPrefix(name, "keyed") {
				t.Fatalf("keyed %t in the log", keyed)
			}
			firstRedeal := 0
			for i, l := range lines {
				if strings.Contains(l, `"outcome":"redeal"`) {
					firstRedeal = i
					break
				}
			}
			// 0-based lines: the first, the last, a game's first and last, a redeal, the middle.
			picks := []int{0, n - 1, n / 2, n/2 - 1, firstRedeal, n / 3}
			for _, k := range picks {
				del := append(append([]string(nil), lines[:k]...), lines[k+1:]...)
				path, out, err := verifyLines(t, del)
				if err == nil || !reportedAt(out, path, k+1, k) {
					t.Errorf("line %d deleted: %v\n%s", k+1, err, out)
				}
				dup := append(append(append([]string(nil), lines[:k+1]...), lines[k]), lines[k+1:]...)
				path, out, err = verifyLines(t, dup)
				if err == nil || !reportedAt(out, path, k+2) {
					t.Errorf("line %d duplicated: %v\n%s", k+1, err, out)
				}
			}
			for _, sw := range [][2]int{{0, 1}, {n - 2, n - 1}, {n / 2, n/2 + 1}, {3, n - 3}, {n / 3, n / 2}} {
				swapped := append([]string(nil), lines...)
				i, j := sw[0], sw[1]
				swapped[i], swapped[j] = swapped[j], swapped[i]
				path, out, err := verifyLines(t, swapped)
				if err == nil || !reportedAt(out, path, i+1) {
					t.Errorf("lines %d and %d swapped: %v\n%s", i+1, j+1, err, out)
				}
			}
		})
	}
}

// TestVerifyLogTwins replaces a match's duplicate game with the same game of a match with
// another seed but the same first dealer: every deal is consistent on its own and dealt by
// the right seat, but not its twin's cards.
func TestVerifyLogTwins(t *testing.T) {
	buildTools(t)
	seedB := 8
	for referee.FirstDealer(nil, uint64(seedB), 0, 4) != referee.FirstDealer(nil, 7, 0, 4) {
		seedB++
	}
	bots := []string{randomBot + " -seed 1", randomBot + " -seed 2", "--games", "1"}
	a := matchLog(t, append(bots, "--seed", "7")...)
	b := matchLog(t, append(bots, "--seed", strconv.Itoa(seedB))...)
	var first referee.DealRecord
	if err := json.Unmarshal([]byte(a[0]), &first); err != nil {
		t.Fatal(err)
	}
	spliced := append([]string(nil), a[:16]...)
	for _, line := range b[16:] {
		var r referee.DealRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		r.Match, r.Seed = first.Match, first.Seed
		data, _ := json.Marshal(&r)
		spliced = append(spliced, string(data)+"\n")
	}
	path, out, err := verifyLines(t, spliced)
	if err == nil || !reportedAt(out, path, 17) || !strings.Contains(out, "duplicate twin") || strings.Contains(out, "inconsistent with the rules") {
		t.Errorf("spliced twin: %v\n%s", err, out)
	}
}

// TestVerifyDBMatches alters a stored league through the store and checks replay --verify
// --db reports a deal missing from a done match and a done match without deals (the store's
// check on open, which counts a finished match's rows), sums that do not add up, and
// accepts a match in progress.
func TestVerifyDBMatches(t *testing.T) {
	dbPath, _ := storedLeague(t)
	db, err := store.Open(dbPath, store.Options{Command: "test"})
	if err != nil {
		t.Fatal(err)
	}
	var recs []referee.DealRecord
	var orig store.Match
	if err := db.Deals("t", 0, func(m *store.Match, rec *referee.DealRecord) error {
		orig, recs = *m, append(recs, *rec)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// restore stores deals of match 0 again and marks it done with the original sums,
	// changed by alter.
	restore := func(deals []referee.DealRecord, alter func(m *store.Match)) {
		t.Helper()
		m := orig
		if err := db.StartMatch("t", &m); err != nil {
			t.Fatal(err)
		}
		if len(deals) > 0 {
			if err := db.PutDeals("t", 0, deals); err != nil {
				t.Fatal(err)
			}
		}
		if alter == nil {
			return // left in progress
		}
		if _, err := db.FinishMatch("t", 0, func(_ []referee.DealRecord, m *store.Match, _ *store.Totals) error {
			m.Games, m.Deals = nil, orig.Deals
			for _, g := range orig.Games {
				g.Totals = slices.Clone(g.Totals)
				m.Games = append(m.Games, g)
			}
			alter(m)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	reopen := func() {
		var err error
		if db, err = store.Open(dbPath, store.Options{Command: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	verify := func() (string, error) {
		db.Close()
		out, _, err := runArena(t, "replay", "--verify", "--db", dbPath)
		reopen()
		return out, err
	}
	// refused runs replay --verify on the file as restore leaves it, which the store's
	// check on open refuses (for writing too), and then puts the file back as it was.
	refused := func(deals []referee.DealRecord) (string, error) {
		db.Close()
		before, err := os.ReadFile(dbPath)
		if err != nil {
			t.Fatal(err)
		}
		reopen()
		restore(deals, func(*store.Match) {})
		db.Close()
		out, _, err := runArena(t, "replay", "--verify", "--db", dbPath)
		if err := os.WriteFile(dbPath, before, 0o600); err != nil {
			t.Fatal(err)
		}
		reopen()
		return out, err
	}
	defer func() { db.Close() }()

	missing := append(append([]referee.DealRecord(nil), recs[:5]...), recs[6:]...)
	if _, err := refused(missing); err == nil || !strings.Contains(err.Error(), "league t: finished match 0 holds 31 stored deals, its record says 32") {
		t.Errorf("deal missing: %v", err)
	}
	restore(recs, func(m *store.Match) { m.Games[1].Totals[0] += 10 })
	if out, err := verify(); err == nil || !strings.Contains(out, "game 2: the stored deals add up to 16 deals and totals") {
		t.Errorf("altered sums: %v\n%s", err, out)
	}
	if _, err := refused(nil); err == nil || !strings.Contains(err.Error(), "league t: finished match 0 holds 0 stored deals, its record says 32") {
		t.Errorf("no deals: %v", err)
	}
	restore(recs[:10], nil)
	if out, err := verify(); err != nil || !strings.Contains(out, "10 deals verified") {
		t.Errorf("match in progress: %v\n%s", err, out)
	}
	// A JSON row (PutDeals) the rules contradict: the store does not re-derive it, Verify does.
	tampered := slices.Clone(recs)
	tampered[4].Result.Score = []int{recs[4].Result.Score[0] + 1, recs[4].Result.Score[1]}
	restore(tampered, func(*store.Match) {})
	if out, err := verify(); err == nil || !strings.Contains(err.Error(), "1 of 32 deals are inconsistent") ||
		!strings.Contains(out, "db t/0: match t/0 game 1 deal 5 attempt 0: deal record is inconsistent with the rules: result") {
		t.Errorf("tampered row: %v\n%s", err, out)
	}
	restore(recs, func(*store.Match) {})
	if out, err := verify(); err != nil || !strings.Contains(out, "32 deals verified") {
		t.Errorf("restored: %v\n%s", err, out)
	}
}

// dealPages returns the numbers of the leaf pages of a bbolt file that hold deal rows (keys
// of 10 bytes), read from the page headers of the file format.
func dealPages(t *testing.T, data []byte) (pageSize int, pages []int) {
	t.Helper()
	pageSize = int(binary.LittleEndian.Uint32(data[16+8:])) // page header, magic, version
	for id := 2; (id+1)*pageSize <= len(data); id++ {
		p := data[id*pageSize:]
		const leaf = 0x02
		if binary.LittleEndian.Uint64(p) != uint64(id) || binary.LittleEndian.Uint16(p[8:]) != leaf || binary.LittleEndian.Uint16(p[10:]) == 0 {
			continue
		}
		// The first element: flags, pos, ksize, vsize.
		if binary.LittleEndian.Uint32(p[16:]) == 0 && binary.LittleEndian.Uint32(p[24:]) == 10 {
			pages = append(pages, id)
		}
	}
	if len(pages) == 0 {
		t.Fatal("no page of deal rows found")
	}
	return pageSize, pages
}

// TestDamagedPage overwrites an 8 KB page of deal rows of a cleanly closed league database
// with random bytes, and alters a few bytes of one deal row leaving every page's structure
// intact: standings, replay --verify --db, export and league each report it, exit non-zero
// and do not panic, and league does not write on.
func TestDamagedPage(t *testing.T) {
	dbPath, _ := storedLeague(t)
	file := filepath.Join(filepath.Dir(dbPath), "league.toml")
	data, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	size, pages := dealPages(t, data)
	page := pages[len(pages)/2]
	random := bytes.Clone(data)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := page * size; i < min((page+2)*size, len(random)); i++ {
		random[i] = byte(rng.Uint32())
	}
	altered := bytes.Clone(data)
	p := altered[page*size:]
	pos, ksize := binary.LittleEndian.Uint32(p[16+4:]), binary.LittleEndian.Uint32(p[16+8:])
	value := p[16+pos+ksize:]
	for i := 40; i < 44; i++ {
		value[i] ^= 0x5a
	}
	for name, content := range map[string][]byte{"random": random, "altered": altered} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "arena.db")
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"standings", "--db", path},
				{"replay", "--verify", "--db", path},
				{"export", "--db", path},
				{"league", "--db", path, file},
			} {
				out, _, err := runArena(t, args...)
				if err == nil || !strings.Contains(err.Error(), "not a valid arena database: "+path) {
					t.Errorf("%s: %v\n%s", args[0], err, out)
				}
				if name == "altered" && err != nil && !strings.Contains(err.Error(), "league t: the stored row of match 0 game") {
					t.Errorf("%s does not name the deal: %v", args[0], err)
				}
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, content) {
				t.Error("the damaged file was changed")
			}
		})
	}
}

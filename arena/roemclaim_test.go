package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// roemDeals is how many claim_required deals TestRoemClaimsFromRulesDoc plays per variant:
// $ARENA_ROEM_DEALS, or 500, a smaller number than the full check's 10,000 so that `make test`
// (which runs it under -race, about 3.3 s per 1,000 deals and variant on the 2-vCPU VM) stays
// quick. The full check, about 10 s per variant without -race:
//
//	ARENA_ROEM_DEALS=10000 go test ./arena -run TestRoemClaimsFromRulesDoc -v -count=1 -timeout 60m
func roemDeals(t *testing.T) int {
	if v := os.Getenv("ARENA_ROEM_DEALS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("ARENA_ROEM_DEALS=%q is not a positive number", v)
		}
		return n
	}
	return 500
}

// TestRoemClaimsFromRulesDoc runs arena/testdata/roembot.py, a plain Python bot that knows
// roem only from the tables of RULES.md (it reads them at start-up), through real `arena
// match` runs under roem_claiming = claim_required, for each four_of_a_kind value, for
// stuk_scoring = announced_by_holder and for the three-player game. Every claim in the deal
// log must equal the roem the referee finds in the trick: no false and no short claim.
// A copy of RULES.md with one wrong value must make the same check fail.
func TestRoemClaimsFromRulesDoc(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the roem bot is a Python script")
	}
	root, _ := filepath.Abs("..")
	doc := filepath.Join(root, "RULES.md")
	deals := roemDeals(t)
	variants := []struct {
		name  string
		args  []string
		seats int
	}{
		{"all_100", []string{"-o", "four_of_a_kind=all_100"}, 2},
		{"jacks_200_high_100", []string{"-o", "four_of_a_kind=jacks_200_high_100"}, 2},
		{"jacks_200_all_100", []string{"-o", "four_of_a_kind=jacks_200_all_100"}, 2},
		{"announced_by_holder", []string{"-o", "stuk_scoring=announced_by_holder"}, 2},
		{"drie_spelers", []string{"--preset", "drie_spelers"}, 3},
		{"drie_spelers_four_at_the_table", []string{"--preset", "drie_spelers"}, 4},
	}
	// Four of a kind is rare in shuffled deals (a few in 10,000), so a fifth of the
	// four-player deals are dealt from a file in which every player holds one whole suit:
	// there nearly every trick can be, and with this bot often is, four of a kind.
	suited := filepath.Join(t.TempDir(), "suited.deals")
	if err := os.WriteFile(suited, []byte(suitedDeals()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			start := time.Now()
			var st roemStats
			if v.seats != 2 {
				st = roemMatch(t, python, doc, v.args, v.seats, deals, 11)
			} else {
				st = roemMatch(t, python, doc, v.args, v.seats, deals-deals*4/5, 12, "--deals", suited)
				st.add(roemMatch(t, python, doc, v.args, v.seats, deals*4/5, 11))
			}
			t.Logf("%d deals in %v: %d claims, %d with roem, %d with stuk, %d of four (three) of a kind %v; claims by value %v",
				st.deals, time.Since(start).Round(time.Millisecond), st.claims, st.withRoem, st.stuk, st.sameRank, st.byRank, st.byValue)
			for _, m := range st.mismatches[:min(len(st.mismatches), 10)] {
				t.Error(m)
			}
			if len(st.mismatches) > 0 {
				t.Errorf("%d of %d claims differ from the trick's roem", len(st.mismatches), st.claims)
			}
			if st.deals < deals || st.withRoem == 0 || st.sameRank == 0 {
				t.Errorf("%d deals with %d claims of roem, %d of same rank: want at least %d deals and some of each", st.deals, st.withRoem, st.sameRank, deals)
			}
		})
	}
	t.Run("wrong_table_fails", func(t *testing.T) {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		wrong := bytes.Replace(text, []byte("| run of three | 20 |"), []byte("| run of three | 30 |"), 1)
		if bytes.Equal(wrong, text) {
			t.Fatal("RULES.md has no row '| run of three | 20 |' to change")
		}
		bad := filepath.Join(t.TempDir(), "RULES.md")
		if err := os.WriteFile(bad, wrong, 0o644); err != nil {
			t.Fatal(err)
		}
		st := roemMatch(t, python, bad, nil, 2, 40, 11)
		if len(st.mismatches) == 0 {
			t.Errorf("a RULES.md with a run of three worth 30 gave no wrong claim in %d claims", st.claims)
		}
	})
}

// suitedDeals is a predefined-deals file (spec.md §13) of 24 deals in which each player
// holds one whole suit, a different assignment of suits to seats in each.
func suitedDeals() string {
	var b strings.Builder
	suits := []string{"C", "D", "H", "S"}
	var perm func(k int)
	n := 0
	perm = func(k int) {
		if k == len(suits) {
			fmt.Fprintf(&b, "dealer %c\n", "NESW"[n%4])
			for i, s := range suits {
				fmt.Fprintf(&b, "%c", "NESW"[i])
				for _, r := range "789TJQKA" {
					fmt.Fprintf(&b, " %c%s", r, s)
				}
				b.WriteString("\n")
			}
			n++
			return
		}
		for i := k; i < len(suits); i++ {
			suits[k], suits[i] = suits[i], suits[k]
			perm(k + 1)
			suits[k], suits[i] = suits[i], suits[k]
		}
	}
	perm(0)
	return b.String()
}

type roemStats struct {
	deals, claims, withRoem, sameRank, stuk int
	byValue                                 map[int]int    // claims by value
	byRank                                  map[string]int // four (three) of a kind by rank
	mismatches                              []string
}

func (s *roemStats) add(o roemStats) {
	s.deals += o.deals
	s.claims += o.claims
	s.withRoem += o.withRoem
	s.sameRank += o.sameRank
	s.stuk += o.stuk
	for k, v := range o.byValue {
		s.byValue[k] += v
	}
	for k, v := range o.byRank {
		s.byRank[k] += v
	}
	s.mismatches = append(s.mismatches, o.mismatches...)
}

// roemMatch plays at least deals deals of claim_required between copies of the roem bot
// reading doc, and checks every claim of the log against the referee's roem of the trick.
func roemMatch(t *testing.T, python, doc string, extra []string, seats, deals int, seed int, more ...string) roemStats {
	t.Helper()
	dir := t.TempDir()
	script, _ := filepath.Abs(filepath.Join("testdata", "roembot.py"))
	bot := python + " " + script + " " + doc
	games := 2 // four players: each deal set twice (duplicate)
	if seats > 2 {
		games = seats // the three-player game: once per seat
	}
	sets := (deals + games*100 - 1) / (games * 100) // games of at most 100 deals
	perGame := (deals + games*sets - 1) / (games * sets)
	args := []string{"match"}
	for range seats {
		args = append(args, bot)
	}
	args = append(args, "--games", strconv.Itoa(sets), "-o", "roem_claiming=claim_required", "-o", fmt.Sprintf("game_end=deals:%d", perGame),
		"--seed", strconv.Itoa(seed), "--json", "--log", filepath.Join(dir, "log.jsonl"))
	args = append(append(args, extra...), more...)

	cliMu.Lock()
	var out, errOut bytes.Buffer
	app := newApp(&out, &errOut)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	err := app.RunContext(ctx, flagsFirst(app, append([]string{"arena"}, args...)))
	cancel()
	cliMu.Unlock()
	if err != nil {
		t.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	var res referee.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	for _, b := range res.Bots {
		if len(b.Faults) > 0 {
			t.Fatalf("the roem bot faulted: %v", b.Faults)
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	st := roemStats{byValue: map[int]int{}, byRank: map[string]int{}}
	for i, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		var rec referee.DealRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("log line %d: %v", i+1, err)
		}
		if rec.Rules.RoemClaiming != rules.RoemClaimRequired {
			t.Fatalf("log line %d: roem_claiming is %s", i+1, rec.Rules.RoemClaiming)
		}
		checkClaims(t, &rec, i+1, &st)
	}
	return st
}

// checkClaims replays one logged deal with the engine and compares each claim with the roem
// of the trick it was made for.
func checkClaims(t *testing.T, rec *referee.DealRecord, line int, st *roemStats) {
	t.Helper()
	setup, err := rec.Setup()
	if err != nil {
		t.Fatalf("log line %d: %v", line, err)
	}
	seating, _ := rec.Seating()
	d, err := rules.NewDeal(&rec.Rules, setup)
	if err != nil {
		t.Fatalf("log line %d: %v", line, err)
	}
	for _, a := range rec.Actions {
		if a.Claim != nil {
			if d.Phase() != rules.PhaseClaim {
				t.Fatalf("log line %d: a claim outside the claim phase", line)
			}
			tr := d.Tricks()[len(d.Tricks())-1]
			want := tr.Roem.Total()
			st.claims++
			st.byValue[*a.Claim]++
			if want > 0 {
				st.withRoem++
			}
			for _, it := range tr.Roem.List() {
				switch it.Kind {
				case rules.RoemSameRank:
					st.sameRank++
					st.byRank[it.Rank.String()]++
				case rules.RoemStuk:
					st.stuk++
				}
			}
			if *a.Claim != want {
				st.mismatches = append(st.mismatches, fmt.Sprintf("log line %d, trick %d %v (trump %s): claimed %d, the trick holds %d",
					line, len(d.Tricks()), tr.Cards[:tr.N], d.Trump(), *a.Claim, want))
			}
		}
		if err := a.Apply(d, seating); err != nil {
			t.Fatalf("log line %d: %v", line, err)
		}
	}
	if d.Phase() != rules.PhaseDone {
		t.Fatalf("log line %d: the deal does not finish", line)
	}
	if d.Result().Outcome != rules.Redeal {
		st.deals++
	}
}

package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/ask"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/urfave/cli/v2"
)

// firstLegalBot is a deterministic bash bot: the first legal bid and card, the first two
// cards of the hand to discard, no roem claimed. At the request line KNOWN (when set) it
// does what CHANGE says instead: the new build whose answer changed in one position.
const firstLegalBot = `#!/usr/bin/env bash
while read -r kind rest; do
  set -- $rest
  if [ -n "KNOWN" ] && [ "$kind $rest" = "KNOWN" ]; then
    CHANGE
  fi
  case $kind in
    klaverjas) echo "hello 1 firstlegal tests" ;;
    rules) echo ok ;;
    bid) shift 2; echo "$1" ;;
    play) shift 5; echo "$1" ;;
    discard) IFS=, read -r a b _ <<< "$4"; echo "$a $b" ;;
    claim) echo 0 ;;
    quit) exit 0 ;;
  esac
done
`

// Changes a build of firstLegalBot may make at the known request.
const (
	playLast = `shift 5; echo "${@: -1}"; continue` // the last legal card instead of the first
	crash    = `exit 3`
	hang     = `sleep 30`
)

func writeFirstLegal(t *testing.T, dir, name, known, change string) string {
	t.Helper()
	script := strings.NewReplacer("KNOWN", known, "CHANGE", cmp.Or(change, ":")).Replace(firstLegalBot)
	path := filepath.Join(dir, name+".sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// askTime is the time per decision of the logged matches and of asking them again (a log
// does not keep it): the requests are then the same, and generous, since on a loaded machine
// a shell bot can take more than the default second.
const askTime = "5s"

// askMatch plays a match of the first-legal bot (as "firstlegal") against the hostile
// test bot behaving, with a log and a trace per seat, and returns the log's path and the
// trace directory.
func askMatch(t *testing.T, dir string, extra ...string) (string, string) {
	t.Helper()
	first := writeFirstLegal(t, dir, "firstlegal", "", "")
	other := writeBot(t, dir, "other", "shift 5; echo \"$1\"; continue", "echo ok")
	log, traces := filepath.Join(dir, "log.jsonl"), filepath.Join(dir, "traces")
	args := append([]string{"match", "bash " + first, "bash " + other, "--games", "1", "-o", "game_end=deals:4", "--seed", "21",
		"--time", askTime, "--log", log, "--trace-dir", traces}, extra...)
	if _, errOut, err := runArena(t, args...); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	noFaults(t, log)
	return log, traces
}

// askFaults lists the faults of the decisions of r, for a failure's message.
func askFaults(r askReport) []string {
	var faults []string
	for _, d := range r.Decisions {
		if d.Outcome == ask.Faulted {
			faults = append(faults, d.Fault)
		}
	}
	return faults
}

// askJSON runs arena ask with --json and returns the report and the exit status. Asking a
// log, it asks with askTime.
func askJSON(t *testing.T, args ...string) (askReport, int) {
	t.Helper()
	if slices.Contains(args, "--log") {
		args = append([]string{"--time", askTime}, args...)
	}
	out, errOut, err := runArena(t, append([]string{"ask", "--json"}, args...)...)
	status := 0
	var exit cli.ExitCoder
	if errors.As(err, &exit) {
		status = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var r askReport
	if status != 2 {
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %s\n%s", err, out, errOut)
		}
	}
	return r, status
}

// knownPosition picks, from the seat traces of the bot firstlegal, a play request with at
// least two legal cards in the deal-th deal (from 1) that the seat received once in the
// whole match: the position a new build answers differently. It returns the line and the
// seat.
func knownPosition(t *testing.T, traces string, deal int) (string, string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(traces, "*-firstlegal.trace"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for l := range strings.SplitSeq(string(data), "\n") {
			seen[l]++
		}
		deals := 0
		for l := range strings.SplitSeq(string(data), "\n") {
			if strings.HasPrefix(l, "< dealt ") {
				deals++
			}
			if deals == deal && strings.HasPrefix(l, "< play ") && len(strings.Fields(l)) > 8 && seen[l] == 1 {
				return strings.TrimPrefix(l, "< "), filepath.Base(file)[:1]
			}
		}
	}
	t.Fatalf("no play request with a choice in deal %d in %v", deal, files)
	return "", ""
}

// TestAskFindsTheChangedDecision: a new build that plays another card in one known position
// of a logged match is found by arena ask at exactly that decision, the whole match asked;
// the identical build gives no differences at all; and asking the one decision by
// MATCH/DEAL@SEAT#N finds it alone. Without --bot a build given as a command is known by its
// hello name.
func TestAskFindsTheChangedDecision(t *testing.T) {
	dir := botDir(t)
	log, traces := askMatch(t, dir)
	recs := logRecords(t, log)
	decisions := 0
	for _, r := range recs {
		for _, a := range r.Actions {
			if r.Seats[seatIndex(a.Seat)] == "firstlegal" {
				decisions++
			}
		}
	}

	same, status := askJSON(t, "--log", log, "--bot", "firstlegal", "bash "+filepath.Join(dir, "firstlegal.sh"))
	if status != 0 || same.Summary.Asked != decisions || same.Summary.Same != decisions || same.Summary.Different+same.Summary.Faults != 0 {
		t.Fatalf("identical build: exit %d, summary %+v; want exit 0 and all %d decisions the same", status, same.Summary, decisions)
	}

	known, seat := knownPosition(t, traces, 3)
	changed := writeFirstLegal(t, dir, "changed", known, playLast)
	r, status := askJSON(t, "--log", log, "--bot", "firstlegal", "bash "+changed)
	if status != 1 || r.Summary.Different != 1 || r.Summary.Same != decisions-1 || r.Summary.Faults != 0 {
		t.Fatalf("changed build: exit %d, summary %+v; want exit 1 and exactly 1 of %d different", status, r.Summary, decisions)
	}
	// Without --bot the build is known by the name its hello says, as the match logged it,
	// although its file has another name.
	if byHello, status := askJSON(t, "--log", log, "bash "+changed); status != 1 || byHello.Bot != "firstlegal" || byHello.Summary.Asked != decisions || byHello.Summary.Different != 1 {
		t.Errorf("changed build without --bot: exit %d, bot %q, summary %+v; want exit 1, firstlegal, 1 of %d different", status, byHello.Bot, byHello.Summary, decisions)
	}
	var diff ask.Decision
	for _, d := range r.Decisions {
		if d.Outcome == ask.Different {
			diff = d
		}
	}
	legal := strings.Fields(known)[6:]
	if diff.Line != known || diff.Seat != seat || diff.Deal != recs[2].Deal || diff.Logged != legal[0] || diff.Answer != legal[len(legal)-1] {
		t.Fatalf("the difference found is %+v; want seat %s of the third deal at %q, %s then and %s now", diff, seat, known, legal[0], legal[len(legal)-1])
	}

	// The decision by itself, as the output names it: MATCH/DEAL@SEAT#N.
	sel := recs[2].Match + "/3@" + seat + "#" + strconv.Itoa(diff.N)
	one, status := askJSON(t, "--log", log, "bash "+changed, sel)
	if status != 1 || len(one.Decisions) != 1 || one.Decisions[0].Line != known || one.Decisions[0].Outcome != ask.Different {
		t.Fatalf("ask %s: exit %d, %+v", sel, status, one.Decisions)
	}
	text, _, _ := runArena(t, "ask", "--time", askTime, "--log", log, "bash "+changed, sel)
	if !strings.Contains(text, "different") || !strings.Contains(text, seat+" (firstlegal) to play") || !strings.Contains(text, "trick ") {
		t.Errorf("the text output does not show the position of the difference:\n%s", text)
	}
}

// TestAskReportsCrashAndTimeout: a build that crashes, or hangs past the decision time, at
// the known position is reported with that fault, its later decisions in the deal not
// asked, and exit status 1; an unknown match, or a decision or seat that is not there, is an
// arena error, exit status 2.
func TestAskReportsCrashAndTimeout(t *testing.T) {
	dir := botDir(t)
	log, traces := askMatch(t, dir)
	known, _ := knownPosition(t, traces, 2)
	for _, c := range []struct{ name, change, kind string }{{"crash", crash, "crash"}, {"hang", hang, "timeout"}} {
		t.Run(c.name, func(t *testing.T) {
			bot := writeFirstLegal(t, dir, c.name, known, c.change)
			r, status := askJSON(t, "--log", log, "--bot", "firstlegal", "bash "+bot) // the match's time, so the lines are the same
			if status != 1 || r.Summary.Faults != 1 || r.Summary.Different != 0 {
				t.Fatalf("exit %d, summary %+v; want exit 1 and one fault", status, r.Summary)
			}
			for i, d := range r.Decisions {
				if d.Outcome != ask.Faulted {
					continue
				}
				if d.Line != known || !strings.HasPrefix(d.Fault, c.kind+":") {
					t.Fatalf("fault %+v; want %s at %q", d, c.kind, known)
				}
				if last := r.Decisions[len(r.Decisions)-1]; i+1 < len(r.Decisions) && r.Decisions[i+1].Seat == d.Seat && r.Decisions[i+1].Deal == d.Deal &&
					r.Decisions[i+1].Outcome != ask.Skipped {
					t.Fatalf("the decision after the fault was asked: %+v (last %+v)", r.Decisions[i+1], last)
				}
			}
			if r.Summary.Skipped == 0 {
				t.Fatalf("no later decision of the deal skipped after the %s: %+v", c.name, r.Summary)
			}
		})
	}
	recs := logRecords(t, log)
	for _, sel := range []string{"nosuchmatch/1@N", recs[0].Match + "/1@N#99", recs[0].Match + "/1@X"} {
		if _, status := askJSON(t, "--log", log, "bash "+filepath.Join(dir, "firstlegal.sh"), sel); status != 2 {
			t.Errorf("ask %s: exit %d, want 2", sel, status)
		}
	}
}

// TestAskThreePlayer asks the decisions of a three-player match (three bots, and four with
// the dealer sitting out): the identical build gives no differences, a changed one is found.
func TestAskThreePlayer(t *testing.T) {
	for _, table := range []int{3, 4} {
		t.Run(strconv.Itoa(table), func(t *testing.T) {
			dir := botDir(t)
			first := writeFirstLegal(t, dir, "firstlegal", "", "")
			log, traces := filepath.Join(dir, "log.jsonl"), filepath.Join(dir, "traces")
			args := []string{"match", "--preset", "drie_spelers", "--games", "1", "--duplicate=false", "-o", "game_end=deals:3", "--seed", "4",
				"--time", askTime, "--log", log, "--trace-dir", traces}
			for range table {
				args = append(args, "bash "+first)
			}
			if _, errOut, err := runArena(t, args...); err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			noFaults(t, log)
			r, status := askJSON(t, "--log", log, "bash "+first)
			if status != 0 || r.Summary.Asked == 0 || r.Summary.Same != r.Summary.Asked {
				t.Fatalf("identical build: exit %d, summary %+v, faults %q", status, r.Summary, askFaults(r))
			}
			known, _ := knownPosition(t, traces, 1)
			changed := writeFirstLegal(t, dir, "changed", known, playLast)
			r, status = askJSON(t, "--log", log, "--bot", "firstlegal", "bash "+changed)
			if status != 1 || r.Summary.Different != 1 || r.Summary.Faults != 0 {
				t.Fatalf("changed build: exit %d, summary %+v, faults %q", status, r.Summary, askFaults(r))
			}
		})
	}
}

func logRecords(t *testing.T, path string) []referee.DealRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []referee.DealRecord
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		var r referee.DealRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// noFaults fails the test if a deal of the log has a fault: the bots must play cleanly.
func noFaults(t *testing.T, log string) {
	t.Helper()
	for _, r := range logRecords(t, log) {
		if len(r.Faults)+len(r.Rejected) > 0 {
			t.Fatalf("the logged match has faults: %+v %+v", r.Faults, r.Rejected)
		}
	}
}

func seatIndex(s string) int { return strings.Index("NESW", s) }

// TestAskFromTheDatabase asks the decisions of a stored league, whose time control the
// database keeps: the bot is sent the league's decision time, and the identical build gives
// no differences; a deal asked by LEAGUE/N/DEAL@SEAT too.
func TestAskFromTheDatabase(t *testing.T) {
	dir := botDir(t)
	first := writeFirstLegal(t, dir, "firstlegal", "", "")
	text := `name = "lg"
games = 2
seed = 3
concurrency = 1
[rules]
game_end = "deals:2"
[time]
decision = "700ms"
[[bot]]
name = "fl"
cmd = ["bash", "` + first + `"]
[[bot]]
name = "other"
cmd = ["bash", "` + first + `"]
`
	path := filepath.Join(dir, "league.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "a.db")
	if _, errOut, err := runArena(t, "league", "--db", db, path); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	r, status := askJSON(t, "--db", db, "--league", "lg", "--bot", "fl", "bash "+first)
	if status != 0 || r.Summary.Asked == 0 || r.Summary.Same != r.Summary.Asked {
		t.Fatalf("exit %d, summary %+v", status, r.Summary)
	}
	for _, d := range r.Decisions {
		if !strings.HasPrefix(d.Line, d.Request+" 700 ") {
			t.Fatalf("request %q: want the league's 700 ms", d.Line)
		}
	}
	one, status := askJSON(t, "--db", db, "bash "+first, "lg/0/2@E")
	if status != 0 || len(one.Decisions) == 0 || one.Bot == "" {
		t.Fatalf("lg/0/2@E: exit %d, %+v", status, one)
	}
}

// TestAskValidate: arena ask checks its whole command line, the bot included, before any
// deal is read or any bot started, every problem reported together.
func TestAskValidate(t *testing.T) {
	dir := t.TempDir()
	ac := parseCommand(t, "ask", askConfigFromFlags, "/no/such/bot", "m/1@X", "--time", "0s", "--grace", "-1s", "--sandbox", "maybe")
	_, err := ac.validate(dir)
	if err == nil {
		t.Fatal("accepted")
	}
	got := strings.Split(err.Error(), "\n")
	want := []string{
		`"m/1@X": want MATCH/DEAL@SEAT[#N]`,
		`bot "bot": program /no/such/bot: `,
		"--time 0s: must be more than 0",
		"--grace -1s: must not be negative",
		"--sandbox: ",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(got), len(want), err)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d: %q, want it to start %q", i+1, got[i], want[i])
		}
	}
	p, err := parseCommand(t, "ask", askConfigFromFlags, "/bin/cat", "m/2@E#3", "--sandbox", "off", "--log", "deals.jsonl").validate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.sel.deals != "m/2" || p.sel.seat.String() != "E" || p.opt.Only != 3 || !slices.Contains(p.policy.Hide, "deals.jsonl") {
		t.Errorf("plan: selection %+v, only %d, hidden %q", p.sel, p.opt.Only, p.policy.Hide)
	}
	if _, err := parseCommand(t, "ask", askConfigFromFlags, "--sandbox", "off").validate(dir); err == nil {
		t.Error("no BOT: accepted")
	}
}

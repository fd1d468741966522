package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/urfave/cli/v2"
)

// hostileBot is a bash bot named BOTNAME that plays its first legal choice until its third
// play request, then does what misbehave says. Every process it starts carries its directory in its
// command line or environment, so the test can look for survivors.
const hostileBot = `#!/usr/bin/env bash
n=0
while read -r kind rest; do
  set -- $rest
  case $kind in
    klaverjas) echo "hello 1 BOTNAME tests" ;;
    rules) RULES_ANSWER ;;
    bid) shift 2; echo "$1" ;;
    play)
      n=$((n+1))
      if [ $n -ge 3 ]; then
        MISBEHAVE
      fi
      shift 5; echo "$1" ;;
    claim) echo 0 ;;
    quit) exit 0 ;;
  esac
done
`

// notHeld prints a card that is neither in the hand ($5) nor in the trick ($4).
const notHeld = `for c in 7C 8C 9C TC JC QC KC AC 7D 8D 9D TD JD QD KD AD 7H 8H 9H TH JH QH KH AH 7S 8S 9S TS JS QS KS AS; do
          case ",$5,$4," in *",$c,"*) ;; *) echo "$c"; break ;; esac
        done; continue`

func writeBot(t *testing.T, dir, name, misbehave, rulesAnswer string) string {
	t.Helper()
	script := strings.NewReplacer("BOTNAME", name, "MISBEHAVE", misbehave, "RULES_ANSWER", rulesAnswer).Replace(hostileBot)
	path := filepath.Join(dir, name+".sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// cliMu serialises in-process runs of the command line: urfave/cli sets up its global help
// flag on every run, which races between parallel tests.
var cliMu sync.Mutex

// runArena runs the arena command line in this process and returns stdout, stderr and the error.
func runArena(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	cliMu.Lock()
	defer cliMu.Unlock()
	var out, errOut lockedBuffer // the logger writes from the goroutine of each table and bot
	app := newApp(&out, &errOut)
	app.ExitErrHandler = func(*cli.Context, error) {} // return cli.Exit errors instead of exiting the test
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err := app.RunContext(ctx, flagsFirst(app, append([]string{"arena"}, args...)))
	return out.String(), errOut.String(), err
}

// lockedBuffer is a bytes.Buffer that many goroutines may write at once, as they write the
// arena's stderr (an *os.File) in a real run.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// survivors lists processes whose command line or environment mention marker.
func survivors(marker string) []string {
	var found []string
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		for _, f := range []string{"cmdline", "environ"} {
			data, err := os.ReadFile(filepath.Join(p, f))
			if err == nil && bytes.Contains(data, []byte(marker)) {
				cmd, _ := os.ReadFile(filepath.Join(p, "cmdline"))
				found = append(found, fmt.Sprintf("%s: %s", p, bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))
				break
			}
		}
	}
	return found
}

// floodTime is the decision time of the stderr flood: writing 30 MB through a pipe takes
// well over 300 ms on a loaded machine (it failed about one run in three at load 4), and the
// flood must not be mistaken for a timeout.
const floodTime = "20s"

func TestMatchHostileBots(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("bash is not installed: the hostile bots are bash scripts")
	}
	cases := []struct {
		name      string
		misbehave string
		kind      referee.FaultKind
	}{
		{"crash", "exit 3", referee.FaultCrash},
		{"timeout", "sleep 30", referee.FaultTimeout},
		{"garbage", `printf '\001\002 not a card\n'; continue`, referee.FaultGarbage},
		{"wrong-token", `echo "I play the ace"; continue`, referee.FaultGarbage},
		{"illegal", notHeld, referee.FaultIllegal},
		{"info-flood", `yes "info spam"`, referee.FaultFlood},
		{"long-line", `head -c 100000 /dev/zero | tr '\0' x; echo; continue`, referee.FaultGarbage},
		{"closes-stdout", "exec >&-; sleep 30", referee.FaultCrash},
		{"closes-stdout-exits", "exec >&-; exit 0", referee.FaultCrash},
		{"escapes-setsid", `setsid bash -c "sleep 300" </dev/null >/dev/null 2>&1 & sleep 30`, referee.FaultTimeout},
		{"stderr-flood", `head -c 30000000 /dev/zero >&2; shift 5; echo "$1"; continue`, ""}, // decision time: floodTime
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := botDir(t)
			bad := writeBot(t, dir, "bad", tc.misbehave, "echo ok")
			good := writeBot(t, dir, "good", ":", "echo ok")
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			decision := "300ms"
			if tc.name == "stderr-flood" {
				decision = floodTime
			}
			out, errOut, err := runArena(t, "match", "bash "+bad, "bash "+good, "--games", "1", "--duplicate=false",
				"-o", "game_end=deals:3", "--time", decision, "--seed", "7", "--json", "--log", filepath.Join(dir, "log.jsonl"))
			if err != nil {
				t.Fatalf("arena error (bot faults must not be arena errors): %v\n%s", err, errOut)
			}
			var res referee.Result
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("result JSON: %v\n%s", err, out)
			}
			if len(res.Games) != 1 || res.Games[0].Deals != 3 {
				t.Fatalf("match did not finish: %+v", res.Games)
			}
			for _, s := range []int{1, 3} {
				if len(res.Bots[s].Faults) > 0 {
					t.Errorf("the good bot at seat %d faulted: %v", s, res.Bots[s].Faults)
				}
			}
			faults := res.Bots[0].Faults[tc.kind] + res.Bots[2].Faults[tc.kind]
			switch {
			case tc.kind == "" && res.Sides[0].Forfeits != 0:
				t.Errorf("a stderr flood is not a fault, got %v %v", res.Bots[0].Faults, res.Bots[2].Faults)
			case tc.kind != "" && (faults == 0 || res.Sides[0].Forfeits != faults || res.Sides[1].Forfeits != 0):
				t.Errorf("faults N %v S %v, forfeits %d/%d: want %s faults costing NS only", res.Bots[0].Faults, res.Bots[2].Faults, res.Sides[0].Forfeits, res.Sides[1].Forfeits, tc.kind)
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grown := int64(after.HeapInuse) - int64(before.HeapInuse); grown > 64<<20 {
				t.Errorf("arena heap grew by %d MiB", grown>>20)
			}
			deadline := time.Now().Add(3 * time.Second)
			for len(survivors(dir)) > 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if s := survivors(dir); len(s) > 0 {
				t.Errorf("bot processes survived the match:\n%s", strings.Join(s, "\n"))
			}
			log, err := os.ReadFile(filepath.Join(dir, "log.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
				var rec referee.DealRecord
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatalf("log line %d: %v", i+1, err)
				}
				if err := rec.Verify(); err != nil {
					t.Errorf("log line %d: %v", i+1, err)
				}
			}
		})
	}
}

func TestMatchRefusedRuleset(t *testing.T) {
	dir := botDir(t)
	picky := writeBot(t, dir, "picky", ":", `echo "refuse only amsterdams, sorry"`)
	good := writeBot(t, dir, "good", ":", "echo ok")
	_, _, err := runArena(t, "match", "bash "+picky, "bash "+good, "--games", "1")
	if err == nil || !strings.Contains(err.Error(), "only amsterdams, sorry") {
		t.Fatalf("err = %v, want the bot's refusal", err)
	}
	if s := survivors(dir); len(s) > 0 {
		t.Errorf("survivors: %v", s)
	}
}

// TestMatchThreePlayerSetup: the three-player game takes three or four bots; a bot that does
// not play it refuses at the handshake and no match is played.
func TestMatchThreePlayerSetup(t *testing.T) {
	out, errOut, err := runArena(t, "match", "/bin/cat", "/bin/cat", "--preset", "drie_spelers")
	if err == nil || !strings.Contains(err.Error(), "three-player game wants three bots") || strings.Contains(errOut, "isolation") || out != "" {
		t.Fatalf("err %v, stderr %q: want two bots refused before anything starts", err, errOut)
	}
	_, _, err = runArena(t, "match", "/bin/cat", "/bin/cat", "/bin/cat", "--preset", "drie_spelers", "--sprt", "elo0=0,elo1=5", "--deals", "/dev/null")
	if err == nil || !strings.Contains(err.Error(), "--sprt") || !strings.Contains(err.Error(), "--deals") {
		t.Fatalf("err %v: want --sprt and --deals refused for the three-player game", err)
	}
	root, _ := filepath.Abs("..")
	bin := filepath.Join(botDir(t), "heuristic")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "examplebots/go/heuristic")).CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	random := "python3 " + filepath.Join(root, "examplebots/python/random_bot.py")
	out, _, err = runArena(t, "match", random, random, bin, "--preset", "drie_spelers", "--games", "1")
	if err == nil || !strings.Contains(err.Error(), "no match played") || !strings.Contains(err.Error(), "three-player game not supported by heuristic") || out != "" {
		t.Fatalf("err %v, out %q: want the Go heuristic's refusal and no match", err, out)
	}
}

func TestMatchConfigErrorsAllReported(t *testing.T) {
	_, _, err := runArena(t, "match", "/no/such/bot", "'unclosed", "--games", "0", "-o", "bidding=blind", "--affinity", "everywhere")
	if err == nil {
		t.Fatal("bad configuration accepted")
	}
	for _, want := range []string{"/no/such/bot", "unclosed", "--games", "bidding", "--affinity"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
}

func TestMatchSPRTStopsEarly(t *testing.T) {
	dir := botDir(t)
	good := writeBot(t, dir, "good", ":", "echo ok")
	reneger := writeBot(t, dir, "reneger", notHeld, "echo ok")
	out, errOut, err := runArena(t, "match", "bash "+good, "bash "+reneger, "--games", "50", "-o", "game_end=deals:2",
		"--sprt", "elo0=0,elo1=200", "--seed", "1")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.Contains(out, " pairs: good is stronger than reneger (good − reneger > 0 Elo; H1 accepted: LLR ") {
		t.Fatalf("no H1 decision for the good bot:\n%s", out)
	}
	if !strings.Contains(errOut, "games 2/100: NS good ") || !strings.Contains(errOut, ", LLR ") {
		t.Errorf("no progress line with the LLR:\n%s", errOut)
	}
	var pairs int
	if _, err := fmt.Sscanf(out[strings.Index(out, "SPRT after "):], "SPRT after %d pairs", &pairs); err != nil || pairs >= 10 || pairs < 2 {
		t.Errorf("stopped after %d pairs (%v), want an early stop", pairs, err)
	}
	if _, _, err := runArena(t, "match", "bash "+good, "bash "+good, "--sprt", "elo0=10,elo1=0,alpha=2"); err == nil {
		t.Error("a bad --sprt was accepted")
	}
}

// TestMatchExampleBots plays real matches between the example bots of every language as real
// processes, under several rulesets: no bot may fault, every deal must verify.
func TestMatchExampleBots(t *testing.T) {
	root, _ := filepath.Abs("..")
	bin := botDir(t)
	for _, b := range []string{"random", "heuristic"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(bin, b), "./examplebots/go/"+b)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", b, err, out)
		}
	}
	bots := map[string]string{
		"go-heuristic": filepath.Join(bin, "heuristic"),
		"go-random":    filepath.Join(bin, "random"),
		"py-heuristic": "python3 " + filepath.Join(root, "examplebots/python/heuristic.py"),
		"py-random":    "python3 " + filepath.Join(root, "examplebots/python/random_bot.py"),
		"py-plain":     "python3 " + filepath.Join(root, "examplebots/python/random_plain.py"),
		"sh-random":    "bash " + filepath.Join(root, "examplebots/shell/random.sh"),
		"js-random":    "node " + filepath.Join(root, "examplebots/js/random.js"),
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Log("node is not installed: the JavaScript bot is left out")
		delete(bots, "js-random")
	}
	type match struct {
		bots   []string
		preset string
	}
	var matches []match
	for i, p := range [][]string{{"py-heuristic", "py-random"}, {"go-heuristic", "py-plain"}, {"sh-random", "js-random"}, {"py-heuristic", "go-random"}} {
		matches = append(matches, match{p, rules.PresetNames()[i%len(rules.PresetNames())]})
	}
	// The three-player game: three bots, and four with the dealer sitting out.
	matches = append(matches, match{[]string{"py-heuristic", "sh-random", "go-random"}, "drie_spelers"},
		match{[]string{"js-random", "py-plain", "py-random", "py-heuristic"}, "drie_spelers"})
	for _, m := range matches {
		args := []string{"match"}
		for _, b := range m.bots {
			args = append(args, bots[b])
		}
		if slices.Contains(args, "") {
			continue
		}
		t.Run(strings.Join(m.bots, "-vs-")+"-"+m.preset, func(t *testing.T) {
			dir := botDir(t)
			out, errOut, err := runArena(t, append(args, "--games", "1", "--preset", m.preset, "-o", "game_end=deals:4",
				"--seed", "11", "--json", "--log", filepath.Join(dir, "log.jsonl"))...)
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			var res referee.Result
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			for _, bs := range res.Bots {
				if len(bs.Faults) > 0 {
					t.Errorf("%s faulted: %v", bs.Name, bs.Faults)
				}
			}
			if want := map[bool]int{true: len(m.bots), false: 2}[m.preset == "drie_spelers"]; len(res.Games) != want || res.Deals < 4*want {
				t.Errorf("%d games of %d deals, want %d games", len(res.Games), res.Deals, want)
			}
			log, _ := os.ReadFile(filepath.Join(dir, "log.jsonl"))
			for i, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
				var rec referee.DealRecord
				if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.Verify() != nil {
					t.Errorf("log line %d does not verify: %v %v", i+1, err, rec.Verify())
				}
			}
		})
	}
}

// botDir is a fresh temporary directory that a sandboxed bot may read: t.TempDir is 0700, and
// a bot runs as another user (botproc.SandboxUID) when the tests run as root.
func botDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee/botproc"
)

// cpuBot answers each play request after 0.1 s of its own CPU time (a busy loop, so on any
// machine), the first legal card; it bids the first legal bid.
const cpuBot = `import sys, time
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "klaverjas":
        print("hello 1 cpubot tests", flush=True)
    elif w[0] == "rules":
        print("ok", flush=True)
    elif w[0] == "bid":
        print(w[3], flush=True)
    elif w[0] == "play":
        start = time.process_time()
        while time.process_time() - start < 0.1:
            pass
        print(w[6], flush=True)
    elif w[0] == "claim":
        print(0, flush=True)
    elif w[0] == "quit":
        break
`

// TestBusyMachineTimeouts: with a busy process pinned to every CPU, the table's CPU
// (--affinity shared) is shared, and a bot that computes for about two thirds of its time
// is late; its timeouts say that the machine was busy, and the match's table counts them, as
// do a league's standings (stored, and recomputed from the deals alike). More load on the
// machine only makes more of them.
func TestBusyMachineTimeouts(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash for the random bot:", err)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 for the bot and the busy processes:", err)
	}
	dir := t.TempDir()
	bot := filepath.Join(dir, "cpubot.py")
	if err := os.WriteFile(bot, []byte(cpuBot), 0o755); err != nil {
		t.Fatal(err)
	}
	for cpu := range runtime.NumCPU() {
		hog := exec.Command(py, "-c", fmt.Sprintf("import os\nos.sched_setaffinity(0, {%d})\nwhile True: pass", cpu))
		if err := hog.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = hog.Process.Kill(); _ = hog.Wait() })
	}
	random, _ := filepath.Abs(filepath.Join("..", "examplebots/shell/random.sh"))
	out, errOut, err := runArena(t, "match", py+" "+bot, bash+" "+random,
		"--games", "1", "-o", "game_end=deals:4", "--time", "100ms", "--max-faults", "1000", "--affinity", "shared", "--sandbox", "off")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	t.Log("\n" + out)
	if !strings.Contains(errOut, "time kept from a CPU from cpu.pressure") {
		t.Skipf("the bots' cgroups keep no cpu.pressure here (see the isolation line):\n%s", errOut)
	}
	if !strings.Contains(out, " on a busy machine)") {
		t.Errorf("the match table counts no timeout on a busy machine:\n%s", out)
	}
	if !strings.Contains(errOut, "other programs had the CPU (cpu.pressure): the machine was busy") {
		t.Errorf("no timeout detail blames the busy machine:\n%s", errOut)
	}

	league := filepath.Join(dir, "league.toml")
	text := fmt.Sprintf("name = \"busy\"\ngames = 2\nsandbox = \"off\"\nmax_faults = 1000\n[rules]\ngame_end = \"deals:4\"\n[time]\ndecision = \"100ms\"\n"+
		"[[bot]]\nname = \"cpubot\"\ncmd = [%q, %q]\n[[bot]]\nname = \"random\"\ncmd = [%q, %q]\n", py, bot, bash, random)
	if err := os.WriteFile(league, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "arena.db")
	if _, errOut, err := runArena(t, "league", "--quiet", "--db", db, league); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, args := range [][]string{{"standings", "--db", db}, {"standings", "--db", db, "--recompute"}} {
		out, errOut, err := runArena(t, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut)
		}
		if !strings.Contains(out, " on a busy machine)") {
			t.Errorf("%v counts no timeout on a busy machine:\n%s", args, out)
		}
	}
}

// thiefBot starts 32 busy loops before it says hello and then plays at once (the random
// example bot): it takes what CPU it can while the other bots are to move.
const thiefBot = `for i in $(seq 32); do (while :; do :; done) & done
exec bash %q
`

// TestMatchCPUThiefAtTheTable: a bot whose processes compute while it is not to move costs
// the bot that is to move nothing. The victim, cpuBot, needs 0.1 s of CPU for each card and
// has 2 s; the thief's 32 busy loops at each of its seats would leave it about a 33rd of a
// CPU, 3.3 s a card, without the turn priority (and keep it from starting within 10 s: the
// control run in the closing note of stop 44). Unsandboxed, the bots share one session, so
// the kernel's autogroups, which give each session its share, do not help.
func TestMatchCPUThiefAtTheTable(t *testing.T) {
	if l := botproc.Limits(); !strings.Contains(l, "turn priority: a bot found") {
		t.Skipf("no cpu cgroup controller for the turn priority here: %s", l)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash for the thief:", err)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 for the victim:", err)
	}
	dir := t.TempDir()
	victim, thief := filepath.Join(dir, "cpubot.py"), filepath.Join(dir, "thief.sh")
	random, _ := filepath.Abs(filepath.Join("..", "examplebots/shell/random.sh"))
	if err := os.WriteFile(victim, []byte(cpuBot), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(thief, fmt.Appendf(nil, thiefBot, random), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runArena(t, "match", py+" "+victim, bash+" "+thief,
		"--games", "1", "-o", "game_end=deals:2", "--time", "2s", "--max-faults", "1000", "--sandbox", "off")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	t.Log("\n" + out)
	rows := 0
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) == 7 && f[1] == "cpubot" {
			rows++
			if f[6] != "-" {
				t.Errorf("the victim at seat %s has faults: %s", f[0], line)
			}
		}
	}
	if rows != 2 {
		t.Fatalf("found %d seat rows of cpubot in the match table, want 2:\n%s", rows, out)
	}
	if strings.Contains(errOut, "no answer within") {
		t.Errorf("a bot timed out:\n%s", errOut)
	}
}

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
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

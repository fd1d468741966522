//go:build linux

package botproc

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// busyScript starts a child that spins, answers the first request with "ans ready" and the
// next with "ans done", killing the child.
const busyScript = `while :; do :; done & read x; echo "ans ready"; read y; kill $!; echo "ans done"; read z`

// groupCPU returns the CPU time, in clock ticks, of every process of the bot's process
// group (from /proc), or -1 if none can be read.
func groupCPU(t *testing.T, pgid int) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	total := -1
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// After the command's closing parenthesis: state ppid pgrp ... utime (12th) stime (13th).
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) < 13 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		u, _ := strconv.Atoi(f[11])
		s, _ := strconv.Atoi(f[12])
		total = max(total, 0) + u + s
	}
	return total
}

// TestPause: a paused bot's processes (a spinning child included) use no CPU time; resumed,
// they run again and the bot answers; a paused bot is stopped as any other.
func TestPause(t *testing.T) {
	p := mustStart(t, shBot(t, busyScript))
	// Not the turn priority's test: demoted, the spinning child would have the least CPU
	// share between the bot's turns, and on a busy machine wait long for the CPU time the
	// test waits for after Resume.
	p.unwatchTurns()
	ready(t, p)
	if err := p.Pause(); err != nil {
		t.Fatalf("Pause: %v", err)
	}
	time.Sleep(100 * time.Millisecond) // a cgroup freezes soon after, not at once
	before := groupCPU(t, p.Pid())
	time.Sleep(500 * time.Millisecond)
	paused := groupCPU(t, p.Pid()) - before
	if before < 0 || paused > 1 {
		t.Errorf("paused for 0.5 s, the bot used %d clock ticks of CPU (read %d before): want none", paused, before)
	}
	if err := p.Resume(); err != nil {
		t.Fatalf("Resume: %v", err)
	}
	start := groupCPU(t, p.Pid())
	for deadline := time.Now().Add(20 * time.Second); groupCPU(t, p.Pid())-start < 5; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("resumed, the spinning child got no CPU time in 20 s")
		}
	}
	if r := exchange(t, p, "req done", 20*time.Second); r.Line != "ans done" {
		t.Fatalf("answer after Resume: %q", r.Line)
	}
	q := mustStart(t, shBot(t, busyScript))
	ready(t, q)
	if err := q.Pause(); err != nil {
		t.Fatalf("Pause: %v", err)
	}
	stopWithin(t, q, 100*time.Millisecond, 10*time.Second) // its cleanup checks nothing is left
}

// TestPause_Sandboxed: the same for a sandboxed bot, whose processes only its cgroup reaches.
func TestPause_Sandboxed(t *testing.T) {
	needSandbox(t)
	p := mustStart(t, sandboxed(shBot(t, busyScript), Sandbox{}))
	p.unwatchTurns() // see TestPause
	ready(t, p)
	if err := p.Pause(); err != nil {
		t.Skipf("a sandboxed bot cannot be paused here: %v", err)
	}
	cpu := func() time.Duration { return p.cpuNow() }
	time.Sleep(100 * time.Millisecond)
	before := cpu()
	time.Sleep(500 * time.Millisecond)
	if used := cpu() - before; used > 10*time.Millisecond {
		t.Errorf("paused for 0.5 s, the sandboxed bot used %v of CPU: want none", used)
	}
	if err := p.Resume(); err != nil {
		t.Fatalf("Resume: %v", err)
	}
	start := cpu()
	for deadline := time.Now().Add(20 * time.Second); cpu()-start < 50*time.Millisecond; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("resumed, the sandboxed spinning child got no CPU time in 20 s")
		}
	}
	if r := exchange(t, p, "req done", 20*time.Second); r.Line != "ans done" {
		t.Fatalf("answer after Resume: %q", r.Line)
	}
}

// turnScript answers "read FILE" with FILE's contents; "spin" starts four busy child
// processes (they compute while the bot is not to move) and answers "spinning"; "sleep"
// answers after a second.
const turnScript = `while read req file; do
case $req in
spin) for i in 1 2 3 4; do (while :; do :; done) & done; echo spinning ;;
sleep) sleep 1; echo slept ;;
*) cat "$file" ;;
esac
done`

// TestTurnPriority: a bot that waits in read between its turns is left as it is, without a
// CPU share of its own; one whose processes compute between its turns is demoted by the
// watchdog: all its processes get a share of their own, the least there is whenever the bot
// is not to move (after each answer and after a timeout) and an ordinary one during its
// turns (the bot reads it out in its answer).
func TestTurnPriority(t *testing.T) {
	p := mustStart(t, shBot(t, turnScript))
	if p.cg == nil || !p.cg.turnable() {
		t.Skipf("no cpu cgroup controller for the turn priority here: %s", Limits())
	}
	demoted := func() bool {
		p.turn.mu.Lock()
		defer p.turn.mu.Unlock()
		return p.turn.demoted
	}
	if r := exchange(t, p, "read /proc/sys/kernel/ostype", 20*time.Second); r.Line != "Linux" {
		t.Fatalf("answer %q to reading /proc/sys/kernel/ostype", r.Line)
	}
	time.Sleep(20 * watchTick)
	if demoted() || p.cg.turn != nil || p.cg.cpuV1 != "" {
		t.Fatal("a bot that waits in read between its turns was demoted")
	}

	if r := exchange(t, p, "spin", 20*time.Second); r.Line != "spinning" {
		t.Fatalf("answer %q to spin", r.Line)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !demoted() && time.Now().Before(deadline) {
		time.Sleep(watchTick)
	}
	if !demoted() {
		t.Fatal("a bot computing between its turns was not demoted in 20 s")
	}
	if p.turn.failed {
		t.Fatal("the demotion failed (see the log)")
	}
	if p.cg.cpuV1 != "" { // cgroup v1: every process of the bot was moved
		procs, _ := os.ReadFile(p.cg.v2 + "/cgroup.procs")
		moved, _ := os.ReadFile(p.cg.cpuV1 + "/cgroup.procs")
		if n := len(strings.Fields(string(procs))); n < 5 || n != len(strings.Fields(string(moved))) {
			t.Errorf("the bot has processes %q, its cpu cgroup %q", procs, moved)
		}
	}
	file := p.cg.turn.Name()
	share := func() string {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}
	on, off := string(p.cg.onTurn), string(p.cg.offTurn)
	for i := range 3 {
		if got := share(); got != off {
			t.Errorf("before turn %d: %s is %s, want %s", i, file, got, off)
		}
		if r := exchange(t, p, "read "+file, 20*time.Second); r.Line != on {
			t.Errorf("turn %d: the bot read %q in %s, want %s", i, r.Line, file, on)
		}
	}
	if _, err := p.Exchange([]byte("sleep x\n"), true, 10*time.Millisecond); err == nil {
		t.Fatal("an answer after a second came within 10 ms")
	}
	if got := share(); got != off {
		t.Errorf("%s is %s after a timeout, want %s", file, got, off)
	}
}

// TestTurnPriority_StopOnBusyMachine: a demoted bot gets an ordinary share back when it is
// stopped, so it dies at once on a busy machine. With the least share, its killed processes
// waited seconds for a CPU to exit on (stop 44's CI: "still has processes 5s after
// cgroup.kill").
func TestTurnPriority_StopOnBusyMachine(t *testing.T) {
	p := mustStart(t, shBot(t, turnScript))
	if p.cg == nil || !p.cg.turnable() {
		t.Skipf("no cpu cgroup controller for the turn priority here: %s", Limits())
	}
	if r := exchange(t, p, "spin", 20*time.Second); r.Line != "spinning" {
		t.Fatalf("answer %q to spin", r.Line)
	}
	demoted := func() bool {
		p.turn.mu.Lock()
		defer p.turn.mu.Unlock()
		return p.turn.demoted && !p.turn.failed
	}
	for deadline := time.Now().Add(20 * time.Second); !demoted(); time.Sleep(watchTick) {
		if time.Now().After(deadline) {
			t.Fatal("a bot computing between its turns was not demoted in 20 s")
		}
	}
	for range 4 * runtime.NumCPU() { // plain processes, which the watchdog leaves alone
		hog := exec.Command("/bin/sh", "-c", "while :; do :; done")
		if err := hog.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = hog.Process.Kill(); _ = hog.Wait() })
	}
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	stopWithin(t, p, 100*time.Millisecond, time.Second)
	t.Logf("stopped in %v", time.Since(start))
}

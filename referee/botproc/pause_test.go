//go:build linux

package botproc

import (
	"os"
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

//go:build linux

package botproc

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
)

// Catalogue E: resource abuse. These need cgroup limits and are skipped without them.

func needLimit(t *testing.T, what string) {
	t.Helper()
	if l := Limits(); !strings.Contains(l, what+": cgroup") {
		t.Skipf("no %s on this machine: %s", what, l)
	}
}

// E1: a memory balloon is killed by the kernel at MemoryMax, and the fault says so. The
// balloon stops at 1 GiB in any case.
func TestExchange_MemoryBalloon(t *testing.T) {
	t.Parallel()
	needLimit(t, "memory.max")
	b := pyBot(t, pyReady+`sys.stdin.readline()
blocks = []
for i in range(128):
    blocks.append(bytearray(8 << 20))  # zero-filled: every page is touched
print("ans survived", flush=True)
sys.stdin.readline()`)
	b.MemoryMax = 64 << 20
	p := mustStart(t, b)
	ready(t, p)
	_, err := p.Exchange([]byte("req grow\n"), true, 20*time.Second)
	wantFault(t, err, referee.FaultMemory, "killed by signal 9", "memory limit of 67108864 bytes")
	stopWithin(t, p, 100*time.Millisecond, time.Second)
}

// E2: a fork bomb stops at PidsMax; the bot still answers (with how far it got) and every
// process it made dies at Stop. The bomb stops at 200 forks in any case.
func TestExchange_ForkBomb(t *testing.T) {
	t.Parallel()
	needLimit(t, "pids.max")
	b := pyBot(t, pyReady+`import os
sys.stdin.readline()
forked = failed = 0
for i in range(200):
    try:
        pid = os.fork()
    except OSError:
        failed += 1
        continue
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    forked += 1
print("ans", forked, failed, flush=True)
sys.stdin.readline()`)
	b.PidsMax = 16
	p := mustStart(t, b)
	ready(t, p)
	r := exchange(t, p, "req bomb", 20*time.Second)
	f := strings.Fields(r.Line)
	if len(f) != 3 {
		t.Fatalf("answer %q", r.Line)
	}
	forked, _ := strconv.Atoi(f[1])
	failed, _ := strconv.Atoi(f[2])
	if forked >= 16 || failed == 0 {
		t.Errorf("forked %d, failed %d, want fewer than 16 forks", forked, failed)
	}
	if n := len(findMarked(b.mark)); n > 16 {
		t.Errorf("%d bot processes alive, PidsMax is 16", n)
	}
	stopWithin(t, p, 100*time.Millisecond, time.Second)
	assertGone(t, b.mark)
}

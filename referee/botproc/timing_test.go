//go:build linux

package botproc

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/klaverjas-arena/arena/referee"
)

// Catalogue D: timing.

// D1/D2: an answer after the limit is a Timeout; the bot is stopped promptly.
func TestExchange_SlowReply(t *testing.T) {
	t.Parallel()
	b := goBot(t, "echo")
	p := mustStart(t, b)
	ready(t, p)
	start := time.Now()
	_, err := p.Exchange([]byte("req sleep 2000\n"), true, 150*time.Millisecond)
	wantFault(t, err, referee.FaultTimeout, "no answer within 150ms")
	if took := time.Since(start); took > time.Second {
		t.Errorf("Exchange took %v with a 150ms timeout", took)
	}
	stopWithin(t, p, 100*time.Millisecond, time.Second)
	assertGone(t, b.mark)
}

// An answer just inside the limit passes, and Wall measures it.
func TestExchange_ReplyJustInTime(t *testing.T) {
	t.Parallel()
	p := mustStart(t, goBot(t, "echo"))
	ready(t, p)
	r := exchange(t, p, "req sleep 200", 400*time.Millisecond)
	if r.Line != "ans sleep 200" {
		t.Errorf("got %q", r.Line)
	}
	if r.Wall < 190*time.Millisecond || r.Wall > 400*time.Millisecond {
		t.Errorf("Wall = %v, want between 200ms (less the write's return) and 400ms", r.Wall)
	}
}

// D3/D8: CPU time is measured per exchange, so a sleeping bot and a computing bot with the
// same wall time can be told apart.
func TestExchange_CPUTime(t *testing.T) {
	t.Parallel()
	p := mustStart(t, goBot(t, "echo"))
	ready(t, p)
	clock0 := processCPUClock(p.Pid())
	spin := exchange(t, p, "req spin 200", 5*time.Second)
	clock := processCPUClock(p.Pid()) - clock0
	sleep := exchange(t, p, "req sleep 200", 5*time.Second)
	t.Logf("spin: CPU %v (process clock %v), Wall %v; sleep: CPU %v, Wall %v", spin.CPU, clock, spin.Wall, sleep.CPU, sleep.Wall)
	// This VM gives a spinning process as little as half a CPU, less under load, so only
	// the contrast is certain.
	if spin.CPU < 10*time.Millisecond || spin.CPU > spin.Wall+10*time.Millisecond {
		t.Errorf("spinning 200ms: CPU %v, Wall %v", spin.CPU, spin.Wall)
	}
	// The bot may start its sleep before the arena's write call returns: allow 10ms.
	if sleep.CPU > 10*time.Millisecond || sleep.Wall < 190*time.Millisecond || sleep.CPU*5 > spin.CPU {
		t.Errorf("sleeping 200ms: CPU %v, Wall %v", sleep.CPU, sleep.Wall)
	}
	// The cgroup's count (all processes, µs) and the process clock (main process, ns) agree
	// for a single-process bot.
	if d := spin.CPU - clock; d < -5*time.Millisecond || d > 5*time.Millisecond {
		t.Errorf("cgroup CPU %v and process clock %v disagree", spin.CPU, clock)
	}
}

// processCPUClock reads the CPU clock of process pid.
func processCPUClock(pid int) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(int32((^pid)<<3|2), &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// After Conn.MeterCPU the answers carry no CPU time: CPUSinceMark reads it, all of it since
// the previous reading, when asked.
func TestExchange_CPUOnRequest(t *testing.T) {
	t.Parallel()
	p := mustStart(t, goBot(t, "echo"))
	ready(t, p)
	Conn{p}.MeterCPU()
	p.CPUSinceMark() // the mark at the start of the spins
	var wall time.Duration
	for range 2 {
		spin := exchange(t, p, "req spin 100", 5*time.Second)
		if spin.CPU != 0 {
			t.Errorf("metered: an answer carries CPU %v", spin.CPU)
		}
		wall += spin.Wall
	}
	// As in TestExchange_CPUTime, only the contrast with sleeping is certain under load.
	spun := p.CPUSinceMark()
	if spun < 10*time.Millisecond || spun > wall+10*time.Millisecond {
		t.Errorf("two answers spinning 100ms each: CPU %v read after them, Wall %v", spun, wall)
	}
	exchange(t, p, "req sleep 200", 5*time.Second)
	if slept := p.CPUSinceMark(); slept > 10*time.Millisecond || slept*5 > spun {
		t.Errorf("an answer sleeping 200ms: CPU %v read after it (spinning: %v)", slept, spun)
	}
}

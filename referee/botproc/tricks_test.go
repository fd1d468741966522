//go:build linux

package botproc

import (
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"golang.org/x/sys/unix"
)

// Catalogue F: process tricks.

// F1: the main process exits but leaves a child that keeps stdout open. The Exchange reports
// the crash at once, not at the timeout, and Stop kills the orphan.
func TestExchange_OrphanKeepsStdout(t *testing.T) {
	t.Parallel()
	b := shBot(t, `read x; sleep 30 & exit 7`)
	p := mustStart(t, b)
	start := time.Now()
	_, err := p.Exchange([]byte("req x\n"), true, 10*time.Second)
	wantFault(t, err, referee.FaultCrash, "exit status 7", "leftover process keeps its stdout open")
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("crash found after %v", took)
	}
	if len(findMarked(b.mark)) == 0 {
		t.Error("the orphan is already gone; the test proves nothing")
	}
	stopWithin(t, p, 100*time.Millisecond, 500*time.Millisecond)
	assertGone(t, b.mark)
}

// F2: a grandchild that calls setsid leaves the process group; only the cgroup catches it.
func TestStop_SetsidGrandchild(t *testing.T) {
	t.Parallel()
	b := pyBot(t, `import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.close(1); os.close(2)
        time.sleep(30)
    os._exit(0)
os.wait()
time.sleep(0.05)  # let the grandchild start
for line in sys.stdin:
    print("ans", line.split()[-1], flush=True)`)
	p := mustStart(t, b)
	ready(t, p)
	escaped := false
	for _, pid := range findMarked(b.mark) {
		if pgid, _ := unix.Getpgid(pid); pgid != p.Pid() {
			escaped = true
		}
	}
	if !escaped {
		t.Fatal("no process left the bot's process group; the test proves nothing")
	}
	if !strings.Contains(Limits(), "cgroup v2") {
		p.Stop(100 * time.Millisecond)
		left := findMarked(b.mark)
		for _, pid := range left {
			unix.Kill(pid, unix.SIGKILL)
		}
		for deadline := time.Now().Add(2 * time.Second); len(findMarked(b.mark)) > 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		t.Skipf("no cgroups: a setsid'd descendant escapes the process group kill (%d killed by the test)", len(left))
	}
	stopWithin(t, p, 100*time.Millisecond, 500*time.Millisecond)
	assertGone(t, b.mark)
}

// F3: a bot that ignores SIGTERM (and EOF on stdin) is killed after two graces.
func TestStop_IgnoresSIGTERM(t *testing.T) {
	t.Parallel()
	b := pyBot(t, `import signal, sys, time
for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(s, signal.SIG_IGN)
print("ans ready", flush=True)
while True:
    time.sleep(1)`)
	p := mustStart(t, b)
	r, err := p.Exchange([]byte("req ready\n"), true, 20*time.Second)
	if err != nil || r.Line != "ans ready" {
		t.Fatalf("ready: %q %v", r.Line, err)
	}
	start := time.Now()
	stopWithin(t, p, 100*time.Millisecond, time.Second)
	if took := time.Since(start); took < 200*time.Millisecond {
		t.Errorf("Stop took %v; it should have waited two graces of 100ms", took)
	}
	if got := p.ExitStatus(); got != "killed by signal 9 (SIGKILL)" {
		t.Errorf("ExitStatus = %q", got)
	}
	assertGone(t, b.mark)
}

// A bot that stops itself (SIGSTOP) times out, and Stop still kills it promptly.
func TestStop_StoppedBot(t *testing.T) {
	t.Parallel()
	b := shBot(t, `read x; kill -STOP $$; echo 'ans late'`)
	p := mustStart(t, b)
	_, err := p.Exchange([]byte("req x\n"), true, 300*time.Millisecond)
	wantFault(t, err, referee.FaultTimeout)
	stopWithin(t, p, 100*time.Millisecond, time.Second)
	assertGone(t, b.mark)
}

// F4: a bot that closes stdout and stays alive is a Crash, found at once.
func TestExchange_ClosesStdoutStaysAlive(t *testing.T) {
	t.Parallel()
	b := pyBot(t, pyReady+`import os
sys.stdin.readline()
os.close(1)
time.sleep(30)`)
	p := mustStart(t, b)
	ready(t, p)
	start := time.Now()
	_, err := p.Exchange([]byte("req x\n"), true, 10*time.Second)
	wantFault(t, err, referee.FaultCrash, "closed its stdout", "still running")
	if took := time.Since(start); took > time.Second {
		t.Errorf("crash found after %v", took)
	}
	stopWithin(t, p, 100*time.Millisecond, time.Second)
}

// F5: a bot that does not read its input blocks the arena's write only until the deadline.
func TestExchange_NotReadingStdin(t *testing.T) {
	t.Parallel()
	p := mustStart(t, shBot(t, `exec sleep 30`))
	big := []byte(strings.Repeat("req "+strings.Repeat("z", 1000)+"\n", 300)) // 300 KB > pipe buffer
	start := time.Now()
	_, err := p.Exchange(big, true, 200*time.Millisecond)
	wantFault(t, err, referee.FaultBlocked, "did not read its input")
	if took := time.Since(start); took > time.Second {
		t.Errorf("blocked write returned after %v", took)
	}
}

// F5: a bot that closes stdin makes the write fail with EPIPE, not kill the arena.
func TestExchange_ClosesStdin(t *testing.T) {
	t.Parallel()
	p := mustStart(t, pyBot(t, pyReady+`import os
os.close(0)
time.sleep(30)`))
	ready(t, p)
	time.Sleep(100 * time.Millisecond) // let it close
	_, err := p.Exchange([]byte("req x\n"), true, time.Second)
	wantFault(t, err, referee.FaultCrash, "closed its stdin")
}

// F9: exit 0 in the middle of a game is a crash.
func TestExchange_ExitsMidGame(t *testing.T) {
	t.Parallel()
	p := mustStart(t, goBot(t, "echo"))
	exchange(t, p, "req 1", 10*time.Second)
	_, err := p.Exchange([]byte("req exit 0\n"), true, 5*time.Second)
	wantFault(t, err, referee.FaultCrash, "closed its stdout", "exit status 0")
	_, err = p.Exchange([]byte("req 2\n"), true, 5*time.Second)
	wantFault(t, err, referee.FaultCrash)
}

// Stop can be called while an Exchange waits; the Exchange returns at once.
func TestStop_DuringExchange(t *testing.T) {
	t.Parallel()
	b := goBot(t, "echo")
	p := mustStart(t, b)
	ready(t, p)
	done := make(chan error, 1)
	go func() {
		_, err := p.Exchange([]byte("req sleep 20000\n"), true, 30*time.Second)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	stopWithin(t, p, 100*time.Millisecond, time.Second)
	select {
	case err := <-done:
		if err == nil {
			t.Error("Exchange succeeded after Stop")
		}
	case <-time.After(time.Second):
		t.Fatal("Exchange still waiting a second after Stop")
	}
	if _, err := p.Exchange([]byte("req x\n"), true, time.Second); err != ErrStopped {
		t.Errorf("Exchange after Stop: %v, want ErrStopped", err)
	}
	if err := p.Stop(0); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	assertGone(t, b.mark)
}

// Stop after the bot crashed returns at once.
func TestStop_AfterCrash(t *testing.T) {
	t.Parallel()
	p := mustStart(t, shBot(t, `exit 1`))
	time.Sleep(100 * time.Millisecond)
	stopWithin(t, p, time.Second, 100*time.Millisecond)
	if got := p.ExitStatus(); got != "exit status 1" {
		t.Errorf("ExitStatus = %q", got)
	}
}

// A bot whose every process is in one group: the group id is the main pid.
func TestStart_OwnProcessGroup(t *testing.T) {
	t.Parallel()
	p := mustStart(t, goBot(t, "echo"))
	pgid, err := unix.Getpgid(p.Pid())
	if err != nil || pgid != p.Pid() {
		t.Errorf("pgid %d (%v), want %d", pgid, err, p.Pid())
	}
	if pgid == unix.Getpgrp() {
		t.Error("bot shares the arena's process group")
	}
}

// An answer written in pieces just before the bot exits is still read whole: the exit
// watcher's wake-up never cuts a line. The next request finds the crash.
func TestExchange_AnswerThenExit(t *testing.T) {
	t.Parallel()
	for range 10 {
		p := mustStart(t, pyBot(t, `import sys, os
sys.stdin.readline()
os.write(1, b"ans ")
os.write(1, b"1\n")
os._exit(0)`))
		if r := exchange(t, p, "req x", 20*time.Second); r.Line != "ans 1" {
			t.Fatalf("got %q, want %q", r.Line, "ans 1")
		}
		_, err := p.Exchange([]byte("req y\n"), true, 5*time.Second)
		wantFault(t, err, referee.FaultCrash)
		p.Stop(0)
	}
}

// F1 between requests: the bot answers, then exits leaving a child on its stdout. The next
// request finds the crash at once.
func TestExchange_OrphanBetweenRequests(t *testing.T) {
	t.Parallel()
	b := shBot(t, `read x; echo 'ans 1'; sleep 30 & exit 5`)
	p := mustStart(t, b)
	exchange(t, p, "req x", 10*time.Second)
	time.Sleep(100 * time.Millisecond) // the main process exits meanwhile
	start := time.Now()
	_, err := p.Exchange([]byte("req y\n"), true, 10*time.Second)
	wantFault(t, err, referee.FaultCrash, "exit status 5")
	if took := time.Since(start); took > time.Second {
		t.Errorf("crash found after %v", took)
	}
	stopWithin(t, p, 100*time.Millisecond, 500*time.Millisecond)
	assertGone(t, b.mark)
}

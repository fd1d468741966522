//go:build linux

package botproc

import (
	"strings"
	"testing"
	"time"
)

// Stop during a write the bot does not take: the Exchange returns ErrStopped at once, not at
// its write deadline.
func TestStop_DuringBlockedWrite(t *testing.T) {
	t.Parallel()
	b := shBot(t, `exec sleep 30`)
	p := mustStart(t, b)
	big := []byte(strings.Repeat("req "+strings.Repeat("z", 1000)+"\n", 300)) // 300 KB > pipe buffer
	done := make(chan error, 1)
	go func() {
		_, err := p.Exchange(big, true, 30*time.Second)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	stopWithin(t, p, 100*time.Millisecond, time.Second)
	select {
	case err := <-done:
		if err != ErrStopped {
			t.Errorf("Exchange during Stop: %v, want ErrStopped", err)
		}
	case <-time.After(time.Second):
		t.Fatal("Exchange still writing a second after Stop")
	}
	assertGone(t, b.mark)
}

// Stop while an Exchange waits for an answer: the Exchange returns ErrStopped before Stop
// has even finished asking the bot to go.
func TestStop_WakesWaitingExchange(t *testing.T) {
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
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		_ = p.Stop(2 * time.Second) // the echo bot sleeps through the closing of its stdin
	}()
	select {
	case err := <-done:
		if err != ErrStopped {
			t.Errorf("Exchange during Stop: %v, want ErrStopped", err)
		}
	case <-time.After(time.Second):
		t.Fatal("Exchange still waiting a second after Stop began")
	}
	<-stopped
	assertGone(t, b.mark)
}

// An Exchange allocates nothing but its answer.
func TestExchange_Allocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates in system call wrappers")
	}
	p := mustStart(t, goBot(t, "echo"))
	ready(t, p)
	req := []byte("req x\n")
	allocs := testing.AllocsPerRun(200, func() {
		if r, err := p.Exchange(req, true, 10*time.Second); err != nil || r.Line != "ans x" {
			t.Fatalf("%q %v", r.Line, err)
		}
	})
	if allocs > 1 {
		t.Errorf("%v allocations per Exchange, want at most 1 (the answer string)", allocs)
	}
}

package league

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// countingBots returns entrants for bots a and b (seated a b a b) whose starts are counted,
// and which play their first legal choice.
func countingBots(starts *atomic.Int64) []referee.Entrant {
	first := bot.Bot{Name: "first", Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.BidKind:
			return bot.Answer{Bid: d.LegalBids.All()[0]}
		case bot.ClaimKind:
			return bot.Answer{}
		}
		return bot.Answer{Card: d.LegalCards.Nth(0)}
	}}
	inner := referee.NewInProcess(first)
	start := func(ctx context.Context) (referee.Conn, error) {
		starts.Add(1)
		return inner(ctx)
	}
	return []referee.Entrant{{Name: "a", Start: start}, {Name: "b", Start: start}, {Name: "a", Start: start}, {Name: "b", Start: start}}
}

// TestKeeperKeepsBots: with keep_bots, three matches of the same two bots on one worker start
// eight bots (four seats in each of a match's two rooms), not twenty-four, and each match is
// played in full; without it, every match starts its own.
func TestKeeperKeepsBots(t *testing.T) {
	for _, keep := range []bool{true, false} {
		var starts atomic.Int64
		k := &keeper{ctx: context.Background(), off: !keep}
		seats := []int{0, 1, 0, 1}
		for m := range 3 {
			var deals int
			cfg := referee.Config{ID: "k", Rules: rules.Default(), Games: 1, Duplicate: true, Seed: uint64(m),
				Records: referee.DealFunc(func(*referee.DealRecord) error { deals++; return nil })}
			res, err := referee.Run(context.Background(), cfg, k.entrants(countingBots(&starts), seats))
			if err != nil {
				t.Fatal(err)
			}
			if deals != 32 || res.Deals != 32 || res.Bots[0].Name != "a" || res.Bots[1].Name != "b" {
				t.Fatalf("keep %v, match %d: %d deals recorded, result %+v", keep, m, deals, res)
			}
		}
		k.stopAll()
		want := int64(24)
		if keep {
			want = 8
		}
		if got := starts.Load(); got != want {
			t.Errorf("keep %v: %d bot starts for three matches, want %d", keep, got, want)
		}
	}
}

// exitedConn is a connection whose process has exited.
type exitedConn struct {
	referee.Conn
	stopped *int
}

func (c exitedConn) ExitStatus() string { return "exit status 0" }

func (c exitedConn) Stop(time.Duration) error {
	*c.stopped++
	return nil
}

// TestKeeperDropsExitedProcess: a kept process whose exit is known (it died while it waited)
// is stopped, not handed to the next match, which starts a fresh one.
func TestKeeperDropsExitedProcess(t *testing.T) {
	k := &keeper{ctx: context.Background()}
	stopped := 0
	alive := &keptConn{k: k, bot: 1}
	k.put(alive)
	k.put(&keptConn{Conn: exitedConn{stopped: &stopped}, k: k, bot: 1}) // the newest: looked at first
	if got := k.take(1); got != alive || stopped != 1 {
		t.Fatalf("take: %p (the live one is %p), exited process stopped %d times, want once", got, alive, stopped)
	}
	if got := k.take(1); got != nil {
		t.Fatalf("second take: %p, want none", got)
	}
}

// pausingConn records Pause and Resume.
type pausingConn struct {
	referee.Conn
	mu    *sync.Mutex
	calls *[]string
}

func (c pausingConn) record(call string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	*c.calls = append(*c.calls, call)
	return nil
}

func (c pausingConn) Pause() error  { return c.record("pause") }
func (c pausingConn) Resume() error { return c.record("resume") }

// TestKeeperPausesIdleProcesses: a process the keeper holds between matches is paused once it
// has waited pauseAfter (it takes no CPU time from the matches being played) and resumed
// when a match takes it; one taken sooner is never paused.
func TestKeeperPausesIdleProcesses(t *testing.T) {
	k := &keeper{ctx: context.Background()}
	var mu sync.Mutex
	var calls []string
	got := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(calls)
	}
	c := &keptConn{Conn: pausingConn{mu: &mu, calls: &calls}, k: k, bot: 0}
	k.put(c)
	for deadline := time.Now().Add(10 * time.Second); len(got()) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a waiting process was not paused in 10 s")
		}
	}
	if k.take(0) != c {
		t.Fatal("take: not the kept process")
	}
	if want := []string{"pause", "resume"}; !slices.Equal(got(), want) {
		t.Errorf("calls %v, want %v", got(), want)
	}
	mu.Lock()
	calls = nil
	mu.Unlock()
	start := time.Now()
	k.put(c)
	if k.take(0) != c {
		t.Fatal("take: not the kept process")
	}
	if took := time.Since(start); took >= pauseAfter/2 {
		t.Logf("put and take took %v (a loaded machine): a pause may have been due, not checked", took)
		return
	}
	time.Sleep(2 * pauseAfter)
	if len(got()) != 0 {
		t.Errorf("a process taken before pauseAfter: calls %v, want none", got())
	}
}

package referee

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// failingStarts fails its first n starts with a start fault whose stderr says why, then
// starts start.
func failingStarts(n int32, start Starter) Starter {
	var calls atomic.Int32
	return func(ctx context.Context) (Conn, error) {
		if calls.Add(1) <= n {
			return nil, &Fault{Kind: FaultStart, Detail: "exec: no such file", StderrTail: "python3: can't open file 'nosuch.py'\n"}
		}
		return start(ctx)
	}
}

// TestRun_BotThatCannotStart: a bot that cannot start ends the match before the first deal
// with a *StartError carrying its stderr; one that fails once and then starts plays.
func TestRun_BotThatCannotStart(t *testing.T) {
	cfg := Config{ID: "t", Rules: rules.Default(), Games: 1, Seed: 1}
	e := randomEntrants()
	e[1].Start = failingStarts(2, e[1].Start)
	res, err := Run(context.Background(), cfg, e)
	var se *StartError
	if !errors.As(err, &se) || se.Bot != "beta" || se.Seat != protocol.East || !strings.Contains(err.Error(), "its stderr:\n  python3: can't open file 'nosuch.py'") {
		t.Fatalf("err = %v, want beta's StartError with its stderr", err)
	}
	if res.Deals != 0 {
		t.Errorf("%d deals played", res.Deals)
	}
	e = randomEntrants()
	e[1].Start = failingStarts(1, e[1].Start)
	res, err = Run(context.Background(), cfg, e)
	if err != nil || res.Deals == 0 || len(res.Bots[1].Faults) != 0 {
		t.Fatalf("a bot that starts at the second try: %v, %d deals, faults %v", err, res.Deals, res.Bots[1].Faults)
	}
}

// TestRun_InterruptedIsNobodysFault: cancelling the context while a bot thinks ends the match
// with the context's error, records no fault and writes no record of the unfinished deal.
func TestRun_InterruptedIsNobodysFault(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log strings.Builder
	cfg := Config{ID: "t", Rules: rules.Default(), Games: 1000, Seed: 1, Log: &log}
	e := randomEntrants()
	decisions := 0
	inner := e[2].Start
	e[2].Start = func(ctx context.Context) (Conn, error) {
		c, err := inner(ctx)
		if err != nil {
			return nil, err
		}
		return cancelAt{Conn: c, n: &decisions, at: 100, cancel: cancel}, nil
	}
	res, err := Run(ctx, cfg, e)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	for _, b := range res.Bots {
		if len(b.Faults) > 0 {
			t.Errorf("bot %s: faults %v", b.Name, b.Faults)
		}
	}
	lines := strings.Count(log.String(), "\n")
	if lines != res.Deals || lines == 0 || strings.Contains(log.String(), `"faults"`) {
		t.Errorf("%d records for %d deals (faults in the log: %v)", lines, res.Deals, strings.Contains(log.String(), `"faults"`))
	}
}

// cancelAt cancels the match context at its at-th exchange that wants a reply, then fails
// it as a bot killed by the interruption would.
type cancelAt struct {
	Conn
	n      *int
	at     int
	cancel context.CancelFunc
}

func (c cancelAt) Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error) {
	if wantReply {
		if *c.n++; *c.n == c.at {
			c.cancel()
			return Reply{}, &Fault{Kind: FaultCrash, Detail: "killed"}
		}
	}
	return c.Conn.Exchange(out, wantReply, timeout)
}

package referee

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
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
	cfg := Config{ID: "t", Rules: rules.Default(), Games: 1000, Seed: 1, Records: NewLogWriter(&log)}
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

// TestRun_PartsMergeToTheWhole: a match played as parts (FirstPair), merged, has the games,
// points and deals of the same match played whole, and the parts record the same deals.
func TestRun_PartsMergeToTheWhole(t *testing.T) {
	var whole, parts strings.Builder
	cfg := Config{ID: "t", Rules: rules.Default(), Games: 3, Duplicate: true, Seed: 5, Records: NewLogWriter(&whole)}
	want, err := Run(context.Background(), cfg, lowestEntrants())
	if err != nil {
		t.Fatal(err)
	}
	var got *Result
	for _, pair := range []int{2, 0, 1} {
		cfg := Config{ID: "t", Rules: rules.Default(), Games: 1, FirstPair: pair, Duplicate: true, Seed: 5, Records: NewLogWriter(&parts)}
		part, err := Run(context.Background(), cfg, lowestEntrants())
		if err != nil {
			t.Fatal(err)
		}
		if got == nil {
			got = part
		} else {
			got.Merge(part)
		}
	}
	got.SortGames()
	if len(got.Games) != len(want.Games) || got.Deals != want.Deals || got.Sides[0].Points != want.Sides[0].Points || got.Sides[1].Points != want.Sides[1].Points {
		t.Fatalf("merged parts: %d games %d deals %d-%d points; whole: %d games %d deals %d-%d", len(got.Games), got.Deals,
			got.Sides[0].Points, got.Sides[1].Points, len(want.Games), want.Deals, want.Sides[0].Points, want.Sides[1].Points)
	}
	for i := range want.Games {
		if got.Games[i].Number != want.Games[i].Number || got.Games[i].Pair != want.Games[i].Pair || got.Games[i].Totals[0] != want.Games[i].Totals[0] {
			t.Errorf("game %d: %+v, whole %+v", i, got.Games[i], want.Games[i])
		}
	}
	a, b := strings.Split(whole.String(), "\n"), strings.Split(parts.String(), "\n")
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(stripTimes(a), stripTimes(b)) {
		t.Error("the parts recorded other deals than the whole")
	}
}

// stripTimes drops the per-action times of record lines, which differ from run to run.
func stripTimes(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = regexp.MustCompile(`"(ms|cpu_ms)":[0-9.e-]+,?`).ReplaceAllString(l, "")
	}
	return out
}

// lowestEntrants are four deterministic bots: first legal bid, lowest legal card, honest
// roem claims; a restarted one plays as before.
func lowestEntrants() []Entrant {
	e := make([]Entrant, 4)
	for i := range e {
		name := []string{"low1", "low2", "low1", "low2"}[i]
		e[i] = Entrant{Name: name, Start: NewInProcess(bot.Bot{Name: name, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
			switch d.Kind {
			case bot.BidKind:
				return bot.Answer{Bid: d.LegalBids.All()[0]}
			case bot.ClaimKind:
				opts := map[string]any{}
				for k, v := range s.Options {
					opts[k] = v
				}
				rs, _ := rules.FromMap(opts)
				return bot.Answer{Claim: rules.TrickRoem(&rs, protocol.SetOf(d.Trick...), s.Trump).Total()}
			}
			return bot.Answer{Card: d.LegalCards.Lowest()}
		}})}
	}
	return e
}

package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/rs/zerolog"
)

// misbehaving wraps an in-process bot and spoils its answer to the n-th request it gets
// (counted over all its connections): a wrong card, garbage, or a crash.
type misbehaving struct {
	Conn
	count  *int
	spoil  func(n int, reply Reply) (Reply, error)
	starts *int
}

func (m misbehaving) Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error) {
	r, err := m.Conn.Exchange(out, wantReply, timeout)
	if err != nil || !wantReply || bytes.HasPrefix(out, []byte("klaverjas")) || bytes.HasPrefix(out, []byte("rules")) {
		return r, err
	}
	*m.count++
	return m.spoil(*m.count, r)
}

func misbehave(t *testing.T, spoil func(n int, r Reply) (Reply, error)) (Entrant, *int) {
	t.Helper()
	count, starts := 0, 0
	inner := NewInProcess(randomBot("bad", 9))
	return Entrant{Name: "bad", Start: func(ctx context.Context) (Conn, error) {
		starts++
		c, err := inner(ctx)
		return misbehaving{Conn: c, count: &count, spoil: spoil, starts: &starts}, err
	}}, &starts
}

func records(t *testing.T, log *bytes.Buffer) []DealRecord {
	t.Helper()
	var out []DealRecord
	for line := range strings.SplitSeq(strings.TrimSpace(log.String()), "\n") {
		var r DealRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if err := r.Verify(); err != nil {
			t.Fatalf("deal %d: %v", r.Deal, err)
		}
		out = append(out, r)
	}
	return out
}

// TestAnswerWrittenTwice: a bot that writes an answer twice has the second taken as its
// answer to the next request, where that card is no longer in its hand: the illegal fault
// says that it is the line of its previous answer again.
func TestAnswerWrittenTwice(t *testing.T) {
	var last string
	bad, _ := misbehave(t, func(n int, r Reply) (Reply, error) {
		if n == 12 && last != "" && !strings.Contains(last, " ") {
			r.Line = last // a card, once more
		}
		last = r.Line
		return r, nil
	})
	e := randomEntrants()
	e[0] = bad
	rs := rules.Default()
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 2}
	var log bytes.Buffer
	if _, err := Run(context.Background(), Config{Rules: rs, Games: 1, Seed: 1, Records: NewLogWriter(&log)}, e[:]); err != nil {
		t.Fatal(err)
	}
	var faults []string
	for _, r := range records(t, &log) {
		for _, f := range r.Faults {
			faults = append(faults, string(f.Kind)+": "+f.Detail)
		}
	}
	if len(faults) != 1 || !strings.HasPrefix(faults[0], "illegal: ") || !strings.Contains(faults[0], "the line of its previous answer again") {
		t.Errorf("faults %q, want one illegal fault saying the answer is the previous one again", faults)
	}
}

func TestFaultForfeitsDealAndRestarts(t *testing.T) {
	cases := []struct {
		name  string
		kind  FaultKind
		spoil func(n int, r Reply) (Reply, error)
	}{
		{"garbage", FaultGarbage, func(n int, r Reply) (Reply, error) {
			if n == 5 {
				r.Line = "\x00\x01 what?"
			}
			return r, nil
		}},
		{"crash", FaultCrash, func(n int, r Reply) (Reply, error) {
			if n == 5 {
				return Reply{}, &Fault{Kind: FaultCrash, Detail: "exit status 2"}
			}
			return r, nil
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bad, starts := misbehave(t, tc.spoil)
			e := randomEntrants()
			var seen []string
			bad.Start = recorded(bad.Start, &seen)
			e[0] = bad
			rs := rules.Default()
			rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 4}
			var log bytes.Buffer
			res, err := Run(context.Background(), Config{Rules: rs, Games: 1, Seed: 1, Records: NewLogWriter(&log)}, e[:])
			if err != nil {
				t.Fatal(err)
			}
			recs := records(t, &log)
			var faulted []DealRecord
			for _, r := range recs {
				if len(r.Faults) > 0 {
					faulted = append(faulted, r)
				}
			}
			if len(faulted) != 1 || faulted[0].Faults[0].Kind != tc.kind || faulted[0].Result.Outcome != "forfeit" || faulted[0].Result.Offender != "N" {
				t.Fatalf("faulted deals %+v", faulted)
			}
			if s := faulted[0].Result.Score; s[0] != 0 || s[1] < 262 {
				t.Errorf("forfeit score %v: NS must score 0 and EW 162 + roem + 100", s)
			}
			if *starts != 2 {
				t.Errorf("bot started %d times, want 2 (restarted after the fault)", *starts)
			}
			if res.Bots[0].Faults[tc.kind] != 1 || res.Sides[0].Forfeits != 1 {
				t.Errorf("result faults %v forfeits %d", res.Bots[0].Faults, res.Sides[0].Forfeits)
			}
			if len(recs) != 4 {
				t.Errorf("%d deals logged, want 4: the match goes on", len(recs))
			}
			// The restarted bot is told its game and seat again after the handshake.
			restart := strings.Join(seen, "\n")
			restart = restart[strings.LastIndex(restart, "< klaverjas"):]
			if g, d := strings.Index(restart, "< game 1 N 1000 0 0"), strings.Index(restart, "< dealt "); g < 0 || d < g {
				t.Errorf("restarted bot was not told its game before the next deal:\n%s", restart)
			}
		})
	}
}

// wrongCard answers, for every play request, a card that is in the hand but not legal when
// there is one, else a card not in the hand.
func wrongCard(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	req, err := protocol.ParseMessage(lines[len(lines)-1])
	if err != nil {
		return ""
	}
	p, ok := req.(*protocol.PlayRequest)
	if !ok {
		return ""
	}
	if bad := p.Hand &^ p.Legal; bad != 0 {
		return bad.Lowest().String()
	}
	return (protocol.FullDeck &^ p.Hand).Lowest().String()
}

type illegalConn struct{ Conn }

func (c illegalConn) Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error) {
	r, err := c.Conn.Exchange(out, wantReply, timeout)
	if card := wrongCard(out); card != "" && err == nil {
		r.Line = card
	}
	return r, err
}

func TestIllegalCardsDisableAfterMaxFaults(t *testing.T) {
	e := randomEntrants()
	starts := 0
	inner := NewInProcess(randomBot("reneger", 3))
	e[1] = Entrant{Name: "reneger", Start: func(ctx context.Context) (Conn, error) {
		starts++
		c, err := inner(ctx)
		return illegalConn{c}, err
	}}
	rs := rules.Default()
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 6}
	var log bytes.Buffer
	res, err := Run(context.Background(), Config{Rules: rs, Games: 1, Seed: 2, Records: NewLogWriter(&log)}, e[:])
	if err != nil {
		t.Fatal(err)
	}
	recs := records(t, &log)
	kinds := map[FaultKind]int{}
	for _, r := range recs {
		if r.Result.Outcome != "forfeit" || r.Result.Offender != "E" {
			t.Fatalf("deal %d: outcome %s offender %s, want forfeit by E", r.Deal, r.Result.Outcome, r.Result.Offender)
		}
		for _, f := range r.Faults {
			kinds[f.Kind]++
		}
	}
	if kinds[FaultIllegal] != 3 || kinds[FaultDisabled] != 3 || starts != 3 {
		t.Errorf("faults %v, starts %d: want 3 illegal (each restarting the bot), then 3 disabled deals without a start", kinds, starts)
	}
	if res.Sides[1].Forfeits != 6 || res.Sides[0].Points != 6*262 {
		t.Errorf("EW forfeits %d, NS points %d", res.Sides[1].Forfeits, res.Sides[0].Points)
	}
}

func TestRetryPolicyAsksAgain(t *testing.T) {
	e := randomEntrants()
	asked := 0
	inner := NewInProcess(randomBot("sloppy", 4))
	e[2] = Entrant{Name: "sloppy", Start: func(ctx context.Context) (Conn, error) {
		c, err := inner(ctx)
		return retryConn{Conn: c, asked: &asked}, err
	}}
	rs := rules.Default()
	rs.FaultPolicy = rules.FaultRetry
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 2}
	var log bytes.Buffer
	res, err := Run(context.Background(), Config{Rules: rs, Games: 1, Seed: 5, Records: NewLogWriter(&log)}, e[:])
	if err != nil {
		t.Fatal(err)
	}
	rejected := 0
	for _, r := range records(t, &log) {
		if r.Result.Outcome == "forfeit" {
			t.Fatalf("deal %d forfeited under the retry policy: %+v", r.Deal, r.Faults)
		}
		for _, x := range r.Rejected {
			a := r.Actions[x.Decision-1]
			if x.Seat != "S" || x.Bot != "sloppy" || x.Kind != FaultGarbage || x.Request != "play" || a.Seat != "S" || a.Card == "" ||
				!strings.Contains(x.Detail, "nonsense") {
				t.Errorf("deal %d: rejection %+v for action %+v", r.Deal, x, a)
			}
		}
		rejected += len(r.Rejected)
	}
	if asked == 0 || len(res.Bots[2].Faults) != 0 {
		t.Errorf("rejections %d, faults %v", asked, res.Bots[2].Faults)
	}
	if rejected != asked {
		t.Errorf("%d rejected answers logged with the deals, the bot gave %d", rejected, asked)
	}
}

// TestRetryPolicyLogsEveryRejection: a bot that always answers an illegal card, under
// fault_policy = retry, has each of its rejected answers logged with the deal (kind,
// detail, decision) and in the log, then forfeits the deal at its next wrong answer.
func TestRetryPolicyLogsEveryRejection(t *testing.T) {
	e := randomEntrants()
	inner := NewInProcess(randomBot("reneger", 3))
	e[1] = Entrant{Name: "reneger", Start: func(ctx context.Context) (Conn, error) {
		c, err := inner(ctx)
		return illegalConn{c}, err
	}}
	rs := rules.Default()
	rs.FaultPolicy = rules.FaultRetry
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 2}
	var log, logged bytes.Buffer
	_, err := Run(context.Background(), Config{Rules: rs, Games: 1, Seed: 2, Records: NewLogWriter(&log), MaxRetries: 3, MaxFaults: 10,
		Logger: zerolog.New(&logged)}, e[:])
	if err != nil {
		t.Fatal(err)
	}
	recs := records(t, &log) // Verify checks the rejections against the actions
	for _, r := range recs {
		if r.Result.Outcome != "forfeit" || len(r.Faults) != 1 || r.Faults[0].Kind != FaultIllegal || len(r.Rejected) != 3 {
			t.Fatalf("deal %d: %s, faults %+v, %d rejections; want 3 rejections, then the forfeit", r.Deal, r.Result.Outcome, r.Faults, len(r.Rejected))
		}
		for _, x := range r.Rejected {
			if x.Seat != "E" || x.Bot != "reneger" || x.Kind != FaultIllegal || x.Request != "play" || x.Decision != len(r.Actions)+1 ||
				!strings.Contains(x.Detail, "E may not play") && !strings.Contains(x.Detail, "E does not hold") {
				t.Errorf("deal %d: rejection %+v (%d actions)", r.Deal, x, len(r.Actions))
			}
		}
	}
	// Verify refuses rejections that do not fit the deal's decisions.
	for name, tamper := range map[string]func(*DealRecord){
		"kind":          func(r *DealRecord) { r.Rejected[0].Kind = FaultTimeout },
		"seat":          func(r *DealRecord) { r.Rejected[1].Seat = "N" },
		"decision":      func(r *DealRecord) { r.Rejected[2].Decision = len(r.Actions) + 2 },
		"order":         func(r *DealRecord) { r.Rejected[2].Decision = 1 },
		"not forfeited": func(r *DealRecord) { r.Result.Offender = "" },
	} {
		r := recs[0]
		r.Rejected = slices.Clone(r.Rejected)
		tamper(&r)
		if err := r.Verify(); !errors.Is(err, ErrInconsistent) {
			t.Errorf("rejections with a wrong %s: Verify = %v", name, err)
		}
	}
	if n := strings.Count(logged.String(), `"message":"answer rejected: asked again"`); n != 3*len(recs) {
		t.Errorf("%d rejections logged, want %d:\n%s", n, 3*len(recs), logged.String())
	}
}

// retryConn answers garbage to the first request after each rejection-free stretch, then
// the real answer once it has been told "fault rejected".
type retryConn struct {
	Conn
	asked *int
}

func (c retryConn) Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error) {
	r, err := c.Conn.Exchange(out, wantReply, timeout)
	if err != nil || !wantReply || wrongCard(out) == "" {
		return r, err
	}
	if !bytes.Contains(out, []byte("fault rejected")) {
		*c.asked++
		r.Line = "nonsense"
	}
	return r, nil
}

// misbehavingConn is a bot process that misbehaves as its fields say: it crashes at its
// first card (crash), says its name is "beta", its opponent's, in hello (rename), answers
// the handshake with garbage (garble), or declines the ruleset (refuse).
type misbehavingConn struct {
	Conn
	crash, rename, garble, refuse, mute bool
}

func (c misbehavingConn) Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error) {
	r, err := c.Conn.Exchange(out, wantReply, timeout)
	switch {
	case err != nil || !wantReply:
	case c.mute && bytes.HasPrefix(out, []byte("klaverjas")):
		return Reply{}, &Fault{Kind: FaultTimeout, Detail: "no answer within 10s"}
	case c.garble && bytes.HasPrefix(out, []byte("klaverjas")):
		r.Line = "hullo"
	case c.rename && bytes.HasPrefix(out, []byte("klaverjas")):
		r.Line = "hello 1 beta impostor"
	case c.refuse && bytes.HasPrefix(out, []byte("rules ")):
		r.Line = "refuse changed my mind"
	case c.crash && wrongCard(out) != "":
		return Reply{}, &Fault{Kind: FaultCrash, Detail: "exit status 1"}
	}
	return r, err
}

// TestNoHelloAsksAboutFlushing: a bot whose hello does not come in time (most often one
// that does not flush its output) is told so, with the hint, in the start error.
func TestNoHelloAsksAboutFlushing(t *testing.T) {
	e := randomEntrants()
	inner := e[1].Start
	e[1].Start = func(ctx context.Context) (Conn, error) {
		c, err := inner(ctx)
		return misbehavingConn{Conn: c, mute: true}, err
	}
	_, err := Run(context.Background(), Config{Rules: rules.Default(), Games: 1, Seed: 1}, e)
	var start *StartError
	if !errors.As(err, &start) || start.Fault.Kind != FaultTimeout || !strings.HasSuffix(start.Fault.Detail, NoHelloHint) {
		t.Errorf("Run: %v, want a start error: a timeout with the flushing hint", err)
	}
}

// TestRestartedBotKeepsItsName: a bot shown by its hello name keeps the name of its first
// hello for the match: a process started after a fault cannot take its opponent's name, to
// which its faults and results would then seem to belong.
func TestRestartedBotKeepsItsName(t *testing.T) {
	e := randomEntrants()
	starts := 0
	inner := NewInProcess(randomBot("alpha", 5))
	e[0] = Entrant{Name: "cmd", HelloName: true, Start: func(ctx context.Context) (Conn, error) {
		starts++
		c, err := inner(ctx)
		return misbehavingConn{Conn: c, crash: starts == 1, rename: starts > 1}, err
	}}
	rs := rules.Default()
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 3}
	var log bytes.Buffer
	res, err := Run(context.Background(), Config{Rules: rs, Games: 1, Seed: 1, Records: NewLogWriter(&log)}, e)
	if err != nil {
		t.Fatal(err)
	}
	if starts < 2 {
		t.Fatalf("the bot was started %d times, want a restart", starts)
	}
	for _, r := range records(t, &log) {
		if r.Seats[0] != "alpha" {
			t.Errorf("deal %d: seat N is %q, want alpha", r.Deal, r.Seats[0])
		}
		for _, f := range r.Faults {
			if f.Bot != "alpha" {
				t.Errorf("deal %d: a fault charged to %q: %+v", r.Deal, f.Bot, f)
			}
		}
	}
	if res.Bots[0].Name != "alpha" || res.Bots[0].Author != "tests" {
		t.Errorf("seat N's bot is %q by %q, want alpha by tests", res.Bots[0].Name, res.Bots[0].Author)
	}
}

// TestRefusalAfterTheStartIsAFault: a bot that accepted the ruleset before the first deal and
// declines it when restarted after a fault (or in the other room) forfeits its deals; the
// match goes on and nobody else is charged. It must not end the match, or a league.
func TestRefusalAfterTheStartIsAFault(t *testing.T) {
	e := randomEntrants()
	starts := 0
	inner := NewInProcess(randomBot("refuser", 5))
	e[1] = Entrant{Name: "refuser", Start: func(ctx context.Context) (Conn, error) {
		starts++
		c, err := inner(ctx)
		return misbehavingConn{Conn: c, refuse: starts > 1, crash: starts == 1}, err
	}}
	rs := rules.Default()
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 4}
	var log bytes.Buffer
	res, err := Run(context.Background(), Config{Rules: rs, Games: 1, Seed: 1, Duplicate: true, Records: NewLogWriter(&log)}, e)
	if err != nil {
		t.Fatalf("the match ended: %v", err)
	}
	recs := records(t, &log)
	if len(recs) != 8 {
		t.Errorf("%d deals logged, want 8: the match goes on", len(recs))
	}
	kinds := map[FaultKind]int{}
	for _, r := range recs {
		for _, f := range r.Faults {
			if f.Bot != "refuser" {
				t.Fatalf("deal %d: a fault charged to %s: %+v", r.Deal, f.Bot, f)
			}
			kinds[f.Kind]++
		}
	}
	if kinds[FaultCrash] != 1 || kinds[FaultStart] == 0 {
		t.Errorf("faults %v: want the crash, then start faults for the refusals", kinds)
	}
	if res.Sides[0].Forfeits != 0 {
		t.Errorf("NS forfeited %d deals", res.Sides[0].Forfeits)
	}
}

// TestProvenBotThatDoesNotStart: a bot that fails its handshake before the first deal ends
// the match (the organiser is told at once); a Proven one (it played an earlier match of a
// league) forfeits its deals instead, and the match goes on for the others.
func TestProvenBotThatDoesNotStart(t *testing.T) {
	for _, proven := range []bool{false, true} {
		e := randomEntrants()
		inner := NewInProcess(randomBot("flaky", 6))
		e[1] = Entrant{Name: "flaky", Proven: proven, Start: func(ctx context.Context) (Conn, error) {
			c, err := inner(ctx)
			return misbehavingConn{Conn: c, garble: true}, err
		}}
		rs := rules.Default()
		rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 4}
		var log bytes.Buffer
		res, err := Run(context.Background(), Config{Rules: rs, Games: 1, Seed: 1, Records: NewLogWriter(&log)}, e)
		var notStarted *StartError
		if !proven {
			if !errors.As(err, &notStarted) || notStarted.Bot != "flaky" {
				t.Errorf("not proven: Run returned %v, want a *StartError of flaky", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("proven: the match ended: %v", err)
		}
		recs := records(t, &log)
		if len(recs) != 4 {
			t.Fatalf("proven: %d deals logged, want 4", len(recs))
		}
		for _, r := range recs {
			if r.Result.Outcome != "forfeit" || r.Result.Offender != "E" {
				t.Errorf("proven: deal %d: outcome %s offender %q, want a forfeit by E", r.Deal, r.Result.Outcome, r.Result.Offender)
			}
		}
		if res.Sides[0].Forfeits != 0 || res.Bots[1].Faults[FaultStart] == 0 {
			t.Errorf("proven: NS forfeits %d, flaky's faults %v", res.Sides[0].Forfeits, res.Bots[1].Faults)
		}
	}
}

// TestProvenBotThatRefuses: a Proven bot that declines the ruleset before the first deal
// forfeits its deals as one that fails its handshake does; the match goes on.
func TestProvenBotThatRefuses(t *testing.T) {
	e := randomEntrants()
	inner := NewInProcess(randomBot("refuser", 6))
	e[1] = Entrant{Name: "refuser", Proven: true, Start: func(ctx context.Context) (Conn, error) {
		c, err := inner(ctx)
		return misbehavingConn{Conn: c, refuse: true}, err
	}}
	rs := rules.Default()
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 4}
	var log bytes.Buffer
	res, err := Run(context.Background(), Config{Rules: rs, Games: 1, Seed: 1, Records: NewLogWriter(&log)}, e)
	if err != nil {
		t.Fatalf("the match ended: %v", err)
	}
	for _, r := range records(t, &log) {
		if r.Result.Outcome != "forfeit" || r.Result.Offender != "E" {
			t.Errorf("deal %d: %s by %s, want forfeited by E", r.Deal, r.Result.Outcome, r.Result.Offender)
		}
	}
	if res.Bots[1].Faults[FaultStart] == 0 {
		t.Errorf("no start fault charged to the refuser: %v", res.Bots[1].Faults)
	}
}

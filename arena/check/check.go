// Package check runs one bot through a scripted battery of protocol situations and reports,
// item by item, what it did right and wrong: the handshake, the rulesets it plays, every
// trump-choosing procedure (free and forced choices, draaikaart offers), both play rules in
// positions where the legal cards are restricted, roem claims, a full game, games in a row,
// a restart in the middle of a game, a second match on the same process, the three-player
// game (at a table of three and of four), response times, stderr output, tolerance of
// unknown events, and a clean exit on quit.
//
// Every failure names the exact line the bot sent and what was expected. The bot is driven
// through a referee.Starter, so it runs exactly as it would in a match.
package check

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Status is the verdict on one item.
type Status string

// Verdicts. Only FAIL (and SKIP, which follows a failed handshake) makes the check fail.
const (
	Pass Status = "PASS"
	Warn Status = "WARN" // allowed, but worth the author's attention
	Fail Status = "FAIL"
	Info Status = "INFO" // informational: stderr output, a ruleset the bot declines
	Skip Status = "SKIP" // not run because an earlier item failed
)

// Item is one checked behaviour.
type Item struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	Detail string `json:"detail,omitempty"`
	Sent   string `json:"sent,omitempty"`   // the arena's line the bot answered (or failed to)
	Got    string `json:"got,omitempty"`    // the exact line the bot sent
	Fault  string `json:"fault,omitempty"`  // the fault kind when the bot sent no answer it may send
	Want   string `json:"want,omitempty"`   // what was expected
	Stderr string `json:"stderr,omitempty"` // the end of the bot's stderr, with a failure
}

// Timing is the bot's response times for one kind of decision.
type Timing struct {
	Kind     string  `json:"kind"` // hello, rules, bid, play, claim, discard
	Count    int     `json:"count"`
	MedianMS float64 `json:"median_ms"`
	WorstMS  float64 `json:"worst_ms"`
	LimitMS  float64 `json:"limit_ms"`
}

// Report is the result of a check.
type Report struct {
	Bot     string   `json:"bot"`
	Name    string   `json:"name,omitempty"`   // from the bot's hello
	Author  string   `json:"author,omitempty"` // from the bot's hello
	Items   []Item   `json:"items"`
	Timings []Timing `json:"timings"`
	Passed  bool     `json:"passed"`
	Summary string   `json:"summary"`
}

// Item returns the first item whose name starts with prefix, or nil.
func (r *Report) Item(prefix string) *Item {
	for i := range r.Items {
		if strings.HasPrefix(r.Items[i].Name, prefix) {
			return &r.Items[i]
		}
	}
	return nil
}

// Options configures a check.
type Options struct {
	Bot   string          // how the bot is called in the report
	Start referee.Starter // starts a fresh copy of the bot
	// Time is the time control: Startup, Decision and Grace everywhere, Bank and Increment
	// (a game clock) in the games played through the referee (the full game, games in a row,
	// the three-player games); the scripted deals have no game clock. Zero:
	// referee.DefaultTimeControl.
	Time referee.TimeControl
	// StderrFile, if set, is the file the bot's stderr is appended to (botproc.Spec.StderrFile):
	// its growth is the exact number of bytes the bot wrote. Without it the check adds up the
	// captured stderr of each run, which may leave out the middle of a long one.
	StderrFile string
	Seed       uint64 // the full game's cards
	// Sandboxed says the bot runs in its sandbox: the sandbox item then lists what the bot's
	// stderr says it was refused.
	Sandboxed bool
	QuitWait  time.Duration // how long the bot has to exit after quit; default 1 s
}

// Exiter is implemented by connections to a bot process that can say how it ended
// (botproc.Proc.ExitStatus): "" while it runs. Without it the quit item is not checked.
type Exiter interface {
	ExitStatus() string
	// Quitting says the bot was sent quit: it may exit at once (botproc: it gets an
	// ordinary CPU share again if it had the least, between turns).
	Quitting()
}

// checker is one running check.
type checker struct {
	ctx      context.Context
	opts     Options
	mu       sync.Mutex
	times    map[string][]time.Duration
	timeouts []string
	later    []laterFailure
	stderr   int // captured stderr bytes, without a stderr file
	report   Report
	// homeName is the preset of the items that name no ruleset: the default, or, for a bot
	// that refuses it, the first four-player preset it accepts; "" when it accepts none.
	homeName string
}

// home is the ruleset of the items that name none: the preset homeName.
func (c *checker) home() rules.Ruleset {
	rs, _ := rules.Preset(c.homeName)
	return rs
}

// homeRefused is the failed item of a bot that refuses the preset it accepted at the start
// of the check.
func (c *checker) homeRefused(name, reason string) Item {
	return Item{Name: name, Status: Fail, Detail: fmt.Sprintf("refuses ruleset %s, which it accepted at the start of the check: %s", c.homeName, reason)}
}

// Run checks the bot and returns the report. An error means the check itself could not run.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if opts.Start == nil {
		return nil, errors.New("check: no bot to start")
	}
	if opts.Time == (referee.TimeControl{}) {
		opts.Time = referee.DefaultTimeControl
	}
	if opts.Time.Startup <= 0 || opts.Time.Decision <= 0 {
		return nil, errors.New("check: the startup and decision times must be positive")
	}
	if opts.QuitWait <= 0 {
		opts.QuitWait = time.Second
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	c := &checker{ctx: ctx, opts: opts, times: map[string][]time.Duration{}, report: Report{Bot: opts.Bot},
		homeName: rules.PresetNames()[0]}
	var stderrStart int64 = -1
	if opts.StderrFile != "" {
		stderrStart = fileSize(opts.StderrFile)
	}

	hs := c.handshakeItems()
	c.add(hs...)
	// A bot that refuses every four-player preset (c.homeName "") still has its hello and
	// its rulesets checked; one whose hello or rules answer failed, nothing.
	noPreset := c.homeName == ""
	handshakeOK := hs[0].Status != Fail && (hs[1].Status != Fail || noPreset)
	steps := []struct {
		name     string
		anyRules bool // runs after a good hello even if the bot plays no four-player preset
		run      func() []Item
	}{
		{"version negotiation", true, func() []Item { return []Item{c.versionItem()} }},
		{"rulesets", true, func() []Item { return []Item{c.rulesetsItem()} }},
		{"bidding", false, func() []Item { return c.scenarioItems(biddingScenarios(c.homeName)) }},
		{"play", false, func() []Item { return c.scenarioItems(playScenarios(c.homeName)) }},
		{"unknown event", false, func() []Item { return []Item{c.unknownEventItem(), c.laterItem()} }},
		{"full game", false, func() []Item { return []Item{c.gameItem()} }},
		{"games in a row", false, func() []Item { return []Item{c.nextGameItem()} }},
		{"restarted mid-game", false, func() []Item { return []Item{c.restartItem()} }},
		{"next match on the same process", false, func() []Item { return []Item{c.nextMatchItem()} }},
		{"three-player game", false, func() []Item { return []Item{c.threePlayerItem()} }},
		{"three-player game at a table of four", false, func() []Item { return []Item{c.fourTableItem()} }},
		{"quit", false, func() []Item { return []Item{c.quitItem()} }},
	}
	for _, st := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		switch {
		case !handshakeOK:
			c.add(Item{Name: st.name, Status: Skip, Detail: "not run: the handshake failed"})
			continue
		case noPreset && !st.anyRules:
			c.add(Item{Name: st.name, Status: Skip, Detail: "not run: the bot plays no four-player preset"})
			continue
		}
		c.add(st.run()...)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.add(c.timingItem())
	c.add(c.stderrItem(stderrStart))
	c.add(c.sandboxItem(stderrStart))
	c.finish()
	return &c.report, nil
}

func (c *checker) add(items ...Item) { c.report.Items = append(c.report.Items, items...) }

func (c *checker) finish() {
	r := &c.report
	var failed []string
	warns, skipped := 0, 0
	for _, it := range r.Items {
		switch it.Status {
		case Fail:
			failed = append(failed, it.Name)
		case Skip:
			skipped++
		case Warn:
			warns++
		}
	}
	r.Passed = len(failed) == 0 && skipped == 0
	switch {
	case r.Passed && warns == 0:
		r.Summary = fmt.Sprintf("PASS: all %d items passed", len(r.Items))
	case r.Passed:
		r.Summary = fmt.Sprintf("PASS: all %d items passed, %d with a warning", len(r.Items), warns)
	default:
		r.Summary = fmt.Sprintf("FAIL: %d of %d items failed: %s", len(failed), len(r.Items), strings.Join(failed, "; "))
		if skipped > 0 {
			r.Summary += fmt.Sprintf(" (%d more not run)", skipped)
		}
	}
}

// record notes a response time of the given kind.
func (c *checker) record(kind string, d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.times[kind] = append(c.times[kind], d)
}

func (c *checker) timedOut(what string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timeouts = append(c.timeouts, what)
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// failure is what went wrong in an exchange, with the evidence.
type failure struct {
	detail string
	sent   string
	got    string
	want   string
	stderr string
	fault  referee.FaultKind // the fault in place of an answer, if any
}

func (f *failure) Error() string { return f.detail }

// item turns a failure into a failed item.
func (f *failure) item(name string) Item {
	return Item{Name: name, Status: Fail, Detail: f.detail, Sent: f.sent, Got: f.got, Fault: string(f.fault), Want: f.want, Stderr: stderrExcerpt(f.stderr)}
}

// stderrExcerpt is what an item shows of the bot's stderr (its last KiB, StderrTail): the
// last 20 non-empty lines, enough for a whole short message (a Node.js error names the
// missing module at its top) and the end of a traceback.
func stderrExcerpt(tail string) string {
	lines := strings.Split(strings.TrimRight(tail, "\n"), "\n")
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < 20; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			out = append([]string{lines[i]}, out...)
		}
	}
	return strings.Join(out, "\n")
}

// lastLine returns the last line of a block of lines: the request.
func lastLine(out []byte) string {
	s := strings.TrimRight(string(out), "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// session is one started copy of the bot.
type session struct {
	c       *checker
	conn    referee.Conn
	pending []byte
	stopped bool
}

// start starts a copy of the bot.
func (c *checker) start() (*session, *failure) {
	conn, err := c.opts.Start(c.ctx)
	if err != nil {
		return nil, &failure{detail: "the bot could not be started: " + err.Error(), want: "a running program"}
	}
	return &session{c: c, conn: conn}, nil
}

// queue adds an event line for the next write.
func (s *session) queue(m protocol.Message) { s.pending = append(m.AppendLine(s.pending), '\n') }

func (s *session) queueLine(line string) { s.pending = append(append(s.pending, line...), '\n') }

// ask sends the pending lines and the request and returns the bot's answer.
func (s *session) ask(req protocol.Message, kind string, timeout time.Duration, want string) (string, *failure) {
	s.queue(req)
	out := s.pending
	s.pending = nil
	sent := lastLine(out)
	r, err := s.conn.Exchange(out, true, timeout)
	if err != nil {
		f := &failure{sent: sent, want: want, stderr: s.conn.StderrTail()}
		var rf *referee.Fault
		if errors.As(err, &rf) {
			f.detail, f.fault = fmt.Sprintf("%s fault: %s", rf.Kind, rf.Detail), rf.Kind
			if rf.StderrTail != "" {
				f.stderr = rf.StderrTail
			}
			if rf.Kind == referee.FaultTimeout {
				s.c.timedOut(kind)
			}
			if rf.Kind == referee.FaultCrash && strings.Contains(strings.TrimRight(string(out), "\n"), "\n") {
				f.sent = sentBeforeCrash(string(out))
				f.detail += "; the bot exited reading the lines the arena sent since its last answer (below)"
			}
		} else {
			f.detail = "crash: " + err.Error()
		}
		s.stop()
		return "", f
	}
	s.c.record(kind, r.Wall)
	return r.Line, nil
}

// tell sends the pending lines (and extra) without waiting for an answer.
func (s *session) tell(extra ...protocol.Message) {
	for _, m := range extra {
		s.queue(m)
	}
	if len(s.pending) > 0 && !s.stopped {
		_, _ = s.conn.Exchange(s.pending, false, s.c.opts.Time.Startup)
	}
	s.pending = nil
}

// stop ends the bot (after quit, if it can still read).
func (s *session) stop() {
	if s.stopped {
		return
	}
	s.stopped = true
	_ = s.conn.Stop(300 * time.Millisecond)
	if s.c.opts.StderrFile == "" {
		s.c.mu.Lock()
		s.c.stderr += len(s.conn.StderrTail())
		s.c.mu.Unlock()
	}
}

func (s *session) quit() {
	s.tell(&protocol.Quit{})
	s.stop()
}

// handshake sends klaverjas and the rules; a refusal is returned as its reason.
func (s *session) handshake(options [][2]string) (hello *protocol.Hello, refused string, f *failure) {
	startup := s.c.opts.Time.Startup
	line, f := s.ask(&protocol.Klaverjas{Versions: []int{protocol.Version}}, "hello", startup, "hello 1 <name> <author...>")
	if f != nil {
		if f.fault == referee.FaultTimeout {
			f.detail += referee.NoHelloHint
		}
		return nil, "", f
	}
	hello, err := protocol.ParseHello(line)
	if err == nil && hello.Version != protocol.Version {
		err = fmt.Errorf("the bot chose protocol version %d; the arena offered only %d", hello.Version, protocol.Version)
	}
	if err != nil {
		s.stop()
		return nil, "", &failure{detail: "bad hello: " + err.Error(), sent: "klaverjas 1", got: line, want: "hello 1 <name> <author...> (name: 1-64 of letters, digits, . _ -)", stderr: s.conn.StderrTail()}
	}
	rl := &protocol.Rules{Options: options}
	line, f = s.ask(rl, "rules", startup, "ok, or refuse <reason>")
	if f != nil {
		return hello, "", f
	}
	reply, err := protocol.ParseRulesReply(line)
	if err != nil {
		s.stop()
		return hello, "", &failure{detail: "bad answer to rules: " + err.Error(), sent: protocol.Line(rl), got: line, want: "ok, or refuse <reason>", stderr: s.conn.StderrTail()}
	}
	if reply.Refuse {
		s.quit()
		return hello, orNone(reply.Reason), nil
	}
	return hello, "", nil
}

func orNone(s string) string {
	if s == "" {
		return "(no reason given)"
	}
	return s
}

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/urfave/cli/v2"
)

// terminal is arena play running in this process on a pseudo-terminal, and the person at
// its keyboard: the test reads what the screen shows and types answers.
type terminal struct {
	t    *testing.T
	ptm  *os.File // the keyboard and screen side
	mu   sync.Mutex
	seen bytes.Buffer  // everything shown so far
	read int           // how much of seen the test has looked at
	done chan struct{} // closed when arena play has returned, with err
	err  error
}

// startPlay runs arena play with args on a fresh pseudo-terminal.
func startPlay(t *testing.T, args ...string) *terminal {
	t.Helper()
	t.Setenv("NO_COLOR", "1") // suit symbols, no colour codes between the test and the cards
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	term := &terminal{t: t, ptm: ptm, done: make(chan struct{})}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptm.Read(buf)
			term.mu.Lock()
			term.seen.Write(buf[:n])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() {
		cliMu.Lock()
		defer cliMu.Unlock()
		var errOut bytes.Buffer
		app := newApp(pts, &errOut)
		app.Reader = pts
		app.ExitErrHandler = func(*cli.Context, error) {}
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		err := app.RunContext(ctx, flagsFirst(app, append([]string{"arena", "play"}, args...)))
		time.Sleep(200 * time.Millisecond) // let the screen side read the last lines
		pts.Close()
		term.err = err
		close(term.done)
	}()
	t.Cleanup(func() {
		// A test that stopped early leaves the game waiting for the keyboard: at the end of
		// the input (Ctrl-D) the person's seat faults out and the game ends.
		_, _ = ptm.Write([]byte{4})
		select {
		case <-term.done:
		case <-time.After(time.Minute):
			t.Error("arena play did not end within a minute of the end of its input")
		}
		ptm.Close()
	})
	return term
}

// next waits for the next prompt (or the end of the game) and returns what the screen
// showed since the last one; ok is false when the game is over.
func (term *terminal) next() (screen string, ok bool) {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		term.mu.Lock()
		text := term.seen.String()[term.read:]
		term.mu.Unlock()
		if strings.HasSuffix(text, " > ") {
			term.mu.Lock()
			term.read += len(text)
			term.mu.Unlock()
			return text, true
		}
		select {
		case <-term.done:
			if term.err != nil {
				term.t.Fatalf("arena play: %v\n%s", term.err, text)
			}
			time.Sleep(100 * time.Millisecond)
			term.mu.Lock()
			rest := term.seen.String()[term.read:]
			term.mu.Unlock()
			return rest, false
		case <-time.After(20 * time.Millisecond):
		}
	}
	term.t.Fatalf("no prompt in 2 minutes; the screen shows:\n%s", term.seen.String()[term.read:])
	return "", false
}

// typeLine types a line and Enter.
func (term *terminal) typeLine(s string) {
	if _, err := term.ptm.Write([]byte(s + "\r")); err != nil {
		term.t.Fatal(err)
	}
}

var (
	numbered = regexp.MustCompile(`(\d+)\) ([7-9TJQKA][♣♦♥♠])`)
	symbols  = strings.NewReplacer("♣", "C", "♦", "D", "♥", "H", "♠", "S")
)

// TestPlayWholeGameOnATerminal plays a whole game of sixteen deals at the terminal against
// bots, typing on a pseudo-terminal: card numbers, card names, bids, "?" for the last trick,
// a word that is no card and a card that may not be played; then replays and verifies the
// game's log, in which the person's seat is a seat like the bots'.
func TestPlayWholeGameOnATerminal(t *testing.T) {
	dir := botDir(t)
	bot := writeFirstLegal(t, dir, "firstlegal", "", "")
	log := filepath.Join(dir, "play.jsonl")
	term := startPlay(t, "--seed", "9", "--log", log, "--name", "tester", "-o", "bidding=draaikaart", "bash "+bot)
	var shown strings.Builder
	prompts, cards, bids, asked, refused := 0, 0, 0, false, 0
	var legal [][]string // the numbered cards of the last hand shown
	hand := ""
	for {
		screen, ok := term.next()
		shown.WriteString(screen)
		if !ok {
			break
		}
		prompts++
		switch {
		case strings.Contains(screen, "your bid"):
			bids++
			if bids%2 == 0 {
				term.typeLine("pass")
			} else {
				term.typeLine("1")
			}
		case strings.Contains(screen, "your card"):
			if found := numbered.FindAllStringSubmatch(screen, -1); len(found) > 0 {
				legal, hand = found, screen
			} else if legal == nil {
				t.Fatalf("a card prompt without numbered cards:\n%s", screen)
			}
			switch {
			case !asked && len(shownTricks(screen)) > 0:
				asked = true
				term.typeLine("?")
				continue
			case refused == 0:
				refused++
				term.typeLine("zz")
				continue
			case refused == 1 && len(unnumberedCards(hand)) > 0:
				refused++
				term.typeLine(symbols.Replace(unnumberedCards(hand)[0]))
				continue
			}
			cards++
			if cards%2 == 0 {
				term.typeLine(symbols.Replace(legal[len(legal)-1][2])) // by name
			} else {
				term.typeLine("1")
			}
		default: // the same prompt again, after "?" or a refusal
			term.typeLine("1")
		}
	}
	out := shown.String()
	for _, want := range []string{"=== game over:", "your hand", "1) ", "♠", "trump ", "last trick (", `"zz" is not a card`, "tester"} {
		if !strings.Contains(out, want) {
			t.Errorf("the screen never showed %q", want)
		}
	}
	if refused == 2 && !strings.Contains(out, "may not be played now") {
		t.Error("a card that may not be played was not refused")
	}
	recs := logRecords(t, log)
	if len(recs) < 16 {
		t.Fatalf("%d deals in the log, want a whole game of 16", len(recs))
	}
	mine := 0
	for _, r := range recs {
		if r.Seats[2] != "tester" || len(r.Faults) > 0 {
			t.Fatalf("deal %d: seats %v, faults %v", r.Deal, r.Seats, r.Faults)
		}
		for _, a := range r.Actions {
			if a.Seat == "S" {
				mine++
			}
		}
	}
	if told := strings.Count(out, "\nyou play ") + strings.Count(out, "\nyou: "); mine != told || mine < cards {
		t.Errorf("the log has %d decisions of the person, the screen told %d, the test typed %d cards", mine, told, cards)
	}
	if bids == 0 {
		t.Error("the person was never asked to bid")
	}
	replay, _, err := runArena(t, "replay", "--log", log, recs[0].Match+"/1")
	if err != nil || !strings.Contains(replay, "tester") || !strings.Contains(replay, "trick 8") {
		t.Fatalf("replay of the game: %v\n%s", err, replay)
	}
	if verified, _, err := runArena(t, "replay", "--log", log, "--verify"); err != nil {
		t.Fatalf("replay --verify: %v\n%s", err, verified)
	}
}

// TestPlayClock: with --clock the prompt shows the time left, and a person who does not
// answer in time forfeits the deal for a timeout, as a bot would.
func TestPlayClock(t *testing.T) {
	dir := botDir(t)
	bot := writeFirstLegal(t, dir, "firstlegal", "", "")
	log := filepath.Join(dir, "play.jsonl")
	term := startPlay(t, "--seed", "2", "--log", log, "--clock", "--time", "1500ms", "-o", "game_end=deals:1", "bash "+bot)
	screen, ok := term.next()
	if !ok || !regexp.MustCompile(`\[1\.\d s left\] > $`).MatchString(screen) {
		t.Fatalf("the first prompt shows no clock:\n%s", screen)
	}
	rest, ok := term.next() // no answer: the deal is forfeited, the game (of one deal) over
	if ok {
		t.Fatalf("a prompt after the timeout of a one-deal game:\n%s", rest)
	}
	if !strings.Contains(rest, "out of time") {
		t.Errorf("the screen does not say the time ran out:\n%s", rest)
	}
	recs := logRecords(t, log)
	if len(recs) != 1 || len(recs[0].Faults) != 1 || recs[0].Faults[0].Kind != "timeout" || recs[0].Faults[0].Seat != "S" {
		t.Fatalf("want one deal forfeited by S for a timeout, got %+v", recs)
	}
}

// shownTricks lists the tricks a screen shows as finished.
func shownTricks(screen string) []string {
	return regexp.MustCompile(`trick \d+ to `).FindAllString(screen, -1)
}

// unnumberedCards lists the cards of the hand the screen shows without a number: held, but
// not to be played now.
func unnumberedCards(screen string) []string {
	var out []string
	inHand := false
	for line := range strings.SplitSeq(screen, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.HasPrefix(line, "your hand (") {
			inHand = true
			continue
		}
		if !inHand || !strings.HasPrefix(line, "  ") {
			inHand = false
			continue
		}
		for _, f := range strings.Split(line, "   ") {
			f = strings.TrimSpace(f)
			if f != "" && !strings.Contains(f, ")") {
				out = append(out, f)
			}
		}
	}
	return out
}

// parseCommand reads an arena command line as the arena does (flagsFirst, then urfave/cli)
// and returns what read makes of it, without checking or running anything.
func parseCommand[T any](t *testing.T, command string, read func(*cli.Context) T, args ...string) T {
	t.Helper()
	app := newApp(io.Discard, io.Discard)
	var got T
	parsed := false
	app.Command(command).Action = func(c *cli.Context) error {
		got, parsed = read(c), true
		return nil
	}
	if err := app.Run(flagsFirst(app, append([]string{"arena", command}, args...))); err != nil || !parsed {
		t.Fatalf("%q: %v", args, err)
	}
	return got
}

// TestPlayValidate: arena play checks its whole command line as arena match does, every
// problem reported together before anything starts; a valid one seats the bots around the
// person.
func TestPlayValidate(t *testing.T) {
	dir := t.TempDir()
	pc := parseCommand(t, "play", playConfigFromFlags, "/no/such/bot", "--as", "X", "--name", "two words", "--games", "0",
		"--time", "0s", "--bank", "-1s", "-o", "bidding=blind", "--sandbox", "maybe")
	_, err := pc.validate(dir)
	if err == nil {
		t.Fatal("accepted")
	}
	got := strings.Split(err.Error(), "\n")
	want := []string{
		`ruleset option bidding: bad value "blind" (allowed: `,
		`--name: name "two words": no spaces`,
		"--as: ",
		`bot "bot": program /no/such/bot: `,
		"--games 0: must be at least 1",
		"--time 0s: must be more than 0",
		"--bank -1s: must not be negative",
		"--sandbox: ",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(got), len(want), err)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d: %q, want it to start %q", i+1, got[i], want[i])
		}
	}

	for _, c := range []struct {
		args  []string
		seats string // by seat, "-" for the person
	}{
		{[]string{"/bin/cat"}, "cat cat - cat"},
		{[]string{"/bin/cat", "/bin/true", "--as", "E"}, "true - true cat"},
		{[]string{"/bin/cat", "/bin/true", "/bin/false", "--as", "N"}, "- cat true false"},
		{[]string{"/bin/cat", "/bin/true", "--preset", "drie_spelers"}, "cat true -"},
		{[]string{"/bin/cat", "/bin/true", "/bin/false", "--preset", "drie_spelers", "--as", "W"}, "cat true false -"},
	} {
		p, err := parseCommand(t, "play", playConfigFromFlags, append(c.args, "--sandbox", "off")...).validate(dir)
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		var names []string
		for _, b := range p.seats {
			name := "-"
			if b != nil {
				name = b.Name
			}
			names = append(names, name)
		}
		if got := strings.Join(names, " "); got != c.seats {
			t.Errorf("%q: seats %s, want %s", c.args, got, c.seats)
		}
	}
	if _, err := parseCommand(t, "play", playConfigFromFlags, "/bin/cat", "/bin/cat", "/bin/cat", "/bin/cat", "--sandbox", "off").validate(dir); err == nil {
		t.Error("four bots and a person at a table of four: accepted")
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/referee"
)

// TestLogWrittenByOneArena: while arena match writes a log, a second arena match with the
// same --log is refused before any bot starts (their deals would interleave), arena serve
// --log withholds the duplicate set in play, and arena replay --verify does not call the
// unfinished last game a problem; once the match is over, a second match may write it, and
// the interrupted game is reported.
func TestLogWrittenByOneArena(t *testing.T) {
	cmd, log, stderr := startLoggedMatch(t)
	_, bot := buildTools(t)
	botArg := strings.Join(bot, " ")

	_, errOut, err := runArena(t, "match", botArg, botArg, "--games", "1", "--log", log, "--sandbox", "off")
	if err == nil || !strings.Contains(err.Error(), "--log "+log+": another arena is writing it now") {
		t.Errorf("a second match on the log: %v", err)
	}
	if strings.Contains(errOut, "arena: match") {
		t.Errorf("the second match started:\n%s", errOut)
	}
	var warn bytes.Buffer
	src, err := logSource(log, &warn)
	if err != nil {
		t.Fatal(err)
	}
	if ms, _ := src.src.Matches("log"); len(ms) != 1 || ms[0].Done {
		t.Errorf("the log in play is served as %d matches, the first done: %t", len(ms), len(ms) > 0 && ms[0].Done)
	}
	if !strings.Contains(warn.String(), "a match is writing it now") {
		t.Errorf("serve --log does not say that the deals in play are withheld:\n%s", warn.String())
	}

	// The match's last game and set are still being played: not a problem of the log.
	if out, errOut, err := runArena(t, "replay", "--verify", "--log", log); err != nil || !strings.Contains(errOut, "a match is writing it now") {
		t.Errorf("replay --verify of the log in play: %v\n%s%s", err, out, errOut)
	}

	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); cmd.ProcessState.ExitCode() != 130 {
		t.Fatalf("exit %v, want status 130\n%s", err, stderr.String())
	}
	warn.Reset()
	if src, err = logSource(log, &warn); err != nil {
		t.Fatal(err)
	}
	if ms, _ := src.src.Matches("log"); len(ms) != 1 || !ms[0].Done {
		t.Errorf("the log of the match that is over is served as %d matches, the first done: %t", len(ms), len(ms) > 0 && ms[0].Done)
	}
	if strings.Contains(warn.String(), "writing") {
		t.Errorf("serve --log of a log nobody writes: %s", warn.String())
	}
	// The log holds complete deals only, and says nothing of the games a match was to play:
	// a match stopped between two duplicate sets (two games of 16 deals) leaves a log that is
	// a whole match, which must then verify.
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	const setDeals = 2 * 16
	out, _, err := runArena(t, "replay", "--verify", "--log", log)
	if deals := bytes.Count(data, []byte("\n")); deals%setDeals == 0 {
		t.Logf("the match stopped after %d deals, between two duplicate sets", deals)
		if err != nil || !strings.Contains(out, "every match made of whole games and duplicate sets") {
			t.Errorf("replay --verify of the log of whole sets: %v\n%s", err, out)
		}
	} else if err == nil || !strings.Contains(out, "unfinished") {
		t.Errorf("replay --verify of the interrupted match's log (%d deals): %v\n%s", deals, err, out)
	}
	if _, _, err := runArena(t, "match", botArg, botArg, "--games", "1", "--log", log, "--sandbox", "off"); err != nil {
		t.Errorf("a match on the log once the first is over: %v", err)
	}
}

// TestServeFollowsLog: arena serve --log of a log that arena match is writing follows it:
// the deals appended show as their duplicate sets are finished, never those of the set in
// play, and once the match is over every deal shows.
func TestServeFollowsLog(t *testing.T) {
	match, log, stderr := startLoggedMatch(t)
	arena, _ := buildTools(t)
	// logged returns the number of complete lines of the log and the deal set of the last.
	logged := func() (n, pair int) {
		data, _ := os.ReadFile(log)
		data = data[:bytes.LastIndexByte(data, '\n')+1]
		lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
		var rec referee.DealRecord
		if len(data) > 0 && json.Unmarshal(lines[len(lines)-1], &rec) != nil {
			t.Fatalf("log line %d: %s", len(lines), lines[len(lines)-1])
		}
		return bytes.Count(data, []byte("\n")), rec.Pair
	}
	deadline := time.Now().Add(60 * time.Second)
	var out strings.Builder
	_, base, _ := startViewer(t, arena, &out, "serve", "--log", log, "--addr", "127.0.0.1:0")
	shown := func() view.MatchDeals {
		t.Helper()
		res, err := http.Get(base + "/api/league/log/match/0")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var md view.MatchDeals
		if err := json.NewDecoder(res.Body).Decode(&md); err != nil {
			t.Fatal(err)
		}
		return md
	}
	// The viewer reads the log every second: its last deal is of the set logged last or of
	// one before, and it withholds that set whole.
	check := func() int {
		t.Helper()
		_, pair := logged()
		md := shown()
		if md.Done {
			t.Fatalf("the match in play is served as done")
		}
		for _, d := range md.Deals {
			if d.Pair >= pair {
				t.Fatalf("deal %d (set %d, game %d) shown while set %d is in play", d.N, d.Pair, d.Game, pair)
			}
		}
		return len(md.Deals)
	}
	first := check()
	for n := first; n < first+64; n = check() {
		if time.Now().After(deadline.Add(60 * time.Second)) {
			l, _ := logged()
			t.Fatalf("the viewer shows %d deals, %d at first, with %d logged", n, first, l)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := match.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := match.Wait(); match.ProcessState.ExitCode() != 130 {
		t.Fatalf("exit %v, want status 130\n%s", err, stderr.String())
	}
	deadline = time.Now().Add(60 * time.Second)
	total, _ := logged()
	for md := shown(); !md.Done || len(md.Deals) != total; md = shown() {
		if time.Now().After(deadline) {
			t.Fatalf("60 s after the match: done %t, %d deals shown of %d logged\n%s", md.Done, len(md.Deals), total, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

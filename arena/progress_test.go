package main

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestMatchLiveLine runs arena match with its stderr on a pseudo-terminal 60 columns wide: a
// live line is rewritten as deals finish (running share of the points, games, deals), every
// pair's permanent line replaces it, no line is wider than the terminal, and the live line is
// cleared before the result. Without a terminal no live line is written.
func TestMatchLiveLine(t *testing.T) {
	arena, _ := buildTools(t)
	args := []string{"match", "--games", "6", "--seed", "7", "--sprt", "elo0=0,elo1=50", randomBot + " -seed 1", randomBot + " -seed 2"}
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptm.Close()
	if err := pty.Setsize(ptm, &pty.Winsize{Rows: 24, Cols: 60}); err != nil {
		t.Fatal(err)
	}
	cmd := arenaCommand(arena, args...)
	cmd.Stderr = pts
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pts.Close()
	seen := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(ptm) // ends with EIO when the arena has exited
		seen <- b
	}()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("arena match: %v\n%s", err, out.String())
	}
	var screen []byte
	select {
	case screen = <-seen:
	case <-time.After(time.Minute):
		t.Fatal("the terminal's output did not end")
	}
	text := string(screen)
	live := regexp.MustCompile(`\r\x1b\[Kgame \d+/12, \d+ deals: NS \d+\.\d%, EW \d+\.\d%`)
	if n := len(live.FindAllString(text, -1)); n < 6 {
		t.Errorf("%d live lines, want one after each pair at least:\n%q", n, text)
	}
	if !regexp.MustCompile(`\r\x1b\[Kgames 2/12: NS .* LLR [^\r]*\r\n\r\x1b\[Kgame 2/12, `).MatchString(text) {
		t.Errorf("no pair line replacing the live line:\n%q", text)
	}
	if !strings.HasSuffix(text, "\r\x1b[K") {
		t.Errorf("the live line is not cleared at the end: %q", text[max(0, len(text)-200):])
	}
	for _, line := range strings.Split(text, "\r") {
		line = strings.TrimPrefix(strings.TrimRight(line, "\n"), "\x1b[K")
		if strings.HasPrefix(line, "game ") && len([]rune(line)) > 59 {
			t.Errorf("live line wider than the terminal (%d): %q", len([]rune(line)), line)
		}
	}
	if !strings.Contains(out.String(), "SPRT after") {
		t.Errorf("no result:\n%s", out.String())
	}
	// Not a terminal: the pair lines alone.
	cmd = arenaCommand(arena, args...)
	var plain bytes.Buffer
	cmd.Stderr, cmd.Stdout = &plain, io.Discard
	if err := cmd.Run(); err != nil {
		t.Fatalf("arena match: %v\n%s", err, plain.String())
	}
	if strings.Contains(plain.String(), "\r") || !strings.Contains(plain.String(), "games 2/12: NS") {
		t.Errorf("without a terminal:\n%q", plain.String())
	}
}

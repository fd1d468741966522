package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLogWrittenByOneArena: while arena match writes a log, a second arena match with the
// same --log is refused before any bot starts (their deals would interleave), and arena
// serve --log withholds the duplicate set in play; once the match is over, both may.
func TestLogWrittenByOneArena(t *testing.T) {
	arena, bot := buildTools(t)
	dir := botDir(t)
	log := filepath.Join(dir, "log.jsonl")
	botArg := strings.Join(bot, " ")
	cmd := exec.Command(arena, "match", botArg, botArg, "--games", "100000", "--log", log, "--sandbox", "off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if data, _ := os.ReadFile(log); bytes.Count(data, []byte("\n")) >= 20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no 20 deals in 60 s:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}

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
	if ms, _ := src.Matches("log"); len(ms) != 1 || ms[0].Done {
		t.Errorf("the log in play is served as %d matches, the first done: %t", len(ms), len(ms) > 0 && ms[0].Done)
	}
	if !strings.Contains(warn.String(), "a match is writing it now") {
		t.Errorf("serve --log does not say that the deals in play are withheld:\n%s", warn.String())
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
	if ms, _ := src.Matches("log"); len(ms) != 1 || !ms[0].Done {
		t.Errorf("the log of the match that is over is served as %d matches, the first done: %t", len(ms), len(ms) > 0 && ms[0].Done)
	}
	if strings.Contains(warn.String(), "writing") {
		t.Errorf("serve --log of a log nobody writes: %s", warn.String())
	}
	if _, _, err := runArena(t, "match", botArg, botArg, "--games", "1", "--log", log, "--sandbox", "off"); err != nil {
		t.Errorf("a match on the log once the first is over: %v", err)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
)

// TestMatchInterrupt: Ctrl-C (SIGINT) during arena match records no fault against anyone
// and no half-played deal; every finished deal is in the log; the exit status is 130.
func TestMatchInterrupt(t *testing.T) {
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
	deadline := time.Now().Add(60 * time.Second)
	for {
		if data, _ := os.ReadFile(log); bytes.Count(data, []byte("\n")) >= 20 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("no 20 deals in 60 s:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if cmd.ProcessState.ExitCode() != 130 {
		t.Fatalf("exit %v, want status 130\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "arena: interrupted after ") || !strings.Contains(stderr.String(), "the deal in play was not recorded") {
		t.Errorf("stderr does not say the match was interrupted:\n%s", stderr.String())
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	for i, line := range lines {
		var rec referee.DealRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("deal %d: %v (a half-written record?)", i+1, err)
		}
		if len(rec.Faults) > 0 || rec.Result.Outcome == "forfeit" {
			t.Errorf("deal %d: faults %+v, outcome %s: an interruption is nobody's fault", i+1, rec.Faults, rec.Result.Outcome)
		}
	}
}

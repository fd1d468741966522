package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"golang.org/x/sys/unix"
)

// TestMatchInterrupt: Ctrl-C (SIGINT) during arena match records no fault against anyone
// and no half-played deal; every finished deal is in the log; the exit status is 130.
func TestMatchInterrupt(t *testing.T) {
	cmd, log, stderr := startLoggedMatch(t)
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

// startLoggedMatch starts arena match between two copies of the fast bot for 100,000
// games, unsandboxed, with --log in a fresh directory, and returns once 20 deals are in the
// log: the process (killed at the end of the test if still running), the log and its stderr.
func startLoggedMatch(t *testing.T) (cmd *exec.Cmd, log string, stderr *bytes.Buffer) {
	t.Helper()
	arena, bot := buildTools(t)
	log = filepath.Join(botDir(t), "log.jsonl")
	botArg := strings.Join(bot, " ")
	cmd = arenaCommand(arena, "match", botArg, botArg, "--games", "100000", "--log", log, "--sandbox", "off")
	stderr = &bytes.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		if data, _ := os.ReadFile(log); bytes.Count(data, []byte("\n")) >= 20 {
			return cmd, log, stderr
		}
		if time.Now().After(deadline) {
			t.Fatalf("no 20 deals in 60 s:\n%s", stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSecondInterrupt: a command that cannot see Ctrl-C (blocked opening a named pipe that
// nobody writes to) ends at the second one, with status 130, instead of never; a key file
// that is a named pipe is refused without waiting for a writer.
func TestSecondInterrupt(t *testing.T) {
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("no /proc to tell when the arena waits in open(2):", err)
	}
	arena, bot := buildTools(t)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	botArg := strings.Join(bot, " ")
	key := arenaCommand(arena, "match", botArg, botArg, "--key", fifo, "--sandbox", "off")
	var keyOut bytes.Buffer
	key.Stdout, key.Stderr = &keyOut, &keyOut
	if err := key.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- key.Wait() }()
	select {
	case <-done:
		if !strings.Contains(keyOut.String(), "is not a regular file") {
			t.Errorf("--key FIFO: %s", keyOut.String())
		}
	case <-time.After(20 * time.Second):
		_ = key.Process.Kill()
		<-done
		t.Error("--key FIFO: still waiting after 20 s")
	}
	cmd := arenaCommand(arena, "replay", "--log", fifo, "x")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Until the arena is in open(2) of the pipe (so its signal handler is in place): a fixed
	// sleep would not hold on a loaded machine.
	for deadline := time.Now().Add(20 * time.Second); !inOpen(cmd.Process.Pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("the arena did not come to open the named pipe in 20 s")
		}
	}
	for range 2 {
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	select {
	case <-exited:
		if cmd.ProcessState.ExitCode() != 130 || !strings.Contains(stderr.String(), "again: stopping at once") {
			t.Errorf("exit %d\n%s", cmd.ProcessState.ExitCode(), stderr.String())
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatal("still running 20 s after two interrupts")
	}
}

// inOpen says whether a thread of process pid is blocked in openat (/proc/PID/task/*/syscall
// starts with the call's number).
func inOpen(pid int) bool {
	paths, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/syscall", pid))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil && strings.HasPrefix(string(b), fmt.Sprint(unix.SYS_OPENAT)+" ") {
			return true
		}
	}
	return false
}

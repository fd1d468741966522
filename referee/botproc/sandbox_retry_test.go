//go:build linux

package botproc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSandbox_EntryReplacedDuringStart: another process replaces a file (write, then
// rename over it, as the league's standings file is replaced) in a directory that holds a
// hidden file, again and again while bots start there: every bot starts and answers.
func TestSandbox_EntryReplacedDuringStart(t *testing.T) {
	needSandbox(t)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db, standings := filepath.Join(dir, "arena.db"), filepath.Join(dir, "standings.json")
	for _, f := range []string{db, standings} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			tmp := standings + ".tmp"
			if os.WriteFile(tmp, []byte{byte(i)}, 0o644) == nil {
				_ = os.Rename(tmp, standings)
			}
		}
	})
	defer func() { close(stop); wg.Wait() }()
	failed := 0
	const starts = 40
	for i := range starts {
		b := sandboxed(shBot(t, `while read -r req; do echo ans; done`), Sandbox{Hide: []string{db}})
		b.Dir = dir
		p, err := Start(context.Background(), b.Spec, testLog(t))
		if err == nil {
			_, err = p.Exchange([]byte("req\n"), true, 30*time.Second)
			if serr := p.Stop(100 * time.Millisecond); serr != nil {
				t.Errorf("start %d: Stop: %v", i, serr)
			}
		}
		if err != nil {
			failed++
			t.Logf("start %d: %v", i, err)
			if f, ok := err.(*Fault); ok {
				t.Logf("stderr: %s", f.StderrTail)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d bots did not start and answer", failed, starts)
	}
}

// TestSandbox_BuildRetried: bwrap (the real one, through a wrapper that gives it a source
// that does not exist on the first tries) failing to build the sandbox is tried again, and
// is not the bot's fault: the start succeeds at a later try, or after sandboxTries is a
// plain error (no *Fault) with bwrap's message.
func TestSandbox_BuildRetried(t *testing.T) {
	needSandbox(t)
	sb := sandboxes()
	real := sb.bwrap
	t.Cleanup(func() { sb.bwrap = real })
	for _, failing := range []int{1, sandboxTries} {
		dir := t.TempDir()
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		count, wrapper := filepath.Join(dir, "tries"), filepath.Join(dir, "bwrap")
		script := fmt.Sprintf("#!/bin/sh\necho x >>%s\nif [ $(wc -l <%s) -le %d ]; then exec %s --ro-bind /nonexistent-%d /x \"$@\"; fi\nexec %s \"$@\"\n",
			count, count, failing, real, os.Getpid(), real)
		if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		sb.bwrap = wrapper
		b := sandboxed(shBot(t, `while read -r req; do echo ans; done`), Sandbox{})
		p, err := Start(context.Background(), b.Spec, testLog(t))
		data, _ := os.ReadFile(count)
		tries := strings.Count(string(data), "\n")
		if failing < sandboxTries {
			if err != nil {
				t.Fatalf("%d failing tries: %v", failing, err)
			}
			if r, err := p.Exchange([]byte("req\n"), true, 30*time.Second); err != nil || r.Line != "ans" {
				t.Errorf("%d failing tries: the bot answered %q, %v", failing, r.Line, err)
			}
			if err := p.Stop(100 * time.Millisecond); err != nil {
				t.Error(err)
			}
			assertGone(t, b.mark)
			if tries != failing+1 {
				t.Errorf("%d failing tries: bwrap ran %d times", failing, tries)
			}
			continue
		}
		var f *Fault
		if err == nil || errors.As(err, &f) || !strings.Contains(err.Error(), "could not be built") || !strings.Contains(err.Error(), "nonexistent") {
			t.Fatalf("a sandbox never built: %v (a fault: %v)", err, f != nil)
		}
		if tries != sandboxTries {
			t.Errorf("bwrap ran %d times, want %d", tries, sandboxTries)
		}
		t.Logf("%v", err)
	}
}

//go:build linux

package botproc

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/rs/zerolog"
)

// Catalogue A: start-up failures.

func startFails(t *testing.T, spec Spec) *Fault {
	t.Helper()
	p, err := Start(context.Background(), spec, zerolog.Nop())
	if err == nil {
		p.Stop(0)
		t.Fatalf("Start(%v) succeeded, want a StartFailed fault", spec.Argv)
	}
	return wantFault(t, err, referee.FaultStart)
}

func TestStart_MissingBinary(t *testing.T) {
	t.Parallel()
	f := startFails(t, Spec{Name: "missing", Argv: []string{"/nonexistent/bot"}})
	errorIs(t, f, fs.ErrNotExist)
	f = startFails(t, Spec{Name: "missing", Argv: []string{"no-such-bot-program-xyz"}})
	errorIs(t, f, exec.ErrNotFound)
}

func TestStart_NotExecutable(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bot")
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	errorIs(t, startFails(t, Spec{Name: "noexec", Argv: []string{path}}), fs.ErrPermission)
}

func TestStart_ExecFormatError(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bot")
	if err := os.WriteFile(path, []byte("echo a script without a shebang\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	errorIs(t, startFails(t, Spec{Name: "noshebang", Argv: []string{path}}), syscall.ENOEXEC)
}

func TestStart_InterpreterMissing(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bot")
	if err := os.WriteFile(path, []byte("#!/nonexistent/python\nprint('hi')\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	errorIs(t, startFails(t, Spec{Name: "nointerp", Argv: []string{path}}), fs.ErrNotExist)
}

func TestStart_EmptyArgv(t *testing.T) {
	t.Parallel()
	startFails(t, Spec{Name: "empty"})
}

// A CPU that does not exist is the bot's (configuration) fault.
func TestStart_BadCPU(t *testing.T) {
	t.Parallel()
	startFails(t, Spec{Name: "badcpu", Argv: []string{"/bin/true"}, CPUs: []int{1000}})
}

// Trouble on the arena's side is a plain error, not the bot's fault.
func TestStart_ArenaTrouble(t *testing.T) {
	t.Parallel()
	_, err := Start(context.Background(), Spec{Name: "x", Argv: []string{"/bin/true"}, StderrFile: "/nonexistent/dir/f"}, zerolog.Nop())
	if err == nil || AsFault(err) != nil {
		t.Errorf("got %v, want a plain error", err)
	}
	errorIs(t, err, fs.ErrNotExist)
}

func TestStart_BadDir(t *testing.T) {
	t.Parallel()
	startFails(t, Spec{Name: "baddir", Argv: []string{"/bin/true"}, Dir: "/nonexistent/dir"})
}

// A5/A7: the bot exits before answering; the fault says how, with its stderr.
func TestExchange_ExitsAtOnce(t *testing.T) {
	t.Parallel()
	b := shBot(t, `echo "no luck today" >&2; exit 3`)
	p := mustStart(t, b)
	_, err := p.Exchange([]byte("req hello\n"), true, 5*time.Second)
	f := wantFault(t, err, referee.FaultCrash, "exit status 3")
	if !strings.Contains(f.StderrTail, "no luck today") {
		t.Errorf("stderr tail %q lacks the bot's message", f.StderrTail)
	}
	if got := p.ExitStatus(); got != "exit status 3" {
		t.Errorf("ExitStatus = %q", got)
	}
	stopWithin(t, p, time.Second, 200*time.Millisecond)
}

func TestExchange_PanicsAtFirstRequest(t *testing.T) {
	t.Parallel()
	p := mustStart(t, goBot(t, "echo"))
	_, err := p.Exchange([]byte("req panic\n"), true, 5*time.Second)
	f := wantFault(t, err, referee.FaultCrash, "exit status 2")
	if !strings.Contains(f.StderrTail, "test bot panics as asked") {
		t.Errorf("stderr tail %q lacks the panic", f.StderrTail)
	}
}

// A3: a bot that never answers times out and is stopped promptly.
func TestExchange_NeverAnswers(t *testing.T) {
	t.Parallel()
	b := shBot(t, `exec sleep 30`)
	p := mustStart(t, b)
	start := time.Now()
	_, err := p.Exchange([]byte("req hello\n"), true, 200*time.Millisecond)
	wantFault(t, err, referee.FaultTimeout, "no answer within 200ms")
	if took := time.Since(start); took < 200*time.Millisecond || took > time.Second {
		t.Errorf("timeout took %v", took)
	}
	stopWithin(t, p, 100*time.Millisecond, time.Second)
	assertGone(t, b.mark)
}

// A3 with a handshake that never comes and a bot that answers a later request: the fault is
// sticky, so a late answer is never read.
func TestExchange_FaultIsSticky(t *testing.T) {
	t.Parallel()
	p := mustStart(t, goBot(t, "echo"))
	_, err := p.Exchange([]byte("req sleep 300\n"), true, 50*time.Millisecond)
	f := wantFault(t, err, referee.FaultTimeout)
	time.Sleep(400 * time.Millisecond) // the late answer arrives
	_, err = p.Exchange([]byte("req again\n"), true, time.Second)
	if AsFault(err) != f {
		t.Errorf("second Exchange: %v, want the first fault again", err)
	}
	// A write without answer still goes through, e.g. to tell the bot about its fault.
	if _, err := p.Exchange([]byte("fault timeout\n"), false, time.Second); err != nil {
		t.Errorf("write after fault: %v", err)
	}
}

// A context cancelled while Start is still setting up (Ctrl-C at a bot's start) kills that
// bot alone: the cancel must not run before the pid is known and signal process group 0,
// the arena's own. Run with -race, this also checks that the cancel and Start do not race.
func TestStart_CancelledDuringStart(t *testing.T) {
	for i := range 30 {
		b := shBot(t, "sleep 30")
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Duration(i*20)*time.Microsecond, cancel)
		p, err := Start(ctx, b.Spec, testLog(t))
		if err == nil {
			if err := p.Stop(100 * time.Millisecond); err != nil {
				t.Errorf("Stop: %v", err)
			}
		}
		cancel()
		assertGone(t, b.mark)
	}
}

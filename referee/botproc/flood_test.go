//go:build linux

package botproc

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
)

// Catalogue G (and B8-B10): output floods.

// G2: endless plausible answers. The first is the answer; the rest is output while no answer
// was due, found at the next Exchange.
func TestExchange_EndlessAnswers(t *testing.T) {
	t.Parallel()
	// One write a line: print writes the line and its newline apart, and the check for
	// output while no answer was due could then read a partial line.
	b := pyBot(t, `import sys
sys.stdin.readline()
while True:
    sys.stdout.write("ans 1\n")`)
	p := mustStart(t, b)
	if r := exchange(t, p, "req x", 20*time.Second); r.Line != "ans 1" {
		t.Errorf("got %q", r.Line)
	}
	time.Sleep(100 * time.Millisecond) // output that comes after the next write is read as part of it
	_, err := p.Exchange([]byte("req y\n"), true, time.Second)
	wantFault(t, err, referee.FaultFlood, `output while no answer was due: "ans 1"`)
	stopWithin(t, p, 100*time.Millisecond, time.Second)
	assertGone(t, b.mark)
}

// G2/B10: endless info lines are a Flood after MaxInfo of them.
func TestExchange_InfoFlood(t *testing.T) {
	t.Parallel()
	p := mustStart(t, pyBot(t, `import sys
sys.stdin.readline()
while True:
    print("info depth 1")`))
	r, err := p.Exchange([]byte("req x\n"), true, 20*time.Second)
	wantFault(t, err, referee.FaultFlood, "more than 100 info lines")
	if len(r.Infos) != MaxInfo {
		t.Errorf("got %d info lines with the fault, want %d", len(r.Infos), MaxInfo)
	}
	stopWithin(t, p, 100*time.Millisecond, time.Second)
}

// B10: up to MaxInfo info lines before an answer are fine and returned in order.
func TestExchange_InfoLines(t *testing.T) {
	t.Parallel()
	p := mustStart(t, goBot(t, "echo"))
	r := exchange(t, p, "req infos 100", 10*time.Second)
	if r.Line != "ans infos 100" || len(r.Infos) != 100 || r.Infos[0] != "info 0" || r.Infos[99] != "info 99" {
		t.Errorf("got %q with %d infos", r.Line, len(r.Infos))
	}
	r = exchange(t, p, "req infos 0", 10*time.Second)
	if len(r.Infos) != 0 {
		t.Errorf("infos from an earlier answer carried over: %q", r.Infos)
	}
}

// B8: two answers to one request. The first counts; the second is a Flood at the next
// Exchange and never becomes the next answer.
func TestExchange_TwoAnswers(t *testing.T) {
	t.Parallel()
	p := mustStart(t, shBot(t, `read x; printf 'ans 1\nans 2\n'; read x; echo 'ans 3'; sleep 30`))
	if r := exchange(t, p, "req x", 10*time.Second); r.Line != "ans 1" {
		t.Errorf("got %q", r.Line)
	}
	_, err := p.Exchange([]byte("req y\n"), true, time.Second)
	wantFault(t, err, referee.FaultFlood, `"ans 2"`)
}

// B9: output written when no answer is due (here after an event) is a Flood; so is an info
// line, and a partial line.
func TestExchange_UnsolicitedOutput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, out, want string }{
		{"answer", `ans early\n`, `"ans early"`},
		{"info", `info thinking\n`, `"info thinking"`},
		{"partial", `ans ha`, `partial line "ans ha"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := mustStart(t, shBot(t, `read x; echo 'ans ready'; read x; printf '`+tc.out+`'; sleep 30`))
			exchange(t, p, "req ready", 10*time.Second)
			if _, err := p.Exchange([]byte("event 1\n"), false, time.Second); err != nil {
				t.Fatalf("event: %v", err)
			}
			time.Sleep(200 * time.Millisecond)
			_, err := p.Exchange([]byte("req x\n"), true, time.Second)
			wantFault(t, err, referee.FaultFlood, "output while no answer was due", tc.want)
		})
	}
}

// G1: a bot writing 100 MB to stderr never blocks, the arena keeps constant memory, the
// capture keeps the first and the last of it, and the stderr file stops at its cap. Not
// parallel, so the allocation count is this test's own.
func TestExchange_StderrFlood(t *testing.T) {
	file := filepath.Join(t.TempDir(), "stderr.log")
	b := pyBot(t, `import sys
sys.stdin.readline()
sys.stderr.write("HEAD-MARK\n")
chunk = "e" * (1 << 20)
for _ in range(100):
    sys.stderr.write(chunk)
sys.stderr.write("\nTAIL-MARK\n")
print("ans done")
sys.stdin.readline()`)
	b.StderrFile = file
	p := mustStart(t, b)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := p.Exchange([]byte("req x\n"), true, 30*time.Second)
	runtime.ReadMemStats(&after)
	if err != nil || r.Line != "ans done" {
		t.Fatalf("Exchange: %q, %v", r.Line, err)
	}
	stopWithin(t, p, 100*time.Millisecond, time.Second)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("the arena allocated %d bytes while the bot wrote 100 MB to stderr", grew)
	}
	tail := p.StderrTail()
	if !strings.HasPrefix(tail, "HEAD-MARK\n") || !strings.HasSuffix(tail, "\nTAIL-MARK\n") || !strings.Contains(tail, "bytes omitted") {
		t.Errorf("stderr capture of %d bytes lacks its head, tail or marker", len(tail))
	}
	if len(tail) > StderrHeadSize+StderrTailSize+100 {
		t.Errorf("stderr capture is %d bytes", len(tail))
	}
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() < StderrFileMax || st.Size() > StderrFileMax+200 {
		t.Errorf("stderr file has %d bytes, want the cap %d plus a note", st.Size(), StderrFileMax)
	}
}

// G1, G3: a bot that floods stderr at every run cannot grow its stderr file past
// StderrFileTotalMax, however often it is run (each fault restarts it; every room and, without
// kept processes, every match runs it afresh), while each run's capture keeps its stderr.
func TestExchange_StderrFloodEveryRun(t *testing.T) {
	defer func(v int64) { StderrFileTotalMax = v }(StderrFileTotalMax)
	StderrFileTotalMax = 3 << 20 // three runs of 2 MiB fill it
	file := filepath.Join(t.TempDir(), "stderr.log")
	for i := range 5 {
		b := pyBot(t, fmt.Sprintf(`import sys
sys.stdin.readline()
sys.stderr.write("e" * (2 << 20) + "\nRUN-%d\n")
sys.stderr.flush()
print("ans done", flush=True)
sys.stdin.readline()`, i))
		b.StderrFile = file
		p := mustStart(t, b)
		if r, err := p.Exchange([]byte("req x\n"), true, 30*time.Second); err != nil || r.Line != "ans done" {
			t.Fatalf("run %d: Exchange: %q, %v", i, r.Line, err)
		}
		stopWithin(t, p, 100*time.Millisecond, time.Second)
		if tail := p.StderrTail(); !strings.HasSuffix(tail, fmt.Sprintf("\nRUN-%d\n", i)) {
			t.Errorf("run %d: the capture lacks the run's last line", i)
		}
	}
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > StderrFileTotalMax+5*200 {
		t.Errorf("stderr file has %d bytes after 5 runs of 2 MiB each, want at most the total cap %d plus notes", st.Size(), StderrFileTotalMax)
	}
}

//go:build linux

package botproc

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
)

// Catalogue B: garbage, encodings, long lines.

func TestExchange_BinaryNoise(t *testing.T) {
	t.Parallel()
	p := mustStart(t, pyBot(t, `import sys
sys.stdin.readline()
sys.stdout.buffer.write(b"\x00\xff\x1b[31mans\xc3\xa9\n")
sys.stdin.readline()`))
	_, err := p.Exchange([]byte("req x\n"), true, 5*time.Second)
	wantFault(t, err, referee.FaultGarbage, "not printable ASCII", `\x00`, `\x1b[31m`)
}

func TestExchange_UnicodeLookalike(t *testing.T) {
	t.Parallel()
	p := mustStart(t, pyBot(t, `import sys
sys.stdin.readline()
print("ａns 1")
sys.stdin.readline()`))
	_, err := p.Exchange([]byte("req x\n"), true, 5*time.Second)
	wantFault(t, err, referee.FaultGarbage, `\uff41ns 1`)
}

func TestExchange_OverlongLine(t *testing.T) {
	t.Parallel()
	p := mustStart(t, pyBot(t, `import sys
sys.stdin.readline()
print("ans " + "x" * 5000)
sys.stdin.readline()`))
	_, err := p.Exchange([]byte("req x\n"), true, 5*time.Second)
	wantFault(t, err, referee.FaultGarbage, "longer than the 4096 bytes allowed", `"ans xxxx`)
	if strings.Contains(err.Error(), "(81 bytes)") {
		t.Errorf("the fault gives the length of its excerpt as the line's: %v", err)
	}
}

// A long partial line before an exit is quoted by its start, with its real length.
func TestExchange_LongPartialLineThenExit(t *testing.T) {
	t.Parallel()
	p := mustStart(t, shBot(t, `read x; printf 'ans %0300d' 0; exit 0`))
	_, err := p.Exchange([]byte("req x\n"), true, 5*time.Second)
	wantFault(t, err, referee.FaultCrash, `partial line "ans 000`, `... (304 bytes)`)
}

// One byte over the limit, newline-terminated: the Detail quotes the line's start.
func TestExchange_LineOneByteTooLong(t *testing.T) {
	t.Parallel()
	p := mustStart(t, pyBot(t, `import sys
sys.stdin.readline()
sys.stdout.write("ans " + "z" * 4093 + "\n")
sys.stdin.readline()`))
	_, err := p.Exchange([]byte("req x\n"), true, 5*time.Second)
	wantFault(t, err, referee.FaultGarbage, "line of 4097 bytes, longer than the 4096 bytes allowed", `"ans zzz`)
}

// B2 and the limit itself: a line of exactly the maximum length, ended by CRLF, is accepted.
func TestExchange_LongestLineAndCRLF(t *testing.T) {
	t.Parallel()
	p := mustStart(t, pyBot(t, `import sys
sys.stdin.readline()
sys.stdout.write("ans " + "y" * 4092 + "\r\n")
sys.stdin.readline()
sys.stdout.write("ans short\r\n")
sys.stdin.readline()`))
	if r := exchange(t, p, "req 1", 5*time.Second); len(r.Line) != 4096 || !strings.HasPrefix(r.Line, "ans yyy") {
		t.Errorf("got a line of %d bytes, want 4096", len(r.Line))
	}
	if r := exchange(t, p, "req 2", 5*time.Second); r.Line != "ans short" {
		t.Errorf("got %q", r.Line)
	}
}

// B6: a line that is never finished times out, and the fault quotes what came.
func TestExchange_NoNewlineThenHang(t *testing.T) {
	t.Parallel()
	p := mustStart(t, pyBot(t, pyReady+`sys.stdin.readline()
sys.stdout.write("ans almost")
time.sleep(30)`))
	ready(t, p)
	_, err := p.Exchange([]byte("req x\n"), true, 300*time.Millisecond)
	wantFault(t, err, referee.FaultTimeout, `partial line "ans almost"`)
}

// B6: a line trickled one byte at a time is bounded by the deadline of the whole answer.
func TestExchange_Trickle(t *testing.T) {
	t.Parallel()
	p := mustStart(t, pyBot(t, pyReady+`sys.stdin.readline()
for c in "ans 1234567890\n":
    sys.stdout.write(c)
    time.sleep(0.05)
time.sleep(30)`))
	ready(t, p)
	_, err := p.Exchange([]byte("req x\n"), true, 300*time.Millisecond)
	wantFault(t, err, referee.FaultTimeout, `partial line "ans`)
}

// B7: a partial line followed by exit is a crash, never an answer.
func TestExchange_PartialLineThenExit(t *testing.T) {
	t.Parallel()
	p := mustStart(t, shBot(t, `read x; printf 'ans 1'; exit 0`))
	_, err := p.Exchange([]byte("req x\n"), true, 5*time.Second)
	wantFault(t, err, referee.FaultCrash, `partial line "ans 1"`, "exit status 0")
}

// B5: a 100 MB line without a newline is Garbage as soon as 4 KiB have arrived, and the
// arena's memory stays flat. Not parallel, so the allocation count is the arena's own.
func TestExchange_HugeLine(t *testing.T) {
	b := pyBot(t, pyReady+`sys.stdin.readline()
chunk = b"A" * 65536
try:
    for _ in range(1600):
        sys.stdout.buffer.write(chunk)
except BrokenPipeError:
    pass
time.sleep(30)`)
	p := mustStart(t, b)
	ready(t, p)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := p.Exchange([]byte("req x\n"), true, 10*time.Second)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	wantFault(t, err, referee.FaultGarbage, "longer than the 4096 bytes allowed (not read further)", `"AAAA`)
	if took > time.Second {
		t.Errorf("found the long line after %v, want well before the 10s timeout", took)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("the arena allocated %d bytes reading a huge line", grew)
	}
	stopWithin(t, p, 100*time.Millisecond, time.Second)
}

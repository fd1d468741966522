//go:build linux

package botproc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/klaverjas-arena/arena/referee"
)

// The head+tail capture keeps exactly the first and the last bytes, for any writes.
func TestHeadTail(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		headSize := rapid.IntRange(0, 16).Draw(t, "head")
		tailSize := rapid.IntRange(0, 16).Draw(t, "tail")
		h := newHeadTail(headSize, tailSize)
		var all []byte
		for _, w := range rapid.SliceOf(rapid.SliceOfN(rapid.ByteRange('a', 'z'), 0, 40)).Draw(t, "writes") {
			h.Write(w)
			all = append(all, w...)
		}
		head := all[:min(len(all), headSize)]
		rest := all[len(head):]
		tail := rest[max(0, len(rest)-tailSize):]
		want := string(head)
		if omitted := len(rest) - len(tail); omitted > 0 {
			want += fmt.Sprintf("\n[... %d bytes omitted ...]\n", omitted)
		}
		want += string(tail)
		if got := h.String(); got != want {
			t.Fatalf("got %q, want %q (all %q)", got, want, all)
		}
		if h.Total() != int64(len(all)) {
			t.Fatalf("Total %d, want %d", h.Total(), len(all))
		}
	})
}

func TestHeadTail_Sanitizes(t *testing.T) {
	h := newHeadTail(64, 0)
	h.Write([]byte("ok\tline\n\x1b[2J\x00é\xff\u0085"))
	if got, want := h.String(), `ok`+"\t"+`line`+"\n"+`\x1b[2J\x00é\xff\xc2`+`\x85`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"play JH", `"play JH"`},
		{"\x00\xff\x1b", `"\x00\xff\x1b"`},
		{strings.Repeat("a", 100), `"` + strings.Repeat("a", 80) + `"... (100 bytes)`},
	} {
		if got := quote([]byte(tc.in)); got != tc.want {
			t.Errorf("quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// The meter counts newlines and keeps the start of the current line, across reads.
func TestMeter(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	m := &meter{f: r}
	buf := make([]byte, 64)
	for _, chunk := range []string{"ab\ncd", "ef", "\n\nxyz"} {
		w.WriteString(chunk)
		if _, err := m.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	if m.newlines != 3 || m.cur != 3 || string(m.head[:m.headN]) != "xyz" || m.longN != 0 {
		t.Errorf("newlines %d, cur %d, head %q, long %q", m.newlines, m.cur, m.head[:m.headN], m.long[:m.longN])
	}
	// A line of the maximum length plus "\r" is fine; one byte more is too long.
	m.account([]byte("\n" + strings.Repeat("r", 4096)))
	m.account([]byte("\r\n" + strings.Repeat("s", 4097)))
	m.account([]byte("\n"))
	if m.newlines != 6 || string(m.long[:m.longN]) != strings.Repeat("s", headLen) {
		t.Errorf("newlines %d, long %q", m.newlines, m.long[:m.longN])
	}
	w.WriteString(strings.Repeat("q", 5000))
	for m.cur <= 4097 {
		if _, err := m.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Read(buf); !errors.Is(err, errRunaway) {
		t.Errorf("after 5000 bytes without a newline: %v, want errRunaway", err)
	}
}

func TestFaultError(t *testing.T) {
	f := &Fault{Bot: "b", Kind: referee.FaultTimeout, Detail: "no answer within 1s"}
	if f.Error() != `bot "b": timeout: no answer within 1s` {
		t.Errorf("Error() = %q", f.Error())
	}
}

// H12: after Harden, writing to a closed stdout is an EPIPE error, not death by SIGPIPE.
func TestHarden_SIGPIPE(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, testBotArg, "sigpipe")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = w
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	r.Close() // nobody will ever read
	err = cmd.Run()
	w.Close()
	if err != nil {
		t.Fatalf("arena with closed stdout: %v (stderr %q)", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "broken pipe") {
		t.Errorf("stderr %q lacks the EPIPE error", stderr.String())
	}
}

// testSIGPIPE is the "sigpipe" test-bot mode: an arena whose stdout is closed.
func testSIGPIPE() int {
	Harden()
	for range 3 {
		if _, err := os.Stdout.WriteString("hello\n"); err != nil {
			fmt.Fprintln(os.Stderr, "write:", err)
			if errors.Is(err, syscall.EPIPE) {
				return 0
			}
			return 1
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 1
}

// Harden does not hand SIGPIPE ignored to bots (signal.Ignore would).
func TestHarden_BotGetsDefaultSIGPIPE(t *testing.T) {
	t.Parallel()
	p := mustStart(t, shBot(t, `read x; echo "ans $(grep SigIgn /proc/$$/status)"`))
	line := exchange(t, p, "req x", 10*time.Second).Line
	var mask uint64
	if _, err := fmt.Sscanf(line, "ans SigIgn: %x", &mask); err != nil {
		t.Fatalf("answer %q: %v", line, err)
	}
	if mask&(1<<(syscall.SIGPIPE-1)) != 0 {
		t.Errorf("bot has SIGPIPE ignored: SigIgn %016x", mask)
	}
}

var _ io.Writer = (*headTail)(nil)

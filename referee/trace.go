package referee

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"
)

// tracer writes the protocol trace: every line to and from every bot, with the time since
// the trace started, the seat and the direction ("<" to the bot, ">" from it).
type tracer struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	buf   []byte
}

func newTracer(w io.Writer) *tracer { return &tracer{w: w, start: time.Now()} }

func (t *tracer) out(s *seat, lines []byte) {
	if t.w == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = t.buf[:0]
	stamp := time.Since(t.start).Seconds()
	for line := range bytes.Lines(lines) {
		t.buf = fmt.Appendf(t.buf, "%.6f %s %s < %s", stamp, s.pos, s.name, line)
	}
	_, _ = t.w.Write(t.buf)
}

func (t *tracer) in(s *seat, r Reply) {
	if t.w == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = t.buf[:0]
	stamp := time.Since(t.start).Seconds()
	for _, info := range r.Infos {
		t.buf = fmt.Appendf(t.buf, "%.6f %s %s > %s\n", stamp, s.pos, s.name, info)
	}
	t.buf = fmt.Appendf(t.buf, "%.6f %s %s > %s\n", stamp, s.pos, s.name, r.Line)
	_, _ = t.w.Write(t.buf)
}

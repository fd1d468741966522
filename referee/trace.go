package referee

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"
)

// tracer writes the protocol trace: every line to and from every bot, with the time since
// the trace started, the seat and the direction ("<" to the bot, ">" from it); and per
// seat, when asked, that seat's lines alone with only the direction (Config.SeatTraces).
type tracer struct {
	mu    sync.Mutex
	w     io.Writer
	seats []io.Writer
	start time.Time
	buf   []byte
}

func newTracer(w io.Writer, seats []io.Writer) *tracer {
	return &tracer{w: w, seats: seats, start: time.Now()}
}

// seat returns the seat's own trace, or nil.
func (t *tracer) seat(s *seat) io.Writer {
	if int(s.pos) < len(t.seats) {
		return t.seats[s.pos]
	}
	return nil
}

func (t *tracer) out(s *seat, lines []byte) {
	own := t.seat(s)
	if t.w == nil && own == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != nil {
		t.buf = t.buf[:0]
		stamp := time.Since(t.start).Seconds()
		for line := range bytes.Lines(lines) {
			t.buf = fmt.Appendf(t.buf, "%.6f %s %s < %s", stamp, s.pos, s.name, line)
		}
		_, _ = t.w.Write(t.buf)
	}
	if own != nil {
		t.buf = t.buf[:0]
		for line := range bytes.Lines(lines) {
			t.buf = append(append(t.buf, "< "...), line...)
		}
		_, _ = own.Write(t.buf)
	}
}

func (t *tracer) in(s *seat, r Reply) {
	own := t.seat(s)
	if t.w == nil && own == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != nil {
		t.buf = t.buf[:0]
		stamp := time.Since(t.start).Seconds()
		for _, info := range r.Infos {
			t.buf = fmt.Appendf(t.buf, "%.6f %s %s > %s\n", stamp, s.pos, s.name, info)
		}
		t.buf = fmt.Appendf(t.buf, "%.6f %s %s > %s\n", stamp, s.pos, s.name, r.Line)
		_, _ = t.w.Write(t.buf)
	}
	if own != nil {
		t.buf = t.buf[:0]
		for _, info := range r.Infos {
			t.buf = append(append(append(t.buf, "> "...), info...), '\n')
		}
		t.buf = append(append(append(t.buf, "> "...), r.Line...), '\n')
		_, _ = own.Write(t.buf)
	}
}

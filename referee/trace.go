package referee

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
)

// tracer writes the protocol trace: every line to and from every bot, with the time since
// the trace started, the seat (and its room after the first: "N/2") and the direction ("<"
// to the bot, ">" from it); and per seat and room, when asked, that process's lines alone
// with only the direction (Config.SeatTraces).
type tracer struct {
	mu    sync.Mutex
	w     io.Writer
	seats []io.Writer
	table int
	start time.Time
	buf   []byte
}

func newTracer(w io.Writer, seats []io.Writer, table int) *tracer {
	return &tracer{w: w, seats: seats, table: table, start: time.Now()}
}

// seat returns the own trace of the seat's process in the room in play, or nil.
func (t *tracer) seat(s *seat) io.Writer {
	if i := s.room*t.table + int(s.pos); i < len(t.seats) {
		return t.seats[i]
	}
	return nil
}

// seatLabel is how the protocol trace names a seat in a room: the seat, and from the second
// room on its number from 1 after a slash ("N", "N/2").
func seatLabel(pos protocol.Seat, room int) string {
	if room == 0 {
		return pos.String()
	}
	return fmt.Sprintf("%s/%d", pos, room+1)
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
			t.buf = fmt.Appendf(t.buf, "%.6f %s %s < %s", stamp, seatLabel(s.pos, s.room), s.name, line)
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
			t.buf = fmt.Appendf(t.buf, "%.6f %s %s > %s\n", stamp, seatLabel(s.pos, s.room), s.name, info)
		}
		t.buf = fmt.Appendf(t.buf, "%.6f %s %s > %s\n", stamp, seatLabel(s.pos, s.room), s.name, r.Line)
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

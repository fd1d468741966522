package botproc

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// Sizes of the stderr capture kept per bot (Proc.StderrTail): the first StderrHeadSize and
// the last StderrTailSize bytes.
const (
	StderrHeadSize = 4 << 10
	StderrTailSize = 16 << 10
)

// headTail keeps the first len(head) and the last len(tail) bytes written to it, in constant
// memory, however much is written. It is safe for concurrent use.
type headTail struct {
	mu    sync.Mutex
	head  []byte // filled up to cap, then frozen
	tail  []byte // ring buffer, len == cap once full
	pos   int    // next write position in tail once full
	total int64
}

func newHeadTail(headSize, tailSize int) *headTail {
	return &headTail{head: make([]byte, 0, headSize), tail: make([]byte, 0, tailSize)}
}

// Write never fails and never blocks for long.
func (h *headTail) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(p)
	h.total += int64(n)
	if room := cap(h.head) - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 || cap(h.tail) == 0 {
		return n, nil
	}
	if len(p) >= cap(h.tail) { // only the last cap(tail) bytes survive
		h.tail = append(h.tail[:0], p[len(p)-cap(h.tail):]...)
		h.pos = 0
		return n, nil
	}
	if room := cap(h.tail) - len(h.tail); room > 0 {
		k := min(room, len(p))
		h.tail = append(h.tail, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 { // ring is full
		k := copy(h.tail[h.pos:], p)
		h.pos = (h.pos + k) % len(h.tail)
		p = p[k:]
	}
	return n, nil
}

// Total returns how many bytes were written.
func (h *headTail) Total() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total
}

// String returns the head, then, if anything was left out, a marker with the number of bytes
// left out, then the tail; control characters other than newline and tab, and invalid UTF-8,
// are escaped, so the result is safe to print on a terminal.
func (h *headTail) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var b strings.Builder
	sanitize(&b, h.head)
	kept := int64(len(h.head) + len(h.tail))
	if h.total > kept {
		fmt.Fprintf(&b, "\n[... %d bytes omitted ...]\n", h.total-kept)
	}
	if len(h.tail) == cap(h.tail) && h.pos > 0 {
		ring := make([]byte, 0, len(h.tail))
		ring = append(append(ring, h.tail[h.pos:]...), h.tail[:h.pos]...)
		sanitize(&b, ring)
	} else {
		sanitize(&b, h.tail)
	}
	return b.String()
}

// sanitize writes p to b with every byte that could upset a terminal escaped as \xNN: control
// characters other than \n and \t, DEL, and bytes of invalid UTF-8.
func sanitize(b *strings.Builder, p []byte) {
	for len(p) > 0 {
		r, size := utf8.DecodeRune(p)
		switch {
		case r == utf8.RuneError && size <= 1,
			r < 0x20 && r != '\n' && r != '\t',
			r == 0x7f, r >= 0x80 && r < 0xa0:
			fmt.Fprintf(b, `\x%02x`, p[0])
			size = 1
		default:
			b.Write(p[:size])
		}
		p = p[size:]
	}
}

package textview

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTruncate: the live status line fits the terminal, so it never wraps into a new line
// per refresh.
func TestTruncate(t *testing.T) {
	line := "12:00:00 matches 3/72  55 deals/s  ETA 1m10s  leader py-heuristic (54.6%)"
	for _, w := range []int{1, 10, 40, 72} {
		got := Truncate(line, w)
		if n := utf8.RuneCountInString(got); n > w || !strings.HasSuffix(got, "…") {
			t.Errorf("width %d: %q (%d runes)", w, got, n)
		}
	}
	if got := Truncate(line, 200); got != line {
		t.Errorf("a line that fits was cut: %q", got)
	}
	if got := Truncate(line, 0); got != line {
		t.Errorf("no width: %q", got)
	}
}

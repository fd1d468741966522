package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceDirIsEachSeatsOwnTrace: --trace-dir writes, per seat, exactly the lines of the
// full --trace that went to and came from that seat's bot, in order.
func TestTraceDirIsEachSeatsOwnTrace(t *testing.T) {
	dir := botDir(t)
	first := writeFirstLegal(t, dir, "firstlegal", "", "")
	other := writeBot(t, dir, "other", "shift 5; echo \"$1\"; continue", "echo ok")
	trace, traces := filepath.Join(dir, "all.trace"), filepath.Join(dir, "seats")
	if _, errOut, err := runArena(t, "match", "bash "+first, "bash "+other, "--games", "1", "-o", "game_end=deals:2", "--seed", "8",
		"--trace", trace, "--trace-dir", traces); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	all, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*strings.Builder{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(all)), "\n") {
		// "SECONDS SEAT NAME < LINE"
		f := strings.SplitN(line, " ", 4)
		if want[f[1]] == nil {
			want[f[1]] = &strings.Builder{}
		}
		want[f[1]].WriteString(f[3] + "\n")
	}
	for _, file := range []string{"N-firstlegal.trace", "E-other.trace", "S-firstlegal.trace", "W-other.trace"} {
		got, err := os.ReadFile(filepath.Join(traces, file))
		if err != nil {
			t.Fatal(err)
		}
		if w := want[file[:1]].String(); string(got) != w || !strings.HasPrefix(w, "< klaverjas 1\n> hello 1 ") {
			t.Errorf("%s:\n%s\nwant the seat's lines of the full trace:\n%s", file, got, w)
		}
	}
}

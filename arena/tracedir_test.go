package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceDirIsEachSeatsOwnTrace: --trace-dir writes, per seat and room, exactly the lines
// of the full --trace that went to and came from that seat's bot process, in order.
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
	// The duplicate replay's processes (room 2) have traces of their own: "N/2" in the full one.
	files := map[string]string{"N-firstlegal.trace": "N", "E-other.trace": "E", "S-firstlegal.trace": "S", "W-other.trace": "W",
		"N-firstlegal.room2.trace": "N/2", "E-other.room2.trace": "E/2", "S-firstlegal.room2.trace": "S/2", "W-other.room2.trace": "W/2"}
	if len(want) != len(files) {
		t.Errorf("the full trace names %d seats and rooms, want %d", len(want), len(files))
	}
	for file, label := range files {
		got, err := os.ReadFile(filepath.Join(traces, file))
		if err != nil {
			t.Fatal(err)
		}
		if want[label] == nil {
			t.Fatalf("the full trace has no lines of %s", label)
		}
		if w := want[label].String(); string(got) != w || !strings.HasPrefix(w, "< klaverjas 1\n> hello 1 ") {
			t.Errorf("%s:\n%s\nwant the seat's lines of the full trace:\n%s", file, got, w)
		}
	}
}

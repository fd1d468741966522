package league

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
)

// TestSnapshotWriter: the first totals are written at once, later ones that come within
// snapshotEvery are written when it has passed (the newest of them, never an older one after
// a newer), and close writes what is still pending.
func TestSnapshotWriter(t *testing.T) {
	r := &Runner{File: &File{Name: "snap"}, Snapshot: filepath.Join(t.TempDir(), "snap.json")}
	matches := func() int {
		t.Helper()
		s, err := ReadSnapshot(r.Snapshot)
		if err != nil {
			t.Fatal(err)
		}
		return s.Totals.Matches
	}
	w := &r.snap
	w.write(r, &store.Totals{Matches: 1})
	if got := matches(); got != 1 {
		t.Fatalf("after the first match: snapshot of %d matches, want 1", got)
	}
	w.write(r, &store.Totals{Matches: 3})
	w.write(r, &store.Totals{Matches: 2}) // committed later, finished earlier: not written
	for deadline := time.Now().Add(10 * time.Second); matches() != 3; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("pending totals not written after 10 s: snapshot of %d matches, want 3", matches())
		}
	}
	w.write(r, &store.Totals{Matches: 4})
	w.write(r, &store.Totals{Matches: 5})
	w.close(r)
	if got := matches(); got != 5 {
		t.Fatalf("after close: snapshot of %d matches, want 5", got)
	}
}

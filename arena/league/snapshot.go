package league

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
)

// Snapshot is what Runner.Snapshot holds: a running league's totals.
type Snapshot struct {
	League string        `json:"league"`
	PID    int           `json:"pid"`
	Time   time.Time     `json:"time"`
	Totals *store.Totals `json:"totals"`
	// Authors are the bots' author lines by rating index (nil when no bot has one).
	Authors []string `json:"authors,omitempty"`
}

// snapshotFile is the snapshot file: the snapshot's JSON with its CRC-32C, so that a damaged
// or altered file is reported instead of shown as a running league's standings (the
// database's values carry theirs).
type snapshotFile struct {
	CRC32C   uint32          `json:"crc32c"`
	Snapshot json.RawMessage `json:"snapshot"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrSnapshotDamaged is a snapshot file that does not pass its checksum, or is not one.
var ErrSnapshotDamaged = errors.New("damaged or altered")

// ReadSnapshot reads a running league's snapshot of its totals, checking its checksum.
func ReadSnapshot(path string) (*Snapshot, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f snapshotFile
	if err := json.Unmarshal(data, &f); err != nil || f.Snapshot == nil {
		return nil, fmt.Errorf("snapshot %s: %w: not a snapshot of a running league's standings", path, ErrSnapshotDamaged)
	}
	if crc32.Checksum(f.Snapshot, castagnoli) != f.CRC32C {
		return nil, fmt.Errorf("snapshot %s: %w: it fails its checksum", path, ErrSnapshotDamaged)
	}
	var s Snapshot
	if err := json.Unmarshal(f.Snapshot, &s); err != nil || s.Totals == nil {
		return nil, fmt.Errorf("snapshot %s: %w: unreadable", path, ErrSnapshotDamaged)
	}
	return &s, nil
}

// snapshotEvery is the least time between two writes of the snapshot file: a league of fast
// bots finishes hundreds of matches a second, and writing and renaming a file for each cost
// it about 3% of its CPU time. Totals that come sooner are written when the time is up.
const snapshotEvery = 50 * time.Millisecond

// snapshotWriter writes a running league's snapshot file (best effort: a failure only means
// standings cannot be shown during the run) with the latest totals, at most every
// snapshotEvery.
type snapshotWriter struct {
	mu      sync.Mutex
	latest  *store.Totals // the newest totals, not yet written if pending is set
	written time.Time
	pending *time.Timer // writes latest when snapshotEvery has passed
}

// write takes the totals of a finished match, for the snapshot file of r.
func (w *snapshotWriter) write(r *Runner, t *store.Totals) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.latest != nil && t.Matches < w.latest.Matches {
		return // a later match's totals came first
	}
	w.latest = t
	if w.pending != nil {
		return
	}
	wait := snapshotEvery - time.Since(w.written)
	if wait <= 0 {
		w.flush(r)
		return
	}
	var timer *time.Timer
	timer = time.AfterFunc(wait, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.pending == timer { // not flushed by close meanwhile
			w.flush(r)
		}
	})
	w.pending = timer
}

// close writes the totals not yet written, so that nothing is written after it until the
// next write.
func (w *snapshotWriter) close(r *Runner) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pending != nil {
		w.pending.Stop()
		w.flush(r)
	}
}

// flush replaces the file with the latest totals; w.mu is held.
func (w *snapshotWriter) flush(r *Runner) {
	w.pending = nil
	w.written = time.Now()
	_ = WriteSnapshot(r.Snapshot, &Snapshot{League: r.File.Name, PID: os.Getpid(), Time: w.written, Totals: w.latest, Authors: r.File.BotAuthors()})
}

// WriteSnapshot replaces the snapshot file at path (atomically, mode 0600) with s and its
// checksum.
func WriteSnapshot(path string, s *Snapshot) error {
	snap, err := json.Marshal(s)
	if err != nil {
		return err
	}
	data, err := json.Marshal(snapshotFile{CRC32C: crc32.Checksum(snap, castagnoli), Snapshot: snap})
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

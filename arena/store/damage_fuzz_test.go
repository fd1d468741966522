package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// FuzzDamagedFile: whatever bytes of a league's database file are changed, the reading
// commands' path (Open read-only, Verify, then every read) reports the damage or reads
// exactly what the intact file holds, and a refused file is refused for writing too and left
// as it was; it never panics, never hangs and never hands over a different league (rows
// lost with a page's count, a match's record lost with its rows, a league renamed). The
// input is a list of patches, three bytes each: an offset into the file (little-endian,
// modulo its size) and the byte to put there; an odd number of bytes forks the page walk
// at every branch page and walks the rows in halves.
func FuzzDamagedFile(f *testing.F) {
	db, path := storedMatch(f, 3)
	// bbolt reads a file whose last meta page is damaged as of the transaction before
	// (its recovery from a torn write): the last one here stores a bot, which readAll does
	// not read, so that the file reads the same either way.
	if err := db.PutBot("z", map[string]string{"cmd": "z"}); err != nil {
		f.Fatal(err)
	}
	if err := db.Close(); err != nil {
		f.Fatal(err)
	}
	intact, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	want, err := readAll(path)
	if err != nil {
		f.Fatalf("the intact file: %v", err)
	}
	patch := func(off int, b byte) []byte { return []byte{byte(off), byte(off >> 8), b} }
	pageSize := int(binary.LittleEndian.Uint32(intact[16+8:])) // meta: magic, version, page size
	for page := range len(intact) / pageSize {
		for _, at := range []int{0, 8, 10, 12, 16, 20, 24, 40, 100, 1000} { // page id, flags, count, overflow, elements
			f.Add(patch(page*pageSize+at, 0x01))
			f.Add(patch(page*pageSize+at, 0xff))
		}
	}
	f.Add(append(patch(0, 0), patch(pageSize+10, 3)...))
	f.Fuzz(func(t *testing.T, patches []byte) {
		if len(patches)%2 == 1 { // the walks forked: the pages' at every branch page, the rows' in halves
			defer func(n uint16, m uint32) { forkElements, splitMatches = n, m }(forkElements, splitMatches)
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
			forkElements, splitMatches = 2, 2
		}
		data := bytes.Clone(intact)
		for i := 0; i+3 <= len(patches) && i < 3*16; i += 3 {
			data[int(binary.LittleEndian.Uint16(patches[i:]))%len(data)] = patches[i+2]
		}
		if bytes.Equal(data, intact) {
			return
		}
		damaged := filepath.Join(t.TempDir(), "arena.db")
		if err := os.WriteFile(damaged, data, 0o600); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		var got string
		var err error
		go func() {
			defer close(done)
			got, err = readAll(damaged)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("reading the damaged file did not end in 20 s")
		}
		if err == nil && got != want {
			t.Fatalf("the damaged file was read as another league: %s", lineDiff(got, want))
		}
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNoDatabase) {
			t.Logf("refused: %v", err) // bbolt's own refusals on open (invalid meta, checksum) are not ErrCorrupt
		}
		if err == nil {
			// What the arena's checks pass, bbolt's own check passes too.
			if problems := boltCheck(t, damaged); len(problems) > 0 {
				t.Fatalf("read as intact, but bbolt's Tx.Check finds %q", problems)
			}
			return
		}
		// A league does not write on into a file the readers refuse, and leaves it as it is.
		if w, werr := Open(damaged, Options{Command: "fuzz", Timeout: time.Second}); werr == nil {
			w.Close()
			t.Fatalf("opened for writing a file the readers refuse (%v)", err)
		}
		if after, _ := os.ReadFile(damaged); !bytes.Equal(after, data) {
			t.Fatal("the refused file was changed")
		}
	})
}

// boltCheck returns what bbolt's Tx.Check finds in the file at path, which the arena's
// page check must have passed (Tx.Check faults on pages outside the file).
func boltCheck(t *testing.T, path string) (problems []string) {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	err = b.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			problems = append(problems, err.Error())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return problems
}

// readAll opens the file read-only as the reading commands do, verifies it and returns
// everything league x holds as text: the league, its totals, its matches and every deal's
// log line.
func readAll(path string) (string, error) {
	db, err := Open(path, Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return "", err
	}
	defer db.Close()
	if err := db.Verify(); err != nil {
		return "", err
	}
	var out bytes.Buffer
	leagues, err := db.Leagues()
	if err != nil {
		return "", err
	}
	tot, err := db.Totals("x")
	if err != nil {
		return "", err
	}
	ms, err := db.Matches("x")
	if err != nil {
		return "", err
	}
	n, err := db.DealCount("x")
	if err != nil {
		return "", err
	}
	key, err := db.DealKey("x")
	if err != nil {
		return "", err
	}
	for _, v := range []any{leagues, tot, ms, n, key} {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
	}
	err = MatchLines(db, "x", -1, func(m *Match, lines []byte, deals int) error {
		fmt.Fprintf(&out, "match %d: %d deals\n", m.Index, deals)
		out.Write(lines)
		return nil
	})
	if err != nil {
		return "", err
	}
	err = db.Scores("x", -1, func(m *Match, deals []DealScore) error {
		b, _ := json.Marshal(deals)
		fmt.Fprintf(&out, "scores %d: %s\n", m.Index, b)
		return nil
	})
	return out.String(), err
}

// lineDiff names the first line where got and want differ, cut to 300 bytes.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	cut := func(s string) string { return s[:min(len(s), 300)] }
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n%s\nwant\n%s", i+1, cut(g[i]), cut(w[i]))
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

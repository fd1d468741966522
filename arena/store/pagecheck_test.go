package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// pagesOf returns the ids of the file's pages with the given flags whose first element's
// key has keyLen bytes (any key length when keyLen is 0), and the page size.
func pagesOf(t *testing.T, data []byte, flags uint16, keyLen int) (ids []int, size int) {
	t.Helper()
	size = int(binary.LittleEndian.Uint32(data[pageHeaderLen+8:]))
	for id := 2; (id+1)*size <= len(data); id++ {
		p := data[id*size:]
		if binary.LittleEndian.Uint64(p) != uint64(id) || binary.LittleEndian.Uint16(p[8:]) != flags || binary.LittleEndian.Uint16(p[10:]) == 0 {
			continue
		}
		ksize := binary.LittleEndian.Uint32(p[pageHeaderLen+4:]) // branch element's ksize
		if flags == leafPage {
			ksize = binary.LittleEndian.Uint32(p[pageHeaderLen+8:])
		}
		if keyLen == 0 || int(ksize) == keyLen {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		t.Fatalf("no page with flags %#x and keys of %d bytes", flags, keyLen)
	}
	return ids, size
}

// freelistPageOf returns the id of the free-list page of the file's current meta page, which
// must list at least two free pages, each by its own id (a count below 0xFFFF).
func freelistPageOf(t *testing.T, data []byte, size int) int {
	t.Helper()
	w := pageWalker{data: data, pageSize: uint64(size)}
	meta, ok := w.currentMeta()
	if !ok {
		t.Fatal("no valid meta page")
	}
	id := int(binary.LittleEndian.Uint64(meta[48:]))
	if n := binary.LittleEndian.Uint16(data[id*size+10:]); n < 2 || n == 0xFFFF {
		t.Fatalf("the free list, page %d, lists %d pages", id, n)
	}
	return id
}

// TestPageCheck: damage that made bbolt read outside its map (a fault on the goroutine of
// bbolt's Tx.Check, fatal to the process) or loop, damage that Verify's bbolt Tx.Check finds
// (keys out of order, the free list wrong), and damage that leaves every page sound but
// loses rows, is reported by Open or Verify as ErrCorrupt, naming the page or the match,
// and the file is not changed.
func TestPageCheck(t *testing.T) {
	db, path := storedMatch(t, 3)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	intact, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	leaves, size := pagesOf(t, intact, leafPage, 10) // pages of deal rows
	branches, _ := pagesOf(t, intact, branchPage, 0)
	leaf, branch := leaves[len(leaves)/2], branches[0]
	free := freelistPageOf(t, intact, size)
	put32 := func(data []byte, at int, v uint32) { binary.LittleEndian.PutUint32(data[at:], v) }
	for _, tc := range []struct {
		name, want string
		damage     func(d []byte)
	}{
		{"key past the file", "element 0's key or value runs past the page", func(d []byte) {
			put32(d, leaf*size+pageHeaderLen+8, 0x10ff0000) // the first element's key size
		}},
		{"child past the file", "outside the pages in use", func(d []byte) {
			binary.LittleEndian.PutUint64(d[branch*size+pageHeaderLen+8:], 1<<40)
		}},
		{"branch names itself", "which is already in use", func(d []byte) {
			binary.LittleEndian.PutUint64(d[branch*size+pageHeaderLen+8:], uint64(branch))
		}},
		{"branch without elements", "a branch page without elements", func(d []byte) {
			binary.LittleEndian.PutUint16(d[branch*size+10:], 0)
		}},
		{"more elements than fit", "elements do not fit", func(d []byte) {
			binary.LittleEndian.PutUint16(d[leaf*size+10:], 0xFFF0)
		}},
		{"a page lost a row", "holds 31 stored deals, its record says 32", func(d []byte) {
			binary.LittleEndian.PutUint16(d[leaf*size+10:], binary.LittleEndian.Uint16(d[leaf*size+10:])-1)
		}},
		{"keys out of order", "needs to be > (found <) than previous element", func(d []byte) {
			e := leaf*size + pageHeaderLen
			d[e+int(binary.LittleEndian.Uint32(d[e+4:]))] = 0xff // the first byte of the first key
		}},
		{"a page in use and free", "reachable freed", func(d []byte) {
			binary.LittleEndian.PutUint64(d[free*size+pageHeaderLen:], uint64(leaf)) // the first free id
		}},
		{"a page neither in use nor free", "unreachable unfreed", func(d []byte) {
			binary.LittleEndian.PutUint16(d[free*size+10:], binary.LittleEndian.Uint16(d[free*size+10:])-1)
		}},
		{"a page free twice", "already freed", func(d []byte) {
			binary.LittleEndian.PutUint64(d[free*size+pageHeaderLen+8:], binary.LittleEndian.Uint64(d[free*size+pageHeaderLen:]))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := bytes.Clone(intact)
			tc.damage(data)
			damaged := filepath.Join(t.TempDir(), "arena.db")
			if err := os.WriteFile(damaged, data, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := readAll(damaged)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("read: %v, want ErrCorrupt with %q", err, tc.want)
			}
			if _, err := Open(damaged, Options{Command: "test"}); !errors.Is(err, ErrCorrupt) {
				t.Errorf("open for writing: %v", err)
			}
			if after, _ := os.ReadFile(damaged); !bytes.Equal(after, data) {
				t.Error("the damaged file was changed")
			}
		})
	}
	// A match's record lost with every value left sound, as bbolt would store it.
	lost := filepath.Join(t.TempDir(), "arena.db")
	if err := os.WriteFile(lost, intact, 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := bolt.Open(lost, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketLeagues).Bucket([]byte("x")).Bucket(bucketMatches).Delete(u32(1))
	}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	_, err = readAll(lost)
	if want := "32 stored deals of match 1, which has no record"; !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), want) {
		t.Errorf("a lost match record: %v, want %q", err, want)
	}
}

// BenchmarkCheckPages: Open's page walk, per deal, of the file benchFile gives.
func BenchmarkCheckPages(b *testing.B) {
	path, db, deals := benchFile(b)
	for b.Loop() {
		if problems, err := checkPages(path, db.bolt.Info().PageSize); err != nil || problems.n > 0 {
			b.Fatal(problems, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(deals), "ns/deal")
}

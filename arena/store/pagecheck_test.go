package store

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
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

// leagueRoot returns the root page of league x's bucket in the bbolt file at path.
func leagueRoot(t *testing.T, path string) int {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	root := 0
	if err := b.View(func(tx *bolt.Tx) error {
		root = int(tx.Bucket(bucketLeagues).Bucket([]byte("x")).Root())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestPageCheck: damage that would make bbolt read outside its map (a fault) or loop, damage
// that bbolt's Tx.Check finds (keys out of order, the free list wrong), and damage that
// leaves every page sound but loses rows, is reported by Open or Verify as ErrCorrupt,
// naming the page or the match, and the file is not changed.
func TestPageCheck(t *testing.T) {
	db, path := storedMatch(t, 3)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	intact, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Forked, the walks read the intact file as they do alone.
	alone, err := readAll(path)
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func(n uint16, m uint32) { forkElements, splitMatches = n, m }(forkElements, splitMatches)
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
		forkElements, splitMatches = 2, 2
		if forked, err := readAll(path); err != nil || forked != alone {
			t.Fatalf("forked, the intact file reads otherwise: %v %s", err, lineDiff(forked, alone))
		}
	}()
	leaves, size := pagesOf(t, intact, leafPage, 10) // pages of deal rows
	branches, _ := pagesOf(t, intact, branchPage, 0)
	leaf, branch := leaves[len(leaves)/2], branches[0]
	free := freelistPageOf(t, intact, size)
	league := leagueRoot(t, path) // the leaf page of league x's own records, the totals its last
	if p := intact[league*size:]; binary.LittleEndian.Uint16(p[8:]) != leafPage || !bytes.Equal(leafKey(p, int(binary.LittleEndian.Uint16(p[10:]))-1), keyTotals) {
		t.Fatalf("league x's page %d is not a leaf page that ends with its totals", league)
	}
	dealBranches, _ := pagesOf(t, intact, branchPage, 10) // above the pages of deal rows
	dealBranch := dealBranches[0]
	if n := binary.LittleEndian.Uint16(intact[dealBranch*size+10:]); n < 2 {
		t.Fatalf("the deals' branch page %d has %d elements, want 2 or more", dealBranch, n)
	}
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
		{"keys out of order", "is not above the key", func(d []byte) {
			e := leaf*size + pageHeaderLen
			d[e+int(binary.LittleEndian.Uint32(d[e+4:]))] = 0xff // the first byte of the first key
		}},
		{"a branch key above the keys below it", "is below the key", func(d []byte) {
			e := dealBranch*size + pageHeaderLen + pageElementLen // element 1
			k := e + int(binary.LittleEndian.Uint32(d[e:]))
			copy(d[k:k+10], bytes.Repeat([]byte{0xff}, 10))
		}},
		{"a branch key not above the keys before it", "is not below the next key", func(d []byte) {
			e0, e1 := dealBranch*size+pageHeaderLen, dealBranch*size+pageHeaderLen+pageElementLen
			k0, k1 := e0+int(binary.LittleEndian.Uint32(d[e0:])), e1+int(binary.LittleEndian.Uint32(d[e1:]))
			copy(d[k1:k1+10], d[k0:k0+10])
		}},
		{"a child named twice", "", func(d []byte) {
			e0 := dealBranch*size + pageHeaderLen
			last := e0 + (int(binary.LittleEndian.Uint16(d[dealBranch*size+10:]))-1)*pageElementLen
			copy(d[last+8:last+16], d[e0+8:e0+16])
		}},
		{"a league's page lost its totals", "league x has no totals", func(d []byte) {
			binary.LittleEndian.PutUint16(d[league*size+10:], binary.LittleEndian.Uint16(d[league*size+10:])-1) // its last element
		}},
		{"the free list lists itself", "of its own pages", func(d []byte) {
			binary.LittleEndian.PutUint64(d[free*size+pageHeaderLen:], uint64(free))
		}},
		{"a page in use and free", "which is on the free list", func(d []byte) {
			binary.LittleEndian.PutUint64(d[free*size+pageHeaderLen:], uint64(leaf)) // the first free id
		}},
		{"a page neither in use nor free", "are neither in use nor free", func(d []byte) {
			binary.LittleEndian.PutUint16(d[free*size+10:], binary.LittleEndian.Uint16(d[free*size+10:])-1)
		}},
		{"a page free twice", "pages are free twice", func(d []byte) {
			binary.LittleEndian.PutUint64(d[free*size+pageHeaderLen+8:], binary.LittleEndian.Uint64(d[free*size+pageHeaderLen:]))
		}},
	} {
		// The walks alone, and forked (the page walk at every branch page, the deals' branch
		// page among them, and the rows' walk in halves): the same damage found, a page named
		// twice by the halves of a fork as such.
		for _, walk := range []struct {
			name  string
			forks uint16
			split uint32
			twice string
		}{{"alone", 1<<16 - 1, 1<<32 - 1, "which is already in use"}, {"forked", 2, 2, "are reached from two places"}} {
			t.Run(tc.name+"/"+walk.name, func(t *testing.T) {
				defer func(n uint16, m uint32) { forkElements, splitMatches = n, m }(forkElements, splitMatches)
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
				forkElements, splitMatches = walk.forks, walk.split
				data := bytes.Clone(intact)
				tc.damage(data)
				damaged := filepath.Join(t.TempDir(), "arena.db")
				if err := os.WriteFile(damaged, data, 0o600); err != nil {
					t.Fatal(err)
				}
				want := cmp.Or(tc.want, walk.twice)
				_, err := readAll(damaged)
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), want) {
					t.Errorf("read: %v, want ErrCorrupt with %q", err, want)
				}
				if _, err := Open(damaged, Options{Command: "test"}); !errors.Is(err, ErrCorrupt) {
					t.Errorf("open for writing: %v", err)
				}
				if after, _ := os.ReadFile(damaged); !bytes.Equal(after, data) {
					t.Error("the damaged file was changed")
				}
			})
		}
	}
	// Records lost with every value left sound, as bbolt would store it.
	for _, tc := range []struct {
		name, want string
		lose       func(league *bolt.Bucket) error
	}{
		{"a lost match record", "32 stored deals of match 1, which has no record", func(l *bolt.Bucket) error { return l.Bucket(bucketMatches).Delete(u32(1)) }},
		{"a lost deal key", "league x is keyed but has no deal key", func(l *bolt.Bucket) error { return l.Delete(keyDealKey) }},
		{"lost totals", "league x has no totals", func(l *bolt.Bucket) error { return l.Delete(keyTotals) }},
	} {
		lost := filepath.Join(t.TempDir(), "arena.db")
		if err := os.WriteFile(lost, intact, 0o600); err != nil {
			t.Fatal(err)
		}
		b, err := bolt.Open(lost, 0o600, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Update(func(tx *bolt.Tx) error { return tc.lose(tx.Bucket(bucketLeagues).Bucket([]byte("x"))) }); err != nil {
			t.Fatal(err)
		}
		b.Close()
		if _, err = readAll(lost); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// BenchmarkCheckPages: Open's page walk, per deal, of the file benchFile gives.
func BenchmarkCheckPages(b *testing.B) {
	path, db, deals := benchFile(b)
	for b.Loop() {
		if problems, err := checkPages(db.bolt, path, nil); err != nil || problems.n > 0 {
			b.Fatal(problems, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(deals), "ns/deal")
}

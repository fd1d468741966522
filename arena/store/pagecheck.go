package store

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"
	"runtime/debug"

	"golang.org/x/sys/unix"
)

// The page check. bbolt reads its pages through unchecked pointers into its memory map, so
// a damaged page (a child page number past the end, an element whose key runs past its
// page) makes it read outside the map: a fault. debug.SetPanicOnFault turns a fault into a
// panic only on the goroutine that set it, and bbolt's own Tx.Check runs on a goroutine of
// its own, so there a fault is fatal; a branch page that names itself makes a cursor loop
// without end. checkPages therefore walks the file's tree first, in plain Go through
// bounds-checked slices of a map of its own, before bbolt reads a page past the meta pages
// and the free list (which Open, on its own goroutine, reads where faults are caught): every
// page bbolt will read (the tree of the current meta page, its sub-buckets, inline ones
// too, and the free list) lies inside the file, is read only once, and every element's key
// and value lie inside their page. What it does not check (the keys' order, pages both
// used and free) bbolt's Tx.Check does, safely once this has passed.

// bbolt's file layout (go.etcd.io/bbolt/internal/common), in the byte order of the machine
// that wrote it; the arena is built for little-endian machines only (amd64, arm64).
const (
	pageHeaderLen  = 16 // id u64, flags u16, count u16, overflow u32
	pageElementLen = 16 // branch: pos, ksize u32, child u64; leaf: flags, pos, ksize, vsize u32
	bucketHeadLen  = 16 // root u64, sequence u64; root 0: an inline page follows
	metaOffset     = pageHeaderLen
	metaSumEnd     = metaOffset + 56 // the fields the meta's FNV-64a checksum covers
	branchPage     = 0x01
	leafPage       = 0x02
	freelistPage   = 0x10
	bucketElement  = 0x01
	noFreelist     = ^uint64(0)
	bboltMagic     = 0xED0CDAED
)

var le = binary.LittleEndian

// checkPages returns what is wrong with the page structure of the bbolt file at path, which
// bbolt has opened with pages of pageSize bytes: nothing when bbolt can read all of it
// without reading outside it.
func checkPages(path string, pageSize int) (problems problemList, err error) {
	f, err := os.Open(path)
	if err != nil {
		return problems, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return problems, err
	}
	if st.Size() < 2*pageHeaderLen+metaSumEnd {
		problems.add(fmt.Sprintf("%d bytes: too short for its meta pages", st.Size()))
		return problems, nil
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return problems, fmt.Errorf("map %s: %w", path, err)
	}
	defer unix.Munmap(data)
	// The file cut short under the map by another program would fault here, on this goroutine.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			problems.add(fmt.Sprintf("reading it failed: %v", r))
		}
	}()
	w := pageWalker{data: data, pageSize: uint64(pageSize)}
	w.walk()
	return w.problemList, nil
}

// pageWalker walks a bbolt file's pages, collecting problems.
type pageWalker struct {
	data     []byte
	pageSize uint64
	hwm      uint64   // the pages in use: ids below it
	seen     []uint64 // a bit per page: reached
	problemList
}

func (w *pageWalker) addf(format string, args ...any) { w.add(fmt.Sprintf(format, args...)) }

// walk checks the tree and the free list of the meta page bbolt uses: the valid one with
// the higher transaction id.
func (w *pageWalker) walk() {
	meta, ok := w.currentMeta()
	if !ok {
		return // bbolt opens no such file: it has refused it already
	}
	w.hwm = le.Uint64(meta[56:])
	if w.hwm < 2 || w.hwm > uint64(len(w.data))/w.pageSize {
		w.addf("the meta page counts %d pages of %d bytes, the file holds %d bytes", w.hwm, w.pageSize, len(w.data))
		return
	}
	w.seen = make([]uint64, (w.hwm+63)/64)
	w.seen[0] = 3 // the meta pages
	if fl := le.Uint64(meta[48:]); fl != noFreelist {
		w.freelist(fl)
	}
	w.tree(le.Uint64(meta[32:]), ref{what: "the root bucket"})
}

// currentMeta returns the meta page (from its page header on) that bbolt reads the file
// with, chosen as bbolt chooses it: of the two meta pages, the valid one with the higher
// transaction id.
func (w *pageWalker) currentMeta() ([]byte, bool) {
	valid := func(m []byte) bool {
		if len(m) < metaSumEnd+8 || le.Uint32(m[metaOffset:]) != bboltMagic || le.Uint32(m[metaOffset+4:]) != 2 {
			return false
		}
		h := fnv.New64a()
		h.Write(m[metaOffset:metaSumEnd])
		return h.Sum64() == le.Uint64(m[metaSumEnd:])
	}
	m0, m1 := w.data, w.data[min(uint64(len(w.data)), w.pageSize):]
	txid := func(m []byte) uint64 { return le.Uint64(m[64:]) }
	if valid(m1) && (!valid(m0) || txid(m1) > txid(m0)) {
		return m1, true
	}
	return m0, valid(m0)
}

// page returns page id's bytes, overflow pages included, and its header's flags and count;
// false (the problem noted) if it lies outside the pages in use or was reached before.
func (w *pageWalker) page(id uint64, from ref) (p []byte, flags, count uint16, ok bool) {
	if id < 2 || id >= w.hwm {
		w.addf("%s names page %d, outside the pages in use (2-%d)", from, id, w.hwm-1)
		return nil, 0, 0, false
	}
	if w.seen[id/64]&(1<<(id%64)) != 0 {
		w.addf("%s names page %d, which is already in use", from, id)
		return nil, 0, 0, false
	}
	start := id * w.pageSize
	head := w.data[start : start+pageHeaderLen]
	if got := le.Uint64(head); got != id {
		w.addf("page %d (named by %s) holds page %d", id, from, got)
		return nil, 0, 0, false
	}
	overflow := uint64(le.Uint32(head[12:]))
	if overflow >= w.hwm-id {
		w.addf("page %d: %d overflow pages run past the pages in use", id, overflow)
		return nil, 0, 0, false
	}
	for i := id; i <= id+overflow; i++ {
		w.seen[i/64] |= 1 << (i % 64)
	}
	return w.data[start : start+(overflow+1)*w.pageSize], le.Uint16(head[8:]), le.Uint16(head[10:]), true
}

// tree checks the branch or leaf page id and all below it.
func (w *pageWalker) tree(id uint64, from ref) {
	p, flags, count, ok := w.page(id, from)
	if !ok {
		return
	}
	where := ref{page: id, elem: -1}
	switch flags {
	case branchPage:
		if count == 0 { // a cursor reads a branch page's first child whatever its count
			w.addf("%s: a branch page without elements", where)
			return
		}
		if !w.elements(p, count, where) {
			return
		}
		for i := range uint64(count) {
			e := p[pageHeaderLen+i*pageElementLen:]
			w.tree(le.Uint64(e[8:]), ref{page: id, elem: int64(i)})
		}
	case leafPage:
		w.leaf(p, count, where)
	default:
		w.addf("%s (named by %s) is not a branch or leaf page (flags %#x)", where, from, flags)
	}
}

// elements checks that count elements of page p fit in it, and that each element's key
// (and value, on a leaf page) lies inside p.
func (w *pageWalker) elements(p []byte, count uint16, where ref) bool {
	if uint64(pageHeaderLen)+uint64(count)*pageElementLen > uint64(len(p)) {
		w.addf("%s: %d elements do not fit in its %d bytes", where, count, len(p))
		return false
	}
	leaf := le.Uint16(p[8:]) == leafPage
	ok := true
	for i := range uint64(count) {
		at := pageHeaderLen + i*pageElementLen
		e := p[at:]
		var pos, size uint64
		if leaf {
			pos, size = uint64(le.Uint32(e[4:])), uint64(le.Uint32(e[8:]))+uint64(le.Uint32(e[12:]))
		} else {
			pos, size = uint64(le.Uint32(e)), uint64(le.Uint32(e[4:]))
		}
		if at+pos+size > uint64(len(p)) {
			w.addf("%s: element %d's key or value runs past the page", where, i)
			ok = false
		}
	}
	return ok
}

// leaf checks a leaf page's elements and the sub-buckets they hold.
func (w *pageWalker) leaf(p []byte, count uint16, where ref) {
	if !w.elements(p, count, where) {
		return
	}
	for i := range uint64(count) {
		at := pageHeaderLen + i*pageElementLen
		e := p[at:]
		if le.Uint32(e)&bucketElement == 0 {
			continue
		}
		start := at + uint64(le.Uint32(e[4:])) + uint64(le.Uint32(e[8:]))
		v := p[start : start+uint64(le.Uint32(e[12:]))]
		bw := ref{page: where.page, elem: int64(i), inline: where.inline}
		if len(v) < bucketHeadLen {
			w.addf("%s: a bucket of %d bytes", bw, len(v))
			continue
		}
		if root := le.Uint64(v); root != 0 {
			w.tree(root, bw)
			continue
		}
		inline := v[bucketHeadLen:]
		if len(inline) < pageHeaderLen || le.Uint16(inline[8:]) != leafPage {
			w.addf("%s: an inline bucket without a leaf page", bw)
			continue
		}
		w.leaf(inline, le.Uint16(inline[10:]), ref{page: where.page, elem: -1, inline: true})
	}
}

// freelist checks the free-list page id: its ids fit in it and name pages in use.
func (w *pageWalker) freelist(id uint64) {
	p, flags, count, ok := w.page(id, ref{what: "the meta page's free list"})
	if !ok {
		return
	}
	if flags != freelistPage {
		w.addf("page %d, the free list, is not a free-list page (flags %#x)", id, flags)
		return
	}
	first, n := uint64(0), uint64(count)
	if count == 0xFFFF { // the count is the first id
		first, n = 1, le.Uint64(p[pageHeaderLen:])
	}
	if n > uint64(len(p))/8 || pageHeaderLen+(first+n)*8 > uint64(len(p)) {
		w.addf("page %d: %d free ids do not fit in the free list's %d bytes", id, n, len(p))
		return
	}
	bad := 0
	for i := range n {
		if f := le.Uint64(p[pageHeaderLen+(first+i)*8:]); f < 2 || f >= w.hwm {
			bad++
		}
	}
	if bad > 0 {
		w.addf("page %d: %d free ids name no page in use", id, bad)
	}
}

// ref names where the walk is, for its problems: a page, an element of a page (elem ≥ 0),
// inside an inline bucket on that page, or what (the meta page's fields).
type ref struct {
	page   uint64
	elem   int64
	inline bool
	what   string
}

func (r ref) String() string {
	s := fmt.Sprintf("page %d", r.page)
	switch {
	case r.what != "":
		return r.what
	case r.inline:
		s = "an inline bucket on " + s
	}
	if r.elem >= 0 {
		s += fmt.Sprintf(" element %d", r.elem)
	}
	return s
}

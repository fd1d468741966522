package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/bits"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"unsafe"

	bolt "go.etcd.io/bbolt"
)

// The page check. bbolt reads its pages through unchecked pointers into its memory map, so
// a damaged page (a child page number past the end, an element whose key runs past its
// page) makes it read outside the map: a fault, fatal on any goroutine but the one that
// set debug.SetPanicOnFault; a branch page that names itself makes a cursor loop without
// end. checkPages therefore walks the file's tree first, in plain Go through bounds-checked
// slices of bbolt's map, before bbolt reads a page past the meta pages and the free
// list (which Open, on its own goroutine, reads where faults are caught). It checks what
// bbolt's Tx.Check checks, and more, in one walk: every page bbolt will read (the tree of
// the current meta page, its sub-buckets, inline ones too, and the free list) lies inside
// the file and is reached once; every element's key and value lie inside their page; the
// keys are in order, on each page and between a branch page and the pages below it (inline
// buckets too, which Tx.Check skips); no page is both in use and free, none free twice,
// and every page below the high-water mark is one or the other.

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
	metaPage       = 0x04
	freelistPage   = 0x10
	bucketElement  = 0x01
	noFreelist     = ^uint64(0)
	bboltMagic     = 0xED0CDAED
)

var le = binary.LittleEndian

// checkPages returns what is wrong with the page structure of the bbolt file b has open
// at path: nothing when bbolt can read all of it without reading outside it. It reads
// bbolt's own read-only map of the file (so that the pages are mapped once, for the walks
// that follow too), no further than the file's size now and as before (what Open found
// before bbolt opened it; nil if there was no file): bbolt maps at least the size it found.
func checkPages(b *bolt.DB, path string, before fs.FileInfo) (problems problemList, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return problems, err
	}
	size := st.Size()
	if before != nil {
		size = min(size, before.Size())
	}
	if size < 2*pageHeaderLen+metaSumEnd {
		problems.add(fmt.Sprintf("%d bytes: too short for its meta pages", size))
		return problems, nil
	}
	info := b.Info()
	// Info.Data is the address of bbolt's map, outside the Go heap.
	data := unsafe.Slice(*(**byte)(unsafe.Pointer(&info.Data)), size)
	// The file cut short under the map by another program would fault here, on this goroutine.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			problems.add(fmt.Sprintf("reading it failed: %v", r))
		}
	}()
	w := pageWalker{data: data, pageSize: uint64(info.PageSize), forks: make(chan struct{}, runtime.GOMAXPROCS(0)-1)}
	for len(w.forks) < cap(w.forks) {
		w.forks <- struct{}{}
	}
	w.walk()
	return w.problemList, nil
}

// pageWalker walks a bbolt file's pages, collecting problems.
type pageWalker struct {
	data     []byte
	pageSize uint64
	hwm      uint64   // the pages in use or free: ids below it
	seen     []uint64 // a bit per page: reached
	base     []uint64 // a fork's: seen when it began
	free     []uint64 // a bit per page: on the free list
	// forks holds a token for each walk that may run beside the others on a CPU of its own:
	// a branch page with many elements hands the pages below its second half to one.
	forks chan struct{}
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
	w.free = make([]uint64, len(w.seen))
	w.seen[0] = 3               // the meta pages
	for id := range uint64(2) { // their headers, which their checksums do not cover
		head := w.data[id*w.pageSize:]
		if le.Uint64(head) != id || le.Uint16(head[8:]) != metaPage {
			w.addf("meta page %d's header names page %d with flags %#x", id, le.Uint64(head), le.Uint16(head[8:]))
		}
	}
	fl := le.Uint64(meta[48:])
	if fl != noFreelist {
		w.freelist(fl)
	}
	w.tree(le.Uint64(meta[32:]), ref{what: "the root bucket"}, nil, nil)
	if fl != noFreelist { // without a free list on file bbolt counts every page not reached as free
		w.unaccounted()
	}
}

// unaccounted notes the pages below the high-water mark that are neither reached nor free:
// lost to the file, or a sign that the free list or a tree lost an entry.
func (w *pageWalker) unaccounted() {
	var lost pageTally
	for i, word := range w.seen {
		neither := ^(word | w.free[i])
		if i == len(w.seen)-1 && w.hwm%64 != 0 {
			neither &= 1<<(w.hwm%64) - 1
		}
		lost.add(i, neither)
	}
	if lost.n > 0 {
		w.addf("%d pages (the first page %d) are neither in use nor free", lost.n, lost.first)
	}
}

// pageTally counts the pages of bitmap words, a bit a page, and the first of them.
type pageTally struct {
	n     int
	first uint64
}

// add counts the pages of word, the bitmap's i-th.
func (t *pageTally) add(i int, word uint64) {
	if word != 0 && t.n == 0 {
		t.first = uint64(i)*64 + uint64(bits.TrailingZeros64(word))
	}
	t.n += bits.OnesCount64(word)
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
	if w.free[id/64]&(1<<(id%64)) != 0 {
		w.addf("%s names page %d, which is on the free list", from, id)
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
	for i := id + 1; i <= id+overflow; i++ {
		if bit := uint64(1) << (i % 64); (w.seen[i/64]|w.free[i/64])&bit != 0 {
			w.addf("page %d's overflow covers page %d, which is in use or free", id, i)
			return nil, 0, 0, false
		}
	}
	for i := id; i <= id+overflow; i++ {
		w.seen[i/64] |= 1 << (i % 64)
	}
	return w.data[start : start+(overflow+1)*w.pageSize], le.Uint16(head[8:]), le.Uint16(head[10:]), true
}

// tree checks the branch or leaf page id and all below it, whose keys must lie in [lo, hi)
// (nil: no bound), and returns the greatest key below it (lo if none; nil if the page is
// unsound).
func (w *pageWalker) tree(id uint64, from ref, lo, hi []byte) (last []byte) {
	p, flags, count, ok := w.page(id, from)
	if !ok {
		return nil
	}
	where := ref{page: id, elem: -1}
	switch flags {
	case branchPage:
		if count == 0 { // a cursor reads a branch page's first child whatever its count
			w.addf("%s: a branch page without elements", where)
			return nil
		}
		if !w.elements(p, count, where) {
			return nil
		}
		if count < forkElements || !w.takeFork() {
			return w.elementsBelow(p, id, 0, int(count), lo, hi)
		}
		half := int(count) / 2
		sub := w.fork()
		done := make(chan []byte, 1) // a fault here must not leave the fork blocked
		go func() {
			defer func() { w.forks <- struct{}{} }()
			done <- sub.forked(p, id, half, int(count), hi)
		}()
		last = w.elementsBelow(p, id, 0, half, lo, hi)
		subLast := <-done
		w.join(sub)
		w.keyAfter(ref{page: id, elem: int64(half)}, half, branchKey(p, half), last)
		return subLast
	case leafPage:
		return w.leaf(p, count, where, lo, hi)
	default:
		w.addf("%s (named by %s) is not a branch or leaf page (flags %#x)", where, from, flags)
		return nil
	}
}

// forkElements is the fewest elements of a branch page whose second half a walk hands to
// a fork: 32 or more pages below each half. (A variable for the tests, which fork at
// every branch page.)
var forkElements uint16 = 64

// elementsBelow checks elements [from, to) of branch page id (p) and the pages below them,
// the first key at or above lo (nil: no bound) and all below hi, and returns the greatest
// key below them. As Tx.Check has it: each element's key is above the greatest key below
// the one before it, and the keys below an element lie from its key up to the next one's.
func (w *pageWalker) elementsBelow(p []byte, id uint64, from, to int, lo, hi []byte) (last []byte) {
	last = lo
	count := int(le.Uint16(p[10:]))
	for i := from; i < to; i++ {
		e := p[pageHeaderLen+i*pageElementLen:]
		key := branchKey(p, i)
		w.keyAfter(ref{page: id, elem: int64(i)}, i, key, last)
		w.keyBelow(ref{page: id, elem: int64(i)}, key, hi)
		next := hi
		if i+1 < count {
			next = branchKey(p, i+1)
		}
		last = w.tree(le.Uint64(e[8:]), ref{page: id, elem: int64(i)}, key, next)
	}
	return last
}

// takeFork takes a fork's token if one is free.
func (w *pageWalker) takeFork() bool {
	select {
	case <-w.forks:
		return true
	default:
		return false
	}
}

// fork returns a walk of its own for part of w's pages, which join merges back: it knows
// the pages w has reached so far.
func (w *pageWalker) fork() *pageWalker {
	return &pageWalker{data: w.data, pageSize: w.pageSize, hwm: w.hwm, seen: slices.Clone(w.seen),
		base: slices.Clone(w.seen), free: w.free, forks: w.forks}
}

// forked runs fork w's part, elements [from, to) of branch page id, on a goroutine of its
// own (a fault, the file cut short under the map, becomes a problem), and returns the
// greatest key below them. The first element's key against the keys before it is the
// joining walk's to check.
func (w *pageWalker) forked(p []byte, id uint64, from, to int, hi []byte) (last []byte) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			w.addf("reading it failed: %v", r)
			last = nil
		}
	}()
	return w.elementsBelow(p, id, from, to, nil, hi)
}

// join merges fork sub, ended, into w: the pages it reached (each page either reached is a
// problem) and its problems, after w's.
func (w *pageWalker) join(sub *pageWalker) {
	var twice pageTally
	for i, word := range sub.seen {
		twice.add(i, (word&^sub.base[i])&(w.seen[i]&^sub.base[i]))
		w.seen[i] |= word
	}
	if twice.n > 0 {
		w.addf("%d pages (the first page %d) are reached from two places", twice.n, twice.first)
	}
	w.merge(sub.problemList)
}

// branchKey returns element i's key on branch page p, whose elements elements has checked.
func branchKey(p []byte, i int) []byte {
	e := pageHeaderLen + i*pageElementLen
	start := e + int(le.Uint32(p[e:]))
	return p[start : start+int(le.Uint32(p[e+4:]))]
}

// leafKey returns element i's key on leaf page p, whose elements elements has checked.
func leafKey(p []byte, i int) []byte {
	e := pageHeaderLen + i*pageElementLen
	start := e + int(le.Uint32(p[e+4:]))
	return p[start : start+int(le.Uint32(p[e+8:]))]
}

// keyAfter checks key, element i at where, against prev: the first key of a page may equal
// the bound from above it, any other must lie above the key before it.
func (w *pageWalker) keyAfter(where ref, i int, key, prev []byte) {
	if prev == nil {
		return
	}
	switch c := bytes.Compare(prev, key); {
	case i == 0 && c > 0:
		w.addf("%s: key %x is below the key %x above it", where, key, prev)
	case i > 0 && c >= 0:
		w.addf("%s: key %x is not above the key %x before it", where, key, prev)
	}
}

// keyBelow checks key, at where, against hi, the next key above it (nil: no bound).
func (w *pageWalker) keyBelow(where ref, key, hi []byte) {
	if hi != nil && bytes.Compare(key, hi) >= 0 {
		w.addf("%s: key %x is not below the next key %x above it", where, key, hi)
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

// leaf checks a leaf page's elements, their keys' order within [lo, hi) and the sub-buckets
// they hold, and returns its last key (lo if it has none).
func (w *pageWalker) leaf(p []byte, count uint16, where ref, lo, hi []byte) (last []byte) {
	if !w.elements(p, count, where) {
		return nil
	}
	last = lo
	for i := range int(count) {
		at := pageHeaderLen + i*pageElementLen
		e := p[at:]
		key := leafKey(p, i)
		bw := ref{page: where.page, elem: int64(i), inline: where.inline}
		w.keyAfter(bw, i, key, last)
		last = key
		if le.Uint32(e)&bucketElement == 0 {
			continue
		}
		start := at + int(le.Uint32(e[4:])) + int(le.Uint32(e[8:]))
		v := p[start : start+int(le.Uint32(e[12:]))]
		if len(v) < bucketHeadLen {
			w.addf("%s: a bucket of %d bytes", bw, len(v))
			continue
		}
		if root := le.Uint64(v); root != 0 {
			w.tree(root, bw, nil, nil)
			continue
		}
		inline := v[bucketHeadLen:]
		if len(inline) < pageHeaderLen || le.Uint16(inline[8:]) != leafPage {
			w.addf("%s: an inline bucket without a leaf page", bw)
			continue
		}
		w.leaf(inline, le.Uint16(inline[10:]), ref{page: where.page, elem: -1, inline: true}, nil, nil)
	}
	if count > 0 { // the keys in order, the last below hi puts them all below it
		w.keyBelow(ref{page: where.page, elem: int64(count) - 1, inline: where.inline}, last, hi)
	}
	return last
}

// freelist checks the free-list page id (its ids fit in it and name pages below the
// high-water mark, each once) and notes its pages as free.
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
	bad, twice, used := 0, 0, 0
	for i := range n {
		f := le.Uint64(p[pageHeaderLen+(first+i)*8:])
		switch bit := uint64(1) << (f % 64); {
		case f < 2 || f >= w.hwm:
			bad++
		case w.free[f/64]&bit != 0:
			twice++
		case w.seen[f/64]&bit != 0: // the free list's own pages
			used++
		default:
			w.free[f/64] |= bit
		}
	}
	if bad > 0 {
		w.addf("page %d: %d free ids name no page in use", id, bad)
	}
	if twice > 0 {
		w.addf("page %d: %d pages are free twice", id, twice)
	}
	if used > 0 {
		w.addf("page %d: the free list lists %d of its own pages", id, used)
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

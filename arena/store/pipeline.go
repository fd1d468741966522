package store

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/klaverjas-arena/arena/referee"
	bolt "go.etcd.io/bbolt"
)

// The readers of a whole league (Scores, MatchDeals) decode on every CPU: a producer walks
// the match records and their rows in key order into chunks of whole matches, workers
// decode each chunk (the match records and the rows), and the caller's goroutine hands the
// chunks' results on in order. A chunk is reused once it has been handed on, with the memory
// of its results.

// chunkRows is the rows after which a chunk takes no further match.
const chunkRows = 512

// matchChunk is a run of whole matches, each its stored record and rows, and, once done is
// closed, the decoded matches and a result of each, up to the first that fails and its error.
type matchChunk[T any] struct {
	keys, records [][]byte // each match's key and stored record
	ends          []int    // the end of each match's rows in rows
	rows          [][2][]byte
	ms            []Match
	out           []T // one per match of ms, their memory kept from use to use
	err           error
	done          chan struct{}
}

// reset empties c for the producer.
func (c *matchChunk[T]) reset() {
	c.keys, c.records, c.ends, c.rows, c.err = c.keys[:0], c.records[:0], c.ends[:0], c.rows[:0], nil
	c.done = make(chan struct{})
}

// worker is one decoding goroutine: the league it reads and its scratch memory.
type worker struct {
	l       *League
	old     bool // a database of schema 1
	bin     binDeal
	recs    []referee.DealRecord
	derived []bool
	lines   *lineWriter // MatchLines' writer, made with its first match
}

// readPipeline is one read of a league's matches (of all, or of match). do decodes one
// match's rows into its result, on a worker. The rows' bytes are bbolt's, valid until the
// transaction ends, which is after run returns.
type readPipeline[T any] struct {
	b     *bolt.Bucket
	l     *League
	old   bool // a database of schema 1
	match int
	do    func(w *worker, m *Match, rows [][2][]byte, out *T) error
	work  chan *matchChunk[T] // to the workers
	order chan *matchChunk[T] // the same chunks, in order, to run
	free  chan *matchChunk[T] // chunks handed on, for the producer
	stop  chan struct{}       // closed when run stops early
}

// readMatches runs a readPipeline over the league (match < 0) or one match of it in the
// read transaction tx: do on the workers, then fn with each match and its result in order.
func readMatches[T any](tx *bolt.Tx, league string, match int, do func(w *worker, m *Match, rows [][2][]byte, out *T) error, fn func(m *Match, out *T) error) error {
	b, l, err := leagueWithInfo(tx, league)
	if err != nil {
		return err
	}
	workers := runtime.GOMAXPROCS(0)
	p := readPipeline[T]{b: b, l: l, old: legacy(tx), match: match, do: do, work: make(chan *matchChunk[T]),
		order: make(chan *matchChunk[T], 2*workers), free: make(chan *matchChunk[T], 2*workers+2), stop: make(chan struct{})}
	return p.run(workers, fn)
}

func (p *readPipeline[T]) run(workers int, fn func(m *Match, out *T) error) error {
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true)) // a damaged page: a panic, then an error
			w := worker{l: p.l, old: p.old}
			for c := range p.work {
				p.decode(c, &w)
				close(c.done)
			}
		})
	}
	go p.produce()
	var err error
	for c := range p.order {
		<-c.done
		if err != nil {
			continue // draining what the producer queued before it saw stop
		}
		for i := range c.ms { // the matches before a failing one, then its error
			if err = fn(&c.ms[i], &c.out[i]); err != nil {
				break
			}
		}
		if err == nil {
			err = c.err
		}
		if err != nil {
			close(p.stop)
			continue
		}
		select {
		case p.free <- c:
		default:
		}
	}
	wg.Wait()
	return err
}

// produce queues the chunks of every match (or of p.match), then closes both queues.
func (p *readPipeline[T]) produce() {
	defer close(p.order)
	defer close(p.work)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { // a damaged page: the walk's error, after the chunks before it
		if r := recover(); r != nil {
			c := &matchChunk[T]{err: fmt.Errorf("%w: reading the league's matches: %v", ErrCorrupt, r), done: make(chan struct{})}
			close(c.done)
			select {
			case p.order <- c:
			case <-p.stop:
			}
		}
	}()
	matches := p.b.Bucket(bucketMatches)
	deals := p.b.Bucket(bucketDeals)
	send := func(c *matchChunk[T]) bool {
		select {
		case p.work <- c:
		case <-p.stop:
			return false
		}
		select {
		case p.order <- c:
			return true
		case <-p.stop:
			return false
		}
	}
	fresh := func() *matchChunk[T] {
		var c *matchChunk[T]
		select {
		case c = <-p.free:
		default:
			c = new(matchChunk[T])
		}
		c.reset()
		return c
	}
	c := fresh()
	add := func(k, record []byte) bool {
		c.keys, c.records = append(c.keys, k), append(c.records, record)
		cur := deals.Cursor()
		for dk, dv := cur.Seek(k); dk != nil && bytes.HasPrefix(dk, k); dk, dv = cur.Next() {
			c.rows = append(c.rows, [2][]byte{dk, dv})
		}
		c.ends = append(c.ends, len(c.rows))
		if len(c.rows) < chunkRows {
			return true
		}
		if !send(c) {
			return false
		}
		c = fresh()
		return true
	}
	if p.match >= 0 {
		k := u32(p.match)
		add(k, matches.Get(k)) // a missing record is the worker's error
	} else {
		cur := matches.Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			if !add(k, v) {
				return
			}
		}
	}
	if len(c.keys) > 0 {
		send(c)
	}
}

// decode decodes the match records of c and their rows, stopping at the first match that
// fails.
func (p *readPipeline[T]) decode(c *matchChunk[T], w *worker) {
	c.ms = slices.Grow(c.ms[:0], len(c.keys))
	if len(c.out) < len(c.keys) {
		c.out = append(c.out, make([]T, len(c.keys)-len(c.out))...)
	}
	start, i := 0, 0
	defer func() { // a damaged page or row the decoders did not expect: its match's error
		if r := recover(); r != nil {
			c.ms, c.err = c.ms[:i], fmt.Errorf("%w: %s: %v", ErrCorrupt, describeKey(c.keys[i]), r)
		}
	}()
	for i = range c.keys {
		k := c.keys[i]
		c.ms = append(c.ms, Match{})
		m := &c.ms[i]
		if c.err = p.decodeMatch(k, c.records[i], m); c.err == nil {
			c.err = p.do(w, m, c.rows[start:c.ends[i]], &c.out[i])
		}
		if c.err != nil {
			c.ms = c.ms[:i]
			return
		}
		start = c.ends[i]
	}
}

// decodeMatch decodes the stored record v of the match under key k into m.
func (p *readPipeline[T]) decodeMatch(k, v []byte, m *Match) error {
	if v == nil {
		return fmt.Errorf("%s: %w", describeKey(k), ErrNotFound)
	}
	data, err := unseal(k, v, p.old)
	if err != nil {
		return err
	}
	if err := unmarshalMatch(data, m); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, describeKey(k), err)
	}
	return nil
}

// ReadOptions tune MatchDeals.
type ReadOptions struct {
	// NoDerivedActions leaves out the actions of every record that the rules engine derived
	// as it read it (derived true): for a reader that looks only at the deals' cards,
	// dealers and results and trusts the read's check of each decision (replay --verify
	// under valid rules). It saves most of the memory and work of building such records.
	NoDerivedActions bool
}

// MatchDeals reads the league (match < 0) or one match of it as DealsDerived does, on every
// CPU: for every stored match, in index order, prepare is called on one of GOMAXPROCS
// goroutines with the match's deals as complete log records in key order (none for a match
// without deals; see ReadOptions) and whether the rules engine derived each as it was read,
// and makes of them what fn needs in out; then fn, on the caller's goroutine, in index order,
// is called with the match and out. Different matches are prepared at the same time. out
// holds what an earlier prepare made (or T's zero value), for prepare to reuse its memory. A
// deal or match record that does not decode is an error with its place, and neither function
// is called for its match. prepare must keep neither m nor recs, fn neither m nor out.
func MatchDeals[T any](db *DB, league string, match int, opt ReadOptions, prepare func(m *Match, recs []referee.DealRecord, derived []bool, out *T) error, fn func(m *Match, out *T) error) error {
	return db.view(func(tx *bolt.Tx) error {
		do := func(w *worker, m *Match, rows [][2][]byte, out *T) error {
			w.recs = slices.Grow(w.recs[:0], len(rows))[:len(rows)]
			w.derived = slices.Grow(w.derived[:0], len(rows))[:len(rows)]
			for i, row := range rows {
				rec := &w.recs[i]
				actions := rec.Actions[:0] // the memory of an earlier record's actions
				*rec = referee.DealRecord{V: referee.LogVersion, Match: m.ID, Rules: w.l.Rules, Seed: m.Seed, Keyed: w.l.Keyed, Actions: actions}
				data, err := unseal(row[0], row[1], w.old)
				if err == nil {
					err = decodeStoredRow(row[0], data, rec, w.l.Bots, &w.bin, !opt.NoDerivedActions)
				}
				if err != nil {
					return fmt.Errorf("league %s match %s: %w", w.l.Name, m.ID, err)
				}
				w.derived[i] = isBinRow(data)
			}
			return prepare(m, w.recs, w.derived, out)
		}
		return readMatches(tx, league, match, do, fn)
	})
}

package store

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	bolt "go.etcd.io/bbolt"
)

// DealWriter stores a league's matches by group commit. Start, Put and Finish queue a match's
// start, its finished deals and its end, in that order, and return at once; one goroutine
// commits everything queued in one transaction (one fsync) at most every CommitEvery, so the
// referees play on while the disk works and concurrent tables share their fsyncs.
//
// A kill loses at most what was queued since the last commit: a match is done only once its
// end is committed, after all its deals, and a match started again is cleared first (see
// StartMatch), so every deal is stored exactly once.
type DealWriter struct {
	db        *DB
	league    string
	bots      []string        // the league's, for binary rows (nil: JSON rows only)
	committed func(deals int) // called after each commit with the deals it stored (may be nil)

	mu      sync.Mutex
	queued  *sync.Cond // the queue gained an op, or the writer is closing
	drained *sync.Cond // a commit ended
	queue   []writeOp
	err     error // the first failed commit: every later call returns it
	closing bool
	done    chan struct{}
}

// CommitEvery is the shortest time between two commits of a DealWriter: what a kill can lose
// at most, besides the commit under way, and what groups the deals of one table at
// concurrency 1 (a fast table finishes several deals in that time).
const CommitEvery = 20 * time.Millisecond

// maxQueued is how many ops may wait for a commit before Put waits itself.
const maxQueued = 4096

// writeOp is one step of the queue: a match's start, a deal, or a match's end.
type writeOp struct {
	start      *Match
	match      int                 // a deal's match
	deal       *referee.DealRecord // a deal, encoded by the writer (off the tables' CPUs when it has one of its own)
	key, value []byte              // its sealed row, once encoded
	finish     *finishOp
}

// finishOp is a match's end: its totals are added in the commit that follows its deals.
type finishOp struct {
	index     int
	deals     []referee.DealRecord
	summarize func(deals []referee.DealRecord, m *Match, t *Totals) error
	totals    Totals
	done      func(*Totals) // called after the commit (may be nil)
}

// NewDealWriter starts a writer for the league's matches; committed, if not nil, is called
// after every commit with the number of deals it stored. Close must be called when done.
func (db *DB) NewDealWriter(league string, committed func(deals int)) *DealWriter {
	w := &DealWriter{db: db, league: league, committed: committed, done: make(chan struct{})}
	if l, err := db.League(league); err == nil {
		w.bots = l.Bots
	}
	w.queued, w.drained = sync.NewCond(&w.mu), sync.NewCond(&w.mu)
	go w.loop()
	return w
}

// Start queues the start of match m (see StartMatch). It returns the error of an earlier
// commit, if one failed.
func (w *DealWriter) Start(m Match) error { return w.add(writeOp{start: &m}) }

// Put queues a finished deal of match, which must not change after the call. It returns the
// error of an earlier commit, if one failed.
func (w *DealWriter) Put(match int, rec *referee.DealRecord) error {
	return w.add(writeOp{match: match, deal: rec})
}

// Finish queues the end of match index, after every deal Put for it: the match is marked done
// with the totals summarize adds from deals (the match's records, in order, as stored), and
// done, if not nil, is called with the league totals once that is committed. It returns the
// error of an earlier commit, if one failed; a failure of this one is Close's error.
func (w *DealWriter) Finish(index int, deals []referee.DealRecord, summarize func(deals []referee.DealRecord, m *Match, t *Totals) error, done func(*Totals)) error {
	return w.add(writeOp{finish: &finishOp{index: index, deals: deals, summarize: summarize, done: done}})
}

// add queues op, waiting while the queue is full.
func (w *DealWriter) add(op writeOp) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.err == nil && !w.closing && len(w.queue) >= maxQueued {
		w.drained.Wait()
	}
	switch {
	case w.err != nil:
		return w.err
	case w.closing:
		return errors.New("store: deal writer closed")
	}
	w.queue = append(w.queue, op)
	w.queued.Signal()
	return nil
}

// Close commits what is queued, stops the writer and returns the first commit error, if any.
func (w *DealWriter) Close() error {
	w.mu.Lock()
	w.closing = true
	w.queued.Signal()
	w.mu.Unlock()
	<-w.done
	return w.err
}

// loop commits the queue until Close, one transaction per turn, at most every CommitEvery.
func (w *DealWriter) loop() {
	defer close(w.done)
	var last time.Time
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && !w.closing {
			w.queued.Wait()
		}
		if !w.closing {
			if wait := CommitEvery - time.Since(last); wait > 0 {
				w.mu.Unlock()
				time.Sleep(wait) // let more of the tables' work join this commit
				w.mu.Lock()
			}
		}
		batch := w.queue
		w.queue = nil
		closing, failed := w.closing, w.err != nil
		w.mu.Unlock()
		if len(batch) == 0 {
			if closing {
				return
			}
			continue
		}
		last = time.Now()
		var err error
		if !failed {
			if err = w.encode(batch); err == nil {
				err = w.commit(batch)
			}
		}
		deals := 0
		for _, op := range batch {
			if op.deal != nil {
				deals++
			}
		}
		w.mu.Lock()
		if err != nil && w.err == nil {
			w.err = err
		}
		w.drained.Broadcast()
		w.mu.Unlock()
		if err != nil || failed {
			continue
		}
		if deals > 0 && w.committed != nil {
			w.committed(deals)
		}
		for _, op := range batch {
			if op.finish != nil && op.finish.done != nil {
				op.finish.done(&op.finish.totals)
			}
		}
	}
}

// encode makes the sealed row of every deal of the batch.
func (w *DealWriter) encode(batch []writeOp) error {
	for i := range batch {
		op := &batch[i]
		if op.deal == nil {
			continue
		}
		data, err := w.db.codec.encodeRow(op.deal, w.bots)
		if err != nil {
			return err
		}
		op.key = dealKey(op.match, op.deal)
		op.value = seal(op.key, data)
	}
	return nil
}

// commit stores a batch in one transaction; anything in it that fails fails the whole batch.
func (w *DealWriter) commit(batch []writeOp) error {
	return w.db.update(func(tx *bolt.Tx) error {
		b, err := leagueBucket(tx, w.league)
		if err != nil {
			return err
		}
		deals := b.Bucket(bucketDeals)
		deals.FillPercent = dealsFill
		for _, op := range batch {
			switch {
			case op.start != nil:
				err = startMatch(b, op.start)
			case op.finish != nil:
				err = finishMatch(b, op.finish)
			default:
				err = deals.Put(op.key, op.value)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// finishMatch marks the match of op done in the league's bucket b with the totals it adds.
func finishMatch(b *bolt.Bucket, op *finishOp) error {
	var m Match
	if err := getJSON(b.Bucket(bucketMatches), u32(op.index), &m); err != nil {
		return err
	}
	if m.Done {
		return fmt.Errorf("match %s is already done", m.ID)
	}
	op.totals = Totals{}
	if err := getJSON(b, keyTotals, &op.totals); err != nil {
		return err
	}
	if err := op.summarize(op.deals, &m, &op.totals); err != nil {
		return fmt.Errorf("match %s: %w", m.ID, err)
	}
	m.Done = true
	if err := putJSON(b.Bucket(bucketMatches), u32(op.index), &m); err != nil {
		return err
	}
	return putJSON(b, keyTotals, &op.totals)
}

package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	bolt "go.etcd.io/bbolt"
)

// DealScore is what a league's totals take from one stored deal: its place in the match and
// what it scored, per scoring side (per team at four, per table seat at three).
type DealScore struct {
	Game, Deal, Attempt int
	Pair                int
	Mirror              bool
	Rotation            int // as recorded (logs from before Rotation say only Mirror)
	Outcome             rules.Outcome
	Sides               int // the scores the result has
	Score               [protocol.MaxSeats]int
	Maker, Pit          int // the scoring side of the maker and of the side that took every trick, or -1
	Faults              []referee.FaultRecord
}

// outcomes reads a recorded outcome; any other text is Unfinished.
var outcomes = map[string]rules.Outcome{}

func init() {
	for _, o := range []rules.Outcome{rules.Made, rules.Nat, rules.Forfeited, rules.Redeal} {
		outcomes[o.String()] = o
	}
}

// ScoreOf returns the score of a deal record as recorded (not re-refereed: see Verify).
func ScoreOf(rec *referee.DealRecord) DealScore {
	s := DealScore{Game: rec.Game, Deal: rec.Deal, Attempt: rec.Attempt, Pair: rec.Pair, Mirror: rec.Mirror, Rotation: rec.Rotation,
		Outcome: outcomes[rec.Result.Outcome], Sides: len(rec.Result.Score), Faults: rec.Faults}
	copy(s.Score[:], rec.Result.Score)
	s.Maker, s.Pit = recordSide(rec, rec.Result.Maker), recordSide(rec, rec.Result.Pit)
	return s
}

// recordSide returns the scoring side named by a record's seat or team ("N", "NS"), or -1.
func recordSide(rec *referee.DealRecord, name string) int {
	if rec.Rules.Players == 4 {
		if t, err := protocol.ParseTeam(name); err == nil {
			return int(t)
		}
		if s, err := protocol.ParseSeat(name); err == nil {
			return int(protocol.TeamOf(s))
		}
		return -1
	}
	if s, err := protocol.ParseSeat(name); err == nil && int(s) < len(rec.Result.Score) {
		return int(s)
	}
	return -1
}

// score returns the score of a decoded binary row (a four-player deal), straight from the
// engine's result: what ScoreOf gives for the record decodeBinRow builds from it.
func (b *binDeal) score(game, deal, attempt int) DealScore {
	res := b.deal.Result()
	s := DealScore{Game: game, Deal: deal, Attempt: attempt, Pair: b.pair, Mirror: b.mirror, Rotation: b.rotation,
		Outcome: res.Outcome, Sides: 2, Maker: -1, Pit: res.PitSide}
	copy(s.Score[:2], res.Score[:2])
	if res.Maker != protocol.NoSeat {
		s.Maker = int(protocol.TeamOf(b.seating().TableSeat(res.Maker)))
	}
	return s
}

// Scores calls fn once for every stored match of the league (match < 0) or for one match,
// in index order, with the scores of its stored deals in key order (none for a match that
// has no deal stored), every deal re-refereed on the way: a binary row is re-derived by the
// rules engine as it is read, without building its record; any other row is decoded and
// checked with Verify. A deal or match record that fails is an error with its place, and fn
// is not called for its match. The match records and rows are decoded in chunks of whole
// matches on every CPU (GOMAXPROCS), fn called in order on the caller's goroutine. fn must
// keep neither m nor deals: their memory is reused for later matches.
func (db *DB) Scores(league string, match int, fn func(m *Match, deals []DealScore) error) error {
	return db.view(func(tx *bolt.Tx) error {
		b, err := leagueBucket(tx, league)
		if err != nil {
			return err
		}
		var l League
		if err := getJSON(b, keyInfo, &l); err != nil {
			return err
		}
		workers := runtime.GOMAXPROCS(0)
		p := scorePipeline{b: b, l: &l, old: legacy(tx), match: match, work: make(chan *scoreChunk),
			order: make(chan *scoreChunk, 2*workers), free: make(chan *scoreChunk, 2*workers+2), stop: make(chan struct{})}
		return p.run(workers, fn)
	})
}

// chunkRows is the rows after which a chunk of Scores takes no further match.
const chunkRows = 512

// scoreChunk is a run of whole matches, each its stored record and rows, and, once done is
// closed, the matches and their scores, up to the first that fails and its error. A chunk is
// reused once fn has seen it.
type scoreChunk struct {
	keys, records [][]byte // each match's key and stored record
	ends          []int    // the end of each match's rows in rows and scores
	rows          [][2][]byte
	ms            []Match
	scores        []DealScore
	err           error
	done          chan struct{}
}

// reset empties c for the producer.
func (c *scoreChunk) reset() {
	c.keys, c.records, c.ends, c.rows, c.err = c.keys[:0], c.records[:0], c.ends[:0], c.rows[:0], nil
	c.done = make(chan struct{})
}

// scorePipeline is one Scores: a producer walks the match records and the rows in key order
// into chunks, workers decode and score them, and run hands the scores to fn in order. The
// bytes are bbolt's, valid until the transaction ends, which is after run returns.
type scorePipeline struct {
	b     *bolt.Bucket
	l     *League
	old   bool // a database of schema 1
	match int
	work  chan *scoreChunk // to the workers
	order chan *scoreChunk // the same chunks, in order, to run
	free  chan *scoreChunk // chunks fn has seen, for the producer
	stop  chan struct{}    // closed when run stops early
}

func (p *scorePipeline) run(workers int, fn func(m *Match, deals []DealScore) error) error {
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var scratch binDeal
			for c := range p.work {
				p.score(c, &scratch)
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
		start := 0
		for i := range c.ms { // the matches before a failing one, then its error
			if err = fn(&c.ms[i], c.scores[start:c.ends[i]]); err != nil {
				break
			}
			start = c.ends[i]
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
func (p *scorePipeline) produce() {
	defer close(p.order)
	defer close(p.work)
	matches := p.b.Bucket(bucketMatches)
	deals := p.b.Bucket(bucketDeals)
	send := func(c *scoreChunk) bool {
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
	fresh := func() *scoreChunk {
		var c *scoreChunk
		select {
		case c = <-p.free:
		default:
			c = new(scoreChunk)
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

// score decodes the match records of c and scores their rows, stopping at the first match
// that fails.
func (p *scorePipeline) score(c *scoreChunk, scratch *binDeal) {
	c.ms = slices.Grow(c.ms[:0], len(c.keys))
	c.scores = slices.Grow(c.scores[:0], len(c.rows))[:len(c.rows)]
	start := 0
	for i, k := range c.keys {
		c.ms = append(c.ms, Match{})
		m := &c.ms[i]
		if c.err = p.decodeMatch(k, c.records[i], m); c.err != nil {
			c.ms = c.ms[:i]
			return
		}
		for j := start; j < c.ends[i]; j++ {
			if c.err = p.scoreRow(c.rows[j][0], c.rows[j][1], m, scratch, &c.scores[j]); c.err != nil {
				c.ms = c.ms[:i]
				return
			}
		}
		start = c.ends[i]
	}
}

// decodeMatch decodes the stored record v of the match under key k into m.
func (p *scorePipeline) decodeMatch(k, v []byte, m *Match) error {
	if v == nil {
		return fmt.Errorf("%s: %w", describeKey(k), ErrNotFound)
	}
	data, err := unseal(k, v, p.old)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, m); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, describeKey(k), err)
	}
	return nil
}

// scoreRow scores one stored row of match m into s (see Scores).
func (p *scorePipeline) scoreRow(k, v []byte, m *Match, scratch *binDeal, s *DealScore) error {
	l := p.l
	data, err := unseal(k, v, p.old)
	switch {
	case err != nil:
	case isBinRow(data) && len(k) != 10:
		err = fmt.Errorf("%w: stored deal under a key of %d bytes", ErrCorrupt, len(k))
	case isBinRow(data):
		if err = scratch.decode(data, &l.Rules, len(l.Bots)); err == nil {
			game, deal, attempt := keyNumbers(k)
			*s = scratch.score(game, deal, attempt)
		}
	default:
		rec := referee.DealRecord{V: referee.LogVersion, Match: m.ID, Rules: l.Rules, Seed: m.Seed, Keyed: l.Keyed}
		if err = decodeRow(data, &rec); err != nil {
			break
		}
		if verr := rec.Verify(); verr != nil {
			return fmt.Errorf("match %s game %d deal %d: %w", m.ID, rec.Game, rec.Deal, verr)
		}
		*s = ScoreOf(&rec)
	}
	if err != nil {
		return fmt.Errorf("league %s match %s: %w", l.Name, m.ID, err)
	}
	return nil
}

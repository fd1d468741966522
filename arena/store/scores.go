package store

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
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

// Scores calls fn with the score of every stored deal of the league (match < 0) or of one
// match, in key order, every deal re-refereed on the way: a binary row is re-derived by the
// rules engine as it is read, without building its record; any other row is decoded and
// checked with Verify, and a deal that fails is an error with its place. The rows are
// decoded in chunks on every CPU (GOMAXPROCS), fn called in order on the caller's goroutine.
// fn must not keep s.
func (db *DB) Scores(league string, match int, fn func(m *Match, s *DealScore) error) error {
	return db.view(func(tx *bolt.Tx) error {
		b, err := leagueBucket(tx, league)
		if err != nil {
			return err
		}
		var l League
		if err := getJSON(b, keyInfo, &l); err != nil {
			return err
		}
		p := scorePipeline{b: b, l: &l, old: legacy(tx), match: match, work: make(chan *scoreChunk), order: make(chan *scoreChunk, 2*runtime.GOMAXPROCS(0)), stop: make(chan struct{})}
		return p.run(fn)
	})
}

// chunkRows is the rows a worker of Scores decodes at a time.
const chunkRows = 512

// scoreChunk is a run of stored rows, each with its match, and, once done is closed, their
// scores or the error of the first that fails.
type scoreChunk struct {
	ms         []*Match
	keys, vals [][]byte
	scores     []DealScore
	err        error
	done       chan struct{}
}

// scorePipeline is one Scores: a producer walks the match records and the rows in key order
// into chunks, workers score them, and run hands the scores to fn in order. The rows' bytes
// are bbolt's, valid until the transaction ends, which is after run returns.
type scorePipeline struct {
	b     *bolt.Bucket
	l     *League
	old   bool // a database of schema 1
	match int
	work  chan *scoreChunk // to the workers
	order chan *scoreChunk // the same chunks, in order, to run
	stop  chan struct{}    // closed when run stops early
}

func (p *scorePipeline) run(fn func(m *Match, s *DealScore) error) error {
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
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
		for i := range c.scores { // the rows before a failing one, then its error
			if err = fn(c.ms[i], &c.scores[i]); err != nil {
				break
			}
		}
		if err == nil {
			err = c.err
		}
		if err != nil {
			close(p.stop)
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
	send := func(c *scoreChunk, toWorkers bool) bool {
		if toWorkers {
			select {
			case p.work <- c:
			case <-p.stop:
				return false
			}
		}
		select {
		case p.order <- c:
			return true
		case <-p.stop:
			return false
		}
	}
	c := &scoreChunk{done: make(chan struct{})} // filled across matches
	visit := func(idx int) error {
		m := new(Match)
		if err := getJSON(matches, u32(idx), m); err != nil {
			if len(c.keys) > 0 && !send(c, true) {
				return errStopped
			}
			c = &scoreChunk{err: err, done: make(chan struct{})}
			close(c.done)
			send(c, false)
			return err
		}
		prefix := u32(idx)
		cur := deals.Cursor()
		for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
			c.ms, c.keys, c.vals = append(c.ms, m), append(c.keys, k), append(c.vals, v)
			if len(c.keys) == chunkRows {
				if !send(c, true) {
					return errStopped
				}
				c = &scoreChunk{done: make(chan struct{})}
			}
		}
		return nil
	}
	var err error
	if p.match >= 0 {
		err = visit(p.match)
	} else {
		err = eachMatch(matches, visit)
	}
	if err == nil && len(c.keys) > 0 {
		send(c, true)
	}
}

// errStopped ends the producer's walk when run stopped early.
var errStopped = errors.New("stopped")

// score scores the rows of c, stopping at the first that fails.
func (p *scorePipeline) score(c *scoreChunk, scratch *binDeal) {
	c.scores = make([]DealScore, len(c.keys))
	for i, k := range c.keys {
		if c.err = p.scoreRow(k, c.vals[i], c.ms[i], scratch, &c.scores[i]); c.err != nil {
			c.scores = c.scores[:i]
			return
		}
	}
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

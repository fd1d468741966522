package store

import (
	"fmt"
	"slices"

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
		do := func(w *worker, m *Match, rows [][2][]byte, out *[]DealScore) error {
			*out = slices.Grow((*out)[:0], len(rows))[:len(rows)]
			for i, row := range rows {
				if err := scoreRow(row[0], row[1], w.l, w.old, m, &w.bin, &(*out)[i]); err != nil {
					return err
				}
			}
			return nil
		}
		return readMatches(tx, league, match, do, func(m *Match, out *[]DealScore) error { return fn(m, *out) })
	})
}

// scoreRow scores one stored row of match m of league l into s (see Scores); old says the
// database is of schema 1.
func scoreRow(k, v []byte, l *League, old bool, m *Match, scratch *binDeal, s *DealScore) error {
	data, err := unseal(k, v, old)
	switch {
	case err != nil:
	case isBinRow(data):
		var game, deal, attempt int
		if game, deal, attempt, err = keyNumbers(k); err == nil {
			if err = scratch.decode(data, &l.Rules, len(l.Bots)); err == nil {
				*s = scratch.score(game, deal, attempt)
			}
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

package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/rulesfile"
	bolt "go.etcd.io/bbolt"
)

// League is a league as started: its file and the schedule's size.
type League struct {
	Name     string        `json:"name"`
	File     string        `json:"file"`   // the league file's path when started
	Hash     string        `json:"hash"`   // SHA-256 of the league file
	Config   string        `json:"config"` // the league file's text
	Rules    rules.Ruleset `json:"rules"`
	Bots     []string      `json:"bots"`              // rating indices: Bots[i] is bot i
	Authors  []string      `json:"authors,omitempty"` // Authors[i] is bot i's author line (see Author)
	Matches  int           `json:"matches"`
	Keyed    bool          `json:"keyed,omitempty"` // its cards are derived with a secret key (DealKey)
	Shard    string        `json:"shard,omitempty"` // "I/N": this database plays shard I of N of the league
	Created  time.Time     `json:"created"`
	Forced   []Forced      `json:"forced,omitempty"`
	Finished time.Time     `json:"finished,omitzero"`
}

// Author returns bot i's author line from the league file, or "" when it has none. Authors
// is nil when no bot has one, and in leagues stored by an arena older than author lines,
// whose records read as before.
func (l *League) Author(i int) string {
	if i < 0 || i >= len(l.Authors) {
		return ""
	}
	return l.Authors[i]
}

// MarshalJSON writes the league record, the ruleset as package rulesfile writes it.
func (l League) MarshalJSON() ([]byte, error) {
	type plain League // the fields without these methods
	return json.Marshal(struct {
		*plain
		Rules rulesfile.Value `json:"rules"`
	}{(*plain)(&l), rulesfile.Value(l.Rules)})
}

// UnmarshalJSON reads a league record, the ruleset as rulesfile reads it.
func (l *League) UnmarshalJSON(data []byte) error {
	type plain League
	return json.Unmarshal(data, &struct {
		*plain
		Rules *rulesfile.Value `json:"rules"`
	}{(*plain)(l), (*rulesfile.Value)(&l.Rules)})
}

// Forced records a run that continued after the league file changed.
type Forced struct {
	At      time.Time `json:"at"`
	OldHash string    `json:"old_hash"`
	NewHash string    `json:"new_hash"`
}

// Match is one scheduled match's record.
type Match struct {
	Index    int                  `json:"index"`
	ID       string               `json:"id"`
	Seed     uint64               `json:"seed"`
	Seats    []int                `json:"seats"` // bot indices per table seat N E S (W)
	Done     bool                 `json:"done"`
	Deals    int                  `json:"deals"`
	Games    []referee.GameResult `json:"games,omitempty"`
	Finished time.Time            `json:"finished,omitzero"`
	// Resumed lists, for every run that went on with the match after an interruption
	// (ResumeMatch), the deals already stored that it went on after (absent for a match
	// played in one run).
	Resumed []int `json:"resumed,omitempty"`
	// File is the sha256 of the league file the match was started under (League.Hash then);
	// empty in databases written before it was recorded.
	File string `json:"file,omitempty"`
}

// BotTotals sums one bot's results over the finished matches of a league.
type BotTotals struct {
	Name          string         `json:"name"`
	Matches       int            `json:"matches"`
	Games         int            `json:"games"`
	Deals         int            `json:"deals"` // deals its team played
	Wins          int            `json:"wins"`
	Draws         int            `json:"draws"`
	Losses        int            `json:"losses"`
	PointsFor     int            `json:"points_for"`
	PointsAgainst int            `json:"points_against"`
	Made          int            `json:"made"` // deals its team made as makers
	Nat           int            `json:"nat"`  // deals its team went nat as makers
	Pit           int            `json:"pit"`  // deals its team took every trick
	Faults        map[string]int `json:"faults,omitempty"`
	BusyTimeouts  int            `json:"busy_timeouts,omitempty"` // of its timeouts, those on a busy machine (referee.BusyMachine)
}

// Totals are a league's sums over its finished matches: per-bot totals and the rating
// sufficient statistics.
type Totals struct {
	Matches  int              `json:"matches"`
	Deals    int              `json:"deals"`
	Bots     []BotTotals      `json:"bots"`
	Pairings []rating.Pairing `json:"pairings"`
}

// dealsFill is how full bbolt packs the deals' pages: deals arrive almost in key order,
// so the default half-full split would waste half of every page.
const dealsFill = 0.9

var (
	keyInfo       = []byte("info")
	keyTotals     = []byte("totals")
	keyDealKey    = []byte("dealkey")
	bucketMatches = []byte("matches")
	bucketDeals   = []byte("deals")
)

// Leagues lists the stored leagues, oldest first.
func (db *DB) Leagues() ([]League, error) {
	var out []League
	err := db.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketLeagues).ForEachBucket(func(name []byte) error {
			var l League
			if err := getJSON(tx.Bucket(bucketLeagues).Bucket(name), keyInfo, &l); err != nil {
				return err
			}
			out = append(out, l)
			return nil
		})
	})
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Created.Before(out[j-1].Created); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, err
}

// League returns the named league, or ErrNotFound.
func (db *DB) League(name string) (*League, error) {
	return readLeagueKey[League](db, name, keyInfo)
}

// PutLeague stores the league record, creating the league with empty totals if new.
func (db *DB) PutLeague(l *League) error {
	return db.update(func(tx *bolt.Tx) error { return putLeague(tx, l) })
}

// CreateLeague creates a new league with empty totals and, in the same transaction, its
// deal key (nil for none; l.Keyed is set to match), so that no match can run without it.
// It fails if the league exists.
func (db *DB) CreateLeague(l *League, key []byte) error {
	l.Keyed = key != nil
	return db.update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketLeagues).Bucket([]byte(l.Name)) != nil {
			return fmt.Errorf("league %q exists already", l.Name)
		}
		if err := putLeague(tx, l); err != nil {
			return err
		}
		if key == nil {
			return nil
		}
		return tx.Bucket(bucketLeagues).Bucket([]byte(l.Name)).Put(keyDealKey, seal(keyDealKey, key))
	})
}

// DealKey returns the league's secret deal key, or nil for a league without one (started
// by an arena older than deal keys). Nothing the arena writes for people or bots shows it.
func (db *DB) DealKey(league string) ([]byte, error) {
	var key []byte
	err := db.view(func(tx *bolt.Tx) error {
		b, err := leagueBucket(tx, league)
		if err != nil {
			return err
		}
		if v := b.Get(keyDealKey); v != nil {
			k, err := unseal(keyDealKey, v, legacy(tx))
			if err != nil {
				return fmt.Errorf("league %s: %w", league, err)
			}
			if len(k) != referee.KeySize {
				return fmt.Errorf("%w: league %q: its deal key has %d bytes, not %d", ErrCorrupt, league, len(k), referee.KeySize)
			}
			key = bytes.Clone(k)
		}
		return nil
	})
	return key, err
}

func putLeague(tx *bolt.Tx, l *League) error {
	b, err := tx.Bucket(bucketLeagues).CreateBucketIfNotExists([]byte(l.Name))
	if err != nil {
		return err
	}
	for _, sub := range [][]byte{bucketMatches, bucketDeals} {
		if _, err := b.CreateBucketIfNotExists(sub); err != nil {
			return err
		}
	}
	if b.Get(keyTotals) == nil {
		t := Totals{Bots: make([]BotTotals, len(l.Bots))}
		for i, name := range l.Bots {
			t.Bots[i].Name = name
		}
		if err := putJSON(b, keyTotals, &t); err != nil {
			return err
		}
	}
	return putJSON(b, keyInfo, l)
}

// PutBot records how a bot is run (as last used).
func (db *DB) PutBot(name string, spec any) error {
	return db.update(func(tx *bolt.Tx) error { return putJSON(tx.Bucket(bucketBots), []byte(name), spec) })
}

// Matches returns the league's match records in schedule order.
func (db *DB) Matches(league string) ([]Match, error) {
	ms, _, err := db.MatchRange(league, 0, math.MaxUint32+1)
	return ms, err
}

// MatchRange returns the match records of the league whose index is in [from, to), in
// schedule order, and one more than the highest index of a stored match (0 for none): a page
// of a long league's matches, read without the others.
func (db *DB) MatchRange(league string, from, to int) (ms []Match, end int, err error) {
	err = db.view(func(tx *bolt.Tx) error {
		b, err := leagueBucket(tx, league)
		if err != nil {
			return err
		}
		old := legacy(tx)
		c := b.Bucket(bucketMatches).Cursor()
		if k, _ := c.Last(); len(k) == 4 {
			end = int(binary.BigEndian.Uint32(k)) + 1
		}
		if from < 0 || to <= from || from > math.MaxUint32 {
			return nil
		}
		for k, v := c.Seek(u32(from)); k != nil && (len(k) != 4 || int(binary.BigEndian.Uint32(k)) < to); k, v = c.Next() {
			data, err := unseal(k, v, old)
			if err != nil {
				return fmt.Errorf("league %s: %w", league, err)
			}
			var m Match
			if err := unmarshalMatch(data, &m); err != nil {
				return fmt.Errorf("%w: league %s: %s: %v", ErrCorrupt, league, describeKey(k), err)
			}
			ms = append(ms, m)
		}
		return nil
	})
	return ms, end, err
}

// StartMatch records a match as started and deletes any deals stored for it by an
// earlier, interrupted run, so that replaying it stores each deal once.
func (db *DB) StartMatch(league string, m *Match) error {
	return db.update(func(tx *bolt.Tx) error {
		b, err := leagueBucket(tx, league)
		if err != nil {
			return err
		}
		return startMatch(b, m)
	})
}

// ResumeMatch returns the deals an interrupted run stored for match m, in the order played,
// so that the match goes on after them (referee.Config.Resume) instead of being played again,
// and records the resume in the stored match (Match.Resumed). It returns no deals, and
// records nothing, for a match that is not stored, is done, has no deals stored, was stored
// with another seed or seating than m, or was started under another league file than m's
// (Match.File; one stored without it, in a league whose file was ever changed with --force)
// (StartMatch then plays it afresh).
func (db *DB) ResumeMatch(league string, m *Match) ([]referee.DealRecord, error) {
	var out []referee.DealRecord
	err := db.update(func(tx *bolt.Tx) error {
		b, l, err := leagueWithInfo(tx, league)
		if err != nil {
			return err
		}
		var stored Match
		switch err := getJSON(b.Bucket(bucketMatches), u32(m.Index), &stored); {
		case errors.Is(err, ErrNotFound):
			return nil
		case err != nil:
			return err
		case stored.Done || stored.Seed != m.Seed || stored.ID != m.ID || !slices.Equal(stored.Seats, m.Seats):
			return nil
		case stored.File != m.File && (stored.File != "" || len(l.Forced) > 0):
			return nil // started under another league file
		}
		if err := forEachDeal(b, m.Index, l, &stored, func(rec *referee.DealRecord, _ bool) error {
			out = append(out, *rec)
			return nil
		}); err != nil || len(out) == 0 {
			return err
		}
		stored.Resumed = append(stored.Resumed, len(out))
		return putJSON(b.Bucket(bucketMatches), u32(m.Index), &stored)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// startMatch is StartMatch in the league's bucket b.
func startMatch(b *bolt.Bucket, m *Match) error {
	deals := b.Bucket(bucketDeals)
	prefix := u32(m.Index)
	c := deals.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Seek(prefix) {
		if err := deals.Delete(k); err != nil {
			return err
		}
	}
	m.Done = false
	return putJSON(b.Bucket(bucketMatches), prefix, m)
}

// dealKey is match, game, deal, attempt, big-endian.
func dealKey(match int, rec *referee.DealRecord) []byte {
	k := binary.BigEndian.AppendUint32(nil, uint32(match))
	k = binary.BigEndian.AppendUint16(k, uint16(rec.Game))
	k = binary.BigEndian.AppendUint16(k, uint16(rec.Deal))
	return binary.BigEndian.AppendUint16(k, uint16(rec.Attempt))
}

// PutDeal stores one finished deal of a match in its own transaction. The key is
// idempotent: storing the same deal again overwrites it.
func (db *DB) PutDeal(league string, match int, rec *referee.DealRecord) error {
	return db.PutDeals(league, match, []referee.DealRecord{*rec})
}

// PutDeals stores several deals of a match in one transaction (imports, tests).
func (db *DB) PutDeals(league string, match int, recs []referee.DealRecord) error {
	rows := make([][]byte, len(recs))
	for i := range recs {
		var err error
		if rows[i], err = db.codec.encode(&recs[i]); err != nil {
			return err
		}
	}
	return db.update(func(tx *bolt.Tx) error {
		b, err := leagueBucket(tx, league)
		if err != nil {
			return err
		}
		deals := b.Bucket(bucketDeals)
		deals.FillPercent = dealsFill
		for i := range recs {
			key := dealKey(match, &recs[i])
			if err := deals.Put(key, seal(key, rows[i])); err != nil {
				return err
			}
		}
		return nil
	})
}

// FinishMatch marks a match done in one transaction with the totals it adds: summarize
// gets the match's deals as stored, in order, and updates the match record and the
// league totals from them.
func (db *DB) FinishMatch(league string, index int, summarize func(deals []referee.DealRecord, m *Match, t *Totals) error) (*Totals, error) {
	op := &finishOp{index: index, summarize: summarize}
	err := db.update(func(tx *bolt.Tx) error {
		b, l, err := leagueWithInfo(tx, league)
		if err != nil {
			return err
		}
		var m Match
		if err := getJSON(b.Bucket(bucketMatches), u32(index), &m); err != nil {
			return err
		}
		op.deals = nil
		if err := forEachDeal(b, index, l, &m, func(rec *referee.DealRecord, _ bool) error {
			op.deals = append(op.deals, *rec)
			return nil
		}); err != nil {
			return err
		}
		return finishMatch(b, op)
	})
	if err != nil {
		return nil, err
	}
	return &op.totals, nil
}

// Totals returns the league's totals over its finished matches.
func (db *DB) Totals(league string) (*Totals, error) {
	return readLeagueKey[Totals](db, league, keyTotals)
}

// readLeagueKey reads the JSON value stored under key in the league's bucket.
func readLeagueKey[T any](db *DB, league string, key []byte) (*T, error) {
	var v T
	err := db.view(func(tx *bolt.Tx) error {
		b, err := leagueBucket(tx, league)
		if err != nil {
			return err
		}
		return getJSON(b, key, &v)
	})
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// Deals calls fn with every stored deal of the league (match < 0) or of one match, in
// key order, as a complete log record. fn must not keep rec.
func (db *DB) Deals(league string, match int, fn func(m *Match, rec *referee.DealRecord) error) error {
	return db.DealsDerived(league, match, func(m *Match, rec *referee.DealRecord, _ bool) error { return fn(m, rec) })
}

// DealsDerived is Deals for a reader that re-referees what it reads: fn also learns whether
// the rules engine derived the record as it was read (a binary row: every decision decoded as
// an index among the legal ones, the seats, names and result the engine's), which makes the
// record's Verify a repetition of what the read did. fn must not keep rec.
func (db *DB) DealsDerived(league string, match int, fn func(m *Match, rec *referee.DealRecord, derived bool) error) error {
	return db.view(func(tx *bolt.Tx) error {
		b, l, err := leagueWithInfo(tx, league)
		if err != nil {
			return err
		}
		matches := b.Bucket(bucketMatches)
		visit := func(idx int) error {
			var m Match
			if err := getJSON(matches, u32(idx), &m); err != nil {
				return err
			}
			return forEachDeal(b, idx, l, &m, func(rec *referee.DealRecord, derived bool) error { return fn(&m, rec, derived) })
		}
		switch {
		case match > math.MaxUint32: // keys are 32 bits: not another match's, truncated
			return fmt.Errorf("league %s: match %d: %w", league, match, ErrNotFound)
		case match >= 0:
			return visit(match)
		}
		return eachMatch(matches, visit)
	})
}

// eachMatch calls visit with the index of every match record, in schedule order.
func eachMatch(matches *bolt.Bucket, visit func(index int) error) error {
	c := matches.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if err := visit(int(binary.BigEndian.Uint32(k))); err != nil {
			return err
		}
	}
	return nil
}

// DealCount returns the number of deals stored for the league.
func (db *DB) DealCount(league string) (int, error) {
	n := 0
	err := db.view(func(tx *bolt.Tx) error {
		b, err := leagueBucket(tx, league)
		if err != nil {
			return err
		}
		n = b.Bucket(bucketDeals).Stats().KeyN
		return nil
	})
	return n, err
}

// forEachDeal calls fn with each stored deal of match index, and whether it was a binary row
// (see DealsDerived).
func forEachDeal(b *bolt.Bucket, index int, l *League, m *Match, fn func(rec *referee.DealRecord, derived bool) error) error {
	prefix := u32(index)
	old := legacy(b.Tx())
	c := b.Bucket(bucketDeals).Cursor()
	var scratch binDeal
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		rec := referee.DealRecord{V: referee.LogVersion, Match: m.ID, Rules: l.Rules, Seed: m.Seed, Keyed: l.Keyed}
		data, err := unseal(k, v, old)
		if err == nil {
			err = decodeStoredRow(k, data, &rec, l.Bots, &scratch, true)
		}
		if err != nil {
			return fmt.Errorf("league %s match %s: %w", l.Name, m.ID, err)
		}
		if err := fn(&rec, isBinRow(data)); err != nil {
			return err
		}
	}
	return nil
}

func leagueBucket(tx *bolt.Tx, name string) (*bolt.Bucket, error) {
	b := tx.Bucket(bucketLeagues).Bucket([]byte(name))
	if b == nil {
		return nil, fmt.Errorf("league %q: %w", name, ErrNotFound)
	}
	return b, nil
}

// leagueWithInfo is the bucket of the league name and its stored League.
func leagueWithInfo(tx *bolt.Tx, name string) (*bolt.Bucket, *League, error) {
	b, err := leagueBucket(tx, name)
	if err != nil {
		return nil, nil, err
	}
	var l League
	if err := getJSON(b, keyInfo, &l); err != nil {
		return nil, nil, err
	}
	return b, &l, nil
}

func getJSON(b *bolt.Bucket, key []byte, v any) error {
	stored := b.Get(key)
	if stored == nil {
		return fmt.Errorf("%s: %w", describeKey(key), ErrNotFound)
	}
	data, err := unseal(key, stored, legacy(b.Tx()))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, describeKey(key), err)
	}
	return nil
}

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, seal(key, data))
}

package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"strings"
	"unicode"

	"github.com/klaverjas-arena/arena/referee"
	bolt "go.etcd.io/bbolt"
)

// Checksums. From schema 2 every value the store writes (a deal row, a match record with its
// sums, a league's info, totals and deal key, a bot) is sealed: the byte sealTag, the
// CRC-32C of the value's key and bytes (big-endian), then the bytes. Every read checks it, so a damaged or
// altered page is an error naming what it held, never a value used silently; the key is in
// the sum, so a value moved to another key does not pass either. CRC-32C (Castagnoli) is in
// the standard library, computed by the CPU's own instruction on amd64 and arm64 (several
// GB/s, so a full scan costs little beside walking the pages), and detects every burst of up
// to 32 bits and all but one in 2^32 random damages. It is not a MAC: it finds damage, not a
// deliberate forgery by someone who recomputes it.
//
// sealTag cannot begin a value of schema 1: those are JSON (which begins with '{') or a raw
// deflate stream, whose first byte's bits 1-2 would give block type 3, which RFC 1951
// reserves as an error. A schema 1 database is read as it is (its values have no checksum);
// opening it for writing seals every value first (upgrade).
const sealTag = 0xFF

// sealLen is the bytes a seal adds in front of a value.
const sealLen = 5

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(key, data []byte) uint32 {
	return crc32.Update(crc32.Checksum(key, castagnoli), castagnoli, data)
}

// seal returns the value to store for data under key.
func seal(key, data []byte) []byte {
	out := make([]byte, sealLen, sealLen+len(data))
	out[0] = sealTag
	binary.BigEndian.PutUint32(out[1:], checksum(key, data))
	return append(out, data...)
}

// unseal returns the bytes of a value stored under key, checking its checksum. Unsealed
// values are accepted only from a schema 1 database (legacy).
func unseal(key, v []byte, legacy bool) ([]byte, error) {
	switch {
	case legacy && isLegacyDealKey(key, v):
		return v, nil
	case len(v) >= sealLen && v[0] == sealTag:
		if binary.BigEndian.Uint32(v[1:]) != checksum(key, v[sealLen:]) {
			return nil, fmt.Errorf("%w: %s fails its checksum: the page holding it is damaged or was altered", ErrCorrupt, describeKey(key))
		}
		return v[sealLen:], nil
	case legacy && (len(v) == 0 || v[0] != sealTag):
		return v, nil
	}
	return nil, fmt.Errorf("%w: %s has no valid checksum: the page holding it is damaged or was altered", ErrCorrupt, describeKey(key))
}

// isLegacyDealKey reports whether v, under key, is a league's deal key as a schema 1
// database holds it: its KeySize bytes as they are. Any byte may begin it, sealTag too, so
// it is told from a sealed value (sealLen bytes longer) by its length.
func isLegacyDealKey(key, v []byte) bool {
	return bytes.Equal(key, keyDealKey) && len(v) == referee.KeySize
}

// legacy reports whether the transaction's database is of schema 1, without checksums.
func legacy(tx *bolt.Tx) bool {
	v := tx.Bucket(bucketMeta).Get(keySchema)
	return len(v) == 4 && binary.BigEndian.Uint32(v) == 1
}

// describeKey names a stored value by its key: a deal, a match record or a named record.
func describeKey(key []byte) string {
	printable := len(key) > 0
	for _, c := range string(key) {
		printable = printable && unicode.IsPrint(c)
	}
	switch {
	case printable:
		return fmt.Sprintf("record %q", key)
	case len(key) == 10:
		return fmt.Sprintf("the stored row of match %d game %d deal %d attempt %d", binary.BigEndian.Uint32(key),
			binary.BigEndian.Uint16(key[4:]), binary.BigEndian.Uint16(key[6:]), binary.BigEndian.Uint16(key[8:]))
	case len(key) == 4:
		return fmt.Sprintf("the record of match %d", binary.BigEndian.Uint32(key))
	}
	return fmt.Sprintf("record %q", key)
}

// maxProblems is how many damaged values Verify names before it only counts them.
const maxProblems = 10

// Verify checks every stored value: the checksum of each (seal), the rows of every finished
// match (checkLeagueRows) and each league's name and records (checkLeagueRecords). The pages were checked
// when the file was opened (checkPages: what bbolt's Tx.Check checks and more), so the
// values' walk stays inside the file and ends.
// It is what a league runs before it writes on; the reading commands run it too, so that
// damage is found whatever they read.
func (db *DB) Verify() error {
	var values problemList
	err := db.view(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketMeta) == nil {
			return nil // a new, empty file
		}
		old := legacy(tx)
		visit := func(where string) func(k, v []byte) error {
			return func(k, v []byte) error {
				if v == nil {
					return nil // a sub-bucket
				}
				if _, err := unseal(k, v, old); err != nil {
					values.add(valueProblem(where, err))
				}
				return nil
			}
		}
		bots, leagues := tx.Bucket(bucketBots), tx.Bucket(bucketLeagues)
		if bots == nil || leagues == nil {
			values.add("its bots or leagues are missing")
			return nil
		}
		if err := bots.ForEach(visit("bots")); err != nil {
			return err
		}
		return leagues.ForEachBucket(func(name []byte) error {
			b := leagues.Bucket(name)
			where := fmt.Sprintf("league %s", name)
			if err := b.ForEach(visit(where)); err != nil {
				return err
			}
			checkLeagueRecords(b, name, old, values.add)
			inTx := func(fn func(*bolt.Bucket) error) error {
				return db.view(func(tx *bolt.Tx) error {
					if b := tx.Bucket(bucketLeagues).Bucket(name); b != nil {
						return fn(b)
					}
					return fmt.Errorf("%w: league %s is gone from a second read of the file", ErrCorrupt, name)
				})
			}
			return checkLeagueRows(b, inTx, where, old, &values)
		})
	})
	if err != nil {
		return err
	}
	if values.n > 0 {
		return values.error(db.path)
	}
	return nil
}

// valueProblem names a stored value's failed check within where (a league, the bots).
func valueProblem(where string, err error) string {
	return where + ": " + strings.TrimPrefix(err.Error(), ErrCorrupt.Error()+": ")
}

// problemList collects what a check finds, the first maxProblems of it by name.
type problemList struct {
	names []string
	n     int
}

func (l *problemList) add(s string) {
	if l.n++; l.n <= maxProblems {
		l.names = append(l.names, s)
	}
}

// merge adds the problems of o after l's.
func (l *problemList) merge(o problemList) {
	for _, s := range o.names {
		l.add(s)
	}
	l.n += o.n - len(o.names)
}

// error is the ErrCorrupt of the file at path with the problems.
func (l *problemList) error(path string) error {
	more := ""
	if l.n > maxProblems {
		more = fmt.Sprintf(" (and %d more)", l.n-maxProblems)
	}
	return fmt.Errorf("%w: %s fails its check: %s%s; restore it from a backup", ErrCorrupt, path, strings.Join(l.names, "; "), more)
}

// upgrade seals every value of a schema 1 database, each checked to decode first, and
// records schema 2, in one transaction.
func (db *DB) upgrade() error {
	return db.update(func(tx *bolt.Tx) error {
		var buckets []*bolt.Bucket
		buckets = append(buckets, tx.Bucket(bucketBots))
		leagues := tx.Bucket(bucketLeagues)
		err := leagues.ForEachBucket(func(name []byte) error {
			b := leagues.Bucket(name)
			buckets = append(buckets, b)
			for _, sub := range [][]byte{bucketMatches, bucketDeals} {
				if s := b.Bucket(sub); s != nil {
					buckets = append(buckets, s)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, b := range buckets {
			var keys, values [][]byte
			err := b.ForEach(func(k, v []byte) error {
				if v == nil || len(v) > 0 && v[0] == sealTag && !isLegacyDealKey(k, v) {
					return nil
				}
				if err := checkLegacy(k, v); err != nil {
					return err
				}
				keys, values = append(keys, bytes.Clone(k)), append(values, seal(k, v))
				return nil
			})
			if err != nil {
				return fmt.Errorf("%w; the file was not changed", err)
			}
			b.FillPercent = dealsFill
			for i := range keys {
				if err := b.Put(keys[i], values[i]); err != nil {
					return err
				}
			}
		}
		return tx.Bucket(bucketMeta).Put(keySchema, binary.BigEndian.AppendUint32(nil, SchemaVersion))
	})
}

// checkLegacy checks that a schema 1 value decodes: a deal row, or JSON.
func checkLegacy(k, v []byte) error {
	if len(k) == 10 {
		var rec referee.DealRecord
		return decodeRow(v, &rec)
	}
	if isLegacyDealKey(k, v) {
		return nil
	}
	if !json.Valid(v) {
		return fmt.Errorf("%w: %s is damaged", ErrCorrupt, describeKey(k))
	}
	return nil
}

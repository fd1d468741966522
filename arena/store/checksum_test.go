package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	bolt "go.etcd.io/bbolt"
)

// testDealKey is league x's deal key. It begins with sealTag, the hardest case for telling
// a schema 1 key (stored as it is) from a sealed one.
var testDealKey = append([]byte{sealTag}, bytes.Repeat([]byte{0x5a}, referee.KeySize-1)...)

// storedMatch opens a database with league x (keyed: testDealKey) and n finished matches of
// stored deals.
func storedMatch(t testing.TB, n int) (*DB, string) {
	t.Helper()
	db, path := MustOpen(t)
	if err := db.CreateLeague(&League{Name: "x", Rules: rules.Default(), Bots: []string{"a", "b"}, Matches: n}, testDealKey); err != nil {
		t.Fatal(err)
	}
	recs := playMatch(t, "x/0", 99)
	for i := range n {
		m := Match{Index: i, ID: fmt.Sprintf("x/%d", i), Seed: 99, Seats: []int{0, 1, 0, 1}}
		if err := db.StartMatch("x", &m); err != nil {
			t.Fatal(err)
		}
		if err := db.PutDeals("x", i, recs); err != nil {
			t.Fatal(err)
		}
		if _, err := db.FinishMatch("x", i, func(deals []referee.DealRecord, m *Match, tot *Totals) error {
			m.Deals = len(deals)
			tot.Matches, tot.Deals = tot.Matches+1, tot.Deals+len(deals)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	return db, path
}

// rewrite changes the stored value of one key of the bucket at path (below leagues/x).
func rewrite(t *testing.T, db *DB, sub []byte, key []byte, change func(v []byte) []byte) {
	t.Helper()
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketLeagues).Bucket([]byte("x"))
		if sub != nil {
			b = b.Bucket(sub)
		}
		return b.Put(key, change(bytes.Clone(b.Get(key))))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestChecksums: an altered deal row, match record or totals record is an error naming it
// on every read and in Verify, and a writer refuses to open the file.
func TestChecksums(t *testing.T) {
	flipByte := func(v []byte) []byte { v[len(v)/2] ^= 1; return v }
	deal := dealKey(0, &referee.DealRecord{Game: 2, Deal: 3})
	for _, tc := range []struct {
		name string
		sub  []byte
		key  []byte
		read func(db *DB) error
		want string
	}{
		{"deal", bucketDeals, deal, func(db *DB) error {
			return db.Deals("x", 0, func(*Match, *referee.DealRecord) error { return nil })
		}, "league x match x/0: not a valid arena database: the stored row of match 0 game 2 deal 3 attempt 0 fails its checksum"},
		{"moved", bucketDeals, deal, func(db *DB) error {
			return db.Deals("x", 0, func(*Match, *referee.DealRecord) error { return nil })
		}, "fails its checksum"},
		{"match", bucketMatches, u32(1), func(db *DB) error { _, err := db.Matches("x"); return err }, "the record of match 1 fails its checksum"},
		{"totals", nil, keyTotals, func(db *DB) error { _, err := db.Totals("x"); return err }, `record "totals" fails its checksum`},
		{"unsealed", nil, keyInfo, func(db *DB) error { _, err := db.League("x"); return err }, `record "info" has no valid checksum`},
		{"dealkey", nil, keyDealKey, func(db *DB) error { _, err := db.DealKey("x"); return err }, `league x: not a valid arena database: record "dealkey" fails its checksum`},
		{"dealkey-unsealed", nil, keyDealKey, func(db *DB) error { _, err := db.DealKey("x"); return err }, `record "dealkey"`}, // it begins with sealTag: read as a damaged seal
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, path := storedMatch(t, 2)
			change := flipByte
			switch tc.name {
			case "moved": // another deal's row, checksum and all, under this key
				other := dealKey(0, &referee.DealRecord{Game: 2, Deal: 4})
				_ = db.bolt.View(func(tx *bolt.Tx) error {
					v := bytes.Clone(tx.Bucket(bucketLeagues).Bucket([]byte("x")).Bucket(bucketDeals).Get(other))
					change = func([]byte) []byte { return v }
					return nil
				})
			case "unsealed", "dealkey-unsealed":
				change = func(v []byte) []byte { return v[sealLen:] }
			}
			rewrite(t, db, tc.sub, tc.key, change)
			if err := tc.read(db); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("read: %v", err)
			}
			if err := db.Verify(); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "fails its check: league x: ") {
				t.Errorf("Verify: %v", err)
			}
			db.Close()
			if _, err := Open(path, Options{}); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "the file was not changed") {
				t.Errorf("open for writing: %v", err)
			}
			ro, err := Open(path, Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			if err := tc.read(ro); !errors.Is(err, ErrCorrupt) {
				t.Errorf("read-only read: %v", err)
			}
		})
	}
}

// TestSchema1 turns a database into one of schema 1 (no checksums): it is read as it is,
// and opening it for writing adds the checksums, unless a value does not decode.
func TestSchema1(t *testing.T) {
	db, path := storedMatch(t, 2)
	want, _ := db.Totals("x")
	unsealAll := func(db *DB) {
		t.Helper()
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			lb := tx.Bucket(bucketLeagues).Bucket([]byte("x"))
			for _, b := range []*bolt.Bucket{tx.Bucket(bucketBots), lb, lb.Bucket(bucketMatches), lb.Bucket(bucketDeals)} {
				var keys, values [][]byte
				_ = b.ForEach(func(k, v []byte) error {
					if v != nil {
						keys, values = append(keys, bytes.Clone(k)), append(values, bytes.Clone(v[sealLen:]))
					}
					return nil
				})
				for i := range keys {
					if err := b.Put(keys[i], values[i]); err != nil {
						return err
					}
				}
			}
			return tx.Bucket(bucketMeta).Put(keySchema, u32(1))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	unsealAll(db)
	db.Close()

	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := ro.Verify(); err != nil {
		t.Errorf("Verify of schema 1: %v", err)
	}
	err = ro.Deals("x", -1, func(*Match, *referee.DealRecord) error { n++; return nil })
	got, terr := ro.Totals("x")
	if err != nil || terr != nil || n != 64 || got.Deals != want.Deals {
		t.Errorf("schema 1 read: %d deals, %v, %v", n, err, terr)
	}
	if key, err := ro.DealKey("x"); err != nil || !bytes.Equal(key, testDealKey) {
		t.Errorf("schema 1 deal key: %x, %v", key, err)
	}
	ro.Close()

	// Upgrade: every value sealed, schema 2, the same data.
	start := time.Now()
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("upgrade of 64 deals: %v", time.Since(start))
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		if legacy(tx) {
			t.Error("still schema 1")
		}
		return tx.Bucket(bucketLeagues).Bucket([]byte("x")).Bucket(bucketDeals).ForEach(func(k, v []byte) error {
			if _, err := unseal(k, v, false); err != nil {
				t.Error(err)
			}
			return nil
		})
	})
	n = 0
	if err := db.Deals("x", -1, func(*Match, *referee.DealRecord) error { n++; return nil }); err != nil || n != 64 {
		t.Errorf("after the upgrade: %d deals, %v", n, err)
	}
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketLeagues).Bucket([]byte("x")).Get(keyDealKey)
		if len(v) != sealLen+referee.KeySize {
			t.Errorf("after the upgrade the deal key is stored in %d bytes, not sealed", len(v))
		}
		return nil
	})
	if key, err := db.DealKey("x"); err != nil || !bytes.Equal(key, testDealKey) {
		t.Errorf("deal key after the upgrade: %x, %v", key, err)
	}

	// A damaged schema 1 value stops the upgrade, and nothing is changed.
	unsealAll(db)
	rewrite(t, db, bucketDeals, dealKey(1, &referee.DealRecord{Game: 1, Deal: 5}), func(v []byte) []byte { return v[:len(v)/2] })
	db.Close()
	if _, err := Open(path, Options{}); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "the file was not changed") {
		t.Errorf("upgrade of a damaged file: %v", err)
	}
	ro, err = Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_ = ro.bolt.View(func(tx *bolt.Tx) error {
		if !legacy(tx) {
			t.Error("a failed upgrade changed the schema")
		}
		return nil
	})
}

// BenchmarkVerify times Verify (bbolt's check of every page and every value's checksum)
// over about 10,000 stored deals, reporting the time per deal.
func BenchmarkVerify(b *testing.B) {
	_, db, deals := benchFile(b)
	for b.Loop() {
		if err := db.Verify(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(deals), "ns/deal")
}

// benchFile returns the database file STORE_BENCH_DB names (the scale test's million deals,
// say), or else a new one of 10,000 stored deals in matches under way, open read-only until
// the benchmark ends, and its deals.
func benchFile(b *testing.B) (path string, db *DB, deals int) {
	if path = os.Getenv("STORE_BENCH_DB"); path == "" {
		w, p := MustOpen(b)
		if err := w.PutLeague(&League{Name: "x", Rules: rules.Default(), Bots: []string{"a", "b"}}); err != nil {
			b.Fatal(err)
		}
		recs := playMatch(b, "x/0", 1)
		for i := range 10000 / len(recs) {
			if err := w.StartMatch("x", &Match{Index: i, ID: fmt.Sprintf("x/%d", i), Seats: []int{0, 1, 0, 1}}); err != nil {
				b.Fatal(err)
			}
			if err := w.PutDeals("x", i, recs); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		path = p
	}
	db, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	leagues, err := db.Leagues()
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range leagues {
		n, err := db.DealCount(l.Name)
		if err != nil {
			b.Fatal(err)
		}
		deals += n
	}
	return path, db, deals
}

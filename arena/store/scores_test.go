package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	bolt "go.etcd.io/bbolt"
)

// scoresLeague stores league x (bots a and b) under rs: match 0 in binary rows (through a
// DealWriter), match 1 in JSON rows (PutDeals), both the same deals.
func scoresLeague(t *testing.T, rs rules.Ruleset) *DB {
	t.Helper()
	db, _ := MustOpen(t)
	if err := db.PutLeague(&League{Name: "x", Rules: rs, Bots: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	recs := playMatchRules(t, "x/0", 7, rs)
	w := db.NewDealWriter("x", nil)
	if err := w.Start(Match{Index: 0, ID: "x/0", Seed: 7}); err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		if err := w.Put(0, &recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.StartMatch("x", &Match{Index: 1, ID: "x/1", Seed: 7}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutDeals("x", 1, recs); err != nil {
		t.Fatal(err)
	}
	return db
}

// rowKinds returns, per match, how many of its stored rows are binary and how many JSON.
func rowKinds(t *testing.T, db *DB) map[int][2]int {
	t.Helper()
	kinds := map[int][2]int{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketLeagues).Bucket([]byte("x")).Bucket(bucketDeals).ForEach(func(k, v []byte) error {
			m := int(k[3])
			n := kinds[m]
			if isBinRow(v[sealLen:]) {
				n[0]++
			} else {
				n[1]++
			}
			kinds[m] = n
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return kinds
}

// TestScores: the scores read without building records are those of the records Deals
// builds, for binary and JSON rows, claims and redeals included.
func TestScores(t *testing.T) {
	claimed := rules.Default()
	if err := claimed.Set("roem_claiming", "claim_required"); err != nil {
		t.Fatal(err)
	}
	for name, rs := range map[string]rules.Ruleset{"default": rules.Default(), "claims": claimed} {
		t.Run(name, func(t *testing.T) {
			db := scoresLeague(t, rs)
			kinds := rowKinds(t, db)
			if kinds[0][1] != 0 || kinds[0][0] == 0 || kinds[1][0] != 0 || kinds[1][1] == 0 {
				t.Fatalf("rows (binary, JSON) per match: %v, want match 0 binary and match 1 JSON", kinds)
			}
			var want, got []string
			err := db.Deals("x", -1, func(m *Match, rec *referee.DealRecord) error {
				want = append(want, fmt.Sprintf("%s %+v", m.ID, ScoreOf(rec)))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			redeals, made := 0, 0
			err = db.Scores("x", -1, func(m *Match, deals []DealScore) error {
				for _, s := range deals {
					got = append(got, fmt.Sprintf("%s %+v", m.ID, s))
					switch s.Outcome {
					case rules.Redeal:
						redeals++
					case rules.Made:
						made++
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if made == 0 {
				t.Error("no deal was made: the scores are not read")
			}
			if len(got) != len(want) {
				t.Fatalf("%d scores, %d records", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("deal %d:\nscore  %s\nrecord %s", i, got[i], want[i])
				}
			}
			t.Logf("%d deals, %d made, %d redeals", len(got), made, redeals)
		})
	}
}

// TestScoresDamage: Scores reports a row that fails its checksum, a binary row altered and
// sealed again that the rules refuse, and a JSON row whose result the rules contradict,
// each with its match; it never returns a score of them.
func TestScoresDamage(t *testing.T) {
	key := func(match int) []byte { return dealKey(match, &referee.DealRecord{Game: 1, Deal: 2}) }
	reseal := func(change func(k, data []byte) []byte) func(k []byte) func(v []byte) []byte {
		return func(k []byte) func(v []byte) []byte {
			return func(v []byte) []byte { return seal(k, change(k, v[sealLen:])) }
		}
	}
	for _, tc := range []struct {
		name   string
		match  int
		change func(k []byte) func(v []byte) []byte
		want   error
		text   string
	}{
		{"checksum", 0, func([]byte) func(v []byte) []byte {
			return func(v []byte) []byte { v[len(v)/2] ^= 1; return v }
		}, ErrCorrupt, "league x match x/0: not a valid arena database: the stored row of match 0 game 1 deal 2 attempt 0 fails its checksum"},
		{"binary-actions", 0, reseal(func(_, data []byte) []byte {
			// one action less than the deal has: the 15th byte is the number of actions
			// (after the tag, pair, flags, four seats and eight bytes of hands, each
			// varint of them one byte in this league)
			out := bytes.Clone(data)
			out[15]--
			return out
		}), ErrCorrupt, "league x match x/0: not a valid arena database: stored deal: binary row: "},
		{"binary-cut", 0, reseal(func(_, data []byte) []byte { return data[:len(data)-3] }), ErrCorrupt, "stored deal: binary row: "},
		{"json-result", 1, reseal(func(k, data []byte) []byte {
			var rec referee.DealRecord
			if err := decodeRow(data, &rec); err != nil {
				t.Fatal(err)
			}
			rec.Result.Score[0]++
			out, err := newCodec().encode(&rec)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}), referee.ErrInconsistent, "match x/1 game 1 deal 2: deal record is inconsistent with the rules: result "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := scoresLeague(t, rules.Default())
			rewrite(t, db, bucketDeals, key(tc.match), tc.change(key(tc.match)))
			err := db.Scores("x", -1, func(m *Match, deals []DealScore) error {
				if m.Index == tc.match {
					t.Errorf("a score of the match with the altered deal was read: %+v", deals)
				}
				return nil
			})
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("Scores: %v\nwant %v containing %q", err, tc.want, tc.text)
			}
			if err := db.Scores("x", 1-tc.match, func(*Match, []DealScore) error { return nil }); err != nil {
				t.Errorf("the other match: %v", err)
			}
		})
	}
}

// TestScoresChunks: over matches of more rows than a chunk, Scores hands the scores over in
// key order, the same as Deals, and an error of fn stops it with that error.
func TestScoresChunks(t *testing.T) {
	db, _ := MustOpen(t)
	if err := db.PutLeague(&League{Name: "x", Rules: rules.Default(), Bots: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	recs := playMatch(t, "x/0", 3)
	w := db.NewDealWriter("x", nil)
	for i := range 3 {
		if err := w.Start(Match{Index: i, ID: fmt.Sprintf("x/%d", i)}); err != nil {
			t.Fatal(err)
		}
		for rep := range chunkRows/len(recs) + 3 { // each match over a chunk: games renumbered
			for j := range recs {
				rec := recs[j]
				rec.Game += 2 * rep
				if err := w.Put(i, &rec); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var want, got []string
	if err := db.Deals("x", -1, func(m *Match, rec *referee.DealRecord) error {
		want = append(want, fmt.Sprintf("%s %+v", m.ID, ScoreOf(rec)))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Scores("x", -1, func(m *Match, deals []DealScore) error {
		for _, s := range deals {
			got = append(got, fmt.Sprintf("%s %+v", m.ID, s))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(want) <= 2*chunkRows || !slices.Equal(got, want) {
		t.Fatalf("%d scores, %d records, equal %v", len(got), len(want), slices.Equal(got, want))
	}
	stop := errors.New("enough")
	n := 0
	err := db.Scores("x", -1, func(*Match, []DealScore) error {
		if n++; n == 2 {
			return stop
		}
		return nil
	})
	if err != stop || n != 2 {
		t.Errorf("stopped after %d matches with %v", n, err)
	}
}

// TestScoresMatches: Scores calls fn for a stored match without deals too (with none), and a
// damaged match record is an error naming it, after the matches before it and before any of
// its deals or of later matches.
func TestScoresMatches(t *testing.T) {
	db := scoresLeague(t, rules.Default())
	if err := db.StartMatch("x", &Match{Index: 2, ID: "x/2", Seed: 7}); err != nil {
		t.Fatal(err)
	}
	var got []string
	each := func(m *Match, deals []DealScore) error {
		got = append(got, fmt.Sprintf("%s:%d", m.ID, len(deals)))
		return nil
	}
	if err := db.Scores("x", -1, each); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[2] != "x/2:0" || got[0] == "x/0:0" || got[0][len("x/0:"):] != got[1][len("x/1:"):] {
		t.Errorf("matches and their deals: %v, want x/0 and x/1 with the same deals, x/2 with none", got)
	}
	got = nil
	if err := db.Scores("x", 5, each); !errors.Is(err, ErrNotFound) || len(got) != 0 {
		t.Errorf("a match not stored: %v, fn saw %v", err, got)
	}
	rewrite(t, db, bucketMatches, u32(1), func(v []byte) []byte { v[len(v)/2] ^= 1; return v })
	got = nil
	err := db.Scores("x", -1, each)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "the record of match 1 fails its checksum") || len(got) != 1 || !strings.HasPrefix(got[0], "x/0:") {
		t.Errorf("a damaged match record: %v, fn saw %v, want an error naming it after x/0 alone", err, got)
	}
}

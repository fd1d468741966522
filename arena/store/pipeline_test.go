package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// manyMatches stores league x (bots a and b) of n matches in binary rows, each more rows than
// a chunk takes when big, else one duplicate pair.
func manyMatches(t *testing.T, n int, big bool) *DB {
	t.Helper()
	db, _ := MustOpen(t)
	if err := db.PutLeague(&League{Name: "x", Rules: rules.Default(), Bots: []string{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	recs := playMatch(t, "x/0", 3)
	reps := 1
	if big {
		reps = chunkRows/len(recs) + 3
	}
	w := db.NewDealWriter("x", nil)
	for i := range n {
		if err := w.Start(Match{Index: i, ID: fmt.Sprintf("x/%d", i), Seed: uint64(i)}); err != nil {
			t.Fatal(err)
		}
		for rep := range reps { // games renumbered
			for j := range recs {
				rec := recs[j]
				rec.Game += 2 * rep
				rec.Seats = [4]string{"a", "b", "a", "b"}
				if (i+j)%3 == 0 {
					rec.Seats = [4]string{"b", "a", "b", "a"}
				}
				if err := w.Put(i, &rec); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return db
}

// recordLines returns every deal of the league as "MATCH DERIVED JSON", read by DealsDerived,
// the derived records without their actions if opt says so.
func recordLines(t *testing.T, db *DB, opt ReadOptions) []string {
	t.Helper()
	var out []string
	if err := db.DealsDerived("x", -1, func(m *Match, rec *referee.DealRecord, derived bool) error {
		if derived && opt.NoDerivedActions {
			rec.Actions = nil
		}
		data, err := json.Marshal(rec)
		out = append(out, fmt.Sprintf("%s %v %s", m.ID, derived, data))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMatchDeals: MatchDeals hands over, match by match in order, the records and derived
// marks DealsDerived reads (with ReadOptions.NoDerivedActions, the derived ones without their
// actions), over binary and JSON rows, claims, matches of more rows than a
// chunk and many small matches (their memory reused), what prepare made reaching fn; an
// error of fn stops it with that error.
func TestMatchDeals(t *testing.T) {
	claimed := rules.Default()
	if err := claimed.Set("roem_claiming", "claim_required"); err != nil {
		t.Fatal(err)
	}
	for name, db := range map[string]*DB{"default": scoresLeague(t, rules.Default()), "claims": scoresLeague(t, claimed),
		"big": manyMatches(t, 3, true), "many": manyMatches(t, 200, false)} {
		t.Run(name, func(t *testing.T) {
			for _, opt := range []ReadOptions{{}, {NoDerivedActions: true}} {
				want := recordLines(t, db, opt)
				var got []string
				next := 0
				err := MatchDeals(db, "x", -1, opt, func(m *Match, recs []referee.DealRecord, derived []bool, out *[]string) error {
					*out = (*out)[:0]
					for i := range recs {
						data, err := json.Marshal(&recs[i])
						if err != nil {
							return err
						}
						*out = append(*out, fmt.Sprintf("%s %v %s", m.ID, derived[i], data))
					}
					return nil
				}, func(m *Match, out *[]string) error {
					if m.Index != next {
						t.Errorf("match %d handed over where %d was next", m.Index, next)
					}
					next++
					got = append(got, *out...)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(want) == 0 || !slices.Equal(got, want) {
					t.Fatalf("%+v: %d records, DealsDerived %d; equal %v", opt, len(got), len(want), slices.Equal(got, want))
				}
			}
			stop := errors.New("enough")
			n := 0
			err := MatchDeals(db, "x", -1, ReadOptions{}, func(*Match, []referee.DealRecord, []bool, *int) error { return nil },
				func(*Match, *int) error {
					if n++; n == 2 {
						return stop
					}
					return nil
				})
			if err != stop || n != 2 {
				t.Errorf("stopped after %d matches with %v", n, err)
			}
		})
	}
}

// TestMatchDealsDamage: a damaged row is an error naming its match and deal, after the
// matches before it, and its match does not reach fn.
func TestMatchDealsDamage(t *testing.T) {
	db := manyMatches(t, 40, false)
	k := dealKey(30, &referee.DealRecord{Game: 1, Deal: 2})
	rewrite(t, db, bucketDeals, k, func(v []byte) []byte { v[len(v)/2] ^= 1; return v })
	var handed []int
	err := MatchDeals(db, "x", -1, ReadOptions{}, func(m *Match, _ []referee.DealRecord, _ []bool, out *int) error {
		*out = m.Index
		return nil
	}, func(m *Match, out *int) error {
		handed = append(handed, *out)
		return nil
	})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "match x/30: not a valid arena database: the stored row of match 30 game 1 deal 2 attempt 0 fails its checksum") {
		t.Errorf("MatchDeals: %v", err)
	}
	if len(handed) != 30 || handed[29] != 29 {
		t.Errorf("handed over %v", handed)
	}
}

// TestMatchDealsPanic: a panic while a match is decoded (as a damaged page makes one) is an
// error naming the match, after the matches before it, not a crash of the process.
func TestMatchDealsPanic(t *testing.T) {
	db := manyMatches(t, 40, false)
	var handed []int
	err := MatchDeals(db, "x", -1, ReadOptions{}, func(m *Match, recs []referee.DealRecord, _ []bool, out *int) error {
		if m.Index == 17 {
			_ = recs[len(recs)] // out of range
		}
		*out = m.Index
		return nil
	}, func(m *Match, out *int) error {
		handed = append(handed, *out)
		return nil
	})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "the record of match 17: runtime error: index out of range") {
		t.Errorf("MatchDeals: %v", err)
	}
	if len(handed) != 17 || handed[16] != 16 {
		t.Errorf("handed over %v", handed)
	}
}

// TestMatchRange: MatchRange reads the matches of an index range alone, in order, and the end
// of the stored indices, for any range; Matches reads them all.
func TestMatchRange(t *testing.T) {
	db := manyMatches(t, 40, false)
	for _, c := range []struct{ from, to, first, n int }{{0, 10, 0, 10}, {35, 100, 35, 5}, {39, 40, 39, 1}, {40, 50, 0, 0}, {5, 5, 0, 0}, {-3, 2, 0, 0}} {
		ms, end, err := db.MatchRange("x", c.from, c.to)
		if err != nil || end != 40 || len(ms) != c.n || c.n > 0 && (ms[0].Index != c.first || ms[c.n-1].Index != c.first+c.n-1) {
			t.Errorf("MatchRange(%d, %d): %d matches, end %d, %v", c.from, c.to, len(ms), end, err)
		}
	}
	if all, err := db.Matches("x"); err != nil || len(all) != 40 {
		t.Errorf("Matches: %d, %v", len(all), err)
	}
	if _, _, err := db.MatchRange("nosuch", 0, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("MatchRange of no league: %v", err)
	}
}

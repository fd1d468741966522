package store

import (
	"slices"
	"testing"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	bolt "go.etcd.io/bbolt"
)

// TestDealWriter: 48 matches of real deals go through a DealWriter as a league's runner sends
// them (start, deals, end); every deal is stored once, as a binary row, every match is done
// with its sums, the deals share commits, and the deals take at most 128 bytes each of the
// file's pages.
func TestDealWriter(t *testing.T) {
	db, _ := MustOpen(t)
	l := &League{Name: "w", Rules: rules.Default(), Bots: []string{"a", "b"}, Matches: 48}
	if err := db.CreateLeague(l, nil); err != nil {
		t.Fatal(err)
	}
	commits, stored := 0, 0
	w := db.NewDealWriter("w", func(n int) { commits++; stored += n })
	total := 0
	var done []int
	for i := range 48 {
		recs := playMatch(t, "w/x", uint64(i))
		for j := range recs { // times as a bot process's: wall and CPU time
			for k := range recs[j].Actions {
				ms := 0.011 * float64(1+k%7)
				recs[j].Actions[k].MS, recs[j].Actions[k].CPUMS = ms, ms*float64(1+k%3)/2
			}
		}
		if err := w.Start(Match{Index: i, ID: "w/x", Seed: uint64(i), Seats: []int{0, 1, 0, 1}}); err != nil {
			t.Fatal(err)
		}
		for j := range recs {
			if err := w.Put(i, &recs[j]); err != nil {
				t.Fatal(err)
			}
		}
		total += len(recs)
		sum := func(deals []referee.DealRecord, m *Match, tot *Totals) error {
			m.Deals = len(deals)
			tot.Matches++
			tot.Deals += len(deals)
			return nil
		}
		if err := w.Finish(i, recs, sum, func(*Totals) { done = append(done, i) }); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if stored != total || len(done) != 48 {
		t.Fatalf("%d deals stored of %d, %d matches done", stored, total, len(done))
	}
	if commits >= total/2 {
		t.Errorf("%d commits for %d deals: the deals were not grouped", commits, total)
	}
	tot, err := db.Totals("w")
	if err != nil || tot.Matches != 48 || tot.Deals != total {
		t.Fatalf("totals %+v, %v", tot, err)
	}
	n := 0
	if err := db.Deals("w", -1, func(m *Match, rec *referee.DealRecord) error {
		n++
		if !m.Done {
			t.Errorf("match %d not done", m.Index)
		}
		return rec.Verify()
	}); err != nil || n != total {
		t.Fatalf("read back %d deals of %d: %v", n, total, err)
	}
	var pages int
	err = db.bolt.View(func(tx *bolt.Tx) error {
		deals := tx.Bucket(bucketLeagues).Bucket([]byte("w")).Bucket(bucketDeals)
		s := deals.Stats()
		pages = s.LeafAlloc + s.BranchAlloc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	perDeal := float64(pages) / float64(total)
	t.Logf("%d deals in %d bytes of pages: %.0f bytes a deal (%d commits)", total, pages, perDeal, commits)
	if perDeal > 150 {
		t.Errorf("%.0f bytes a deal, want at most 150", perDeal)
	}
}

// TestResumeMatch: the deals an interrupted run stored for a match come back in the order
// played, for the match as stored only, and every resume is recorded in the match.
func TestResumeMatch(t *testing.T) {
	db, _ := MustOpen(t)
	l := &League{Name: "r", Rules: rules.Default(), Bots: []string{"a", "b"}, Matches: 2}
	if err := db.CreateLeague(l, nil); err != nil {
		t.Fatal(err)
	}
	m := Match{Index: 0, ID: "r/x", Seed: 3, Seats: []int{0, 1, 0, 1}}
	if got, err := db.ResumeMatch("r", &m); err != nil || got != nil {
		t.Fatalf("a match not stored: %d deals, %v", len(got), err)
	}
	if err := db.StartMatch("r", &m); err != nil {
		t.Fatal(err)
	}
	if got, err := db.ResumeMatch("r", &m); err != nil || got != nil {
		t.Fatalf("a match without deals: %d deals, %v", len(got), err)
	}
	recs := playMatch(t, "r/x", 3)
	// Stored out of order: the store keeps them in the order played.
	if err := db.PutDeals("r", 0, []referee.DealRecord{recs[2], recs[0], recs[1]}); err != nil {
		t.Fatal(err)
	}
	for _, other := range []Match{{Index: 0, ID: "r/x", Seed: 4, Seats: m.Seats}, {Index: 0, ID: "r/x", Seed: 3, Seats: []int{1, 0, 1, 0}}} {
		if got, err := db.ResumeMatch("r", &other); err != nil || got != nil {
			t.Errorf("match stored with seed %d seats %v, resumed as seed %d seats %v: %d deals, %v", m.Seed, m.Seats, other.Seed, other.Seats, len(got), err)
		}
	}
	for run := 1; run <= 2; run++ {
		got, err := db.ResumeMatch("r", &m)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[0].Deal != recs[0].Deal || got[1].Deal != recs[1].Deal || got[2].Deal != recs[2].Deal || got[2].Result.Score[0] != recs[2].Result.Score[0] {
			t.Fatalf("resume %d: %d deals", run, len(got))
		}
		stored, err := db.Matches("r")
		if err != nil {
			t.Fatal(err)
		}
		if want := []int{3, 3}[:run]; !slices.Equal(stored[0].Resumed, want) {
			t.Errorf("resume %d: recorded %v, want %v", run, stored[0].Resumed, want)
		}
	}
	sum := func(deals []referee.DealRecord, m *Match, tot *Totals) error { m.Deals = len(deals); return nil }
	if _, err := db.FinishMatch("r", 0, sum); err != nil {
		t.Fatal(err)
	}
	if got, err := db.ResumeMatch("r", &m); err != nil || got != nil {
		t.Fatalf("a done match: %d deals, %v", len(got), err)
	}
	if stored, _ := db.Matches("r"); !slices.Equal(stored[0].Resumed, []int{3, 3}) || !stored[0].Done {
		t.Errorf("the done match: %+v", stored[0])
	}
}

// TestResumeMatchOtherFile: a match started under one league file is not resumed under
// another (a file changed with --force, by a run interrupted before it played the match
// again); one stored before matches recorded their file is resumed as before, unless the
// league's file was ever forced.
func TestResumeMatchOtherFile(t *testing.T) {
	for _, tc := range []struct {
		name          string
		stored, asked string
		forced        bool
		resumed       bool
	}{
		{"same file", "h1", "h1", false, true},
		{"same file, forced earlier", "h2", "h2", true, true},
		{"another file", "h1", "h2", true, false},
		{"no file recorded", "", "h1", false, true},
		{"no file recorded, league forced", "", "h2", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, _ := MustOpen(t)
			l := &League{Name: "r", Rules: rules.Default(), Bots: []string{"a", "b"}, Matches: 1}
			if err := db.CreateLeague(l, nil); err != nil {
				t.Fatal(err)
			}
			if tc.forced {
				l.Forced = []Forced{{OldHash: "h1", NewHash: "h2"}}
				if err := db.PutLeague(l); err != nil {
					t.Fatal(err)
				}
			}
			m := Match{Index: 0, ID: "r/x", Seed: 3, Seats: []int{0, 1, 0, 1}, File: tc.stored}
			if err := db.StartMatch("r", &m); err != nil {
				t.Fatal(err)
			}
			if err := db.PutDeals("r", 0, playMatch(t, "r/x", 3)[:2]); err != nil {
				t.Fatal(err)
			}
			m.File = tc.asked
			got, err := db.ResumeMatch("r", &m)
			if err != nil {
				t.Fatal(err)
			}
			if (len(got) == 2) != tc.resumed || (len(got) != 0 && len(got) != 2) {
				t.Errorf("stored under %q, asked under %q (league forced: %t): %d deals to go on after, want resumed %t", tc.stored, tc.asked, tc.forced, len(got), tc.resumed)
			}
		})
	}
}

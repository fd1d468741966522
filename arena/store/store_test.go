package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	bolt "go.etcd.io/bbolt"
)

// lowest plays the first legal bid and the lowest legal card.
var lowest = bot.Bot{Name: "lowest", Decide: func(_ *bot.State, d bot.Decision) bot.Answer {
	if d.Kind == bot.BidKind {
		return bot.Answer{Bid: d.LegalBids.All()[0]}
	}
	return bot.Answer{Card: d.LegalCards.Lowest()}
}}

// playMatch plays one duplicate pair in process and returns its deal records.
func playMatch(tb testing.TB, id string, seed uint64) []referee.DealRecord {
	tb.Helper()
	return playMatchRules(tb, id, seed, rules.Default())
}

// claimer plays as lowest does and claims 0, 10 or 20 roem by the trick's first card: true
// claims and false ones, of different sizes in one deal.
var claimer = bot.Bot{Name: "claimer", Decide: func(s *bot.State, d bot.Decision) bot.Answer {
	if d.Kind == bot.ClaimKind {
		return bot.Answer{Claim: int(d.Trick[0]) % 3 * 10}
	}
	return lowest.Decide(s, d)
}}

// playMatchRules is playMatch under the ruleset rs.
func playMatchRules(tb testing.TB, id string, seed uint64, rs rules.Ruleset) []referee.DealRecord {
	tb.Helper()
	return playMatchBot(tb, id, seed, rs, lowest)
}

// playMatchBot is playMatchRules with the bot b in all four seats.
func playMatchBot(tb testing.TB, id string, seed uint64, rs rules.Ruleset, b bot.Bot) []referee.DealRecord {
	tb.Helper()
	var log bytes.Buffer
	var es [4]referee.Entrant
	for i := range es {
		es[i] = referee.Entrant{Name: []string{"a", "b"}[i%2], Start: referee.NewInProcess(b)}
	}
	cfg := referee.Config{ID: id, Rules: rs, Games: 1, Duplicate: true, Seed: seed, Records: referee.NewLogWriter(&log)}
	if _, err := referee.Run(context.Background(), cfg, es[:]); err != nil {
		tb.Fatal(err)
	}
	var recs []referee.DealRecord
	for line := range bytes.Lines(log.Bytes()) {
		var r referee.DealRecord
		if err := json.Unmarshal(line, &r); err != nil {
			tb.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

// MustOpen opens a fresh database in a temporary directory.
func MustOpen(tb testing.TB) (*DB, string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "arena.db")
	db, err := Open(path, Options{Command: "test"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db, path
}

func TestDealRoundTrip(t *testing.T) {
	db, _ := MustOpen(t)
	l := &League{Name: "x", Rules: rules.Default(), Bots: []string{"a", "b"}, Matches: 1}
	if err := db.PutLeague(l); err != nil {
		t.Fatal(err)
	}
	recs := playMatch(t, "x/0", 99)
	// fault_policy = retry's rejected answers are kept too, and verified when read back.
	first := recs[0].Actions[0].Seat
	recs[0].Rejected = []referee.Rejection{{Seat: first, Bot: "b", Decision: 1, Request: "bid", Kind: referee.FaultGarbage, Detail: `"hearts" is not a bid`}}
	recs[1].Rejected = []referee.Rejection{{Seat: first, Bot: "b", Decision: 1, Request: "bid", Kind: referee.FaultTimeout, Detail: "a timeout is never rejected"}}
	m := Match{Index: 0, ID: "x/0", Seed: 99, Seats: []int{0, 1, 0, 1}}
	if err := db.StartMatch("x", &m); err != nil {
		t.Fatal(err)
	}
	size := 0
	for i := range recs {
		if err := db.PutDeal("x", 0, &recs[i]); err != nil {
			t.Fatal(err)
		}
		data, _ := db.codec.encode(&recs[i])
		size += len(data)
	}
	t.Logf("%d deals, %d bytes each compressed", len(recs), size/len(recs))
	i := 0
	err := db.Deals("x", -1, func(_ *Match, rec *referee.DealRecord) error {
		got, _ := json.Marshal(rec)
		want, _ := json.Marshal(&recs[i])
		if !bytes.Equal(got, want) {
			t.Errorf("deal %d:\n got %s\nwant %s", i, got, want)
		}
		if err := rec.Verify(); (err == nil) != (i != 1) || i == 1 && !strings.Contains(err.Error(), "rejected answer 1") {
			t.Errorf("deal %d read back: Verify: %v", i, err)
		}
		i++
		return nil
	})
	if err != nil || i != len(recs) {
		t.Fatalf("read %d of %d deals: %v", i, len(recs), err)
	}
	// Replaying the match from its start removes what the interrupted run stored.
	if err := db.StartMatch("x", &m); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.DealCount("x"); n != 0 {
		t.Errorf("%d deals left after StartMatch", n)
	}
}

func TestOpen_Held(t *testing.T) {
	_, path := MustOpen(t)
	_, err := Open(path, Options{})
	var held *HeldError
	if !errors.As(err, &held) || held.Holder == nil || held.Holder.PID != os.Getpid() || !strings.Contains(err.Error(), "(test, started at") {
		t.Errorf("second open: %v", err)
	}
}

func TestOpen_ReadOnlyNoFile(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "none.db"), Options{ReadOnly: true})
	if !errors.Is(err, ErrNoDatabase) {
		t.Errorf("got %v", err)
	}
}

func TestOpen_Schema(t *testing.T) {
	db, path := MustOpen(t)
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keySchema, u32(SchemaVersion+1))
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(path, Options{}); !errors.Is(err, ErrSchema) {
		t.Errorf("got %v", err)
	}
}

func TestOpen_Foreign(t *testing.T) {
	path := filepath.Join(t.TempDir(), "foreign.db")
	b, err := bolt.Open(path, 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = b.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err })
	b.Close()
	for _, ro := range []bool{false, true} {
		if _, err := Open(path, Options{ReadOnly: ro}); !errors.Is(err, ErrCorrupt) {
			t.Errorf("read-only %v: got %v", ro, err)
		}
	}
}

// TestOpen_EmptyFile: a file of 0 bytes (a database truncated to nothing) is refused by
// every command, unchanged, and not made a new database by a league.
func TestOpen_EmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{false, true, false} {
		db, err := Open(path, Options{ReadOnly: ro})
		if err == nil {
			db.Close()
		}
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "empty (0 bytes)") {
			t.Errorf("read-only %v: got %v", ro, err)
		}
		if st, err := os.Stat(path); err != nil || st.Size() != 0 {
			t.Fatalf("read-only %v: the file was changed: %v %v", ro, st.Size(), err)
		}
	}
	dir := t.TempDir()
	for _, ro := range []bool{false, true} {
		if _, err := Open(dir, Options{ReadOnly: ro}); err == nil || !strings.Contains(err.Error(), "is a directory") {
			t.Errorf("a directory, read-only %v: got %v", ro, err)
		}
	}
}

func BenchmarkPutDeal(b *testing.B) {
	db, path := MustOpen(b)
	if err := db.PutLeague(&League{Name: "x", Rules: rules.Default(), Bots: []string{"a", "b"}}); err != nil {
		b.Fatal(err)
	}
	recs := playMatch(b, "x/0", 1)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := db.PutDeal("x", i/len(recs), &recs[i%len(recs)]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if st, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(st.Size())/float64(b.N), "file-bytes/deal")
	}
}

func TestOpen_UncleanIsChecked(t *testing.T) {
	db, path := MustOpen(t)
	if db.Unclean() {
		t.Error("a new database is unclean")
	}
	db.Close()
	// A holder record left behind is what a killed writer leaves.
	if err := os.WriteFile(path+".holder", []byte(`{"pid":1,"command":"killed"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !db.Unclean() {
		t.Error("unclean stop not noticed")
	}
	db.Close()
	if db, err = Open(path, Options{}); err != nil || db.Unclean() {
		t.Errorf("after a clean close: %v, unclean %v", err, db != nil && db.Unclean())
	}
	db.Close()
}

// TestDealKey: a league created with a key keeps it beside its record (never in it), a league
// created without one (or by PutLeague, as before deal keys) has none, and a league is
// created once.
func TestDealKey(t *testing.T) {
	db, path := MustOpen(t)
	key := bytes.Repeat([]byte{0xa5}, referee.KeySize)
	l := &League{Name: "k", Rules: rules.Default(), Bots: []string{"a", "b"}, Matches: 1}
	if err := db.CreateLeague(l, key); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateLeague(l, key); err == nil {
		t.Error("a league was created twice")
	}
	if err := db.PutLeague(&League{Name: "old", Rules: rules.Default(), Bots: []string{"a", "b"}, Matches: 1}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"k": key, "old": nil} {
		got, err := db.DealKey(name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("league %s: key %x, %v; want %x", name, got, err, want)
		}
	}
	stored, err := db.League("k")
	if err != nil || !stored.Keyed {
		t.Fatalf("league record: %+v, %v", stored, err)
	}
	info, _ := json.Marshal(stored)
	if bytes.Contains(info, key) || strings.Contains(string(info), "a5a5a5a5") {
		t.Errorf("the key is in the league record: %s", info)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("a new database file: mode %v, %v; want 0600", st.Mode(), err)
	}
}

// dealsBench stores league x of about 10,000 deals in binary rows, as a league writes them.
func dealsBench(b *testing.B) *DB {
	db, _ := MustOpen(b)
	if err := db.PutLeague(&League{Name: "x", Rules: rules.Default(), Bots: []string{"a", "b"}}); err != nil {
		b.Fatal(err)
	}
	recs := playMatch(b, "x/0", 1)
	w := db.NewDealWriter("x", nil)
	for i := range 10000 / len(recs) {
		if err := w.Start(Match{Index: i, ID: fmt.Sprintf("x/%d", i)}); err != nil {
			b.Fatal(err)
		}
		for j := range recs {
			if err := w.Put(i, &recs[j]); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return db
}

// BenchmarkDeals times reading every stored deal of a league of about 10,000 binary rows
// (Deals: each row's checksum, decoding, re-deriving the deal with the rules engine), stored
// by a DealWriter as a league stores them.
func BenchmarkDeals(b *testing.B) {
	db := dealsBench(b)
	n := 0
	for b.Loop() {
		n = 0
		if err := db.Deals("x", -1, func(*Match, *referee.DealRecord) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "deals/s")
}

// BenchmarkScores is BenchmarkDeals for Scores: the same checks and re-derivation, no record
// built.
func BenchmarkScores(b *testing.B) {
	db := dealsBench(b)
	n := 0
	for b.Loop() {
		n = 0
		if err := db.Scores("x", -1, func(_ *Match, deals []DealScore) error { n += len(deals); return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "deals/s")
}

func TestLastMatches(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "a.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.CreateLeague(&League{Name: "l", Bots: []string{"a", "b"}, Matches: 5, Rules: rules.Default()}, nil); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := db.StartMatch("l", &Match{Index: i, ID: "l/" + strconv.Itoa(i), Seats: []int{0, 1, 0, 1}}); err != nil {
			t.Fatal(err)
		}
	}
	if ms, err := db.LastMatches("l", 3); err != nil || len(ms) != 0 {
		t.Fatalf("no match done: %v %v", ms, err)
	}
	for _, i := range []int{0, 1, 3} {
		if _, err := db.FinishMatch("l", i, func(_ []referee.DealRecord, _ *Match, _ *Totals) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	ms, err := db.LastMatches("l", 2)
	if err != nil || len(ms) != 2 || ms[0].Index != 3 || ms[1].Index != 1 {
		t.Fatalf("the last 2 done: %+v %v", ms, err)
	}
	if ms, _ := db.LastMatches("l", 10); len(ms) != 3 {
		t.Errorf("all done: %d", len(ms))
	}
	if _, err := db.LastMatches("nope", 3); err == nil {
		t.Error("an unknown league")
	}
}

// BenchmarkEncodeBinRow: a deal's binary row from its record, as the league's writer makes
// it for every deal (the deal replayed through the rules engine to number each choice among
// the legal ones, and its result checked).
func BenchmarkEncodeBinRow(b *testing.B) {
	recs := playMatch(b, "x/0", 1)
	bots := []string{"a", "b"}
	for i := 0; b.Loop(); i++ {
		if _, err := encodeBinRow(&recs[i%len(recs)], bots); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeBinRow: one binary row decoded with the rules engine (binDeal.decode), the
// core of every reader.
func BenchmarkDecodeBinRow(b *testing.B) {
	recs := playMatch(b, "x/0", 1)
	bots := []string{"a", "b"}
	rows := make([][]byte, len(recs))
	for i := range recs {
		row, err := encodeBinRow(&recs[i], bots)
		if err != nil {
			b.Fatal(err)
		}
		rows[i] = row
	}
	rs := recs[0].Rules
	var bd binDeal
	for i := 0; b.Loop(); i++ {
		if err := bd.decode(rows[i%len(rows)], &rs, len(bots)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "deals/s")
}

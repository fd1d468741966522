package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// variedLeague stores league x under rs (keyed if keyed) with bots whose names JSON escapes:
// matches of deals with claims where rs asks for them, wall and CPU times of every size (none,
// below a microsecond, up to the scale's end), CPU times in some deals only, rotations,
// mirrors, and deals with faults or a pile, which go to JSON rows.
func variedLeague(t *testing.T, rs rules.Ruleset, keyed bool) *DB {
	t.Helper()
	db, _ := MustOpen(t)
	bots := []string{`a"<b>&`, "ü\u2028", "plain"}
	var key []byte
	if keyed {
		key = bytes.Repeat([]byte{7}, 32)
	}
	if err := db.CreateLeague(&League{Name: "x", Rules: rs, Bots: bots}, key); err != nil {
		t.Fatal(err)
	}
	w := db.NewDealWriter("x", nil)
	for m := range 6 {
		if err := w.Start(Match{Index: m, ID: fmt.Sprintf("x/%d", m), Seed: uint64(1000 + m)}); err != nil {
			t.Fatal(err)
		}
		for i, rec := range playMatchRules(t, fmt.Sprintf("x/%d", m), uint64(m), rs) {
			rec.Keyed = keyed
			rec.Seats = [4]string{bots[m%3], bots[(m+1)%3], bots[m%3], bots[(m+1)%3]}
			rec.Rotation = (m + i) % 4
			for j := range rec.Actions {
				a := &rec.Actions[j]
				a.MS = []float64{0, 0.0004, 0.003, 1.7, 250, 20000}[(i+j)%6] * (1 + float64(j)/100)
				if (m+i)%3 != 0 {
					a.CPUMS = a.MS * float64(j%4) / 3
				}
			}
			switch {
			case m == 2 && i == 1:
				rec.Faults = []referee.FaultRecord{{Seat: "E", Bot: bots[0], Kind: referee.FaultTimeout, Detail: "late <1 s>", Stderr: "a\nb"}}
			case m == 3 && i == 2:
				rec.Pile = []string{"7C", "8C"}
			}
			if err := w.Put(m, &rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestMatchLines: MatchLines writes, match by match in order, byte for byte the lines
// json.Marshal writes for the records DealsDerived reads, over binary rows (written straight
// from the engine) and JSON rows, claims, times of every size with and without CPU times,
// keyed leagues, names that need escapes, matches of more rows than a chunk and many small
// matches; one match alone; an error of fn stops it with that error.
func TestMatchLines(t *testing.T) {
	claimed := rules.Default()
	if err := claimed.Set("roem_claiming", "claim_required"); err != nil {
		t.Fatal(err)
	}
	rotterdams, err := rules.Preset("rotterdams")
	if err != nil {
		t.Fatal(err)
	}
	dbs := map[string]*DB{"varied": variedLeague(t, rules.Default(), false), "claims": variedLeague(t, claimed, true),
		"rotterdams": variedLeague(t, rotterdams, false), "mixed": scoresLeague(t, rules.Default()),
		"big": manyMatches(t, 3, true), "many": manyMatches(t, 200, false)}
	for name, db := range dbs {
		t.Run(name, func(t *testing.T) {
			want := map[string]*bytes.Buffer{}
			var order []string
			derived := map[bool]int{}
			if err := db.DealsDerived("x", -1, func(m *Match, rec *referee.DealRecord, d bool) error {
				data, err := json.Marshal(rec)
				if want[m.ID] == nil {
					want[m.ID] = new(bytes.Buffer)
					order = append(order, m.ID)
				}
				want[m.ID].Write(append(data, '\n'))
				derived[d]++
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if name != "big" && name != "many" && (derived[true] == 0 || derived[false] == 0) {
				t.Fatalf("rows: %d binary, %d JSON; the test needs both", derived[true], derived[false])
			}
			var got []string
			err := MatchLines(db, "x", -1, func(m *Match, lines []byte, deals int) error {
				got = append(got, m.ID)
				if w := want[m.ID]; w == nil || !bytes.Equal(lines, w.Bytes()) || deals != bytes.Count(w.Bytes(), []byte("\n")) {
					t.Fatalf("match %s, %d deals:\n%s\nwant\n%s", m.ID, deals, firstDifference(lines, w), w)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != strings.Join(order, " ") {
				t.Fatalf("matches %v, want %v", got, order)
			}
			one := 0
			if err := MatchLines(db, "x", 1, func(m *Match, lines []byte, _ int) error {
				if one++; m.Index != 1 || !bytes.Equal(lines, want[m.ID].Bytes()) {
					t.Errorf("match 1 alone: match %d, lines equal %v", m.Index, bytes.Equal(lines, want[m.ID].Bytes()))
				}
				return nil
			}); err != nil || one != 1 {
				t.Errorf("match 1 alone: %d matches, %v", one, err)
			}
			stop := errors.New("enough")
			n := 0
			err = MatchLines(db, "x", -1, func(*Match, []byte, int) error {
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

// firstDifference returns got from a little before the first byte where it differs from want.
func firstDifference(got []byte, want *bytes.Buffer) string {
	if want == nil {
		return string(got)
	}
	w := want.Bytes()
	i := 0
	for i < len(got) && i < len(w) && got[i] == w[i] {
		i++
	}
	return fmt.Sprintf("...%s (differs at byte %d)", got[max(0, i-80):min(len(got), i+80)], i)
}

// TestMatchLinesDamage: a damaged row is an error naming its match and deal, after the
// matches before it, and its match does not reach fn.
func TestMatchLinesDamage(t *testing.T) {
	db := manyMatches(t, 40, false)
	k := dealKey(30, &referee.DealRecord{Game: 1, Deal: 2})
	rewrite(t, db, bucketDeals, k, func(v []byte) []byte { v[len(v)/2] ^= 1; return v })
	var handed []int
	err := MatchLines(db, "x", -1, func(m *Match, _ []byte, _ int) error {
		handed = append(handed, m.Index)
		return nil
	})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "match x/30: not a valid arena database: the stored row of match 30 game 1 deal 2 attempt 0 fails its checksum") {
		t.Errorf("MatchLines: %v", err)
	}
	if len(handed) != 30 || handed[29] != 29 {
		t.Errorf("handed over %v", handed)
	}
}

// TestAppendInt: appendInt writes what strconv does, below, inside and above its table.
func TestAppendInt(t *testing.T) {
	for v := -20; v < 2100; v++ {
		prefix := []byte("x")
		if got, want := string(appendInt(prefix, v)), "x"+strconv.Itoa(v); got != want {
			t.Fatalf("%d: %q, want %q", v, got, want)
		}
	}
}

// TestAppendActionsRoom: actions whose text is as long as it gets (claims of 19 digits, the
// longest times, CPU times) are written whole and in order, from a buffer without room.
func TestAppendActionsRoom(t *testing.T) {
	text := func(t *shortText) string { return string(t.text[:t.n]) }
	for _, n := range []int{1, 2, 9, 64} {
		b := &binDeal{n: n, cpu: true}
		want := "prefix"
		for i := range n {
			b.phases[i], b.seatsOf[i], b.wall[i], b.cpuMS[i] = rules.PhasePlay, byte(i%4), byte(255-i), byte(254-i)
			b.choices[i] = byte(i % 32)
			action := text(&cardActions[i%4][i%32])
			if i%3 != 1 {
				b.phases[i], b.choices[i], b.claims[i] = rules.PhaseClaim, byte(i), 1<<62+i
				action = claimActions[i%4] + strconv.Itoa(1<<62+i) + `,"ms":`
			}
			want += action + text(&timeTexts[255-i]) + `,"cpu":` + text(&closedTimeTexts[254-i])
		}
		if got := string(appendActions([]byte("prefix"), b)); got != want {
			t.Errorf("%d actions:\n%s\nwant\n%s", n, got, want)
		}
	}
}

// BenchmarkMatchLines times MatchLines over every league of the benchmark file (see
// benchFile; STORE_BENCH_DB names a big one), the lines thrown away, reporting the time per
// deal: arena export without the file check on open.
func BenchmarkMatchLines(b *testing.B) {
	_, db, deals := benchFile(b)
	leagues, err := db.Leagues()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		n := 0
		for _, l := range leagues {
			err := MatchLines(db, l.Name, -1, func(_ *Match, lines []byte, d int) error {
				n += d
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		if n != deals {
			b.Fatalf("%d deals written, %d stored", n, deals)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(deals), "ns/deal")
}

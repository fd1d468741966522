package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// TestRecordResultEqual: Equal tells every field apart, and a nil list from an empty one not.
func TestRecordResultEqual(t *testing.T) {
	base := func() RecordResult {
		return RecordResult{Outcome: "made", Trump: "H", Maker: "N", Score: []int{100, 62}, Cards: []int{90, 62},
			Roem: []int{20, 0}, Tricks: []int{5, 3}, Winners: "NNESWWSN", Pit: "", Offender: ""}
	}
	a, b := base(), base()
	if !a.Equal(&b) {
		t.Fatal("equal results differ")
	}
	changes := []func(r *RecordResult){
		func(r *RecordResult) { r.Outcome = "nat" }, func(r *RecordResult) { r.Trump = "S" },
		func(r *RecordResult) { r.Maker = "E" }, func(r *RecordResult) { r.Score[1] = 61 },
		func(r *RecordResult) { r.Cards = r.Cards[:1] }, func(r *RecordResult) { r.Roem[0] = 0 },
		func(r *RecordResult) { r.Tricks[0] = 4 }, func(r *RecordResult) { r.Winners = "NNESWWSS" },
		func(r *RecordResult) { r.Pit = "NS" }, func(r *RecordResult) { r.Offender = "W" },
	}
	for i, change := range changes {
		b := base()
		change(&b)
		if a.Equal(&b) || b.Equal(&a) {
			t.Errorf("change %d: still equal: %+v", i, b)
		}
	}
	empty, none := RecordResult{Score: []int{}}, RecordResult{}
	if !empty.Equal(&none) {
		t.Error("an empty and a nil score differ")
	}
}

// TestResultMemory: one ResultMemory fills the results of every deal of matches under every
// preset (the three-player game too), and each result, kept while hundreds more are made
// from the same memory, is still the one the referee recorded.
func TestResultMemory(t *testing.T) {
	var recs []DealRecord
	for _, preset := range rules.PresetNames() {
		rs, _ := rules.Preset(preset)
		rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 16}
		var log bytes.Buffer
		if _, err := Run(context.Background(), Config{ID: "m", Rules: rs, Games: 2, Duplicate: true, Seed: 5, Records: NewLogWriter(&log)}, randomEntrants()); err != nil {
			t.Fatal(err)
		}
		for line := range bytes.Lines(log.Bytes()) {
			var r DealRecord
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatal(err)
			}
			recs = append(recs, r)
		}
	}
	var m ResultMemory
	kept := make([]RecordResult, len(recs))
	for i := range recs {
		d, seating, err := recs[i].replay()
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		kept[i] = RecordResult{Score: []int{99}, Winners: "old"} // Fill sets every field
		m.Fill(&kept[i], d, seating)
	}
	if len(recs) < 3*resultChunk {
		t.Fatalf("%d records: too few to fill several chunks", len(recs))
	}
	for i := range recs {
		if want := &recs[i].Result; !kept[i].Equal(want) || len(kept[i].Winners) != len(want.Winners) {
			t.Fatalf("record %d (%d players): result %+v, the referee's %+v", i, recs[i].Rules.Players, kept[i], *want)
		}
	}
}

// TestVerifyTimes: a deal whose actions are all legal but one of whose times could not have
// been measured (below 0, or infinite) is inconsistent, naming the action.
func TestVerifyTimes(t *testing.T) {
	recs := verifyMatchLog(t, rules.Default(), 4, 1, false)
	rec := recs[0]
	if err := rec.Verify(); err != nil {
		t.Fatalf("the deal as played: %v", err)
	}
	for _, c := range []struct {
		name     string
		ms, cpu  float64
		inserted bool
	}{{"negative wall", -1, 0, true}, {"negative cpu", 0.5, -0.25, true}, {"infinite wall", math.Inf(1), 0, true}, {"zero", 0, 0, false}} {
		bad := rec
		bad.Actions = slices.Clone(rec.Actions)
		bad.Actions[2].MS, bad.Actions[2].CPUMS = c.ms, c.cpu
		err := bad.Verify()
		if got := err != nil; got != c.inserted {
			t.Errorf("%s: Verify: %v", c.name, err)
		}
		if err != nil && (!errors.Is(err, ErrInconsistent) || !strings.Contains(err.Error(), "action 3")) {
			t.Errorf("%s: %v does not name action 3 as inconsistent", c.name, err)
		}
	}
}

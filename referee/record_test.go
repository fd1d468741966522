package referee

import "testing"

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

package store

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// FuzzBinRow: whatever its bytes, a stored binary row is decoded or refused as ErrCorrupt,
// never a panic; and a row that decodes is a legal deal (its record passes the referee's
// Verify, which re-checks every rule) that, written again, decodes to the same record. A
// database altered with its checksums made to match can hold any bytes in a row. The seeds
// are the rows of real matches under the default rules, claims required, and rotterdams.
func FuzzBinRow(f *testing.F) {
	claimed := rules.Default()
	if err := claimed.Set("roem_claiming", "claim_required"); err != nil {
		f.Fatal(err)
	}
	rotterdams := rules.Default()
	if err := rotterdams.Set("play_rule", "rotterdams"); err != nil {
		f.Fatal(err)
	}
	rulesets := []rules.Ruleset{rules.Default(), claimed, rotterdams}
	bots := []string{"x", "a", "b"}
	for i, rs := range rulesets {
		recs := playMatchRules(f, "m", uint64(i), rs)
		for j := range min(len(recs), 6) {
			recs[j].Actions[j%len(recs[j].Actions)].MS = 1.5 // a time code besides the zeros
			row, err := encodeBinRow(&recs[j], bots)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), row)
		}
	}
	f.Fuzz(func(t *testing.T, ruleset uint8, row []byte) {
		if !isBinRow(row) {
			return // a JSON row: not this decoder's
		}
		rs := rulesets[int(ruleset)%len(rulesets)]
		key := dealKey(0, &referee.DealRecord{Game: 1, Deal: 1})
		rec := referee.DealRecord{V: referee.LogVersion, Match: "m", Rules: rs}
		if err := decodeStoredRow(key, row, &rec, bots, new(binDeal), true); err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("refused without ErrCorrupt: %v", err)
			}
			return
		}
		if err := rec.Verify(); err != nil {
			t.Fatalf("a row of a deal the rules refuse was read: %v\nrecord %+v", err, rec)
		}
		again, err := encodeBinRow(&rec, bots)
		if err != nil {
			t.Fatalf("a row read cannot be written again: %v\nrecord %+v", err, rec)
		}
		if row[0] == binRowTag2 && !bytes.Equal(again, row) { // (a row of the first layout is written in the second)
			t.Fatalf("a row read is not the row its record makes:\nread    %x\nwritten %x", row, again)
		}
		back := referee.DealRecord{V: rec.V, Match: rec.Match, Rules: rec.Rules}
		if err := decodeStoredRow(key, again, &back, bots, new(binDeal), true); err != nil {
			t.Fatalf("the row written again does not read: %v", err)
		}
		if !reflect.DeepEqual(&back, &rec) {
			t.Fatalf("written again, the row reads otherwise:\nfirst %+v\nagain %+v", rec, back)
		}
	})
}

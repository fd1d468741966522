package store

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/bitstream"
)

// TestBinRowRoundTrip: every deal of real matches (claims included) is stored as a binary
// row of at most 128 bytes (claims are decisions too) and reads back as the same record, times
// within their steps.
func TestBinRowRoundTrip(t *testing.T) {
	bots := []string{"x", "a", "b"}
	claimed := rules.Default()
	if err := claimed.Set("roem_claiming", "claim_required"); err != nil {
		t.Fatal(err)
	}
	var recs []referee.DealRecord
	for seed := range uint64(4) {
		recs = append(recs, playMatch(t, "m", seed)...)
		recs = append(recs, playMatchBot(t, "m", seed, claimed, claimer)...)
	}
	claims, mixed := 0, 0 // claims, and deals whose claims are not all alike
	for i := range recs {
		rec := &recs[i]
		var first *int // the deal's first claim
		differs := false
		for j := range rec.Actions {
			rec.Actions[j].MS = 0.003 + float64(i*j)*0.731              // wall times of every size, CPU below
			rec.Actions[j].CPUMS = rec.Actions[j].MS * float64(j%5) / 2 // above the wall time too
			if c := rec.Actions[j].Claim; c != nil {
				claims++
				if first == nil {
					first = c
				}
				differs = differs || *c != *first
			}
		}
		if differs {
			mixed++
		}
		row, err := encodeBinRow(rec, bots)
		if err != nil {
			t.Fatalf("deal %d: %v", i, err)
		}
		if len(row) > 128 {
			t.Errorf("deal %d: a row of %d bytes", i, len(row))
		}
		back := referee.DealRecord{V: rec.V, Match: rec.Match, Rules: rec.Rules, Seed: rec.Seed, Keyed: rec.Keyed}
		if err := decodeStoredRow(dealKey(0, rec), row, &back, bots, new(binDeal), true); err != nil {
			t.Fatalf("deal %d: %v", i, err)
		}
		for j, a := range back.Actions {
			want := rec.Actions[j]
			if math.Abs(a.MS-want.MS) > 0.035*want.MS+0.001 || math.Abs(a.CPUMS-want.CPUMS) > 0.035*want.CPUMS+0.001 {
				t.Fatalf("deal %d action %d: times %v %v, stored %v %v", i, j, a.MS, a.CPUMS, want.MS, want.CPUMS)
			}
			back.Actions[j].MS, back.Actions[j].CPUMS = want.MS, want.CPUMS
		}
		if !reflect.DeepEqual(&back, rec) {
			t.Fatalf("deal %d:\nback   %+v\nstored %+v", i, back, *rec)
		}
	}
	if claims == 0 || mixed == 0 {
		t.Errorf("%d roem claims, %d deals with claims not all alike: the claims were not tested", claims, mixed)
	}
}

// TestBinRowFallback: deals a binary row cannot hold are not encoded as one.
func TestBinRowFallback(t *testing.T) {
	rec := playMatch(t, "m", 1)[0]
	for name, spoil := range map[string]func(r *referee.DealRecord){
		"a bot not in the league": func(r *referee.DealRecord) { r.Seats[0] = "stranger" },
		"a fault":                 func(r *referee.DealRecord) { r.Faults = []referee.FaultRecord{{Seat: "N", Kind: referee.FaultCrash}} },
		"a changed result":        func(r *referee.DealRecord) { r.Result.Score = []int{1, 2} },
		"an illegal card":         func(r *referee.DealRecord) { r.Actions[len(r.Actions)-1].Card = r.Actions[len(r.Actions)-2].Card },
		"a CPU time off scale":    func(r *referee.DealRecord) { r.Actions[0].CPUMS = 1e6 },
		"a wall time off scale":   func(r *referee.DealRecord) { r.Actions[0].MS = 1e6 },
	} {
		r := rec
		r.Actions = append([]referee.Action(nil), rec.Actions...)
		r.Result.Score = append([]int(nil), rec.Result.Score...)
		spoil(&r)
		if _, err := encodeBinRow(&r, []string{"a", "b"}); err != errNotBinary {
			t.Errorf("%s: %v, want errNotBinary", name, err)
		}
	}
}

// TestBinRowDamage: a binary row with any one byte changed, or cut short, reads back as an
// error or as some deal the rules allow: never a panic.
func TestBinRowDamage(t *testing.T) {
	rec := playMatch(t, "m", 2)[3]
	bots := []string{"a", "b"}
	row, err := encodeBinRow(&rec, bots)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(row); i++ {
		for _, delta := range []byte{1, 0x80, 0xff} {
			bad := append([]byte(nil), row...)
			bad[i] += delta
			back := referee.DealRecord{V: rec.V, Rules: rec.Rules}
			if err := decodeStoredRow(dealKey(0, &rec), bad, &back, bots, new(binDeal), true); err == nil {
				if err := back.Verify(); err != nil {
					t.Errorf("byte %d +%d: read back a deal that does not verify: %v", i, delta, err)
				}
			}
		}
		back := referee.DealRecord{V: rec.V, Rules: rec.Rules}
		if err := decodeStoredRow(dealKey(0, &rec), row[:i], &back, bots, new(binDeal), true); err == nil {
			t.Errorf("cut to %d bytes: no error", i)
		}
	}
}

// TestBinRowPadding: a binary row with any one bit of its last byte set that the row does
// not have set reads back as an error or as another deal, never as the same one: the bits
// after the last time code, which the writer leaves 0, are checked too.
func TestBinRowPadding(t *testing.T) {
	bots := []string{"a", "b"}
	refused := 0
	for _, rec := range playMatch(t, "m", 5) {
		row, err := encodeBinRow(&rec, bots)
		if err != nil {
			t.Fatal(err)
		}
		want := referee.DealRecord{V: rec.V, Rules: rec.Rules}
		if err := decodeStoredRow(dealKey(0, &rec), row, &want, bots, new(binDeal), true); err != nil {
			t.Fatal(err)
		}
		for bit := range 8 {
			if row[len(row)-1]>>bit&1 != 0 {
				continue
			}
			bad := slices.Clone(row)
			bad[len(bad)-1] |= 1 << bit
			back := referee.DealRecord{V: rec.V, Rules: rec.Rules}
			switch err := decodeStoredRow(dealKey(0, &rec), bad, &back, bots, new(binDeal), true); {
			case err != nil && strings.Contains(err.Error(), "bits set after the deal"):
				refused++
			case err == nil && reflect.DeepEqual(&back, &want):
				t.Errorf("game %d deal %d: bit %d of the last byte set, the same deal read back", rec.Game, rec.Deal, bit)
			}
		}
	}
	if refused == 0 {
		t.Error("no row had a bit after its last time code: nothing was checked")
	}
	t.Logf("%d rows with a bit set after the last time code refused", refused)
}

// TestBinRowOneForm: a binary row is read only in the form its writer makes. The same deal
// with a uvarint written longer (the pair, a seat, the actions' count or a claim), the flag
// bit 7 set, or a claim stored that the deal did not make is refused.
func TestBinRowOneForm(t *testing.T) {
	claimed := rules.Default()
	if err := claimed.Set("roem_claiming", "claim_required"); err != nil {
		t.Fatal(err)
	}
	bots := []string{"a", "b"}
	checked := 0
	for _, rec := range playMatchRules(t, "m", 5, claimed) {
		row, err := encodeBinRow(&rec, bots)
		if err != nil {
			t.Fatal(err)
		}
		// the header's fields: tag, pair, flags, 4 seats, 8 bytes of hands, actions, claims,
		// each claim; at[f] is where field f starts
		var at []int
		pos := 1
		uvarint := func() uint64 {
			at = append(at, pos)
			v, n := binary.Uvarint(row[pos:])
			pos += n
			return v
		}
		uvarint()
		at, pos = append(at, pos), pos+1 // flags
		for range 4 {
			uvarint()
		}
		pos += 8
		uvarint()
		claims := uvarint()
		for range claims {
			uvarint()
		}
		refused := func(what string, bad []byte) {
			t.Helper()
			back := referee.DealRecord{V: rec.V, Rules: rec.Rules}
			if err := decodeStoredRow(dealKey(0, &rec), bad, &back, bots, new(binDeal), true); !errors.Is(err, ErrCorrupt) {
				t.Errorf("game %d deal %d: %s: read (%v)", rec.Game, rec.Deal, what, err)
			}
		}
		for f, p := range at {
			if f == 1 {
				bad := slices.Clone(row)
				bad[p] |= 0x80
				refused("flag bit 7 set", bad)
				continue
			}
			bad := slices.Insert(slices.Clone(row), p+1, 0) // the field's one byte as two
			bad[p] |= 0x80
			refused(fmt.Sprintf("header field %d in a byte more", f), bad)
		}
		if claims > 0 {
			bad := slices.Insert(slices.Clone(row), pos, 0) // one more claim, of 0
			bad[at[len(at)-int(claims)-1]]++
			refused("a claim more than the deal made", bad)
			checked++
		}
	}
	if checked == 0 {
		t.Error("no deal made a claim: the claims went unchecked")
	}
}

// TestBinRowFirstLayout: rows of the first binary layout (one byte per time at the end, as
// written before the time codes; testdata/binrow-v1.hex holds the rows that layout's encoder
// made of these deals, CPU times half the wall times) still read back as the same deals.
func TestBinRowFirstLayout(t *testing.T) {
	claimed := rules.Default()
	if err := claimed.Set("roem_claiming", "claim_required"); err != nil {
		t.Fatal(err)
	}
	recs := append(playMatch(t, "m", 5), playMatchRules(t, "m", 5, claimed)...)
	data, err := os.ReadFile("testdata/binrow-v1.hex")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(data))
	if len(lines) != len(recs) {
		t.Fatalf("%d stored rows for %d deals", len(lines), len(recs))
	}
	for i, line := range lines {
		row, err := hex.DecodeString(line)
		if err != nil || row[0] != binRowTag {
			t.Fatalf("row %d: not a first-layout row (%v)", i, err)
		}
		rec := &recs[i]
		back := referee.DealRecord{V: rec.V, Match: rec.Match, Rules: rec.Rules, Seed: rec.Seed, Keyed: rec.Keyed}
		if err := decodeStoredRow(dealKey(0, rec), row, &back, []string{"a", "b"}, new(binDeal), true); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		for j, a := range back.Actions {
			if a.MS < 0 || math.Abs(a.CPUMS-a.MS/2) > 0.04*a.MS+0.001 {
				t.Fatalf("row %d action %d: wall %v, CPU %v: not about half", i, j, a.MS, a.CPUMS)
			}
			back.Actions[j].MS, back.Actions[j].CPUMS = rec.Actions[j].MS, rec.Actions[j].CPUMS
		}
		if !reflect.DeepEqual(&back, rec) {
			t.Fatalf("row %d:\nback   %+v\nplayed %+v", i, back, *rec)
		}
	}
}

// TestTimeCodes: every sequence of time bytes, whatever the seats, reads back as written,
// alone or followed by a second one (the CPU times after the wall times), and steady times
// cost less than a byte each.
func TestTimeCodes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		n := 1 + r.IntN(64)
		seats := make([]byte, n)
		for i := range seats {
			seats[i] = byte(r.IntN(4))
		}
		streams := [][]byte{make([]byte, n), make([]byte, n)}
		for s, times := range streams {
			for i := range times {
				switch (trial + s) % 3 {
				case 0:
					times[i] = byte(r.IntN(256))
				case 1:
					times[i] = byte([]int{0, 255}[r.IntN(2)])
				default:
					times[i] = byte(100 + r.IntN(5))
				}
			}
		}
		if trial%2 == 0 {
			streams = streams[:1]
		}
		var w bitstream.Writer
		for _, times := range streams {
			appendTimes(&w, times, seats)
		}
		written := w.Len()
		row := w.Bytes()
		if trial%3 == 2 && len(streams) == 1 && len(row) > (7*(n-1)+17+7)/8 { // a difference within ±4: at most 7 bits
			t.Errorf("trial %d: %d steady times took %d bytes", trial, n, len(row))
		}
		br := bitstream.NewReader(row)
		for s, times := range streams {
			back := make([]byte, n)
			if !readTimes(&br, back, seats) || !slices.Equal(back, times) {
				t.Fatalf("trial %d stream %d: wrote %v, read %v", trial, s, times, back)
			}
		}
		if br.Consumed() != written {
			t.Fatalf("trial %d: read %d bits of %d", trial, br.Consumed(), written)
		}
	}
}

// TestWallTimes: every time byte reads back as the time of its step on the scale, which
// quantises to the same byte.
func TestWallTimes(t *testing.T) {
	for q := range 256 {
		want := 0.0
		if q > 0 {
			want = math.Pow(timeStep, float64(q-1)) / 1000
		}
		got := wallTime(byte(q))
		if back, ok := quantiseWall(got); got != want || !ok || back != byte(q) {
			t.Errorf("byte %d: %v ms (want %v), quantised again %d %v", q, got, want, back, ok)
		}
	}
}

// TestHandNames: the hands' notation is CardSet.String of each, empty and full sets too.
func TestHandNames(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := range 2000 {
		var hands [4]protocol.CardSet
		for i := range hands {
			switch trial % 5 {
			case 0:
				hands[i] = 0
			case 1:
				hands[i] = protocol.CardSet(1<<32 - 1)
			default:
				hands[i] = protocol.CardSet(r.Uint32() & r.Uint32())
			}
			if r.IntN(3) == 0 {
				hands[i] = protocol.CardSet(r.Uint32())
			}
		}
		got := handNames(hands)
		for i, h := range hands {
			if got[i] != h.String() {
				t.Fatalf("hand %v: %q, String %q", h, got[i], h.String())
			}
		}
	}
}

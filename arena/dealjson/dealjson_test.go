package dealjson

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// hostile are strings encoding/json escapes in every way it has.
var hostile = []string{"", `"quoted"`, `back\slash`, "<script>&amp;</script>", "tab\tnew\nline\rcr\bbs\fff",
	"\x00\x01\x1f\x7f", "bad \xff\xfe utf-8 \xc3", "cut \xe2\x82", "line\u2028para\u2029", "ünïcødé ♠♥ 🂡", "\u00a0\ufeff"}

// matchRecords plays one duplicate pair of the ruleset in process at a table of seats and
// returns its records.
func matchRecords(tb testing.TB, rs rules.Ruleset, seats int) []referee.DealRecord {
	tb.Helper()
	var log bytes.Buffer
	rng := rand.New(rand.NewPCG(3, 4))
	random := bot.Bot{Name: "random", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.BidKind:
			bids := d.LegalBids.All()
			return bot.Answer{Bid: bids[rng.IntN(len(bids))]}
		case bot.ClaimKind:
			return bot.Answer{Claim: 0}
		case bot.DiscardKind:
			return bot.Answer{Discard: [2]protocol.Card{s.Hand.Nth(0), s.Hand.Nth(1)}}
		}
		return bot.Answer{Card: d.LegalCards.Nth(rng.IntN(d.LegalCards.Len()))}
	}}
	es := make([]referee.Entrant, seats)
	for i := range es {
		es[i] = referee.Entrant{Name: hostile[1+i], Start: referee.NewInProcess(random)}
	}
	cfg := referee.Config{ID: "m</1>", Rules: rs, Games: 1, Duplicate: true, Seed: 3, Records: referee.NewLogWriter(&log)}
	if _, err := referee.Run(context.Background(), cfg, es); err != nil {
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

// fill sets every field of v (recursively) to a random value: hostile strings, numbers of
// every size, slices nil, empty or not, pointers nil or not. A field added to a deal record
// is filled too, so the comparison with encoding/json finds an encoder that misses it.
func fill(rng *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if rng.IntN(3) == 0 {
			b := make([]byte, rng.IntN(12))
			for i := range b {
				b[i] = byte(rng.UintN(256))
			}
			v.SetString(string(b))
		} else {
			v.SetString(hostile[rng.IntN(len(hostile))])
		}
	case reflect.Int, reflect.Int64:
		v.SetInt([]int64{0, 1, -1, 31, int64(rng.Int32()), math.MinInt64, math.MaxInt64}[rng.IntN(7)])
	case reflect.Uint64:
		v.SetUint([]uint64{0, 1, rng.Uint64(), math.MaxUint64}[rng.IntN(4)])
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Float64:
		v.SetFloat([]float64{0, 1e-7, 1e-6, 9.99e-7, 5e-324, 0.001, 0.1 + 0.2, 123.456, 1e20, 1e21, 1.5e300, -2.5,
			math.Float64frombits(rng.Uint64() &^ (0x7ff << 52)), rng.Float64() * math.Pow(10, float64(rng.IntN(40)-20))}[rng.IntN(14)])
	case reflect.Pointer:
		if rng.IntN(2) == 0 {
			v.Set(reflect.Zero(v.Type()))
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(rng, v.Elem())
	case reflect.Slice:
		switch rng.IntN(4) {
		case 0:
			v.Set(reflect.Zero(v.Type()))
		default:
			v.Set(reflect.MakeSlice(v.Type(), rng.IntN(4), 4))
			for i := range v.Len() {
				fill(rng, v.Index(i))
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(rng, v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).Type != reflect.TypeFor[rules.Ruleset]() {
				fill(rng, v.Field(i))
			}
		}
	default:
		panic("fill: no random value for " + v.Type().String())
	}
}

// same checks that the encoder writes what json.Marshal writes for rec.
func same(t *testing.T, e *Encoder, rec *referee.DealRecord, what string) {
	t.Helper()
	want, werr := json.Marshal(rec)
	got, gerr := e.Append(nil, rec)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%s: json.Marshal error %v, Append error %v", what, werr, gerr)
	}
	if werr == nil && !bytes.Equal(got, want) {
		t.Fatalf("%s:\ngot  %s\nwant %s", what, got, want)
	}
}

// TestAppendAsMarshal: real deal records of the four- and three-player games, the same
// with hostile names, and thousands of records with every field random encode byte for byte
// as json.Marshal encodes them.
func TestAppendAsMarshal(t *testing.T) {
	three, err := rules.Preset(rules.ThreePlayerPresetNames()[0])
	if err != nil {
		t.Fatal(err)
	}
	claimed := rules.Default()
	if err := claimed.Set("roem_claiming", "claim_required"); err != nil {
		t.Fatal(err)
	}
	var e Encoder
	var recs []referee.DealRecord
	recs = append(recs, matchRecords(t, rules.Default(), 4)...)
	recs = append(recs, matchRecords(t, claimed, 4)...)
	recs = append(recs, matchRecords(t, three, 3)...)
	recs = append(recs, matchRecords(t, three, 4)...)
	for i := range recs {
		same(t, &e, &recs[i], "a played deal")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		rec := recs[rng.IntN(len(recs))]
		fill(rng, reflect.ValueOf(&rec).Elem())
		same(t, &e, &rec, "a random record")
		if i%97 == 0 {
			rec.Actions = append(rec.Actions, referee.Action{Seat: "N", MS: math.NaN()})
			same(t, &e, &rec, "a NaN time")
			rec.Actions[len(rec.Actions)-1].MS = 1
			rec.Actions[len(rec.Actions)-1].CPUMS = math.Inf(-1)
			same(t, &e, &rec, "an infinite CPU time")
		}
	}
	// Appending adds to what is there.
	out, err := e.Append([]byte("x"), &recs[0])
	if want, _ := json.Marshal(&recs[0]); err != nil || string(out) != "x"+string(want) {
		t.Errorf("append to a prefix: %v %q", err, out[:min(len(out), 20)])
	}
	if !strings.Contains(string(out), `"rules":{"players":4`) {
		t.Errorf("no ruleset in %s", out)
	}
}

func BenchmarkAppend(b *testing.B) {
	recs := matchRecords(b, rules.Default(), 4)
	var e Encoder
	var buf []byte
	for i := 0; b.Loop(); i++ {
		buf, _ = e.Append(buf[:0], &recs[i%len(recs)])
	}
}

func BenchmarkMarshal(b *testing.B) {
	recs := matchRecords(b, rules.Default(), 4)
	for i := 0; b.Loop(); i++ {
		if _, err := json.Marshal(&recs[i%len(recs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAppendRepeatedTimes: records whose times repeat (as stored times do: each one of 256
// values), among them times in exponent form and times whose bits share a slot of the
// encoder's cache, encode as json.Marshal encodes them.
func TestAppendRepeatedTimes(t *testing.T) {
	recs := matchRecords(t, rules.Default(), 4)
	var times []float64
	for q := range 256 {
		times = append(times, math.Pow(1.07, float64(q))/1000)
	}
	times = append(times, 0, 1e-7, -3.5e-9, 2.5e21, -1, 123456789.125, math.SmallestNonzeroFloat64, math.MaxFloat64)
	rng := rand.New(rand.NewPCG(5, 6))
	var e Encoder
	for range 3000 {
		rec := recs[rng.IntN(len(recs))]
		rec.Actions = append([]referee.Action(nil), rec.Actions...)
		for i := range rec.Actions {
			rec.Actions[i].MS = times[rng.IntN(len(times))]
			rec.Actions[i].CPUMS = times[rng.IntN(len(times))] * float64(rng.IntN(2))
		}
		same(t, &e, &rec, "a record of repeated times")
	}
}

// FuzzAppendAsMarshal: a played deal with any text as its match id, a bot's name and a
// fault's detail, and any number as a time, encodes as json.Marshal encodes it.
func FuzzAppendAsMarshal(f *testing.F) {
	recs := matchRecords(f, rules.Default(), 4)
	f.Add("m/1", "bot <a&b>\u2028", "\xff\x00\"\\", 1.07, 0.0)
	f.Add("", "é", "\t", 1e21, -1e-7)
	f.Fuzz(func(t *testing.T, id, name, detail string, ms, cpu float64) {
		rec := recs[len(id)%len(recs)]
		rec.Actions = append([]referee.Action(nil), rec.Actions...)
		rec.Match, rec.Seats[1] = id, name
		rec.Actions[0].MS, rec.Actions[len(rec.Actions)-1].CPUMS = ms, cpu
		rec.Faults = []referee.FaultRecord{{Seat: "E", Bot: name, Kind: referee.FaultCrash, Detail: detail, Stderr: name}}
		var e Encoder
		same(t, &e, &rec, "a fuzzed record")
	})
}

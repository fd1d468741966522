package store

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
)

// randomMatch returns a Match with every field random, empty or absent.
func randomMatch(r *rand.Rand) Match {
	ints := func() []int {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return []int{}
		}
		out := make([]int, 1+r.IntN(4))
		for i := range out {
			out[i] = r.IntN(3000) - 1000
			if r.IntN(200) == 0 {
				out[i] = int(r.Int64()) // beyond 18 digits now and then
			}
		}
		return out
	}
	name := func() string { // mostly what json.Marshal writes as it is
		names := []string{"", "scale/5", "league x/12", "a~z", `quo"te`, `back\slash`, "tab\t", "ünï", "<&>", "\u2028", "\xff"}
		if r.IntN(4) > 0 {
			return names[r.IntN(4)]
		}
		return names[r.IntN(len(names))]
	}
	m := Match{Index: r.IntN(1 << 20), ID: name(), Seed: r.Uint64() >> r.IntN(64), Seats: ints(),
		Done: r.IntN(2) == 0, Deals: r.IntN(100), Resumed: ints(), File: name()}
	if r.IntN(3) > 0 {
		m.Finished = time.Unix(r.Int64N(4e9), r.Int64N(1e9)).In(time.FixedZone("", 3600*(r.IntN(25)-12)))
	}
	switch r.IntN(4) {
	case 0:
	case 1:
		m.Games = []referee.GameResult{}
	default:
		for range 1 + r.IntN(3) {
			m.Games = append(m.Games, referee.GameResult{Pair: r.IntN(9), Mirror: r.IntN(2) == 0, Rotation: r.IntN(3), Number: r.IntN(9),
				Deals: r.IntN(20), Totals: ints(), Winner: r.IntN(3) - 1, Made: ints(), Nat: ints(), Pit: ints()})
		}
	}
	return m
}

// TestUnmarshalMatch: match records decode as json.Unmarshal decodes them: what json.Marshal
// writes of random matches, and the same texts altered (a byte changed, cut short, white
// space, keys in another case), errors alike.
func TestUnmarshalMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	fast := 0
	for trial := range 20000 {
		m := randomMatch(r)
		data, err := json.Marshal(&m)
		if err != nil {
			t.Fatal(err)
		}
		if trial%2 == 1 {
			switch data = append([]byte(nil), data...); r.IntN(5) {
			case 0:
				const alphabet = "0123456789-,:[]{}\"e. naltrufs"
				data[r.IntN(len(data))] = alphabet[r.IntN(len(alphabet))]
			case 1:
				data = data[:r.IntN(len(data))]
			case 2:
				i := r.IntN(len(data))
				data = append(data[:i], append([]byte(" "), data[i:]...)...)
			case 3:
				data = []byte(string(data) + " ")
			default:
				data = []byte(string(data[:2]) + "I" + string(data[3:])) // "Index"
			}
		}
		var want, got Match
		werr := json.Unmarshal(data, &want)
		gerr := unmarshalMatch(data, &got)
		if (werr == nil) != (gerr == nil) || werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: %s\njson.Unmarshal %+v (%v)\nunmarshalMatch %+v (%v)", trial, data, want, werr, got, gerr)
		}
		var probe Match
		if s := (matchScanner{data: data, ok: true}); s.match(&probe) && s.pos == len(data) {
			fast++
		}
		if done, deals, err := matchCounts(data); werr == nil && (err != nil || done != want.Done || deals != want.Deals) {
			t.Fatalf("trial %d: %s\nmatchCounts %v %d (%v), want %v %d", trial, data, done, deals, err, want.Done, want.Deals)
		}
	}
	if fast < 5000 {
		t.Errorf("only %d of 20,000 records read by hand", fast)
	}
	t.Logf("%d of 20,000 records read by hand", fast)
}

// FuzzUnmarshalMatch: whatever the bytes, unmarshalMatch finds what json.Unmarshal finds
// (the same error or none, the same match), and so does matchCounts on json.Marshal's form. Seeds: random matches as json.Marshal writes them.
func FuzzUnmarshalMatch(f *testing.F) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 20 {
		m := randomMatch(r)
		data, err := json.Marshal(&m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want, got Match
		werr := json.Unmarshal(data, &want)
		gerr := unmarshalMatch(data, &got)
		if (werr == nil) != (gerr == nil) || werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q\njson.Unmarshal %+v (%v)\nunmarshalMatch %+v (%v)", data, want, werr, got, gerr)
		}
		// matchCounts is exact on the form json.Marshal writes (which has no key twice).
		var probe Match
		if s := (matchScanner{data: data, ok: true}); s.match(&probe) && s.pos == len(data) {
			if done, deals, err := matchCounts(data); err != nil || done != want.Done || deals != want.Deals {
				t.Fatalf("%q\nmatchCounts %v %d (%v), want %v %d", data, done, deals, err, want.Done, want.Deals)
			}
		}
	})
}

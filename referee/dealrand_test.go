package referee

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// keyedDeals plays a duplicate match of random bots with the key and seed and returns its
// deal records.
func keyedDeals(t *testing.T, key []byte, seed uint64) []DealRecord {
	t.Helper()
	var log bytes.Buffer
	if _, err := Run(context.Background(), Config{ID: "k", Rules: rules.Default(), Games: 2, Duplicate: true, Seed: seed, Key: key, Records: NewLogWriter(&log)}, randomEntrants()); err != nil {
		t.Fatal(err)
	}
	var recs []DealRecord
	for line := range bytes.Lines(log.Bytes()) {
		var r DealRecord
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		if r.Keyed != (key != nil) {
			t.Fatalf("record keyed = %v with key %v", r.Keyed, key != nil)
		}
		recs = append(recs, r)
	}
	return recs
}

// hands returns every deal's hands and dealer.
func hands(recs []DealRecord) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Dealer+" "+strings.Join(r.Hands[:], "|"))
	}
	return out
}

// TestDealKey: the same key and seed deal the same cards; another key, or none, deals other
// cards for the same seed; the key appears nowhere in the log.
func TestDealKey(t *testing.T) {
	k1, k2 := bytes.Repeat([]byte{1}, KeySize), bytes.Repeat([]byte{2}, KeySize)
	a, again := keyedDeals(t, k1, 7), keyedDeals(t, k1, 7)
	if !slices.Equal(hands(a), hands(again)) {
		t.Fatal("the same key and seed dealt different cards")
	}
	other, none := hands(keyedDeals(t, k2, 7)), hands(keyedDeals(t, nil, 7))
	for i, h := range hands(a) {
		if i < len(other) && h == other[i] {
			t.Errorf("deal %d: the same cards with another key", i+1)
		}
		if i < len(none) && h == none[i] {
			t.Errorf("deal %d: the same cards with no key", i+1)
		}
	}
	var log bytes.Buffer
	if _, err := Run(context.Background(), Config{Rules: rules.Default(), Games: 1, Seed: 7, Key: k1, Records: NewLogWriter(&log), Trace: &log}, randomEntrants()); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(log.Bytes(), k1) || strings.Contains(log.String(), hex.EncodeToString(k1)) {
		t.Error("the key is in the log or the trace")
	}
	if _, err := Run(context.Background(), Config{Rules: rules.Default(), Games: 1, Key: []byte("short")}, randomEntrants()); err == nil || strings.Contains(err.Error(), "short") {
		t.Errorf("a 5-byte key: err = %v", err)
	}
}

// TestDealRandIsTheDeal: without a key, anyone can compute every hand from the seed with
// DealRand and FirstDealerRand (which is why a seed a bot knows is a seed it can use).
func TestDealRandIsTheDeal(t *testing.T) {
	const seed = 11
	rs := rules.Default()
	for _, r := range keyedDeals(t, nil, seed) {
		if r.Game%2 == 1 && r.Deal == 1 {
			first := protocol.Seat(FirstDealerRand(nil, seed, r.Pair).IntN(4))
			if first.String() != r.Dealer {
				t.Errorf("pair %d: first dealer %s, computed %s", r.Pair, r.Dealer, first)
			}
		}
		dealer, _ := protocol.ParseSeat(r.Dealer)
		deck := rules.Shuffle(DealRand(nil, seed, r.Pair, r.Deal, r.Attempt))
		h, _ := rules.DealHands(&rs, &deck, dealer)
		for s := range 4 {
			if h[s].String() != r.Hands[s] {
				t.Fatalf("game %d deal %d seat %s: dealt %s, computed %s", r.Game, r.Deal, protocol.Seat(s), r.Hands[s], h[s])
			}
		}
	}
}

// TestDealRandDerivation: the generators are ChaCha8 seeded with the HMAC their doc comments
// give, computed here from crypto/hmac on its own, with the empty key (whose HMAC states are
// kept and reset between uses) and a secret one, used over and over in turn; and their first
// outputs are those of the logs written so far (a change would deal other cards for a seed).
func TestDealRandDerivation(t *testing.T) {
	key := bytes.Repeat([]byte{7}, KeySize)
	want := func(key []byte, domain string, seed uint64, fields ...int) uint64 {
		mac := hmac.New(sha256.New, key)
		msg := binary.BigEndian.AppendUint64([]byte(domain), seed)
		for _, f := range fields {
			msg = binary.BigEndian.AppendUint32(msg, uint32(f))
		}
		mac.Write(msg)
		return rand.New(rand.NewChaCha8([32]byte(mac.Sum(nil)))).Uint64()
	}
	for i := range 200 {
		seed, pair, deal, attempt := uint64(1901+i), i%7, 1+i%11, i%3
		for _, k := range [][]byte{nil, {}, key} {
			if got, w := DealRand(k, seed, pair, deal, attempt).Uint64(), want(k, dealDomain, seed, pair, deal, attempt); got != w {
				t.Fatalf("DealRand(key %d bytes, %d, %d, %d, %d) starts %#x, want %#x", len(k), seed, pair, deal, attempt, got, w)
			}
			if got, w := FirstDealerRand(k, seed, pair).Uint64(), want(k, dealerDomain, seed, pair); got != w {
				t.Fatalf("FirstDealerRand(key %d bytes, %d, %d) starts %#x, want %#x", len(k), seed, pair, got, w)
			}
		}
	}
	for _, c := range []struct {
		got, want uint64
	}{
		{DealRand(nil, 1901, 0, 1, 0).Uint64(), 0x4c828f96fada9747},
		{DealRand(key, 1901, 3, 2, 1).Uint64(), 0x273d25540f1549cd},
		{FirstDealerRand(nil, 1901, 2).Uint64(), 0x1164cc4a5dbbfd2},
		{FirstDealerRand(key, 1901, 2).Uint64(), 0xf8b4ad742c7da7f5},
	} {
		if c.got != c.want {
			t.Errorf("a generator starts %#x, the logs' %#x", c.got, c.want)
		}
	}
}

package referee

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math/rand/v2"
	"sync"
)

// KeySize is the length of a deal key (Config.Key) in bytes.
const KeySize = 32

// dealDomain and dealerDomain separate the generator of a deal's cards from that of a
// game's first dealer, and both from any other use of the same key.
const (
	dealDomain   = "klaverjas-arena deal v1\x00"
	dealerDomain = "klaverjas-arena first-dealer v1\x00"
)

// DealRand returns the generator of a deal's cards: the deck (rules.Shuffle, then
// rules.DealHands from the dealer) and then the trump pile (rules.ShufflePile) are drawn
// from it in that order. It is ChaCha8 seeded with
//
//	HMAC-SHA256(key, "klaverjas-arena deal v1\x00" || seed || pair || deal || attempt)
//
// (seed as 8 bytes, the others as 4, big-endian), pair being the deal set from 0, deal the
// deal number in the game from 1 and attempt the redeals so far. A nil key is HMAC's empty
// key: the cards are then a function of the seed alone, which anyone who knows the seed can
// compute (this function is exported so that bot authors can). With a secret key they
// cannot be told from random by whoever does not hold it, seed or no seed.
func DealRand(key []byte, seed uint64, pair, deal, attempt int) *rand.Rand {
	return keyedRand(key, dealDomain, seed, pair, deal, attempt)
}

// FirstDealerRand returns the generator that picks the first dealer of a deal set's games
// (IntN of the table size): ChaCha8 seeded with
// HMAC-SHA256(key, "klaverjas-arena first-dealer v1\x00" || seed || pair).
func FirstDealerRand(key []byte, seed uint64, pair int) *rand.Rand {
	return keyedRand(key, dealerDomain, seed, pair)
}

func keyedRand(key []byte, domain string, seed uint64, fields ...int) *rand.Rand {
	var buf [64]byte // room for the longer domain, the seed and three fields
	msg := binary.BigEndian.AppendUint64(append(buf[:0], domain...), seed)
	for _, f := range fields {
		msg = binary.BigEndian.AppendUint32(msg, uint32(f))
	}
	var mac hash.Hash
	if len(key) == 0 {
		mac = unkeyed.Get().(hash.Hash)
		defer unkeyed.Put(mac)
		mac.Reset()
	} else {
		mac = hmac.New(sha256.New, key)
	}
	mac.Write(msg)
	var s [32]byte
	mac.Sum(s[:0])
	return rand.New(rand.NewChaCha8(s))
}

// unkeyed holds HMAC-SHA256 states of the empty key, each set up once and reset for each
// use: the generators of unkeyed matches, which replay --verify of a whole league asks for
// once a deal set (a new HMAC cost most of a microsecond and ten allocations).
var unkeyed = sync.Pool{New: func() any { return hmac.New(sha256.New, nil) }}

// checkKey accepts no key or one of KeySize bytes. The error never shows the key.
func checkKey(key []byte) error {
	if key != nil && len(key) != KeySize {
		return fmt.Errorf("a deal key of %d bytes: it must have %d", len(key), KeySize)
	}
	return nil
}

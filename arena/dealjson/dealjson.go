// Package dealjson writes deal records as the lines of a deal log (spec.md §12): byte for
// byte what encoding/json's Marshal writes for a referee.DealRecord, without reflection, for
// readers that write many (arena export). The ruleset, the same for every deal of a league,
// is marshalled once and reused.
package dealjson

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/rulesfile"
)

// Encoder appends deal records as JSON. The zero value is ready; it is not safe for
// concurrent use.
type Encoder struct {
	rules     rules.Ruleset
	rulesJSON []byte      // the JSON of rules, or nil before the first record
	floats    *floatCache // made with the first record
}

// errFloat is json.Marshal's refusal of a time that is not a number.
var errFloat = errors.New("dealjson: a time is infinite or not a number")

// Append appends the JSON of rec (no newline) to dst, as json.Marshal(rec) writes it.
func (e *Encoder) Append(dst []byte, rec *referee.DealRecord) ([]byte, error) {
	if e.rulesJSON == nil || e.rules != rec.Rules {
		rs, err := json.Marshal(rulesfile.Value(rec.Rules)) // as DealRecord.MarshalJSON writes it
		if err != nil {
			return dst, err
		}
		e.rules, e.rulesJSON = rec.Rules, rs
	}
	b := append(dst, `{"v":`...)
	b = strconv.AppendInt(b, int64(rec.V), 10)
	b = append(b, `,"match":`...)
	b = appendString(b, rec.Match)
	b = append(b, `,"pair":`...)
	b = strconv.AppendInt(b, int64(rec.Pair), 10)
	b = append(b, `,"mirror":`...)
	b = strconv.AppendBool(b, rec.Mirror)
	if rec.Rotation != 0 {
		b = append(b, `,"rotation":`...)
		b = strconv.AppendInt(b, int64(rec.Rotation), 10)
	}
	b = append(b, `,"game":`...)
	b = strconv.AppendInt(b, int64(rec.Game), 10)
	b = append(b, `,"deal":`...)
	b = strconv.AppendInt(b, int64(rec.Deal), 10)
	b = append(b, `,"attempt":`...)
	b = strconv.AppendInt(b, int64(rec.Attempt), 10)
	b = append(b, `,"seed":`...)
	b = strconv.AppendUint(b, rec.Seed, 10)
	if rec.Keyed {
		b = append(b, `,"keyed":true`...)
	}
	if rec.Table != 0 {
		b = append(b, `,"table":`...)
		b = strconv.AppendInt(b, int64(rec.Table), 10)
	}
	b = append(b, `,"seats":`...)
	b = appendStrings(b, rec.Seats[:])
	b = append(b, `,"dealer":`...)
	b = appendString(b, rec.Dealer)
	b = append(b, `,"first":`...)
	b = strconv.AppendBool(b, rec.First)
	b = append(b, `,"hands":`...)
	b = appendStrings(b, rec.Hands[:])
	if rec.Skart != "" {
		b = append(b, `,"skart":`...)
		b = appendString(b, rec.Skart)
	}
	if len(rec.Pile) > 0 {
		b = append(b, `,"pile":`...)
		b = appendStrings(b, rec.Pile)
	}
	b = append(b, `,"actions":`...)
	if e.floats == nil {
		e.floats = new(floatCache)
	}
	b, err := appendActions(b, rec.Actions, e.floats)
	if err != nil {
		return dst, err
	}
	b = append(b, `,"result":`...)
	b = AppendResult(b, &rec.Result)
	if len(rec.Faults) > 0 {
		b = append(b, `,"faults":[`...)
		for i := range rec.Faults {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFault(b, &rec.Faults[i])
		}
		b = append(b, ']')
	}
	if len(rec.Rejected) > 0 {
		b = append(b, `,"rejected":[`...)
		for i := range rec.Rejected {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendRejection(b, &rec.Rejected[i])
		}
		b = append(b, ']')
	}
	b = append(b, `,"rules":`...)
	b = append(b, e.rulesJSON...)
	return append(b, '}'), nil
}

func appendActions(b []byte, actions []referee.Action, floats *floatCache) ([]byte, error) {
	if actions == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i := range actions {
		a := &actions[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"seat":`...)
		b = appendString(b, a.Seat)
		if a.Bid != "" {
			b = append(b, `,"bid":`...)
			b = appendString(b, a.Bid)
		}
		if a.Card != "" {
			b = append(b, `,"card":`...)
			b = appendString(b, a.Card)
		}
		if a.Claim != nil {
			b = append(b, `,"claim":`...)
			b = strconv.AppendInt(b, int64(*a.Claim), 10)
		}
		if a.Discard != "" {
			b = append(b, `,"discard":`...)
			b = appendString(b, a.Discard)
		}
		var ok bool
		b = append(b, `,"ms":`...)
		if b, ok = floats.append(b, a.MS); !ok {
			return b, errFloat
		}
		if a.CPUMS != 0 {
			b = append(b, `,"cpu":`...)
			if b, ok = floats.append(b, a.CPUMS); !ok {
				return b, errFloat
			}
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// AppendResult appends the JSON of a deal's result r to b, as json.Marshal writes it.
func AppendResult(b []byte, r *referee.RecordResult) []byte {
	b = append(b, `{"outcome":`...)
	b = appendString(b, r.Outcome)
	b = appendOptional(b, `,"trump":`, r.Trump)
	b = appendOptional(b, `,"maker":`, r.Maker)
	b = append(b, `,"score":`...)
	b = appendInts(b, r.Score)
	b = append(b, `,"cards":`...)
	b = appendInts(b, r.Cards)
	b = append(b, `,"roem":`...)
	b = appendInts(b, r.Roem)
	b = append(b, `,"tricks":`...)
	b = appendInts(b, r.Tricks)
	b = appendOptional(b, `,"winners":`, r.Winners)
	b = appendOptional(b, `,"pit":`, r.Pit)
	b = appendOptional(b, `,"offender":`, r.Offender)
	return append(b, '}')
}

func appendFault(b []byte, f *referee.FaultRecord) []byte {
	b = append(b, `{"seat":`...)
	b = appendString(b, f.Seat)
	b = append(b, `,"bot":`...)
	b = appendString(b, f.Bot)
	b = append(b, `,"kind":`...)
	b = appendString(b, string(f.Kind))
	b = append(b, `,"detail":`...)
	b = appendString(b, f.Detail)
	b = appendOptional(b, `,"stderr":`, f.Stderr)
	return append(b, '}')
}

func appendRejection(b []byte, x *referee.Rejection) []byte {
	b = append(b, `{"seat":`...)
	b = appendString(b, x.Seat)
	b = append(b, `,"bot":`...)
	b = appendString(b, x.Bot)
	b = append(b, `,"decision":`...)
	b = strconv.AppendInt(b, int64(x.Decision), 10)
	b = append(b, `,"request":`...)
	b = appendString(b, x.Request)
	b = append(b, `,"kind":`...)
	b = appendString(b, string(x.Kind))
	b = append(b, `,"detail":`...)
	b = appendString(b, x.Detail)
	return append(b, '}')
}

// appendOptional appends key and s unless s is empty (omitempty).
func appendOptional(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(append(b, key...), s)
}

func appendInts(b []byte, v []int) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, n := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

func appendStrings(b []byte, v []string) []byte {
	b = append(b, '[')
	for i, s := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// floatCache holds the JSON of times written before, by their bits: a stored time is one
// of 256 (a time code), and writing a float is the dearest part of a record.
type floatCache [1024]struct {
	bits uint64
	n    uint8 // the length of text; 0 for none
	text [24]byte
}

// append is appendFloat, from the cache when f was written before.
func (c *floatCache) append(b []byte, f float64) ([]byte, bool) {
	bits := math.Float64bits(f)
	slot := &c[bits*0x9E3779B97F4A7C15>>54] // Fibonacci hashing to 10 bits
	if slot.n > 0 && slot.bits == bits {
		n := len(b)
		if cap(b)-n < len(slot.text) {
			b = slices.Grow(b, len(slot.text))
		}
		*(*[len(slot.text)]byte)(b[n : n+len(slot.text)]) = slot.text // a fixed copy, no call
		return b[:n+int(slot.n)], true
	}
	start := len(b)
	b, ok := appendFloat(b, f)
	if ok && len(b)-start <= len(slot.text) {
		slot.bits, slot.n = bits, uint8(copy(slot.text[:], b[start:]))
	}
	return b, ok
}

// appendFloat appends f as encoding/json writes a float64 (the shortest form, an exponent
// below 1e-6 and from 1e21), or false for an infinity or NaN.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	abs, format := math.Abs(f), byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-09 to e-9
		b = b[:n-1]
	}
	return b, true
}

// plain says whether encoding/json writes a byte of a string as it is: printable ASCII other
// than the quote, the backslash and the HTML characters < > &.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendString appends s as a JSON string the way encoding/json does: <, > and & escaped
// for HTML, control characters as \b \f \n \r \t or \u00XX, invalid UTF-8 as \ufffd, and
// U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	i := 0
	for i < len(s) && plain[s[i]] {
		i++
	}
	b = append(b, '"')
	if i == len(s) { // the common case: seats, cards, bids
		b = append(b, s...)
		return append(b, '"')
	}
	const hex = "0123456789abcdef"
	start := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

package store

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/klaverjas-arena/arena/referee"
)

// unmarshalMatch decodes a stored match record into m (a zero Match) as json.Unmarshal does.
// The readers of a whole league decode one record per 32 deals, and encoding/json costs
// about as much as the deals' rows, so the form json.Marshal writes (the keys in their
// order, no white space, strings of printable ASCII without escapes) is read by hand; any
// other text, and any text that form does not fit, goes to json.Unmarshal.
func unmarshalMatch(data []byte, m *Match) error {
	s := matchScanner{data: data, ok: true}
	if s.match(m) && s.pos == len(data) {
		return nil
	}
	*m = Match{}
	return json.Unmarshal(data, m)
}

// matchCounts returns Done and Deals of a stored match record, as unmarshalMatch would,
// without reading the rest: in the form json.Marshal writes, the first `,"done":` is the
// record's own (an id's quotes are escaped, and its games come after its deals).
func matchCounts(data []byte) (done bool, deals int, err error) {
	if at := bytes.Index(data, []byte(`,"done":`)); at > 0 && data[0] == '{' {
		s := matchScanner{data: data, pos: at, ok: true}
		done, deals = s.boolField(`,"done":`), s.intField(`,"deals":`)
		if s.ok && s.pos < len(data) && (data[s.pos] == ',' || data[s.pos] == '}') {
			return done, deals, nil
		}
	}
	var m Match
	err = unmarshalMatch(data, &m)
	return m.Done, m.Deals, err
}

// matchScanner reads the JSON of a Match as json.Marshal writes it; ok turns false at the
// first byte that does not fit, after which every method reads nothing.
type matchScanner struct {
	data []byte
	pos  int
	ok   bool
}

func (s *matchScanner) match(m *Match) bool {
	m.Index = s.intField(`{"index":`)
	m.ID = s.stringField(`,"id":`)
	m.Seed = s.uintField(`,"seed":`)
	m.Seats = s.intsField(`,"seats":`)
	m.Done = s.boolField(`,"done":`)
	m.Deals = s.intField(`,"deals":`)
	if s.opt(`,"games":`) {
		m.Games = s.games()
	}
	if s.opt(`,"finished":`) {
		start := s.pos
		s.str()
		if s.ok && m.Finished.UnmarshalJSON(s.data[start:s.pos]) != nil {
			s.ok = false
		}
	}
	if s.opt(`,"resumed":`) {
		m.Resumed = s.ints()
	}
	if s.opt(`,"file":`) {
		m.File = s.str()
	}
	s.lit("}")
	return s.ok
}

func (s *matchScanner) games() []referee.GameResult {
	if s.opt("null") {
		return nil
	}
	s.lit("[")
	out := []referee.GameResult{}
	for s.ok && !s.opt("]") {
		if len(out) > 0 {
			s.lit(",")
		}
		var g referee.GameResult
		g.Pair = s.intField(`{"pair":`)
		g.Mirror = s.boolField(`,"mirror":`)
		if s.opt(`,"rotation":`) {
			g.Rotation = s.int()
		}
		g.Number = s.intField(`,"number":`)
		g.Deals = s.intField(`,"deals":`)
		g.Totals = s.intsField(`,"totals":`)
		g.Winner = s.intField(`,"winner":`)
		g.Made = s.intsField(`,"made":`)
		g.Nat = s.intsField(`,"nat":`)
		g.Pit = s.intsField(`,"pit":`)
		s.lit("}")
		out = append(out, g)
	}
	return out
}

// opt reads t if the text goes on with it.
func (s *matchScanner) opt(t string) bool {
	if s.ok && len(s.data)-s.pos >= len(t) && string(s.data[s.pos:s.pos+len(t)]) == t {
		s.pos += len(t)
		return true
	}
	return false
}

// lit reads t, which must come next.
func (s *matchScanner) lit(t string) {
	if !s.opt(t) {
		s.ok = false
	}
}

func (s *matchScanner) intField(key string) int       { s.lit(key); return s.int() }
func (s *matchScanner) uintField(key string) uint64   { s.lit(key); return s.uint() }
func (s *matchScanner) boolField(key string) bool     { s.lit(key); return s.bool() }
func (s *matchScanner) stringField(key string) string { s.lit(key); return s.str() }
func (s *matchScanner) intsField(key string) []int    { s.lit(key); return s.ints() }

// digits reads a number of at most most digits without a leading zero and returns them.
func (s *matchScanner) digits(most int) []byte {
	start := s.pos
	for s.ok && s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
		s.pos++
	}
	d := s.data[start:s.pos]
	if n := len(d); n == 0 || n > most || n > 1 && d[0] == '0' {
		s.ok = false
	}
	return d
}

func (s *matchScanner) int() int {
	neg := s.opt("-")
	v := 0
	for _, c := range s.digits(18) { // no int overflows
		v = 10*v + int(c-'0')
	}
	if neg {
		return -v
	}
	return v
}

func (s *matchScanner) uint() uint64 {
	v, err := strconv.ParseUint(string(s.digits(20)), 10, 64)
	if err != nil {
		s.ok = false
	}
	return v
}

func (s *matchScanner) bool() bool {
	if s.opt("true") {
		return true
	}
	s.lit("false")
	return false
}

// str reads a string of printable ASCII characters without escapes.
func (s *matchScanner) str() string {
	s.lit(`"`)
	start := s.pos
	for s.ok && s.pos < len(s.data) && s.data[s.pos] != '"' {
		if c := s.data[s.pos]; c < 0x20 || c > 0x7e || c == '\\' {
			s.ok = false
		}
		s.pos++
	}
	text := string(s.data[start:min(s.pos, len(s.data))])
	s.lit(`"`)
	return text
}

// ints reads a list of integers, or null.
func (s *matchScanner) ints() []int {
	if s.opt("null") {
		return nil
	}
	s.lit("[")
	out := []int{}
	for s.ok && !s.opt("]") {
		if len(out) > 0 {
			s.lit(",")
		}
		out = append(out, s.int())
	}
	return out
}

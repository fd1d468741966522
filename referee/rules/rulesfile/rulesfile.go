// Package rulesfile reads and writes rulesets (package rules) as files: TOML key = value lines
// and JSON objects of the options of RULES.md §9, in that order. It is the edge between the
// rules engine, which parses no file format, and the files, flags and logs that hold a
// ruleset.
package rulesfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/BurntSushi/toml"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// ParseJSON reads a ruleset from a JSON object of options (see rules.FromMap). Numbers are
// read exactly as written, so 1e3 or 1.5 for a whole-number option is refused, not rounded.
func ParseJSON(data []byte) (rules.Ruleset, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return rules.Ruleset{}, fmt.Errorf("ruleset JSON: %w", err)
	}
	if dec.More() {
		return rules.Ruleset{}, fmt.Errorf("ruleset JSON: data after the object")
	}
	for k, v := range m {
		m[k] = numbersAsWritten(v)
	}
	return rules.FromMap(m)
}

// numbersAsWritten replaces the JSON numbers in v by their text, which FromMap reads as
// ruleset notation.
func numbersAsWritten(v any) any {
	switch v := v.(type) {
	case json.Number:
		return v.String()
	case []any:
		for i, e := range v {
			v[i] = numbersAsWritten(e)
		}
	}
	return v
}

// ParseTOML reads a ruleset from TOML key = value lines (see rules.FromMap).
func ParseTOML(data []byte) (rules.Ruleset, error) {
	var m map[string]any
	if err := toml.Unmarshal(data, &m); err != nil {
		return rules.Ruleset{}, fmt.Errorf("ruleset TOML: %w", err)
	}
	return rules.FromMap(m)
}

// JSON writes every option of the ruleset as one JSON object with typed values (numbers,
// booleans, lists), in the order of RULES.md §9.
func JSON(rs rules.Ruleset) []byte {
	m := rs.Map()
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range rules.OptionNames() {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(name)
		v, _ := json.Marshal(m[name]) // strings, booleans, ints and int lists always encode
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// TOML writes every option of the ruleset as TOML key = value lines, in the order of
// RULES.md §9.
func TOML(rs rules.Ruleset) []byte {
	m := rs.Map()
	var b bytes.Buffer
	for _, kv := range rs.Options() {
		v := kv[1]
		if _, isString := m[kv[0]].(string); isString {
			v = strconv.Quote(v)
		}
		fmt.Fprintf(&b, "%s = %s\n", kv[0], v)
	}
	return b.Bytes()
}

// Value is a ruleset as a JSON value (a struct field of a record or a store row): it encodes
// as JSON does and decodes with ParseJSON. Convert to it and back: Value(rs), rules.Ruleset(v).
type Value rules.Ruleset

// MarshalJSON writes the ruleset as JSON does.
func (v Value) MarshalJSON() ([]byte, error) { return JSON(rules.Ruleset(v)), nil }

// UnmarshalJSON reads the ruleset as ParseJSON does.
func (v *Value) UnmarshalJSON(data []byte) error {
	rs, err := ParseJSON(data)
	if err != nil {
		return err
	}
	*v = Value(rs)
	return nil
}

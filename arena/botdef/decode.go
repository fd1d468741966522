package botdef

import (
	"encoding"
	"fmt"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// DecodeTOML decodes TOML text into the struct v, as toml.Decode does, but goes on past a
// value of the wrong type (a string for a number, a duration or a size that does not
// parse): toml.Decode stops at the first, which would hide every other problem of the file.
// It returns the file's metadata, the keys no field of v took (unknown keys; those inside a
// map field, such as env or rules, are taken by it), and a *DecodeError for each value that
// does not fit its field, with its line. Only a syntax error, after which nothing of the
// text can be read, is returned alone, as err.
func DecodeTOML(text string, v any) (md toml.MetaData, unknown []toml.Key, problems []error, err error) {
	var top map[string]toml.Primitive
	if md, err = toml.Decode(text, &top); err != nil {
		return md, nil, nil, err
	}
	d := &decoder{md: &md, taken: map[string]bool{}, whole: map[string]bool{}}
	d.decodeStruct(top, reflect.ValueOf(v).Elem(), "", "")
	for _, k := range md.Keys() {
		if !d.isTaken(k) {
			unknown = append(unknown, k)
		}
	}
	return md, unknown, d.problems, nil
}

type decoder struct {
	md       *toml.MetaData
	taken    map[string]bool // the keys decoded into a field, or that failed to
	whole    map[string]bool // the keys decoded as one value (not a struct field by field): the keys inside are theirs
	problems []error
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// decodeStruct decodes the table raw into the struct sv, field by field; prefix is the
// table's key ("" for the top, "bot" for each [[bot]]), where names an entry of an array
// of tables in its problems ("[[bot]] 2: "): the line TOML gives for a key that every entry
// has is its last entry's.
func (d *decoder) decodeStruct(raw map[string]toml.Primitive, sv reflect.Value, prefix, where string) {
	st := sv.Type()
	for i := range st.NumField() {
		f := st.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if tag == "-" || !f.IsExported() {
			continue
		}
		fv := sv.Field(i)
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
			d.decodeStruct(raw, fv, prefix, where) // an embedded struct's keys are the table's own
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		prim, ok := raw[tag]
		if !ok {
			continue
		}
		key := tag
		if prefix != "" {
			key = prefix + "." + tag
		}
		d.taken[key] = true
		switch {
		case f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct && !reflect.PointerTo(f.Type.Elem()).Implements(textUnmarshaler):
			var elems []toml.Primitive
			if err := d.md.PrimitiveDecode(prim, &elems); err != nil {
				d.fail(key, fmt.Errorf("%s%w", where, err))
				continue
			}
			fv.Set(reflect.MakeSlice(f.Type, len(elems), len(elems)))
			for j, e := range elems {
				var table map[string]toml.Primitive
				entry := fmt.Sprintf("%s[[%s]] %d: ", where, key, j+1)
				if err := d.md.PrimitiveDecode(e, &table); err != nil {
					d.fail(key, fmt.Errorf("%s%w", entry, err))
					continue
				}
				d.decodeStruct(table, fv.Index(j), key, entry)
			}
		case f.Type.Kind() == reflect.Struct && !reflect.PointerTo(f.Type).Implements(textUnmarshaler):
			var table map[string]toml.Primitive
			if err := d.md.PrimitiveDecode(prim, &table); err != nil {
				d.fail(key, fmt.Errorf("%s%w", where, err))
				continue
			}
			d.decodeStruct(table, fv, key, where)
		case f.Type.Kind() == reflect.Map:
			// TOML's decoder leaves a map field empty, saying nothing, when the value is not
			// a table (env = "A=1").
			d.whole[key] = true
			var value any
			if err := d.md.PrimitiveDecode(prim, &value); err != nil {
				d.fail(key, fmt.Errorf("%s%w", where, err))
			} else if _, ok := value.(map[string]any); !ok {
				d.fail(key, fmt.Errorf("%s%s = %.40v: want a table, such as %s = { NAME = \"value\" }", where, key, value, tag))
			} else if err := d.md.PrimitiveDecode(prim, fv.Addr().Interface()); err != nil {
				d.fail(key, fmt.Errorf("%s%w", where, err))
			}
		default:
			d.whole[key] = true
			if err := d.md.PrimitiveDecode(prim, fv.Addr().Interface()); err != nil {
				d.fail(key, fmt.Errorf("%s%w", where, err))
			}
		}
	}
}

// DecodeError is a value of the key Key (such as "bot.pids") that does not fit its field.
type DecodeError struct {
	Key string
	Err error
}

func (e *DecodeError) Error() string { return e.Err.Error() }
func (e *DecodeError) Unwrap() error { return e.Err }

// fail records a value that did not fit its field; its keys are not then unknown ones.
func (d *decoder) fail(key string, err error) {
	d.whole[key] = true
	d.problems = append(d.problems, &DecodeError{Key: key, Err: err})
}

// isTaken reports whether the key k was decoded into a field, or lies inside a value
// decoded whole (a map such as env or rules, or a value that failed).
func (d *decoder) isTaken(k toml.Key) bool {
	if d.taken[k.String()] {
		return true
	}
	for n := len(k) - 1; n >= 1; n-- {
		if d.whole[k[:n].String()] {
			return true
		}
	}
	return false
}

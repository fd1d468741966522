package rules

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// FromMap builds a ruleset from option values as a file format decodes them (package
// referee/rules/rulesfile reads JSON and TOML into it): an optional
// "preset" (default "amsterdams"), then any options, which override the preset. Values may
// be strings in ruleset notation or typed (booleans, integers, integer lists). Every unknown
// option, bad value and contradiction is reported in one error.
func FromMap(m map[string]any) (Ruleset, error) {
	var errs optionErrors
	r := Default()
	if p, ok := m["preset"]; ok {
		name, _ := p.(string)
		pr, err := Preset(name)
		if err != nil {
			errs.add(err)
		} else {
			r = pr
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if k != "preset" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		v, err := notation(k, m[k])
		if err == nil {
			err = r.Set(k, v)
		}
		if err != nil {
			errs.add(err)
		}
	}
	if len(errs) == 0 {
		r.checkConsistency(&errs)
	}
	if err := errs.err(); err != nil {
		return Ruleset{}, err
	}
	return r, nil
}

// notation turns a decoded value into ruleset notation.
func notation(name string, v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case int:
		return strconv.Itoa(v), nil
	case []int:
		parts := make([]string, len(v))
		for i, n := range v {
			parts[i] = strconv.Itoa(n)
		}
		return "[" + strings.Join(parts, ",") + "]", nil
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1e9 {
			return strconv.Itoa(int(v)), nil
		}
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			s, err := notation(name, e)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ",") + "]", nil
	}
	allowed := OptionAllowed(name)
	if allowed == "" {
		return "", unknownOption(name)
	}
	return "", &OptionError{Option: name, Value: fmt.Sprint(v), Allowed: allowed}
}

// Map returns every option with its typed value, as FromMap reads it.
func (r Ruleset) Map() map[string]any {
	m := make(map[string]any, len(options))
	for _, o := range options {
		m[o.name] = o.typed(&r)
	}
	return m
}

func (o *option) typed(r *Ruleset) any {
	v := o.get(r)
	switch o.kind {
	case kindBool:
		return v == "true"
	case kindInt:
		n, _ := strconv.Atoi(v)
		return n
	case kindIntList:
		var list []int
		for f := range strings.SplitSeq(strings.Trim(v, "[]"), ",") {
			n, _ := strconv.Atoi(f)
			list = append(list, n)
		}
		return list
	}
	return v
}

package rulesfile

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// testRulesets returns every preset and a few custom rulesets.
func testRulesets(t *testing.T) map[string]rules.Ruleset {
	t.Helper()
	all := map[string]rules.Ruleset{}
	for _, name := range append(rules.PresetNames(), rules.ThreePlayerPresetNames()...) {
		rs, err := rules.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		all["preset "+name] = rs
	}
	for name, opts := range map[string][][2]string{
		"packets and a target": {{"deal_packets", "[4,4]"}, {"game_end", "target:750"}, {"pit_bonus", "200"}},
		"draaikaart jokers":    {{"bidding", "draaikaart"}, {"draaikaart_jokers", "true"}, {"draaikaart_first_deal_clubs", "false"}},
		"claims":               {{"roem_claiming", "claim_required"}, {"false_claim_penalty", "20"}, {"fault_policy", "retry"}},
	} {
		rs := rules.Default()
		for _, kv := range opts {
			if err := rs.Set(kv[0], kv[1]); err != nil {
				t.Fatal(err)
			}
		}
		if err := rs.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		all[name] = rs
	}
	return all
}

// TestRoundTrip: every ruleset survives JSON (JSON / ParseJSON, and Value through
// encoding/json) and TOML unchanged, and the JSON holds every option of RULES.md §9, in order,
// with the value of the ruleset's notation.
func TestRoundTrip(t *testing.T) {
	for name, rs := range testRulesets(t) {
		t.Run(name, func(t *testing.T) {
			data := JSON(rs)
			if back, err := ParseJSON(data); err != nil || back != rs {
				t.Errorf("ParseJSON(JSON) = %+v, %v\n%s", back, err, data)
			}
			field, err := json.Marshal(struct{ R Value }{Value(rs)})
			if err != nil {
				t.Fatal(err)
			}
			var back struct{ R Value }
			if err := json.Unmarshal(field, &back); err != nil || rules.Ruleset(back.R) != rs {
				t.Errorf("Value through encoding/json = %+v, %v\n%s", back.R, err, field)
			}
			if back, err := ParseTOML(TOML(rs)); err != nil || back != rs {
				t.Errorf("ParseTOML(TOML) = %+v, %v\n%s", back, err, TOML(rs))
			}
			dec := json.NewDecoder(strings.NewReader(string(data)))
			if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
				t.Fatalf("JSON does not start an object: %v", err)
			}
			for i, kv := range rs.Options() {
				key, err := dec.Token()
				if err != nil || key != kv[0] {
					t.Fatalf("JSON key %d = %v (%v), want %s", i, key, err, kv[0])
				}
				var v any
				if err := dec.Decode(&v); err != nil {
					t.Fatal(err)
				}
				if got := notation(v); got != kv[1] {
					t.Errorf("JSON %s = %s, want %s", kv[0], got, kv[1])
				}
			}
		})
	}
}

// notation writes a decoded JSON value in ruleset notation.
func notation(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = notation(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestTOMLText: strings are quoted, everything else is written as its notation.
func TestTOMLText(t *testing.T) {
	text := string(TOML(rules.Default()))
	for _, line := range []string{"players = 4\n", "play_rule = \"amsterdams\"\n", "deal_packets = [3,2,3]\n", "pit_for_defenders = true\n"} {
		if !strings.Contains(text, line) {
			t.Errorf("TOML lacks %q:\n%s", line, text)
		}
	}
}

// TestParseHandWritten: rulesets written by hand, typed or as text.
func TestParseHandWritten(t *testing.T) {
	want := rules.Default()
	for _, kv := range [][2]string{{"pit_bonus", "200"}, {"deal_packets", "[4,4]"}, {"pit_for_defenders", "false"}} {
		if err := want.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ format, text string }{
		{"json", `{"pit_bonus":200,"deal_packets":[4,4],"pit_for_defenders":false}`},
		{"json", `{"pit_bonus":"200","deal_packets":"[4,4]","pit_for_defenders":"false"}`},
		{"toml", "pit_bonus = 200\ndeal_packets = [4, 4]\npit_for_defenders = false\n"},
	} {
		parse := ParseJSON
		if tt.format == "toml" {
			parse = ParseTOML
		}
		if got, err := parse([]byte(tt.text)); err != nil || got != want {
			t.Errorf("%s %s: %+v, %v", tt.format, tt.text, got, err)
		}
	}
}

// TestParseErrors: bad syntax and bad options are errors; option errors wrap rules.ErrOption
// and numbers are read as written (1e3 is not 1000).
func TestParseErrors(t *testing.T) {
	for _, bad := range []string{`not json`, `{"a":1} {}`, `[1,2]`} {
		if _, err := ParseJSON([]byte(bad)); err == nil {
			t.Errorf("ParseJSON(%s) accepted", bad)
		}
	}
	if _, err := ParseTOML([]byte("= broken")); err == nil {
		t.Error("broken TOML accepted")
	}
	for _, tt := range []struct{ format, text, mention string }{
		{"json", `{"pit_bonus":1e3}`, "1e3"},
		{"json", `{"renege_extra_roem":1.5}`, "1.5"},
		{"json", `{"play_rul":"x"}`, "play_rul"},
		{"toml", "trump_rule = \"x\"\n", "trump_rule"},
	} {
		parse := ParseJSON
		if tt.format == "toml" {
			parse = ParseTOML
		}
		_, err := parse([]byte(tt.text))
		if !errors.Is(err, rules.ErrOption) || !strings.Contains(err.Error(), tt.mention) {
			t.Errorf("%s: %v, want an option error naming %s", tt.text, err, tt.mention)
		}
	}
}

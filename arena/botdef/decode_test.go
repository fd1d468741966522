package botdef

import (
	"strings"
	"testing"
	"time"
)

// TestDecodeTOML: a value of the wrong type does not stop the decoding: every one is
// reported with its line, the other values are decoded, and the unknown keys are those no
// field took (a map field takes all of its keys); a syntax error is returned alone.
func TestDecodeTOML(t *testing.T) {
	var v struct {
		Seed uint64 `toml:"seed"`
		Name string `toml:"name"`
		Time struct {
			Decision time.Duration `toml:"decision"`
			Grace    time.Duration `toml:"grace"`
		} `toml:"time"`
		Rules map[string]any `toml:"rules"`
		Bot   []Bot          `toml:"bot"`
	}
	text := `seed = "x"
name = "n"
colour = 1
[rules]
preset = "rotterdams"
[time]
decision = "5"
grace = "10ms"
zz = 2
[[bot]]
name = "a"
cmd = "notalist"
env = { A = "1" }
[[bot]]
name = "b"
pids = "x"
memory = "2GiB"
typo = 3
env = "B=2"
`
	_, unknown, problems, err := DecodeTOML(text, &v)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Error())
	}
	want := []string{`line 1 (last key "seed"): incompatible types`, `line 7 (last key "time.decision"): invalid duration: "5"`,
		`[[bot]] 1: toml: line 12 (last key "bot.cmd"): incompatible types`, `[[bot]] 2: bot.env = B=2: want a table, such as env = { NAME = "value" }`,
		`[[bot]] 2: toml: line 16 (last key "bot.pids"): incompatible types`}
	if len(got) != len(want) {
		t.Fatalf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("problem %d: %q, want %q", i, got[i], want[i])
		}
	}
	var keys []string
	for _, k := range unknown {
		keys = append(keys, k.String())
	}
	if strings.Join(keys, " ") != "colour time.zz bot.typo" {
		t.Errorf("unknown keys %q", keys)
	}
	if v.Name != "n" || v.Time.Grace != 10*time.Millisecond || v.Rules["preset"] != "rotterdams" || len(v.Bot) != 2 ||
		v.Bot[0].Name != "a" || v.Bot[0].Env["A"] != "1" || v.Bot[1].Name != "b" || v.Bot[1].Memory != 2<<30 {
		t.Errorf("decoded %+v", v)
	}
	if _, _, _, err := DecodeTOML("seed = \n", &v); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a syntax error: %v", err)
	}
}

// TestParse_AllProblems: a bots file's values of the wrong type are listed with every other
// problem of the file.
func TestParse_AllProblems(t *testing.T) {
	path := t.TempDir() + "/bots.toml"
	_, err := Parse([]byte("[[bot]]\nname = \"a\"\ncmd = [\"/no/such/bot\"]\ndecision = \"5\"\n[[bot]]\nname = \"b\"\ncmd = \"x\"\npids = \"many\"\ncolour = 1\n"), path)
	for _, want := range []string{`invalid duration: "5"`, `program /no/such/bot`, `[[bot]] 2: toml: line 7 (last key "bot.cmd")`,
		`(last key "bot.pids")`, `unknown key "bot.colour"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("no %q in\n%v", want, err)
		}
	}
}

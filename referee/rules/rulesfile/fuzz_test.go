package rulesfile

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// fuzzRoundTrip checks that a ruleset parsed from any input is valid and survives being
// written and read back in both formats.
func fuzzRoundTrip(t *testing.T, rs rules.Ruleset, err error) {
	if err != nil {
		if !errors.Is(err, rules.ErrOption) && err.Error() == "" {
			t.Fatalf("empty error message")
		}
		return
	}
	if err := rs.Validate(); err != nil {
		t.Fatalf("parsed ruleset does not validate: %v", err)
	}
	data, err := json.Marshal(Value(rs))
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseJSON(data)
	if err != nil || back != rs {
		t.Fatalf("JSON round trip: %v\n%s", err, data)
	}
	back, err = ParseTOML(TOML(rs))
	if err != nil || back != rs {
		t.Fatalf("TOML round trip: %v\n%s", err, TOML(rs))
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"preset":"rotterdams"}`, `{"bidding":"draaikaart","draaikaart_jokers":true}`,
		`{"deal_packets":[4,4],"pit_bonus":200}`, `{"preset":"drie_spelers","roem_claiming":"claim_required"}`, `{"players":3,"deal_packets":[3,4,3]}`, `{"game_end":"target:1500"}`, `{"nope":1}`, `[1]`, `{"pit_bonus":1e3}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ParseJSON(data)
		fuzzRoundTrip(t, rs, err)
	})
}

func FuzzParseTOML(f *testing.F) {
	for _, s := range []string{"", "preset = \"bga_rotterdams\"\n", "bidding = \"draaikaart\"\ndeal_packets = [4, 4]\n",
		"pit_for_defenders = false\n", "x = 1\n", "[table]\na = 1\n", "game_end = \"deals:8\"\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ParseTOML(data)
		fuzzRoundTrip(t, rs, err)
	})
}

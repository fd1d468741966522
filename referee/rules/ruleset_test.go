package rules

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// ruleOptions are the options of RULES.md §9 in its order, with their defaults (listed first there) and
// every listed value (house values such as pit_bonus 200 added where §7 names them).
var ruleOptions = []struct {
	name   string
	def    string
	values []string
}{
	{"play_rule", "amsterdams", []string{"amsterdams", "rotterdams"}},
	{"undertrump", "forbidden_unless_only_trumps", []string{"forbidden_unless_only_trumps", "mandatory"}},
	{"partner_trump_undertrump", "forbidden_unless_only_trumps", []string{"forbidden_unless_only_trumps", "allowed"}},
	{"bidding", "direct_kiezen", []string{"direct_kiezen", "direct_kiezen_verplicht", "direct_kiezen_dealer_verplicht", "nku_dealer_first",
		"draaikaart", "draaikaart_opnieuw_schudden", "draaikaart_vrij_kiezen", "draaikaart_dan_verplicht_kiezen", "bga_draw"}},
	{"draaikaart_first_deal_clubs", "true", []string{"true", "false"}},
	{"draaikaart_jokers", "false", []string{"false", "true"}},
	{"first_lead", "left_of_dealer", []string{"left_of_dealer", "maker"}},
	{"deal_packets", "[3,2,3]", []string{"[3,2,3]", "[4,4]"}},
	{"four_of_a_kind", "all_100", []string{"all_100", "jacks_200_high_100", "jacks_200_all_100"}},
	{"stuk_scoring", "in_trick", []string{"in_trick", "announced_by_holder"}},
	{"roem_claiming", "automatic", []string{"automatic", "claim_required"}},
	{"false_claim_penalty", "0", []string{"0", "20"}},
	{"last_trick_bonus", "10", []string{"10"}},
	{"nat_rule", "strictly_more_incl_roem", []string{"strictly_more_incl_roem", "card_points_at_least_82"}},
	{"pit_bonus", "100", []string{"100", "200"}},
	{"pit_for_defenders", "true", []string{"true", "false"}},
	{"fault_policy", "forfeit_deal", []string{"forfeit_deal", "retry"}},
	{"renege_extra_roem", "100", []string{"100", "0"}},
	{"game_end", "deals:16", []string{"deals:16", "target:1500", "target:750", "deals:8", "deals:1"}},
}

// TestOptionNames: every option of §9 exists, in §9's order.
func TestOptionNames(t *testing.T) {
	names := OptionNames()
	last := -1
	for _, o := range ruleOptions {
		i := slices.Index(names, o.name)
		if i < 0 {
			t.Errorf("option %s missing from %v", o.name, names)
			continue
		}
		if i < last {
			t.Errorf("option %s out of RULES.md §9 order in %v", o.name, names)
		}
		last = i
		if OptionAllowed(o.name) == "" {
			t.Errorf("OptionAllowed(%s) is empty", o.name)
		}
	}
	if OptionAllowed("nonsense") != "" {
		t.Error("OptionAllowed of an unknown option")
	}
}

// TestPresets: every preset matches its description in RULES.md §9; options the
// description does not mention keep their defaults.
func TestPresets(t *testing.T) {
	bga := map[string][]string{
		"bidding": {"bga_draw"}, "four_of_a_kind": {"jacks_200_high_100"}, "pit_for_defenders": {"true"},
		"game_end": {"target:1500"},
		// §3: BGA draws from the low cards "optionally with jokers"; §9 does not say.
		"draaikaart_jokers": {"false", "true"},
	}
	with := func(base map[string][]string, kv ...string) map[string][]string {
		m := map[string][]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = []string{kv[i+1]}
		}
		return m
	}
	rotterdams := map[string][]string{"play_rule": {"rotterdams"}, "undertrump": {"mandatory"}}
	want := map[string]map[string][]string{
		"amsterdams": {"play_rule": {"amsterdams"}, "undertrump": {"forbidden_unless_only_trumps"},
			"partner_trump_undertrump": {"forbidden_unless_only_trumps"}, "four_of_a_kind": {"all_100"}},
		"rotterdams":                rotterdams,
		"nku_rotterdams_tournament": with(rotterdams, "bidding", "nku_dealer_first", "four_of_a_kind", "all_100", "roem_claiming", "claim_required"),
		"bga_rotterdams":            with(with(bga), "play_rule", "rotterdams", "undertrump", "mandatory"),
		"bga_amsterdams":            with(bga, "play_rule", "amsterdams"),
		"klaver_live": {
			"play_rule":         {"amsterdams", "rotterdams"},
			"undertrump":        {"forbidden_unless_only_trumps", "mandatory"},
			"bidding":           {"direct_kiezen", "direct_kiezen_verplicht", "draaikaart", "draaikaart_opnieuw_schudden", "draaikaart_vrij_kiezen"},
			"four_of_a_kind":    {"all_100"},
			"renege_extra_roem": {"100"},
		},
	}
	names := PresetNames()
	if len(names) != len(want) || names[0] != "amsterdams" {
		t.Errorf("PresetNames = %v, want the %d presets of §9, amsterdams first", names, len(want))
	}
	for name, opts := range want {
		t.Run(name, func(t *testing.T) {
			r, err := Preset(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if PresetAbout(name) == "" {
				t.Error("no description")
			}
			for _, o := range ruleOptions {
				got, err := r.Get(o.name)
				if err != nil {
					t.Fatal(err)
				}
				allowed, ok := opts[o.name]
				if !ok {
					allowed = []string{o.def}
				}
				if !slices.Contains(allowed, got) {
					t.Errorf("%s = %s, want %s", o.name, got, strings.Join(allowed, " or "))
				}
			}
		})
	}
	if d, _ := Preset("amsterdams"); d != Default() || !d.Equal(Default()) {
		t.Error("the amsterdams preset is not the default")
	}
	if r, _ := Preset("rotterdams"); r.Equal(Default()) {
		t.Error("rotterdams equals the default")
	}
	_, err := Preset("utrechts")
	if err == nil || !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), "utrechts") || !strings.Contains(err.Error(), "nku_rotterdams_tournament") {
		t.Errorf("Preset(utrechts) = %v, want an error naming it and listing the presets", err)
	}
	if PresetAbout("utrechts") != "" {
		t.Error("PresetAbout of an unknown preset")
	}
}

// customRulesets are valid rulesets with every option away from its default somewhere.
func customRulesets(t *testing.T) map[string]*Ruleset {
	return map[string]*Ruleset{
		"all changed": ruleset(t, "play_rule=rotterdams undertrump=forbidden_unless_only_trumps bidding=draaikaart_vrij_kiezen "+
			"draaikaart_first_deal_clubs=false draaikaart_jokers=true first_lead=maker deal_packets=[4,4] four_of_a_kind=jacks_200_all_100 "+
			"stuk_scoring=announced_by_holder roem_claiming=claim_required false_claim_penalty=20 last_trick_bonus=0 "+
			"nat_rule=card_points_at_least_82 pit_bonus=200 pit_for_defenders=false fault_policy=retry renege_extra_roem=0 game_end=target:750"),
		"partner undertrump allowed": ruleset(t, "partner_trump_undertrump=allowed undertrump=mandatory game_end=deals:1"),
		"dan verplicht":              ruleset(t, "bidding=draaikaart_dan_verplicht_kiezen draaikaart_jokers=true"),
		"opnieuw schudden":           ruleset(t, "bidding=draaikaart_opnieuw_schudden game_end=deals:8"),
	}
}

// TestMapRoundTrip: Map's doc says it returns every option "as FromMap reads it", so
// FromMap(r.Map()) must give r back.
func TestMapRoundTrip(t *testing.T) {
	all := customRulesets(t)
	for _, name := range PresetNames() {
		r, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		all["preset "+name] = &r
	}
	for name, r := range all {
		if back, err := FromMap(r.Map()); err != nil || back != *r {
			t.Errorf("%s: FromMap(Map) = %v", name, err)
		}
	}
}

// TestParseHandWritten reads rulesets written by hand in JSON and TOML.
func TestParseHandWritten(t *testing.T) {
	tests := []struct {
		name, format, text string
		want               string // options for ruleset(), from the default
	}{
		{"empty JSON", "json", `{}`, ""},
		{"empty TOML", "toml", ``, ""},
		{"preset and typed values", "json", `{"preset":"rotterdams","pit_bonus":200,"deal_packets":[4,4],"game_end":"target:1500","pit_for_defenders":false}`,
			"play_rule=rotterdams undertrump=mandatory pit_bonus=200 deal_packets=[4,4] game_end=target:1500 pit_for_defenders=false"},
		{"string values", "json", `{"pit_bonus":"200","pit_for_defenders":"false","deal_packets":"[4,4]"}`,
			"pit_bonus=200 pit_for_defenders=false deal_packets=[4,4]"},
		{"options override the preset", "json", `{"play_rule":"amsterdams","preset":"rotterdams"}`, "undertrump=mandatory"},
		{"TOML preset", "toml", "preset = \"nku_rotterdams_tournament\"\nfalse_claim_penalty = 20\ndeal_packets = [4, 4]\n",
			"preset=nku_rotterdams_tournament false_claim_penalty=20 deal_packets=[4,4]"},
		{"TOML draaikaart", "toml", "bidding = \"draaikaart\"\ndraaikaart_jokers = true\ndraaikaart_first_deal_clubs = false\ngame_end = \"deals:8\"\n",
			"bidding=draaikaart draaikaart_jokers=true draaikaart_first_deal_clubs=false game_end=deals:8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Ruleset
			var err error
			if tt.format == "json" {
				got, err = parseJSON([]byte(tt.text))
			} else {
				got, err = parseTOML([]byte(tt.text))
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := ruleset(t, tt.want); got != *want {
				t.Errorf("got %+v\nwant %+v", got, *want)
			}
		})
	}
}

// optionErrorCase is input that must be refused with an error naming each of mention.
type optionErrorCase struct {
	name, format, text string
	mention            []string
}

func runOptionErrors(t *testing.T, tests []optionErrorCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.format == "json" {
				_, err = parseJSON([]byte(tt.text))
			} else {
				_, err = parseTOML([]byte(tt.text))
			}
			if err == nil {
				t.Fatalf("%s accepted", tt.text)
			}
			if !errors.Is(err, ErrOption) {
				t.Errorf("error %v does not wrap ErrOption", err)
			}
			for _, m := range tt.mention {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
		})
	}
}

// TestOptionErrors: unknown options and bad values name the option and list what is allowed.
func TestOptionErrors(t *testing.T) {
	bidding := ruleOptions[3].values
	runOptionErrors(t, []optionErrorCase{
		{"unknown option", "json", `{"play_rul":"amsterdams"}`, []string{"play_rul", "play_rule", "bidding", "game_end"}},
		{"unknown option, TOML", "toml", "trump_rule = \"x\"\n", []string{"trump_rule", "play_rule"}},
		{"bad bidding", "json", `{"bidding":"drakaart"}`, append([]string{"bidding", "drakaart"}, bidding...)},
		{"bad play_rule", "toml", "play_rule = \"utrechts\"\n", []string{"play_rule", "utrechts", "amsterdams", "rotterdams"}},
		{"bad bool", "json", `{"pit_for_defenders":"yes"}`, []string{"pit_for_defenders", "yes", "true", "false"}},
		{"number for a bool", "json", `{"draaikaart_jokers":1}`, []string{"draaikaart_jokers", "true", "false"}},
		{"bool for an enum", "json", `{"four_of_a_kind":true}`, []string{"four_of_a_kind", "all_100", "jacks_200_high_100", "jacks_200_all_100"}},
		{"bad packets", "json", `{"deal_packets":[3,3,2]}`, []string{"deal_packets", "[3,2,3]", "[4,4]"}},
		{"bad game_end", "toml", "game_end = \"rounds:16\"\n", []string{"game_end", "rounds:16", "deals:16", "target:1500"}},
		{"game_end of 0 deals", "json", `{"game_end":"deals:0"}`, []string{"game_end", "deals:0"}},
		{"negative pit_bonus", "json", `{"pit_bonus":-5}`, []string{"pit_bonus", "-5"}},
		{"fractional renege_extra_roem", "json", `{"renege_extra_roem":1.5}`, []string{"renege_extra_roem", "1.5"}},
		{"bad preset", "json", `{"preset":"utrechts"}`, []string{"preset", "utrechts", "amsterdams", "klaver_live"}},
		{"several problems together", "json", `{"play_rul":"x","bidding":"drakaart","pit_bonus":-5,"preset":"nope","stuk_scoring":"sometimes"}`,
			[]string{"play_rul", "drakaart", "pit_bonus", "nope", "stuk_scoring"}},
		{"several problems, TOML", "toml", "nat_rule = \"x\"\nfirst_lead = \"dealer\"\n", []string{"nat_rule", "first_lead", "strictly_more_incl_roem", "left_of_dealer"}},
	})
	// The several problems are separate errors, each an *OptionError.
	_, err := parseJSON([]byte(`{"play_rul":"x","bidding":"drakaart","pit_bonus":-5,"preset":"nope"}`))
	multi, ok := err.(interface{ Unwrap() []error })
	if !ok || len(multi.Unwrap()) != 4 {
		t.Fatalf("error %v is not four joined errors", err)
	}
	for _, e := range multi.Unwrap() {
		var oe *OptionError
		if !errors.As(e, &oe) {
			t.Errorf("%v is not an *OptionError", e)
		}
	}
	var oe *OptionError
	if _, err := parseJSON([]byte(`{"play_rul":"x"}`)); !errors.As(err, &oe) || !oe.Unknown || oe.Option != "play_rul" {
		t.Errorf("unknown option error = %#v", err)
	}
	for _, bad := range []string{`not json`, `{"a":1} {}`, `[1,2]`} {
		if _, err := parseJSON([]byte(bad)); err == nil {
			t.Errorf("parseJSON(%s) accepted", bad)
		}
	}
	if _, err := parseTOML([]byte("= broken")); err == nil {
		t.Error("broken TOML accepted")
	}
}

// TestContradictions: options that contradict each other are refused, naming the option.
func TestContradictions(t *testing.T) {
	runOptionErrors(t, []optionErrorCase{
		{"partner undertrump with rotterdams", "json", `{"play_rule":"rotterdams","partner_trump_undertrump":"allowed"}`, []string{"partner_trump_undertrump", "amsterdams"}},
		{"partner undertrump with the rotterdams preset", "toml", "preset = \"rotterdams\"\npartner_trump_undertrump = \"allowed\"\n", []string{"partner_trump_undertrump"}},
		{"false_claim_penalty without claim_required", "json", `{"false_claim_penalty":20}`, []string{"false_claim_penalty", "claim_required"}},
		{"jokers without a pile", "json", `{"draaikaart_jokers":true}`, []string{"draaikaart_jokers", "direct_kiezen"}},
		{"jokers with nku bidding", "json", `{"bidding":"nku_dealer_first","draaikaart_jokers":true}`, []string{"draaikaart_jokers", "nku_dealer_first"}},
		{"jokers with verplicht", "toml", "bidding = \"direct_kiezen_verplicht\"\ndraaikaart_jokers = true\n", []string{"draaikaart_jokers"}},
		{"all three", "json", `{"play_rule":"rotterdams","partner_trump_undertrump":"allowed","false_claim_penalty":20,"draaikaart_jokers":true}`,
			[]string{"partner_trump_undertrump", "false_claim_penalty", "draaikaart_jokers"}},
	})
	// The same combinations without the contradiction are fine.
	for _, ok := range []string{
		`{"partner_trump_undertrump":"allowed"}`,
		`{"roem_claiming":"claim_required","false_claim_penalty":20}`,
		`{"bidding":"draaikaart","draaikaart_jokers":true}`,
		`{"bidding":"draaikaart_opnieuw_schudden","draaikaart_jokers":true}`,
		`{"bidding":"draaikaart_vrij_kiezen","draaikaart_jokers":true}`,
		`{"bidding":"draaikaart_dan_verplicht_kiezen","draaikaart_jokers":true}`,
		`{"bidding":"bga_draw","draaikaart_jokers":true}`,
		`{"preset":"rotterdams","partner_trump_undertrump":"forbidden_unless_only_trumps"}`,
	} {
		if _, err := parseJSON([]byte(ok)); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	// Validate finds the same contradictions in a Ruleset built by hand, all together.
	r := Default()
	r.PlayRule, r.PartnerTrumpUndertrump = Rotterdams, PartnerUndertrumpAllowed
	r.FalseClaimPenalty = 20
	r.DraaikaartJokers = true
	err := r.Validate()
	if err == nil {
		t.Fatal("Validate accepted three contradictions")
	}
	for _, m := range []string{"partner_trump_undertrump", "false_claim_penalty", "draaikaart_jokers"} {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("Validate error %q does not mention %s", err, m)
		}
	}
}

// TestValidateRange: Validate refuses values out of range in a Ruleset built by hand.
func TestValidateRange(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Ruleset)
		option string
	}{
		{"negative pit bonus", func(r *Ruleset) { r.PitBonus = -1 }, "pit_bonus"},
		{"three players with four-player options", func(r *Ruleset) { r.Players = 3 }, "players = 3"},
		{"two players", func(r *Ruleset) { r.Players = 2 }, "players"},
		{"zero deals", func(r *Ruleset) { r.GameEnd = GameEnd{Kind: EndAfterDeals, N: 0} }, "game_end"},
		{"odd packets", func(r *Ruleset) { r.DealPackets = Packets{8} }, "deal_packets"},
	}
	for _, tt := range tests {
		r := Default()
		tt.change(&r)
		if err := r.Validate(); err == nil || !strings.Contains(err.Error(), tt.option) {
			t.Errorf("%s: Validate = %v, want an error naming %s", tt.name, err, tt.option)
		}
	}
	if r := Default(); r.Validate() != nil {
		t.Errorf("Default does not validate: %v", r.Validate())
	}
}

// TestSetGet sets every value of every option of §9 and reads it back, checking the field.
// TestValidateEnumRange: Validate's doc promises to report "values out of range"; an
// enumerated option set by hand to a number with no name must be refused.
func TestValidateEnumRange(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Ruleset)
		option string
	}{
		{"bidding out of range", func(r *Ruleset) { r.Bidding = Bidding(99) }, "bidding"},
		{"play rule out of range", func(r *Ruleset) { r.PlayRule = PlayRule(7) }, "play_rule"},
		{"four of a kind out of range", func(r *Ruleset) { r.FourOfAKind = FourOfAKind(3) }, "four_of_a_kind"},
	}
	for _, tt := range tests {
		r := Default()
		tt.change(&r)
		if err := r.Validate(); err == nil || !strings.Contains(err.Error(), tt.option) {
			t.Errorf("%s: Validate = %v, want an error naming %s", tt.name, err, tt.option)
		}
	}
}

func TestSetGet(t *testing.T) {
	type check func(*Ruleset) any
	field := map[string]check{
		"play_rule":                   func(r *Ruleset) any { return r.PlayRule },
		"undertrump":                  func(r *Ruleset) any { return r.Undertrump },
		"partner_trump_undertrump":    func(r *Ruleset) any { return r.PartnerTrumpUndertrump },
		"bidding":                     func(r *Ruleset) any { return r.Bidding },
		"draaikaart_first_deal_clubs": func(r *Ruleset) any { return r.DraaikaartFirstDealClubs },
		"draaikaart_jokers":           func(r *Ruleset) any { return r.DraaikaartJokers },
		"first_lead":                  func(r *Ruleset) any { return r.FirstLead },
		"deal_packets":                func(r *Ruleset) any { return r.DealPackets },
		"four_of_a_kind":              func(r *Ruleset) any { return r.FourOfAKind },
		"stuk_scoring":                func(r *Ruleset) any { return r.StukScoring },
		"roem_claiming":               func(r *Ruleset) any { return r.RoemClaiming },
		"false_claim_penalty":         func(r *Ruleset) any { return r.FalseClaimPenalty },
		"last_trick_bonus":            func(r *Ruleset) any { return r.LastTrickBonus },
		"nat_rule":                    func(r *Ruleset) any { return r.NatRule },
		"pit_bonus":                   func(r *Ruleset) any { return r.PitBonus },
		"pit_for_defenders":           func(r *Ruleset) any { return r.PitForDefenders },
		"fault_policy":                func(r *Ruleset) any { return r.FaultPolicy },
		"renege_extra_roem":           func(r *Ruleset) any { return r.RenegeExtraRoem },
		"game_end":                    func(r *Ruleset) any { return r.GameEnd },
	}
	want := map[string][]any{
		"play_rule":                   {Amsterdams, Rotterdams},
		"undertrump":                  {UndertrumpForbiddenUnlessOnlyTrumps, UndertrumpMandatory},
		"partner_trump_undertrump":    {PartnerUndertrumpForbiddenUnlessOnlyTrumps, PartnerUndertrumpAllowed},
		"bidding":                     {DirectKiezen, DirectKiezenVerplicht, DirectKiezenDealerVerplicht, NKUDealerFirst, Draaikaart, DraaikaartOpnieuwSchudden, DraaikaartVrijKiezen, DraaikaartDanVerplichtKiezen, BGADraw},
		"draaikaart_first_deal_clubs": {true, false},
		"draaikaart_jokers":           {false, true},
		"first_lead":                  {LeftOfDealer, MakerLeads},
		"deal_packets":                {Packets{3, 2, 3}, Packets{4, 4}},
		"four_of_a_kind":              {FourAll100, FourJacks200High100, FourJacks200All100},
		"stuk_scoring":                {StukInTrick, StukAnnouncedByHolder},
		"roem_claiming":               {RoemAutomatic, RoemClaimRequired},
		"false_claim_penalty":         {0, 20},
		"last_trick_bonus":            {10},
		"nat_rule":                    {NatStrictlyMoreInclRoem, NatCardPointsAtLeast82},
		"pit_bonus":                   {100, 200},
		"pit_for_defenders":           {true, false},
		"fault_policy":                {FaultForfeitDeal, FaultRetry},
		"renege_extra_roem":           {100, 0},
		"game_end":                    {GameEnd{EndAfterDeals, 16}, GameEnd{EndAtTarget, 1500}, GameEnd{EndAtTarget, 750}, GameEnd{EndAfterDeals, 8}, GameEnd{EndAfterDeals, 1}},
	}
	def := Default()
	for _, o := range ruleOptions {
		get := field[o.name]
		if got, _ := def.Get(o.name); got != o.def {
			t.Errorf("default %s = %s, want %s", o.name, got, o.def)
		}
		if !reflect.DeepEqual(get(&def), want[o.name][0]) {
			t.Errorf("default %s field = %v, want %v", o.name, get(&def), want[o.name][0])
		}
		for i, v := range o.values {
			r := Default()
			if err := r.Set(o.name, v); err != nil {
				t.Errorf("Set(%s, %s): %v", o.name, v, err)
				continue
			}
			if got, err := r.Get(o.name); err != nil || got != v {
				t.Errorf("Get(%s) after Set %s = %s, %v", o.name, v, got, err)
			}
			if !reflect.DeepEqual(get(&r), want[o.name][i]) {
				t.Errorf("Set(%s, %s): field %v, want %v", o.name, v, get(&r), want[o.name][i])
			}
			// Nothing else changed.
			for _, p := range ruleOptions {
				if p.name != o.name {
					if a, b := get2(&r, p.name), get2(&def, p.name); a != b {
						t.Errorf("Set(%s, %s) changed %s from %s to %s", o.name, v, p.name, b, a)
					}
				}
			}
		}
		r := Default()
		if err := r.Set(o.name, "bogus"); err == nil || !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), o.name) {
			t.Errorf("Set(%s, bogus) = %v", o.name, err)
		}
		if r != def {
			t.Errorf("a refused Set(%s) changed the ruleset", o.name)
		}
	}
	// Options() agrees with Get.
	for _, kv := range def.Options() {
		if v, err := def.Get(kv[0]); err != nil || v != kv[1] {
			t.Errorf("Options %s = %s, Get = %s %v", kv[0], kv[1], v, err)
		}
	}
	r := Default()
	if err := r.Set("deal_packets", "[4, 4]"); err != nil || r.DealPackets != (Packets{4, 4}) {
		t.Errorf("Set deal_packets [4, 4]: %v %v", err, r.DealPackets)
	}
	if err := r.Set("nonsense", "1"); err == nil || !strings.Contains(err.Error(), "nonsense") || !strings.Contains(err.Error(), "play_rule") {
		t.Errorf("Set(nonsense) = %v", err)
	}
	if _, err := r.Get("nonsense"); err == nil || !errors.Is(err, ErrOption) {
		t.Errorf("Get(nonsense) = %v", err)
	}
}

func get2(r *Ruleset, name string) string {
	v, _ := r.Get(name)
	return v
}

func TestParseGameEnd(t *testing.T) {
	tests := []struct {
		text string
		want GameEnd
		ok   bool
	}{
		{"deals:16", GameEnd{EndAfterDeals, 16}, true},
		{"deals:8", GameEnd{EndAfterDeals, 8}, true},
		{"deals:1", GameEnd{EndAfterDeals, 1}, true},
		{"target:1500", GameEnd{EndAtTarget, 1500}, true},
		{"target:750", GameEnd{EndAtTarget, 750}, true},
		{"deals:0", GameEnd{}, false},
		{"deals:-1", GameEnd{}, false},
		{"target:0", GameEnd{}, false},
		{"deals", GameEnd{}, false},
		{"deals:", GameEnd{}, false},
		{"deals:16x", GameEnd{}, false},
		{"rounds:16", GameEnd{}, false},
		{"16", GameEnd{}, false},
		{"", GameEnd{}, false},
	}
	for _, tt := range tests {
		g, err := ParseGameEnd(tt.text)
		if (err == nil) != tt.ok || (tt.ok && g != tt.want) {
			t.Errorf("ParseGameEnd(%q) = %v, %v", tt.text, g, err)
		}
		if tt.ok && g.String() != tt.text {
			t.Errorf("GameEnd %v String = %q, want %q", g, g.String(), tt.text)
		}
	}
}

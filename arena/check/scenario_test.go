package check

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// TestScenarioFirstRequests replays every scenario in the engine and checks that the bot's
// first request is the situation the item is named after, under every four-player preset
// (the check plays them under the first preset the bot accepts).
func TestScenarioFirstRequests(t *testing.T) {
	want := map[string]string{
		"bidding direct_kiezen: free choice":                                          "bid C D H S pass",
		"bidding direct_kiezen: forced choice after four passes":                      "bid C D H S",
		"bidding direct_kiezen_verplicht: first player may not pass":                  "bid C D H S",
		"bidding direct_kiezen_dealer_verplicht: dealer forced after three passes":    "bid C D H S",
		"bidding nku_dealer_first: dealer speaks first":                               "bid C D H S pass",
		"bidding nku_dealer_first: dealer forced after four passes":                   "bid C D H S",
		"bidding draaikaart: clubs offered on the first deal":                         "bid C pass",
		"bidding draaikaart: turned suit offered in the second round":                 "bid H pass",
		"bidding draaikaart: compulsory suit, nothing asked":                          "play",
		"bidding draaikaart: joker, any suit":                                         "bid C D H S",
		"bidding draaikaart_opnieuw_schudden: turned suit offered":                    "bid D pass",
		"bidding draaikaart_vrij_kiezen: any suit after two rounds of passes":         "bid C D H S",
		"bidding draaikaart_dan_verplicht_kiezen: any suit after one round of passes": "bid C D H S",
		"bidding bga_draw: joker, any suit":                                           "bid C D H S",
		"bidding bga_draw: trump drawn, nothing asked":                                "play",
	}
	for _, base := range rules.PresetNames() {
		t.Run(base, func(t *testing.T) { checkFirstRequests(t, base, want) })
	}
}

// checkFirstRequests checks the first requests of the scenarios under the preset base
// against want, by item.
func checkFirstRequests(t *testing.T, base string, want map[string]string) {
	procedures := map[string]bool{}
	for _, sc := range biddingScenarios(base) {
		procedures[sc.rules.Bidding.String()] = true
		got := firstRequest(t, &sc)
		w, ok := want[sc.item]
		if !ok {
			t.Errorf("%s: no expectation", sc.item)
			continue
		}
		if !strings.HasPrefix(got, "bid") {
			got = "play"
		}
		if got != w {
			t.Errorf("%s: first request %q, want %q", sc.describe(), got, w)
		}
	}
	if len(procedures) != 9 {
		t.Errorf("the scenarios cover %d bidding procedures, want all 9: %v", len(procedures), procedures)
	}
	for _, sc := range playScenarios(base) {
		if got := firstRequest(t, &sc); !strings.HasPrefix(got, "play") {
			t.Errorf("%s: first request %q, want a play request", sc.describe(), got)
		}
	}
}

// firstRequest plays the scenario's prefix and the other seats' moves up to the bot's first
// decision and describes it ("bid C pass", or "play").
func firstRequest(t *testing.T, sc *scenario) string {
	t.Helper()
	d, err := rules.NewDeal(&sc.rules, sc.setup)
	if err != nil {
		t.Fatalf("%s: %v", sc.item, err)
	}
	for _, tok := range sc.prefix {
		if _, err := applyText(d, d.ToMove(), tok); err != nil {
			t.Fatalf("%s: prefix %s: %v", sc.describe(), tok, err)
		}
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for d.Phase() != rules.PhaseDone && d.ToMove() != sc.seat {
		otherAction(d, rng)
	}
	if d.Phase() == rules.PhaseDone {
		t.Fatalf("%s: the bot is never asked", sc.item)
	}
	_, kind, legal := request(d, sc.seat, 1000)
	if kind == "bid" {
		return "bid " + strings.Join(strings.Fields(legal), " ")
	}
	return kind
}

func TestRulesetName(t *testing.T) {
	rs, _ := rules.Preset("rotterdams")
	if got := rulesetName(&rs); got != "rotterdams" {
		t.Errorf("got %q", got)
	}
	rs = option("amsterdams", "bidding", "bga_draw")
	if got := rulesetName(&rs); got != "amsterdams with bidding=bga_draw" {
		t.Errorf("got %q", got)
	}
	rs = option("rotterdams", "bidding", "draaikaart")
	if got := rulesetName(&rs); got != "rotterdams with bidding=draaikaart" {
		t.Errorf("got %q", got)
	}
}

// describe names the scenario the first request the bot gets in a scenario.
func (sc *scenario) describe() string {
	return fmt.Sprintf("%s (seat %s, %s)", sc.item, sc.seat, strings.Join(sc.prefix, " "))
}

package referee

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee/rules"
)

const specDeal = `# the deal of spec.md §13
dealer W
N 7C 8C 9C JD QD JH QH KH
E TC JC QC KD AD AH 7S 8S
S KC AC 7D 7H 8H 9S TS JS
W 8D 9D TD 9H TH QS KS AS
pile 4H 2C
`

func TestParseDealsErrors(t *testing.T) {
	cases := map[string]string{
		"N 7C\n":                                 "starts with a line",
		"dealer X\n":                             "bad seat",
		"dealer W\nN 7C 8C\n":                    "no hand for E",
		"dealer W\nN 7C 7C\n":                    "7C repeats",
		"dealer W\npile 7H\n":                    "pile card",
		"dealer W\nQ 7C\n":                       "want dealer, pile or a seat",
		strings.Replace(specDeal, "AS", "7C", 1): "in two hands",
		strings.Replace(specDeal, " AS", "", 1):  "has 7 cards",
		"# nothing\n":                            "no deals",
		specDeal + "N 7C 8C 9C JD QD JH QH KH\n": "second hand for N",
	}
	for in, want := range cases {
		_, err := ParseDeals(strings.NewReader(in), "deals.txt")
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "deals.txt") {
			t.Errorf("ParseDeals(%q) = %v, want an error mentioning %q and the file", in, err, want)
		}
	}
}

func TestPredefinedDealIsPlayed(t *testing.T) {
	specs, err := ParseDeals(strings.NewReader(specDeal), "deals.txt")
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := rules.Preset("klaver_live")
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 1}
	var log bytes.Buffer
	// Seed 3 happens to give dealer W for the first game; the mirror game is dealt by N.
	if _, err := Run(context.Background(), Config{Rules: rs, Games: 1, Duplicate: true, Seed: 3, Deals: specs, Records: NewLogWriter(&log)}, randomEntrants()); err != nil {
		t.Fatal(err)
	}
	recs := records(t, &log)
	want := [4]string{"7C 8C 9C JD QD JH QH KH", "TC JC QC KD AD AH 7S 8S", "KC AC 7D 7H 8H 9S TS JS", "8D 9D TD 9H TH QS KS AS"}
	for _, r := range recs {
		turn := map[string]int{"W": 0, "N": 1, "E": 2, "S": 3}[r.Dealer]
		for i := range 4 {
			if r.Hands[(i+turn)%4] != want[i] {
				t.Errorf("mirror=%v dealer %s: hand %d is %q, want %q", r.Mirror, r.Dealer, (i+turn)%4, r.Hands[(i+turn)%4], want[i])
			}
		}
		if r.Pile[0] != "4H" || r.Pile[1] != "2C" || len(r.Pile) != 20 {
			t.Errorf("pile %v, want 4H 2C first and 20 cards", r.Pile)
		}
	}
	if len(recs) < 2 || recs[0].Dealer != "W" {
		t.Fatalf("records %d, first dealer %s", len(recs), recs[0].Dealer)
	}
}

// TestParseDeals_EveryProblemTogether: every problem of a deals file is listed, each with
// its line; a pile card may not come twice (a joker twice at most).
func TestParseDeals_EveryProblemTogether(t *testing.T) {
	in := `dealer N
N 7C 8C 9C JD QD JH QH KH
E TC JC QC KD AD AH 7S 8S
S KC AC 7D 7H 8H 9S TS JS
W 8D 9D TD 9H TH QS KS AS
pile 2C 2C JK JK JK
dealer X
N 7C
dealer S
N 7C 8C 9C JD QD JH QH KH
E 7C JC QC KD AD AH 7S 8S
Q 1
`
	_, err := ParseDeals(strings.NewReader(in), "d.txt")
	want := strings.Join([]string{
		`d.txt:6: pile card 2C twice`,
		`d.txt:6: pile card JK twice`,
		`d.txt:7: bad seat "X": want one of N E S W`,
		`d.txt:12: want dealer, pile or a seat N E S W, got "Q"`,
		`d.txt:9: deal has no hand for S`,
		`d.txt:9: deal has no hand for W`,
		`d.txt:9: card 7C in two hands`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
	_, err = ParseDeals(strings.NewReader("dealer S\nN 7C 8C 9C JD QD JH QH KH\nE 7C JC QC KD AD AH 7S 8S\n"), "d.txt")
	want = "d.txt:1: deal has no hand for S\nd.txt:1: deal has no hand for W\nd.txt:1: card 7C in two hands"
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
}

package strategy

import (
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
)

// TestVariant plays the bot with other weights (NS) against the standard bot (EW), for
// tuning; it runs only when HEURISTIC_VARIANT is set, e.g.
//
//	HEURISTIC_VARIANT="bid=56 pull=20" HEURISTIC_PAIRS=300 go test -run TestVariant -v ./examplebots/go/heuristic/strategy
//
// A share above 0.5 by more than two standard errors favours the variant.
func TestVariant(t *testing.T) {
	spec := os.Getenv("HEURISTIC_VARIANT")
	if spec == "" {
		t.Skip("set HEURISTIC_VARIANT to tune")
	}
	p := standard
	for kv := range strings.FieldsSeq(spec) {
		name, text, _ := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			t.Fatal(err)
		}
		field, ok := map[string]*float64{
			"control": &p.trumpControl, "boss": &p.bossWins, "bossextra": &p.bossExtra,
			"loose": &p.looseWins, "guarded": &p.guardedWins, "pull": &p.pullTrumps,
			"small": &p.smallTrump, "deftrump": &p.defenderTrump, "partnersuit": &p.partnersSuit,
		}[name]
		switch {
		case name == "bid":
			p.bidThreshold = int(f)
		case ok:
			*field = f
		default:
			t.Fatalf("unknown weight %q", name)
		}
	}
	variant := bot.Bot{Name: "variant", Decide: func(s *bot.State, d bot.Decision) bot.Answer { return decide(&p, s, d) }}
	e := [4]referee.Entrant{
		{Name: "variant", Start: referee.NewInProcess(variant)},
		{Name: Name, Start: referee.NewInProcess(Bot())},
		{Name: "variant", Start: referee.NewInProcess(variant)},
		{Name: Name, Start: referee.NewInProcess(Bot())},
	}
	preset := orDefault(os.Getenv("HEURISTIC_PRESET"), "amsterdams")
	res, err := referee.Run(context.Background(), referee.Config{Rules: mustRuleset(t, preset), Games: pairs(t, 300), Duplicate: true, Seed: 1}, e[:])
	if err != nil {
		t.Fatal(err)
	}
	shares := res.Pairs()
	var sum, sq float64
	for _, p := range shares {
		x := p.Share
		sum += x
		sq += x * x
	}
	n := float64(len(shares))
	mean := sum / n
	se := math.Sqrt((sq/n - mean*mean) / n)
	a, b := res.Sides[0], res.Sides[1]
	t.Logf("%s [%s]: variant's share %.4f ± %.4f over %d pairs; games %d-%d; made/nat %d/%d vs %d/%d",
		preset, spec, mean, se, len(shares), a.GamesWon, b.GamesWon, a.Made, a.Nat, b.Made, b.Nat)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// pairs returns HEURISTIC_PAIRS, or def.
func pairs(tb testing.TB, def int) int {
	tb.Helper()
	text := os.Getenv("HEURISTIC_PAIRS")
	if text == "" {
		return def
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 {
		tb.Fatalf("HEURISTIC_PAIRS=%q: want a positive number", text)
	}
	return n
}

package referee

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

var update = flag.Bool("update", false, "rewrite the transcripts in spec.md from the referee's output")

// transcriptBlock matches a fenced block "```transcript key=value ...\n...\n```" in spec.md.
var transcriptBlock = regexp.MustCompile("(?s)```transcript ([^\n]*)\n(.*?)```")

// exampleBot is the deterministic bot of the spec's transcripts: it plays on a suit in which
// it holds the jack and at least three cards, otherwise passes (or, when it must choose,
// names its longest suit); it plays its lowest legal card, claims roem honestly and lays
// away its two cheapest cards that are not trumps.
func exampleBot() bot.Bot {
	return bot.Bot{Name: "example", Author: "spec.md", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.DiscardKind:
			return bot.Answer{Discard: bot.LowestDiscard(s.Hand, s.Trump)}
		case bot.BidKind:
			best, bestLen := protocol.BidPass, -1
			for _, b := range d.LegalBids.All() {
				if b == protocol.BidPass {
					continue
				}
				n := s.Hand.Suit(b.Suit()).Len()
				strong := s.Hand.Has(protocol.NewCard(protocol.Jack, b.Suit())) && n >= 3
				if (strong || !d.LegalBids.Has(protocol.BidPass)) && n > bestLen {
					best, bestLen = b, n
				}
			}
			return bot.Answer{Bid: best}
		case bot.ClaimKind:
			opts := map[string]any{}
			for k, v := range s.Options {
				opts[k] = v
			}
			rs, _ := rules.FromMap(opts)
			return bot.Answer{Claim: rules.TrickRoem(&rs, protocol.SetOf(d.Trick...), s.Trump).Total()}
		}
		return bot.Answer{Card: d.LegalCards.Lowest()}
	}}
}

// transcript plays one game of example bots with the block's parameters (seed, preset,
// seat, deals, bots at the table, and any ruleset option) and returns what the seat saw and
// said.
func transcript(t *testing.T, params string) string {
	t.Helper()
	kv := map[string]string{"seed": "1", "preset": "amsterdams", "seat": "N", "deals": "1", "bots": ""}
	for f := range strings.FieldsSeq(params) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			t.Fatalf("transcript parameter %q: want key=value", f)
		}
		kv[k] = v
	}
	rs, err := rules.Preset(kv["preset"])
	if err != nil {
		t.Fatal(err)
	}
	deals, err1 := strconv.Atoi(kv["deals"])
	seed, err2 := strconv.ParseUint(kv["seed"], 10, 64)
	seat, err3 := protocol.ParseSeat(kv["seat"])
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatalf("transcript parameters %q", params)
	}
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: deals}
	table, err := strconv.Atoi(cmp.Or(kv["bots"], strconv.Itoa(rs.Players)))
	if err != nil {
		t.Fatalf("transcript parameter bots=%q", kv["bots"])
	}
	for k, v := range kv {
		if k != "seed" && k != "preset" && k != "seat" && k != "deals" && k != "bots" {
			if err := rs.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	var lines []string
	entrants := make([]Entrant, table)
	for i := range entrants {
		entrants[i] = Entrant{Start: NewInProcess(exampleBot())}
	}
	entrants[seat].Start = recorded(entrants[seat].Start, &lines)
	if _, err := Run(context.Background(), Config{ID: "spec", Rules: rs, Games: 1, Seed: seed}, entrants); err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestSpecTranscripts keeps spec.md honest: every transcript in it must be exactly what the
// referee sends and what the example bot answers. Run with -update to regenerate them.
func TestSpecTranscripts(t *testing.T) {
	const path = "../spec.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	blocks := transcriptBlock.FindAllStringSubmatchIndex(string(data), -1)
	if len(blocks) < 2 {
		t.Fatalf("spec.md has %d transcript blocks, want at least 2", len(blocks))
	}
	var out strings.Builder
	last := 0
	for _, b := range blocks {
		params := string(data[b[2]:b[3]])
		got := transcript(t, params)
		if want := string(data[b[4]:b[5]]); got != want && !*update {
			t.Errorf("transcript %q in spec.md differs from the referee (run go test ./referee -run TestSpecTranscripts -update):\n%s", params, firstDiff(want, got))
		}
		out.Write(data[last:b[4]])
		out.WriteString(got)
		last = b[5]
	}
	out.Write(data[last:])
	if *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n spec.md: %s\n referee: %s", i+1, a, b)
		}
	}
	return ""
}

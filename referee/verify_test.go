package referee

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// verifyMatchLog plays a match in process and returns its deal records.
func verifyMatchLog(t *testing.T, rs rules.Ruleset, table, games int, duplicate bool) []DealRecord {
	t.Helper()
	return verifyMatchLogKey(t, rs, table, games, duplicate, nil)
}

// verifyMatchLogKey is verifyMatchLog with a deal key (nil for none).
func verifyMatchLogKey(t *testing.T, rs rules.Ruleset, table, games int, duplicate bool, key []byte) []DealRecord {
	t.Helper()
	var log bytes.Buffer
	entrants := threeEntrants(table)
	if rs.Players == 4 {
		entrants = make([]Entrant, 4)
		for i := range entrants {
			name := fmt.Sprintf("b%d", i%2)
			entrants[i] = Entrant{Name: name, Start: NewInProcess(randomBot(name, uint64(i+3)))}
		}
	}
	cfg := Config{ID: "v", Rules: rs, Games: games, Duplicate: duplicate, Seed: 17, Key: key, Records: NewLogWriter(&log)}
	if _, err := Run(context.Background(), cfg, entrants); err != nil {
		t.Fatal(err)
	}
	return records(t, &log)
}

func problemText(ps []MatchProblem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "[%d] %s\n", p.Index, p.Text)
	}
	return b.String()
}

// TestVerifyMatchClean: the matches Run plays pass VerifyMatch, with the games adding up to
// Run's own totals, for both games, every table size, with and without duplicate, with
// redeals and with a target score.
func TestVerifyMatchClean(t *testing.T) {
	three, _ := rules.Preset("drie_spelers")
	three.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 6}
	target := rules.Default()
	target.GameEnd = rules.GameEnd{Kind: rules.EndAtTarget, N: 700}
	for _, tc := range []struct {
		name      string
		rs        rules.Ruleset
		table     int
		duplicate bool
		key       []byte
	}{
		{"four", rules.Default(), 4, true, nil},
		{"four-single", rules.Default(), 4, false, nil},
		{"target", target, 4, true, nil},
		{"three", three, 3, true, nil},
		{"three-at-four", three, 4, true, nil},
		{"three-single", three, 3, false, nil},
		{"four-keyed", rules.Default(), 4, true, testVerifyKey},
		{"three-at-four-keyed", three, 4, true, testVerifyKey},
		{"three-single-keyed", three, 3, false, testVerifyKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := verifyMatchLogKey(t, tc.rs, tc.table, 2, tc.duplicate, tc.key)
			if tc.key != nil && !recs[0].Keyed {
				t.Fatal("a keyed match's records are not marked keyed")
			}
			sums, ps := VerifyMatch(recs, false)
			if len(ps) > 0 {
				t.Fatalf("clean match:\n%s", problemText(ps))
			}
			want := 2
			if tc.duplicate {
				want *= DuplicateGames(&tc.rs, tc.table)
			}
			if len(sums) != want {
				t.Fatalf("%d games, want %d", len(sums), want)
			}
			// Cut short: only an open match may end in the middle of a game.
			if _, ps := VerifyMatch(recs[:len(recs)-1], true); len(ps) > 0 {
				t.Errorf("open match cut short:\n%s", problemText(ps))
			}
			if _, ps := VerifyMatch(recs[:len(recs)-1], false); !strings.Contains(problemText(ps), "unfinished") {
				t.Errorf("closed match cut short:\n%s", problemText(ps))
			}
		})
	}
}

// testVerifyKey is a deal key for keyed matches: VerifyMatch must check them without it.
var testVerifyKey = bytes.Repeat([]byte{0x3c}, KeySize)

// TestVerifyMatchFindings alters one thing at a time and checks VerifyMatch reports it at
// the record where it shows.
func TestVerifyMatchFindings(t *testing.T) {
	recs := verifyMatchLog(t, rules.Default(), 4, 2, true)
	rs3, _ := rules.Preset("drie_spelers")
	rs3.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 6}
	three := verifyMatchLog(t, rs3, 4, 1, true)
	keyed := verifyMatchLogKey(t, rules.Default(), 4, 2, true, testVerifyKey)
	keyed3 := verifyMatchLogKey(t, rs3, 4, 1, true, testVerifyKey)
	gameStart := func(r []DealRecord, game int) int {
		for i := range r {
			if r[i].Game == game {
				return i
			}
		}
		t.Fatalf("no game %d", game)
		return -1
	}
	for _, tc := range []struct {
		name  string
		base  []DealRecord
		alter func(r []DealRecord) []DealRecord
		index int
		want  string
	}{
		{"dealer", recs, func(r []DealRecord) []DealRecord { r[4].Dealer = seatAfter(r[4].Dealer); return r }, 4, "deals here"},
		{"first", recs, func(r []DealRecord) []DealRecord { r[3].First = true; return r }, 3, "marked first"},
		{"pair", recs, func(r []DealRecord) []DealRecord { r[20].Pair = 1; return r }, 20, "deal set 1"},
		{"mirror", recs, func(r []DealRecord) []DealRecord { r[20].Mirror, r[20].Rotation = false, 0; return r }, 20, "rotation 0"},
		{"seed", recs, func(r []DealRecord) []DealRecord { r[9].Seed++; return r }, 9, "seed"},
		{"rules", recs, func(r []DealRecord) []DealRecord { r[9].Rules.PitBonus++; return r }, 9, "ruleset"},
		{"twin", recs, func(r []DealRecord) []DealRecord {
			r[18].Hands[0], r[18].Hands[2] = r[18].Hands[2], r[18].Hands[0]
			return r
		}, 18, "duplicate twin"},
		{"twin-out-of-order", recs, func(r []DealRecord) []DealRecord {
			// The twin's first game out of deal order: the twins are found all the same.
			g := gameStart(r, (r[18].Game-1)/2*2+1)
			r[g+2], r[g+3] = r[g+3], r[g+2] // deal 4 before deal 3, the twin of record 18
			r[18].Hands[0], r[18].Hands[2] = r[18].Hands[2], r[18].Hands[0]
			return r
		}, 18, "duplicate twin"},
		{"twin-pile", recs, func(r []DealRecord) []DealRecord { r[18].Pile = []string{"2C"}; return r }, 18, "duplicate twin"},
		{"goes-on", recs, func(r []DealRecord) []DealRecord {
			extra := r[15]
			extra.Deal, extra.Dealer = 17, r[0].Dealer
			return append(r[:16:16], append([]DealRecord{extra}, r[16:]...)...)
		}, 16, "goes on"},
		{"missing-game", recs, func(r []DealRecord) []DealRecord { return r[:48] }, 47, "1 of its 2 duplicate games"},
		{"three-twin", three, func(r []DealRecord) []DealRecord {
			for i := range r {
				if r[i].Game == 4 && r[i].Deal == 2 && r[i].Attempt == 0 {
					r[i].Skart = "7C 7D"
				}
			}
			return r
		}, -1, "duplicate twin"},
		// Keyed: the first dealer of a set is its first deal's; everything else relative to it.
		{"keyed-dealer", keyed, func(r []DealRecord) []DealRecord { r[4].Dealer = seatAfter(r[4].Dealer); return r }, 4, "as the set's first deal says"},
		{"keyed-first-dealer", keyed, func(r []DealRecord) []DealRecord { r[0].Dealer = seatAfter(r[0].Dealer); return r }, 1, "deals here"},
		{"keyed-second-game", keyed, func(r []DealRecord) []DealRecord {
			i := gameStart(r, 2)
			r[i].Dealer = seatAfter(r[i].Dealer)
			return r
		}, gameStart(keyed, 2), "deals here"},
		{"keyed-second-set", keyed, func(r []DealRecord) []DealRecord {
			i := gameStart(r, 4)
			r[i].Dealer = seatAfter(r[i].Dealer)
			return r
		}, gameStart(keyed, 4), "deals here"},
		{"keyed-three-at-four", keyed3, func(r []DealRecord) []DealRecord {
			i := gameStart(r, 3) + 1
			r[i].Dealer = seatAfter(r[i].Dealer)
			return r
		}, gameStart(keyed3, 3) + 1, "deals here"},
		{"keyed-unmarked", keyed, func(r []DealRecord) []DealRecord { r[9].Keyed = false; return r }, 9, "keyed false"},
		{"keyed-twin", keyed, func(r []DealRecord) []DealRecord {
			r[18].Hands[0], r[18].Hands[2] = r[18].Hands[2], r[18].Hands[0]
			return r
		}, 18, "duplicate twin"},
		{"keyed-missing-deal", keyed, func(r []DealRecord) []DealRecord { return append(r[:5:5], r[6:]...) }, 5, "deals missing"},
		{"score-sides", recs, func(r []DealRecord) []DealRecord { r[2].Result.Score = []int{1, 2, 3}; return r }, 2, "3 sides"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.alter(append([]DealRecord(nil), tc.base...))
			_, ps := VerifyMatch(r, false)
			for _, p := range ps {
				if strings.Contains(p.Text, tc.want) && (tc.index < 0 || p.Index == tc.index) {
					return
				}
			}
			t.Errorf("want %q at record %d:\n%s", tc.want, tc.index, problemText(ps))
		})
	}
}

func seatAfter(s string) string {
	return map[string]string{"N": "E", "E": "S", "S": "W", "W": "N"}[s]
}

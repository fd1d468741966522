package referee

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// claimingBot plays randomly and, in turn, claims its roem exactly, too little (nothing, or
// 10 less), or too much (a false claim of 10 or 50 more).
func claimingBot(name string, seed uint64) bot.Bot {
	b := randomBot(name, seed)
	random, n := b.Decide, 0
	b.Decide = func(s *bot.State, d bot.Decision) bot.Answer {
		if d.Kind != bot.ClaimKind {
			return random(s, d)
		}
		roem := random(s, d).Claim // the roem in the trick
		n++
		switch n % 5 {
		case 1:
			return bot.Answer{Claim: 0}
		case 2:
			return bot.Answer{Claim: max(roem-10, 0)}
		case 3:
			return bot.Answer{Claim: roem + 10}
		case 4:
			return bot.Answer{Claim: roem + 50}
		}
		return bot.Answer{Claim: roem}
	}
	return b
}

// TestClaimOutcomesInTrickEvents plays claim_required matches at four and at three players
// (at a table of three and of four) with bots making every kind of claim, and checks the
// trick event each seat is sent after every claim: it reports the claim when it is no more
// than the trick's roem, else 0 (a false claim scores nothing, whatever the same trick of
// an earlier deal scored); and each deal's scored roem is what the trick events reported
// plus the false-claim penalties.
func TestClaimOutcomesInTrickEvents(t *testing.T) {
	four, _ := rules.Preset("nku_rotterdams_tournament")
	three, _ := rules.Preset("drie_spelers")
	three.RoemClaiming = rules.RoemClaimRequired
	for _, tc := range []struct {
		name  string
		rs    rules.Ruleset
		table int
	}{{"four", four, 4}, {"three", three, 3}, {"three at four", three, 4}} {
		t.Run(tc.name, func(t *testing.T) {
			rs := tc.rs
			rs.FalseClaimPenalty = 20
			rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 16}
			lines := make([][]string, tc.table)
			entrants := make([]Entrant, tc.table)
			for i := range entrants {
				name := fmt.Sprintf("c%d", i)
				entrants[i] = Entrant{Name: name, Start: recorded(NewInProcess(claimingBot(name, uint64(i+30))), &lines[i])}
			}
			if _, err := Run(context.Background(), Config{Rules: rs, Games: 2, Seed: 3}, entrants); err != nil {
				t.Fatal(err)
			}
			outcomes := map[string]int{}
			var deals []dealRoem
			for seat, ls := range lines {
				seen := checkClaimEvents(t, &rs, protocol.Seat(seat), tc.table, ls, outcomes)
				if seat == 0 {
					deals = seen
					continue
				}
				if len(seen) != len(deals) {
					t.Fatalf("seat %s was told %d deals, N %d", protocol.Seat(seat), len(seen), len(deals))
				}
				for k := range deals {
					for s := range deals[k].penalties {
						deals[k].penalties[s] += seen[k].penalties[s]
					}
				}
			}
			// A deal's scored roem is what its trick events reported plus the penalties for
			// every seat's false claims.
			for k, d := range deals {
				if d.scored == nil {
					continue
				}
				var want []int
				for s := range d.scored {
					want = append(want, d.events[s]+d.penalties[s])
				}
				if fmt.Sprint(want) != fmt.Sprint(d.scored) {
					t.Errorf("deal %d: scored roem %v, the trick events and false-claim penalties give %v", k+1, d.scored, want)
				}
			}
			for _, o := range []string{"exact", "nothing", "too little", "false"} {
				if outcomes[o] == 0 {
					t.Errorf("no %s claim with roem in the trick was made: %v", o, outcomes)
				}
			}
			// Every seat is told the same tricks.
			tricks := func(ls []string) string {
				var b strings.Builder
				for _, l := range ls {
					if strings.HasPrefix(l, "< trick ") || strings.HasPrefix(l, "< scored ") {
						b.WriteString(l + "\n")
					}
				}
				return b.String()
			}
			for s := 1; s < tc.table; s++ {
				if a, b := tricks(lines[0]), tricks(lines[s]); a != b {
					t.Errorf("seat %s was told other tricks than N:\n%s", protocol.Seat(s), firstDiff(a, b))
				}
			}
		})
	}
}

// dealRoem is one deal's roem as a seat saw it, per side of the scored line: reported by
// the trick events, the false-claim penalties of the seat's own claims, and the scored roem
// (nil for a deal that was not played out).
type dealRoem struct {
	events, penalties [4]int
	scored            []int
	sitsOut           int // the table seat of a dealer sitting out, or -1
}

// checkClaimEvents follows one seat's transcript: after each of its claims the next trick
// event must report what the claim scored. It returns the roem of each deal it saw.
func checkClaimEvents(t *testing.T, rs *rules.Ruleset, seat protocol.Seat, table int, lines []string, outcomes map[string]int) []dealRoem {
	t.Helper()
	side := func(s protocol.Seat) int {
		if rs.Players == 4 {
			return int(s) & 1
		}
		return int(s)
	}
	sides := 2
	if rs.Players == 3 {
		sides = table
	}
	var deals []dealRoem
	var cur dealRoem
	want := -1 // the roem the next trick event must report, after this seat's claim
	for i, line := range lines {
		switch {
		case strings.HasPrefix(line, "< dealt "):
			cur = dealRoem{sitsOut: -1}
			if rs.Players == 3 && table == 4 {
				dealer, _ := protocol.ParseSeat(strings.Fields(line)[3])
				cur.sitsOut = int(dealer)
			}
		case strings.HasPrefix(line, "< claim "):
			req, err := protocol.ParseMessage(line[2:])
			if err != nil {
				t.Fatal(err)
			}
			c := req.(*protocol.ClaimRequest)
			inTrick := rules.TrickRoem(rs, protocol.SetOf(c.Trick...), c.Trump).Total()
			claim, err := strconv.Atoi(strings.TrimPrefix(lines[i+1], "> "))
			if err != nil {
				t.Fatalf("line %d: %q after a claim request", i+2, lines[i+1])
			}
			switch {
			case claim > inTrick:
				want = 0
				for s := range sides {
					if s != side(seat) && s != cur.sitsOut {
						cur.penalties[s] += rs.FalseClaimPenalty
					}
				}
				if inTrick > 0 {
					outcomes["false"]++
				}
			case inTrick == 0:
				want = 0
			case claim == inTrick:
				want, outcomes["exact"] = claim, outcomes["exact"]+1
			case claim == 0:
				want, outcomes["nothing"] = 0, outcomes["nothing"]+1
			default:
				want, outcomes["too little"] = claim, outcomes["too little"]+1
			}
		case strings.HasPrefix(line, "< trick "):
			var winner string
			var points, got int
			if _, err := fmt.Sscanf(line, "< trick %s %d %d", &winner, &points, &got); err != nil {
				t.Fatalf("line %d: %q: %v", i+1, line, err)
			}
			w, _ := protocol.ParseSeat(winner)
			cur.events[side(w)] += got
			if want >= 0 && (w != seat || got != want) {
				t.Errorf("seat %s, line %d: %q after the claim %s, want roem %d (%s wins)", seat, i+1, line, lines[i-1], want, seat)
			}
			want = -1
		case strings.HasPrefix(line, "< scored "):
			sc, err := protocol.ParseMessage(line[2:])
			if err != nil {
				t.Fatal(err)
			}
			if m := sc.(*protocol.Scored); m.Outcome == "made" || m.Outcome == "nat" {
				cur.scored = m.Roem
			}
			deals = append(deals, cur)
		}
	}
	return deals
}

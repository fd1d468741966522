package referee

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// threeEntrants returns n random bots for the three-player game.
func threeEntrants(n int) []Entrant {
	e := make([]Entrant, n)
	for i := range e {
		name := fmt.Sprintf("p%d", i)
		e[i] = Entrant{Name: name, Start: NewInProcess(randomBot(name, uint64(i+11)))}
	}
	return e
}

// TestThreePlayerMatch plays duplicate three-player matches at a table of three and of four
// (the dealer sitting out), re-referees every logged deal, and checks the seating, the
// rotation of the hands over the duplicate set, and that the per-seat results add up.
func TestThreePlayerMatch(t *testing.T) {
	rs, _ := rules.Preset("drie_spelers")
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 8}
	for _, table := range []int{3, 4} {
		t.Run(fmt.Sprint(table), func(t *testing.T) {
			var log bytes.Buffer
			res, err := Run(context.Background(), Config{ID: "three", Rules: rs, Games: 2, Duplicate: true, Seed: 5, Records: NewLogWriter(&log)}, threeEntrants(table))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Games) != 2*table || len(res.Sides) != table || len(res.Bots) != table || res.Pairs() != nil {
				t.Fatalf("%d games, %d sides, %d bots; want %d games and %d of each", len(res.Games), len(res.Sides), len(res.Bots), 2*table, table)
			}
			recs := records(t, &log) // verifies every record
			totals := map[int][]int{}
			first := map[int]*DealRecord{} // the first deal of each game
			for i := range recs {
				r := &recs[i]
				dealer, _ := protocol.ParseSeat(r.Dealer)
				if r.Table != 0 && r.Table != table || (table == 4) != (r.Table == 4) {
					t.Fatalf("record table %d at a table of %d", r.Table, table)
				}
				for s := range table {
					want := 10
					if table == 4 && protocol.Seat(s) == dealer {
						want = 0
					}
					if got := len(strings.Fields(r.Hands[s])); got != want {
						t.Fatalf("game %d deal %d: seat %s (dealer %s) holds %d cards, want %d", r.Game, r.Deal, protocol.Seat(s), dealer, got, want)
					}
				}
				if len(strings.Fields(r.Skart)) != 2 || len(r.Result.Score) != table {
					t.Fatalf("skart %q, %d scores", r.Skart, len(r.Result.Score))
				}
				if totals[r.Game] == nil {
					totals[r.Game], first[r.Game] = make([]int, table), r
				}
				for s, v := range r.Result.Score {
					if v%10 != 0 {
						t.Errorf("game %d deal %d: score %v not rounded to tens", r.Game, r.Deal, r.Result.Score)
					}
					totals[r.Game][s] += v
				}
				if table == 4 && r.Result.Score[dealer] != 0 {
					t.Errorf("the dealer %s sat out but scored %d", dealer, r.Result.Score[dealer])
				}
				for _, a := range r.Actions {
					if table == 4 && a.Seat == r.Dealer {
						t.Fatalf("the dealer %s sitting out was asked to act: %+v", dealer, a)
					}
				}
			}
			points := make([]int, table)
			for _, g := range res.Games {
				if fmt.Sprint(g.Totals) != fmt.Sprint(totals[g.Number]) {
					t.Errorf("game %d totals %v, the records add up to %v", g.Number, g.Totals, totals[g.Number])
				}
				for s, v := range g.Totals {
					points[s] += v
				}
				// Rotation k moves the first deal's hands k seats on, the dealer with them.
				base, this := first[g.Number-g.Rotation], first[g.Number]
				for s := range table {
					if got, want := this.Hands[(s+g.Rotation)%table], base.Hands[s]; got != want {
						t.Errorf("game %d (rotation %d): seat %s holds %q, want %q", g.Number, g.Rotation, protocol.Seat((s+g.Rotation)%table), got, want)
					}
				}
			}
			for s, side := range res.Sides {
				if side.Points != points[s] || len(side.Bots) != 1 || side.Bots[0] != res.Bots[s].Name {
					t.Errorf("side %d: %+v, the games add up to %d points", s, side, points[s])
				}
			}
		})
	}
}

// TestThreePlayerInformationHiding: each player is told his own ten cards (none when he sits
// out, and then nothing is asked of him); only the Player sees the skart, in his discard
// request; nobody sees the discards or another hand.
func TestThreePlayerInformationHiding(t *testing.T) {
	rs, _ := rules.Preset("drie_spelers")
	for _, table := range []int{3, 4} {
		transcripts := make([][]string, table)
		entrants := threeEntrants(table)
		for i := range entrants {
			entrants[i].Start = recorded(entrants[i].Start, &transcripts[i])
		}
		if _, err := Run(context.Background(), Config{Rules: rs, Games: 1, Duplicate: true, Seed: 8}, entrants); err != nil {
			t.Fatal(err)
		}
		discards := 0
		for seat, lines := range transcripts {
			var hand, seen protocol.CardSet
			sitting := false
			for _, l := range lines {
				if !strings.HasPrefix(l, "< ") {
					continue
				}
				msg, err := protocol.ParseMessage(l[2:])
				if err != nil {
					t.Fatalf("seat %s got an unparsable line %q: %v", protocol.Seat(seat), l, err)
				}
				known := func(cards protocol.CardSet) {
					if leak := cards &^ hand &^ seen; leak != 0 {
						t.Fatalf("table %d: seat %s was shown %v before they were played: %q", table, protocol.Seat(seat), leak, l)
					}
				}
				if _, ok := msg.(*protocol.Klaverjas); ok {
					sitting = false // a new process: the next game's room (Rooms)
				}
				if sitting && isRequest(msg) {
					t.Fatalf("table %d: the dealer %s sitting out was asked %q", table, protocol.Seat(seat), l)
				}
				switch m := msg.(type) {
				case *protocol.Dealt:
					hand, seen = m.Hand, 0
					sitting = m.Dealer == protocol.Seat(seat) && table == 4
					if want := map[bool]int{true: 0, false: 10}[sitting]; m.Hand.Len() != want {
						t.Fatalf("table %d: seat %s dealt %d cards (dealer %s)", table, protocol.Seat(seat), m.Hand.Len(), m.Dealer)
					}
				case *protocol.Played:
					seen = seen.Add(m.Card)
				case *protocol.DiscardRequest:
					discards++
					if m.Skart.Len() != 2 || m.Hand != hand|m.Skart || hand&m.Skart != 0 {
						t.Fatalf("discard request %q for the hand %v", l, hand)
					}
					hand |= m.Skart
				case *protocol.BidRequest:
					known(m.Hand)
				case *protocol.PlayRequest:
					known(m.Hand | m.Legal | protocol.SetOf(m.Trick...))
				case *protocol.Scored:
					if len(m.Score) != table {
						t.Fatalf("scored %q: want %d per-seat scores", l, table)
					}
				}
			}
		}
		if discards == 0 {
			t.Errorf("table %d: nobody was asked to discard", table)
		}
	}
}

// TestThreePlayerRefused: a bot that does not play the three-player game says so at the
// handshake, and the match ends before any deal.
func TestThreePlayerRefused(t *testing.T) {
	rs, _ := rules.Preset("drie_spelers")
	e := threeEntrants(3)
	fourOnly := randomBot("four-only", 1)
	fourOnly.ThreePlayer = false
	e[2] = Entrant{Name: "four-only", Start: NewInProcess(fourOnly)}
	res, err := Run(context.Background(), Config{Rules: rs, Games: 1, Seed: 1}, e)
	var refused *RefusedError
	if !errors.As(err, &refused) || refused.Bot != "four-only" || !strings.Contains(refused.Reason, "three-player") {
		t.Fatalf("err = %v, want a refusal by four-only", err)
	}
	if res.Deals != 0 || res.Bots[0].Decisions != 0 {
		t.Errorf("%d deals, %d decisions before the refusal", res.Deals, res.Bots[0].Decisions)
	}
}

// TestThreePlayerBadDiscard: a discard that is not two cards of the hand forfeits the deal
// for the Player alone; the two others share the forfeit score. A line that is not two cards
// is garbage; two cards that are not two different cards of the hand are illegal.
func TestThreePlayerBadDiscard(t *testing.T) {
	rs, _ := rules.Preset("drie_spelers")
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 4}
	for _, tc := range []struct {
		reply string
		kind  FaultKind
	}{{"7C", FaultGarbage}, {"FIRST FIRST", FaultIllegal}} {
		e := threeEntrants(3)
		count := 0
		inner := e[1].Start
		e[1].Start = func(ctx context.Context) (Conn, error) {
			c, err := inner(ctx)
			return misbehaving{Conn: c, count: &count, spoil: func(n int, r Reply) (Reply, error) {
				if f := strings.Fields(r.Line); len(f) == 2 { // its answer to a discard request
					r.Line = strings.ReplaceAll(tc.reply, "FIRST", f[0])
				}
				return r, nil
			}}, err
		}
		var log bytes.Buffer
		res, err := Run(context.Background(), Config{Rules: rs, Games: 1, Seed: 3, Records: NewLogWriter(&log)}, e)
		if err != nil {
			t.Fatal(err)
		}
		forfeits := 0
		for _, r := range records(t, &log) {
			if r.Result.Outcome != rules.Forfeited.String() {
				continue
			}
			forfeits++
			if r.Result.Offender != "E" || r.Result.Score[1] != 0 || r.Result.Score[0] != r.Result.Score[2] || r.Result.Score[0] == 0 {
				t.Errorf("%q: forfeit %+v, want E to score 0 and the others the same", tc.reply, r.Result)
			}
		}
		if forfeits == 0 || res.Bots[1].Faults[tc.kind] != forfeits || res.Sides[1].Forfeits != forfeits {
			t.Errorf("%q: %d forfeits, faults %v, side E forfeits %d", tc.reply, forfeits, res.Bots[1].Faults, res.Sides[1].Forfeits)
		}
	}
}

// TestActiveLine: at a table of four playing the three-player game every seat is told,
// right after dealt, the three seats that play the deal in play order from the player left
// of the dealer; at a table of three and in the four-player game nobody is.
func TestActiveLine(t *testing.T) {
	three, _ := rules.Preset("drie_spelers")
	three.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 6}
	four := rules.Default()
	four.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 2}
	for _, tc := range []struct {
		name    string
		rs      rules.Ruleset
		entrant []Entrant
	}{{"three at four", three, threeEntrants(4)}, {"three", three, threeEntrants(3)}, {"four", four, randomEntrants()}} {
		t.Run(tc.name, func(t *testing.T) {
			lines := make([][]string, len(tc.entrant))
			for i := range tc.entrant {
				tc.entrant[i].Start = recorded(tc.entrant[i].Start, &lines[i])
			}
			if _, err := Run(context.Background(), Config{Rules: tc.rs, Games: 1, Duplicate: true, Seed: 4}, tc.entrant); err != nil {
				t.Fatal(err)
			}
			sitsOut := tc.rs.Players == 3 && len(tc.entrant) == 4
			for seat, ls := range lines {
				deals := 0
				for i, line := range ls {
					if strings.HasPrefix(line, "< active ") != (sitsOut && i > 0 && strings.HasPrefix(ls[i-1], "< dealt ")) {
						t.Fatalf("seat %s, line %d: %q after %q", protocol.Seat(seat), i+1, line, ls[i-1])
					}
					if !strings.HasPrefix(line, "< dealt ") {
						continue
					}
					deals++
					if !sitsOut {
						continue
					}
					dealer, _ := protocol.ParseSeat(strings.Fields(line)[3])
					want := fmt.Sprintf("< active %s %s %s", dealer.Plus(1, 4), dealer.Plus(2, 4), dealer.Plus(3, 4))
					if ls[i+1] != want {
						t.Errorf("seat %s, line %d: %q after %q, want %q", protocol.Seat(seat), i+2, ls[i+1], line, want)
					}
				}
				if deals == 0 {
					t.Fatalf("seat %s was dealt nothing", protocol.Seat(seat))
				}
			}
		})
	}
}

// isRequest reports whether the bot must answer m with one line.
func isRequest(m protocol.Message) bool {
	switch m.(type) {
	case *protocol.Klaverjas, *protocol.Rules, *protocol.BidRequest, *protocol.PlayRequest, *protocol.ClaimRequest, *protocol.DiscardRequest:
		return true
	}
	return false
}

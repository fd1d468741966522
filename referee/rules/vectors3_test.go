package rules

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

// vector3 is one vector of testdata/three-player-vectors.json (the kinds are documented in
// the file's "kinds").
type vector3 struct {
	ID      string         `json:"id"`
	Kind    string         `json:"kind"`
	Variant map[string]any `json:"variant"`

	Trump      string       `json:"trump"`
	Seat       string       `json:"seat"`
	Hand       []string     `json:"hand"`
	TrickSoFar []vectorPlay `json:"trick_so_far"`
	Legal      []string     `json:"expected_legal"`

	Trick     []vectorPlay `json:"trick"`
	LastTrick bool         `json:"last_trick"`
	Discards  []string     `json:"discards"`

	Dealer string              `json:"dealer"`
	Bids   []string            `json:"bids"`
	Maker  string              `json:"maker"`
	First  string              `json:"first_leader"`
	Hands  map[string][]string `json:"hands"`
	Skart  []string            `json:"skart"`
	Tricks []struct {
		Leader string       `json:"leader"`
		Plays  []vectorPlay `json:"plays"`
	} `json:"tricks"`

	CardPoints map[string]int `json:"card_points"`
	Roem       map[string]int `json:"roem"`
	TricksWon  map[string]int `json:"tricks_won"`

	Actions []struct {
		Seat, Action, Suit string
	} `json:"actions"`

	Deck          []string            `json:"deck_top_first"`
	ExpectedHands map[string][]string `json:"expected_hands"`
	ExpectedSkart []string            `json:"expected_skart"`

	Offender   string         `json:"offender"`
	RoemInDeal map[string]int `json:"roem_in_deal"`

	Expected json.RawMessage `json:"expected"`
}

func seatMap(m map[string]int) (out [protocol.MaxSeats]int) {
	for k, v := range m {
		s, _ := protocol.ParseSeat(k)
		out[s] = v
	}
	return out
}

func seatJSON(a [protocol.MaxSeats]int) map[string]int {
	return map[string]int{"N": a[0], "E": a[1], "S": a[2]}
}

// TestThreePlayerVectors runs testdata/three-player-vectors.json; an unknown kind fails.
func TestThreePlayerVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/three-player-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Counts  map[string]int    `json:"counts"`
		Vectors []json.RawMessage `json:"vectors"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if file.Counts["total"] != len(file.Vectors) {
		t.Errorf("counts.total %d, file has %d vectors", file.Counts["total"], len(file.Vectors))
	}
	checks := map[string]func(*testing.T, *Ruleset, *vector3){
		"legal3": checkLegal3, "trick3": checkTrick3, "deal_score3": checkDeal3, "deal_score_summary3": checkSummary3,
		"bidding3": checkBidding3, "dealing3": checkDealing3, "forfeit3": checkForfeit3,
	}
	passed := 0
	for _, raw := range file.Vectors {
		var v vector3
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("vector %s: %v", raw[:min(len(raw), 60)], err)
		}
		ok := t.Run(v.ID+"_"+v.Kind, func(t *testing.T) {
			m := map[string]any{"preset": "drie_spelers"}
			for k, x := range v.Variant {
				m[k] = x
			}
			rs, err := FromMap(numbersAsText(m))
			if err != nil {
				t.Fatal(err)
			}
			check, found := checks[v.Kind]
			if !found {
				t.Fatalf("vector kind %q is not understood by this test", v.Kind)
			}
			check(t, &rs, &v)
		})
		if ok {
			passed++
		}
	}
	t.Logf("%d three-player vectors passed (of %d)", passed, len(file.Vectors))
}

func expect3[T any](t *testing.T, v *vector3) T {
	t.Helper()
	var out T
	if err := json.Unmarshal(v.Expected, &out); err != nil {
		t.Fatalf("expected: %v", err)
	}
	return out
}

func checkLegal3(t *testing.T, rs *Ruleset, v *vector3) {
	tr := mustTrick(t, v.TrickSoFar, 3)
	if tr.N > 0 && tr.Seat(tr.N, 3) != mustSeat(t, v.Seat) {
		t.Fatalf("seat %s is not next in the trick", v.Seat)
	}
	if tr.N == 0 {
		tr.Leader = mustSeat(t, v.Seat)
	}
	got := Legal(rs, mustSuit(t, v.Trump), mustCards(t, v.Hand), &tr)
	if want := mustCards(t, v.Legal); got != want {
		t.Errorf("legal %v, want %v", got, want)
	}
}

func checkTrick3(t *testing.T, rs *Ruleset, v *vector3) {
	want := expect3[struct {
		Winner    string   `json:"winner_seat"`
		Points    int      `json:"card_points"`
		Roem      int      `json:"roem"`
		Breakdown []string `json:"roem_breakdown"`
		Total     int      `json:"total_to_winner"`
	}](t, v)
	tr := mustTrick(t, v.Trick, 3)
	trump := mustSuit(t, v.Trump)
	points := SetPoints(tr.Played, trump)
	if v.LastTrick {
		points += rs.LastTrickBonus + SetPoints(mustCards(t, v.Discards), trump)
	}
	roem := TrickRoem(rs, tr.Played, trump)
	var names []string
	for _, it := range roem.List() {
		names = append(names, it.String())
	}
	if w := tr.Winner(trump, 3); w.String() != want.Winner || points != want.Points || roem.Total() != want.Roem ||
		!slices.Equal(names, want.Breakdown) && len(names)+len(want.Breakdown) > 0 || points+roem.Total() != want.Total {
		t.Errorf("winner %s points %d roem %d %v, want %+v", w, points, roem.Total(), names, want)
	}
}

// startVectorDeal starts a deal from a vector's dealer, hands and skart.
func startVectorDeal(t *testing.T, rs *Ruleset, v *vector3) *Deal {
	s := Setup{Dealer: mustSeat(t, v.Dealer), Skart: mustCards(t, v.Skart)}
	for k, h := range v.Hands {
		s.Hands[mustSeat(t, k)] = mustCards(t, h)
	}
	d, err := NewDeal(rs, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func checkDeal3(t *testing.T, rs *Ruleset, v *vector3) {
	type want3 struct {
		Winners    []string       `json:"trick_winners"`
		Points     []int          `json:"trick_points"`
		TrickRoem  []int          `json:"trick_roem"`
		CardPoints map[string]int `json:"card_points"`
		Roem       map[string]int `json:"roem"`
		TricksWon  map[string]int `json:"tricks_won"`
		Outcome    string         `json:"outcome"`
		Pit        *string        `json:"pit_player"`
		Unrounded  map[string]int `json:"unrounded_score"`
		Final      map[string]int `json:"final_score"`
	}
	want := expect3[want3](t, v)
	d := startVectorDeal(t, rs, v)
	for _, b := range v.Bids {
		bb := BidPass
		if b != "pass" {
			bb = PlaySuit(mustSuit(t, b))
		}
		if err := d.Bid(bb); err != nil {
			t.Fatal(err)
		}
	}
	if d.Maker().String() != v.Maker || d.Trump().String() != v.Trump || d.Phase() != PhaseSkart {
		t.Fatalf("maker %s trump %s phase %s", d.Maker(), d.Trump(), d.Phase())
	}
	disc := mustCards(t, v.Discards)
	if err := d.Discard(disc.Nth(0), disc.Nth(1)); err != nil {
		t.Fatal(err)
	}
	for i, tr := range v.Tricks {
		if d.ToMove().String() != tr.Leader || (i == 0 && tr.Leader != v.First) {
			t.Fatalf("trick %d: %s to lead, vector says %s", i+1, d.ToMove(), tr.Leader)
		}
		for _, p := range tr.Plays {
			if d.ToMove().String() != p.Seat {
				t.Fatalf("trick %d: %s to play, vector says %s", i+1, d.ToMove(), p.Seat)
			}
			if err := d.Play(mustCard(t, p.Card)); err != nil {
				t.Fatalf("trick %d: %v", i+1, err)
			}
		}
	}
	res := d.Result()
	var got want3
	for _, tr := range d.Tricks() {
		got.Winners = append(got.Winners, tr.Winner.String())
		got.Points = append(got.Points, tr.Points)
		got.TrickRoem = append(got.TrickRoem, tr.Scored)
	}
	got.CardPoints, got.Roem, got.TricksWon = seatJSON(res.CardPoints), seatJSON(res.Roem), seatJSON(res.TricksWon)
	got.Outcome, got.Final = res.Outcome.String(), seatJSON(res.Score)
	if res.PitSide >= 0 {
		p := Seat(res.PitSide).String()
		got.Pit = &p
	}
	got.Unrounded = want.Unrounded // checked below
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Errorf("got  %s\nwant %s", gj, wj)
	}
	for s, u := range seatMap(want.Unrounded) {
		if RoundScore(u) != res.Score[s] {
			t.Errorf("unrounded %d of %s rounds to %d, score %d", u, Seat(s), RoundScore(u), res.Score[s])
		}
	}
}

func checkSummary3(t *testing.T, rs *Ruleset, v *vector3) {
	want := expect3[struct {
		Outcome string         `json:"outcome"`
		Final   map[string]int `json:"final_score"`
	}](t, v)
	res := ScoreDeal(rs, int(mustSeat(t, v.Maker)), seatMap(v.CardPoints), seatMap(v.Roem), seatMap(v.TricksWon))
	if res.Outcome.String() != want.Outcome || res.Score != seatMap(want.Final) {
		t.Errorf("%s %v, want %s %v", res.Outcome, res.Score, want.Outcome, want.Final)
	}
}

func checkBidding3(t *testing.T, rs *Ruleset, v *vector3) {
	want := expect3[struct {
		Maker      string `json:"maker"`
		Trump      string `json:"trump"`
		First      string `json:"first_leader"`
		Outcome    string `json:"outcome"`
		NextDealer string `json:"next_dealer"`
	}](t, v)
	dealer := mustSeat(t, v.Dealer)
	deck := OrderedDeck()
	s := Setup{Dealer: dealer}
	s.Hands, s.Skart = DealHands(rs, &deck, dealer)
	d, err := NewDeal(rs, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range v.Actions {
		if d.ToMove().String() != a.Seat {
			t.Fatalf("%s to bid, vector says %s", d.ToMove(), a.Seat)
		}
		b := BidPass
		if a.Action == "play" {
			b = PlaySuit(mustSuit(t, a.Suit))
		}
		if err := d.Bid(b); err != nil {
			t.Fatal(err)
		}
	}
	if want.Outcome == "redeal" {
		g := NewGame(rs, dealer)
		g.Add(d.Result())
		if d.Result().Outcome != Redeal || g.Dealer().String() != want.NextDealer {
			t.Errorf("outcome %s, next dealer %s", d.Result().Outcome, g.Dealer())
		}
		return
	}
	if d.Maker().String() != want.Maker || d.Trump().String() != want.Trump {
		t.Fatalf("maker %s trump %s", d.Maker(), d.Trump())
	}
	hand := d.Hand(d.Maker())
	if err := d.Discard(hand.Nth(0), hand.Nth(1)); err != nil {
		t.Fatal(err)
	}
	if d.ToMove().String() != want.First {
		t.Errorf("first leader %s, want %s", d.ToMove(), want.First)
	}
}

func checkDealing3(t *testing.T, rs *Ruleset, v *vector3) {
	var deck Deck
	for i, c := range v.Deck {
		deck[i] = mustCard(t, c)
	}
	hands, rest := DealHands(rs, &deck, mustSeat(t, v.Dealer))
	for k, h := range v.ExpectedHands {
		if hands[mustSeat(t, k)] != mustCards(t, h) {
			t.Errorf("%s: %v, want %v", k, hands[mustSeat(t, k)], h)
		}
	}
	if rest != mustCards(t, v.ExpectedSkart) || hands[3] != 0 {
		t.Errorf("skart %v, want %v", rest, v.ExpectedSkart)
	}
}

func checkForfeit3(t *testing.T, rs *Ruleset, v *vector3) {
	want := expect3[struct {
		Final map[string]int `json:"final_score"`
	}](t, v)
	res := ScoreForfeit(rs, int(mustSeat(t, v.Offender)), seatMap(v.RoemInDeal))
	if res.Score != seatMap(want.Final) || res.Outcome != Forfeited {
		t.Errorf("%v, want %v", res.Score, want.Final)
	}
}

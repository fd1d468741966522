package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

// vectorFile is the shape of klaverjas-vectors.json, a file of rules test vectors kept outside
// this repository (README.md, "Development"), which describes its own format.
type vectorFile struct {
	DefaultVariant map[string]any    `json:"default_variant"`
	Vectors        []json.RawMessage `json:"vectors"`
}

type vectorPlay struct {
	Seat string `json:"seat"`
	Card string `json:"card"`
}

type vector struct {
	ID      string         `json:"id"`
	Kind    string         `json:"kind"`
	Variant map[string]any `json:"variant"`

	// legal
	Trump         string       `json:"trump"`
	Seat          string       `json:"seat"`
	Hand          []string     `json:"hand"`
	TrickSoFar    []vectorPlay `json:"trick_so_far"`
	ExpectedLegal []string     `json:"expected_legal"`

	// trick
	Trick     []vectorPlay `json:"trick"`
	LastTrick bool         `json:"last_trick"`

	// deal_score
	Dealer      string              `json:"dealer"`
	FirstLeader string              `json:"first_leader"`
	Maker       string              `json:"maker"`
	Hands       map[string][]string `json:"hands"`
	Tricks      []struct {
		Leader string
		Plays  []vectorPlay
	} `json:"tricks"`
	DeckTopFirst []string `json:"deck_top_first"`

	// deal_score_summary
	MakerTeam  string         `json:"maker_team"`
	CardPoints map[string]int `json:"card_points"`
	Roem       map[string]int `json:"roem"`
	TricksWon  map[string]int `json:"tricks_won"`

	// bidding
	TurnedSuits []string        `json:"turned_suits"`
	Actions     []biddingAction `json:"actions"`

	// dealing
	ExpectedHands map[string][]string `json:"expected_hands"`

	// renege_score
	OffendingTeam string         `json:"offending_team"`
	RoemInDeal    map[string]int `json:"roem_in_deal"`

	Expected json.RawMessage `json:"expected"`
}

// vectorsPath returns the vector file to run: $KLAVERJAS_VECTORS, else the shared file beside
// the repository, else "".
func vectorsPath(t *testing.T) string {
	if p := os.Getenv("KLAVERJAS_VECTORS"); p != "" {
		return p
	}
	p := filepath.Join("..", "..", "..", "shared", "vectors", "klaverjas-vectors.json")
	if _, err := os.Stat(p); err == nil {
		return p
	} else if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("vector file %s: %v", p, err)
	}
	return ""
}

func TestVectors(t *testing.T) {
	path := vectorsPath(t)
	if path == "" {
		t.Skip("no rules vectors (a file outside this repository): KLAVERJAS_VECTORS is unset and ../shared/vectors/klaverjas-vectors.json, beside the repository, does not exist")
	}
	runVectorFile(t, path)
}

// TestVectorFormat runs testdata/format-vectors.json: vectors in the format of
// klaverjas-vectors.json (vectorFile) that use what the shared sample does not (a play
// without a suit in a draaikaart round, expected.illegal_first_actions), so that the reader
// of the format is tested whole.
func TestVectorFormat(t *testing.T) {
	runVectorFile(t, filepath.Join("testdata", "format-vectors.json"))
}

// runVectorFile runs every vector of a file in the format of klaverjas-vectors.json; a
// vector of a kind this test does not understand fails.
func runVectorFile(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file vectorFile
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	passed := 0
	for _, raw := range file.Vectors {
		var v vector
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Errorf("%s: vector %s: %v", path, raw[:min(len(raw), 60)], err)
			continue
		}
		ok := t.Run(v.ID+"_"+v.Kind, func(t *testing.T) {
			rs := vectorRuleset(t, file.DefaultVariant, v.Variant)
			check, found := vectorChecks[v.Kind]
			if !found {
				t.Fatalf("vector kind %q is not understood by this test", v.Kind)
			}
			check(t, &rs, &v)
		})
		if ok {
			passed++
		}
	}
	t.Logf("%d vectors passed (of %d in %s)", passed, len(file.Vectors), path)
}

var vectorChecks = map[string]func(*testing.T, *Ruleset, *vector){
	"legal":              checkLegalVector,
	"trick":              checkTrickVector,
	"deal_score":         checkDealVector,
	"deal_score_summary": checkSummaryVector,
	"bidding":            checkBiddingVector,
	"dealing":            checkDealingVector,
	"renege_score":       checkRenegeVector,
}

func vectorRuleset(t *testing.T, defaults, variant map[string]any) Ruleset {
	t.Helper()
	m := map[string]any{}
	for k, v := range defaults {
		m[k] = v
	}
	for k, v := range variant {
		m[k] = v
	}
	rs, err := FromMap(numbersAsText(m))
	if err != nil {
		t.Fatalf("variant: %v", err)
	}
	return rs
}

func expect[T any](t *testing.T, v *vector) T {
	t.Helper()
	var e T
	dec := json.NewDecoder(bytes.NewReader(v.Expected))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("expected: %v", err)
	}
	return e
}

func mustSeat(t *testing.T, s string) Seat {
	t.Helper()
	seat, err := protocol.ParseSeat(s)
	if err != nil {
		t.Fatal(err)
	}
	return seat
}

func mustSuit(t *testing.T, s string) Suit {
	t.Helper()
	su, err := protocol.ParseSuit(s)
	if err != nil {
		t.Fatal(err)
	}
	return su
}

func mustCard(t *testing.T, s string) Card {
	t.Helper()
	c, err := protocol.ParseCard(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustCards(t *testing.T, list []string) CardSet {
	t.Helper()
	var set CardSet
	for _, s := range list {
		set = set.Add(mustCard(t, s))
	}
	return set
}

// mustTrick builds a trick from plays at a table of n, checking that the seats go clockwise
// from the leader.
func mustTrick(t *testing.T, plays []vectorPlay, n int) Trick {
	t.Helper()
	var tr Trick
	for i, p := range plays {
		s := mustSeat(t, p.Seat)
		if i == 0 {
			tr.Leader = s
		} else if want := tr.Seat(i, n); s != want {
			t.Fatalf("play %d by %s, but %s is next", i, s, want)
		}
		tr.Add(mustCard(t, p.Card))
	}
	return tr
}

func teamMap(scores [protocol.MaxSeats]int) map[string]int {
	return map[string]int{"NS": scores[protocol.NS], "EW": scores[protocol.EW]}
}

func fromTeamMap(m map[string]int) [protocol.MaxSeats]int {
	var a [protocol.MaxSeats]int
	a[protocol.NS], a[protocol.EW] = m["NS"], m["EW"]
	return a
}

func checkLegalVector(t *testing.T, rs *Ruleset, v *vector) {
	tr := mustTrick(t, v.TrickSoFar, 4)
	if tr.N > 0 && tr.Seat(tr.N, 4) != mustSeat(t, v.Seat) {
		t.Fatalf("seat %s is not next after the trick so far", v.Seat)
	}
	got := Legal(rs, mustSuit(t, v.Trump), mustCards(t, v.Hand), &tr)
	if want := mustCards(t, v.ExpectedLegal); got != want {
		t.Errorf("legal = %v, want %v", got, want)
	}
}

type trickExpect struct {
	WinnerSeat    string `json:"winner_seat"`
	WinnerTeam    string `json:"winner_team"`
	CardPoints    int    `json:"card_points"`
	Roem          int    `json:"roem"`
	RoemBreakdown []struct {
		Type   string `json:"type"`
		Points int    `json:"points"`
	} `json:"roem_breakdown"`
	TotalToWinnerTeam int `json:"total_to_winner_team"`
}

func checkTrickVector(t *testing.T, rs *Ruleset, v *vector) {
	want := expect[trickExpect](t, v)
	tr := mustTrick(t, v.Trick, 4)
	trump := mustSuit(t, v.Trump)
	winner := tr.Winner(trump, 4)
	points := SetPoints(tr.Played, trump)
	if v.LastTrick {
		points += rs.LastTrickBonus
	}
	roem := TrickRoem(rs, tr.Played, trump)
	var breakdown []string
	for _, it := range roem.List() {
		breakdown = append(breakdown, fmt.Sprintf("%s=%d", it, it.Points))
	}
	var wantBreakdown []string
	for _, it := range want.RoemBreakdown {
		wantBreakdown = append(wantBreakdown, fmt.Sprintf("%s=%d", it.Type, it.Points))
	}
	got := fmt.Sprintln(winner, protocol.TeamOf(winner), points, roem.Total(), breakdown, points+roem.Total())
	exp := fmt.Sprintln(want.WinnerSeat, want.WinnerTeam, want.CardPoints, want.Roem, wantBreakdown, want.TotalToWinnerTeam)
	if got != exp {
		t.Errorf("winner team points roem breakdown total = %s, want %s", got, exp)
	}
}

type dealExpect struct {
	TrickWinners []string       `json:"trick_winners"`
	TrickPoints  []int          `json:"trick_points"`
	TrickRoem    []int          `json:"trick_roem"`
	CardPoints   map[string]int `json:"card_points"`
	Roem         map[string]int `json:"roem"`
	TricksWon    map[string]int `json:"tricks_won"`
	Outcome      string         `json:"outcome"`
	PitTeam      *string        `json:"pit_team"`
	FinalScore   map[string]int `json:"final_score"`
}

func checkDealVector(t *testing.T, rs *Ruleset, v *vector) {
	want := expect[dealExpect](t, v)
	dealer := mustSeat(t, v.Dealer)
	var setup Setup
	setup.Dealer = dealer
	for s, cards := range v.Hands {
		setup.Hands[mustSeat(t, s)] = mustCards(t, cards)
	}
	if v.DeckTopFirst != nil {
		var deck Deck
		for i, c := range v.DeckTopFirst {
			deck[i] = mustCard(t, c)
		}
		if hands, _ := DealHands(rs, &deck, dealer); hands != setup.Hands {
			t.Errorf("dealing deck_top_first gives %v, want the vector's hands %v", hands, setup.Hands)
		}
	}
	d, err := NewDeal(rs, setup)
	if err != nil {
		t.Fatal(err)
	}
	// The vector gives the maker and trump, not the bidding: everybody before the maker passes.
	maker, trump := mustSeat(t, v.Maker), mustSuit(t, v.Trump)
	for d.Phase() == PhaseBidding {
		b := BidPass
		if d.ToMove() == maker {
			b = PlaySuit(trump)
		}
		if err := d.Bid(b); err != nil {
			t.Fatal(err)
		}
	}
	if d.Maker() != maker || d.Trump() != trump {
		t.Fatalf("maker %s trump %s, want %s %s", d.Maker(), d.Trump(), maker, trump)
	}
	if got := d.ToMove(); got != mustSeat(t, v.FirstLeader) {
		t.Errorf("first leader %s, want %s", got, v.FirstLeader)
	}
	for i, tr := range v.Tricks {
		for _, p := range tr.Plays {
			if s := mustSeat(t, p.Seat); s != d.ToMove() {
				t.Fatalf("trick %d: %s plays, but %s is to move", i+1, s, d.ToMove())
			}
			if err := d.Play(mustCard(t, p.Card)); err != nil {
				t.Fatalf("trick %d: %v", i+1, err)
			}
		}
	}
	if d.Phase() != PhaseDone {
		t.Fatalf("deal not finished after the vector's tricks: phase %s", d.Phase())
	}
	var winners []string
	var points, roem []int
	for _, rec := range d.Tricks() {
		winners = append(winners, rec.Winner.String())
		points = append(points, rec.Points)
		roem = append(roem, rec.Scored)
	}
	res := d.Result()
	pit := "null"
	if res.PitSide >= 0 {
		pit = protocol.Team(res.PitSide).String()
	}
	wantPit := "null"
	if want.PitTeam != nil {
		wantPit = *want.PitTeam
	}
	got := fmt.Sprintln(winners, points, roem, teamMap(res.CardPoints), teamMap(res.Roem), teamMap(res.TricksWon), res.Outcome, pit, teamMap(res.Score))
	exp := fmt.Sprintln(want.TrickWinners, want.TrickPoints, want.TrickRoem, want.CardPoints, want.Roem, want.TricksWon, want.Outcome, wantPit, want.FinalScore)
	if got != exp {
		t.Errorf("deal:\n got  %s\n want %s", got, exp)
	}
}

func checkSummaryVector(t *testing.T, rs *Ruleset, v *vector) {
	want := expect[struct {
		Outcome    string         `json:"outcome"`
		FinalScore map[string]int `json:"final_score"`
	}](t, v)
	team, err := protocol.ParseTeam(v.MakerTeam)
	if err != nil {
		t.Fatal(err)
	}
	res := ScoreDeal(rs, int(team), fromTeamMap(v.CardPoints), fromTeamMap(v.Roem), fromTeamMap(v.TricksWon))
	got := fmt.Sprintln(res.Outcome, teamMap(res.Score))
	if exp := fmt.Sprintln(want.Outcome, want.FinalScore); got != exp {
		t.Errorf("outcome score = %s, want %s", got, exp)
	}
}

// pileFromSuits returns a full trump pile whose cards turn up in the given suits first.
func pileFromSuits(t *testing.T, rs *Ruleset, suits []string) []protocol.PileCard {
	rest := protocol.FullPile(rs.DraaikaartJokers)
	var pile []protocol.PileCard
	for _, s := range suits {
		su := mustSuit(t, s)
		i := slices.IndexFunc(rest, func(c protocol.PileCard) bool { return c.Suit() == su })
		if i < 0 {
			t.Fatalf("turned_suits: no %s left in the pile", su)
		}
		pile = append(pile, rest[i])
		rest = slices.Delete(rest, i, i+1)
	}
	return append(pile, rest...)
}

// biddingAction is one action of a bidding vector: a seat plays on a suit or passes; in a
// draaikaart round a play may leave the suit out, accepting the suit on offer.
type biddingAction struct {
	Seat   string `json:"seat"`
	Action string `json:"action"`
	Suit   string `json:"suit"`
}

// bid returns the action as a bid in deal d.
func (a biddingAction) bid(t *testing.T, d *Deal) Bid {
	t.Helper()
	switch {
	case a.Action == "pass" && a.Suit == "":
		return BidPass
	case a.Action == "play" && a.Suit != "":
		return PlaySuit(mustSuit(t, a.Suit))
	case a.Action == "play" && d.Offered().Valid():
		return PlaySuit(d.Offered())
	case a.Action == "play":
		t.Fatalf("action %+v: a play without a suit, but no suit is on offer", a)
	default:
		t.Fatalf("action %+v: want play (with a suit, or accepting the suit on offer) or pass", a)
	}
	return BidPass
}

func checkBiddingVector(t *testing.T, rs *Ruleset, v *vector) {
	want := expect[struct {
		Maker       string          `json:"maker"`
		MakerTeam   string          `json:"maker_team"`
		Trump       string          `json:"trump"`
		FirstLeader string          `json:"first_leader"`
		Outcome     string          `json:"outcome"`
		Illegal     []biddingAction `json:"illegal_first_actions"`
	}](t, v)
	deck := OrderedDeck()
	setup := Setup{Dealer: mustSeat(t, v.Dealer)}
	setup.Hands, _ = DealHands(rs, &deck, setup.Dealer)
	if rs.Bidding.UsesPile() {
		setup.Pile = pileFromSuits(t, rs, v.TurnedSuits)
	}
	d, err := NewDeal(rs, setup)
	if err != nil {
		t.Fatal(err)
	}
	first, legal := d.ToMove(), d.LegalBids()
	for i, a := range want.Illegal {
		if a.Seat != "" && mustSeat(t, a.Seat) != first {
			t.Fatalf("illegal first action %d by %s, but %s speaks first", i+1, a.Seat, first)
		}
		b := a.bid(t, d)
		if err := d.Bid(b); err == nil {
			t.Fatalf("illegal first action %d (%s by %s) was accepted; the legal bids were %s", i+1, b, first, legal)
		}
		if d.Phase() != PhaseBidding || d.ToMove() != first || len(d.Bids()) != 0 || d.LegalBids() != legal {
			t.Fatalf("the refused first action %d (%s) changed the deal", i+1, b)
		}
	}
	for i, a := range v.Actions {
		if s := mustSeat(t, a.Seat); s != d.ToMove() {
			t.Fatalf("action %d by %s, but %s is to move", i+1, s, d.ToMove())
		}
		if err := d.Bid(a.bid(t, d)); err != nil {
			t.Fatalf("action %d: %v", i+1, err)
		}
	}
	if want.Outcome == "redeal" {
		if d.Phase() != PhaseDone || d.Result().Outcome != Redeal {
			t.Errorf("phase %s outcome %s, want a redeal", d.Phase(), d.Result().Outcome)
		}
		return
	}
	if want.Outcome != "" {
		t.Fatalf("unknown expected outcome %q", want.Outcome)
	}
	got := fmt.Sprintln(d.Phase(), d.Maker(), protocol.TeamOf(d.Maker()), d.Trump(), d.ToMove())
	if exp := fmt.Sprintln(PhasePlay, want.Maker, want.MakerTeam, want.Trump, want.FirstLeader); got != exp {
		t.Errorf("phase maker team trump leader = %s, want %s", got, exp)
	}
}

func checkDealingVector(t *testing.T, rs *Ruleset, v *vector) {
	var deck Deck
	if len(v.DeckTopFirst) != len(deck) {
		t.Fatalf("deck has %d cards", len(v.DeckTopFirst))
	}
	for i, c := range v.DeckTopFirst {
		deck[i] = mustCard(t, c)
	}
	hands, rest := DealHands(rs, &deck, mustSeat(t, v.Dealer))
	if rest != 0 {
		t.Errorf("cards left over: %v", rest)
	}
	for s, cards := range v.ExpectedHands {
		if got, want := hands[mustSeat(t, s)], mustCards(t, cards); got != want {
			t.Errorf("hand %s = %v, want %v", s, got, want)
		}
	}
}

func checkRenegeVector(t *testing.T, rs *Ruleset, v *vector) {
	want := expect[struct {
		FinalScore map[string]int `json:"final_score"`
	}](t, v)
	team, err := protocol.ParseTeam(v.OffendingTeam)
	if err != nil {
		t.Fatal(err)
	}
	res := ScoreForfeit(rs, int(team), fromTeamMap(v.RoemInDeal))
	if got := teamMap(res.Score); fmt.Sprint(got) != fmt.Sprint(want.FinalScore) {
		t.Errorf("score = %v, want %v", got, want.FinalScore)
	}
}

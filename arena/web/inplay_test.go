package web

import (
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/referee"
)

// TestDealSetInPlayWithheld: while a match is played, the deals of its first table are the
// cards its second table is dealt next (the hands moved on a seat). A spectator must not see
// them (match page, boards, deal pages, JSON, the bot page's stderr tails) before the
// duplicate set is finished at every table; once the match is done, every deal shows.
func TestDealSetInPlayWithheld(t *testing.T) {
	var recs []referee.DealRecord
	for _, r := range testRecords(t) {
		if strings.HasSuffix(r.Match, "/0") {
			recs = append(recs, r)
		}
	}
	if len(recs) != 32 || recs[16].Game != 2 {
		t.Fatalf("test data: %d deals of match 0", len(recs))
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "arena.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	name := "live"
	var bots []string
	for _, s := range recs[0].Seats[:4] {
		if !slices.Contains(bots, s) {
			bots = append(bots, s)
		}
	}
	if err := db.CreateLeague(&store.League{Name: name, Bots: bots, Matches: 1, Rules: recs[0].Rules}, nil); err != nil {
		t.Fatal(err)
	}
	m := &store.Match{Index: 0, ID: recs[0].Match, Seed: recs[0].Seed}
	for _, s := range recs[0].Seats[:4] {
		m.Seats = append(m.Seats, slices.Index(bots, s))
	}
	if err := db.StartMatch(name, m); err != nil {
		t.Fatal(err)
	}
	// The first table's game is over, the second table has played 3 of its 16 deals.
	played := 19
	if err := db.PutDeals(name, 0, recs[:played]); err != nil {
		t.Fatal(err)
	}
	srv, err := New(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := "/league/" + url.PathEscape(name) + "/match/0"
	var md view.MatchDeals
	decode(t, get(t, srv, "/api"+base), &md)
	if len(md.Deals) != 0 || len(md.Boards) != 0 {
		t.Errorf("the match in play shows %d deals and %d boards of the set in play", len(md.Deals), len(md.Boards))
	}
	page := get(t, srv, base).Body.String()
	if !strings.Contains(page, `id="withheld"`) {
		t.Errorf("the match page does not say that the deals in play are withheld")
	}
	for _, h := range strings.Fields(recs[played].Hands[0]) { // not a card of the next deal
		if strings.Contains(page, `data-card="`+h+`"`) {
			t.Errorf("the match page shows card %s", h)
		}
	}
	for _, k := range []int{1, 16, 17, played} {
		for _, p := range []string{base, "/api" + base} {
			if w := get(t, srv, p+"/deal/"+itoa(k)); w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "in play") {
				t.Errorf("%s/deal/%d of the set in play: %d %s", p, k, w.Code, w.Body.String())
			}
		}
	}
	var rep view.BotReport
	decode(t, get(t, srv, "/api/league/"+url.PathEscape(name)+"/bot/"+url.PathEscape(bots[0])), &rep)
	if rep.Scanned != 0 {
		t.Errorf("the bot page read %d deals of the set in play", rep.Scanned)
	}

	if err := db.PutDeals(name, 0, recs[played:]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.FinishMatch(name, 0, league.Summarize); err != nil {
		t.Fatal(err)
	}
	decode(t, get(t, srv, "/api"+base), &md)
	if len(md.Deals) != 32 || len(md.Boards) != 16 {
		t.Errorf("the finished match shows %d deals and %d boards, want 32 and 16", len(md.Deals), len(md.Boards))
	}
	var d DealJSON
	decode(t, get(t, srv, "/api"+base+"/deal/17"), &d)
	if d.Game != 2 || len(d.Seats) != 4 || len(d.Seats[0].Hand) != 8 {
		t.Errorf("deal 17 of the finished match: game %d, seats %v", d.Game, d.Seats)
	}
}

// TestShown: of a match not finished, the deals of the duplicate sets before the last one.
func TestShown(t *testing.T) {
	deals := func(pairs ...int) []referee.DealRecord {
		var out []referee.DealRecord
		for _, p := range pairs {
			out = append(out, referee.DealRecord{Pair: p})
		}
		return out
	}
	for _, c := range []struct {
		pairs []int
		done  bool
		want  int
	}{{nil, false, 0}, {[]int{0, 0, 0}, false, 0}, {[]int{0, 0, 0, 0, 1, 1}, false, 4}, {[]int{0, 0, 1, 1, 2}, false, 4}, {[]int{0, 0, 1, 1}, true, 4}} {
		if got := len(shown(&store.Match{Done: c.done}, deals(c.pairs...))); got != c.want {
			t.Errorf("shown(%v, done %v) = %d deals, want %d", c.pairs, c.done, got, c.want)
		}
	}
}

// TestLogDealSetInPlayWithheld: the log of a match being played (arena serve --log while
// arena match writes it) withholds the duplicate set in play as the league viewer does; the
// log of a match that is over shows every deal (arena match does not resume: a log cut
// short has nothing still to play).
func TestLogDealSetInPlayWithheld(t *testing.T) {
	var recs []view.Located
	for _, r := range testRecords(t) {
		if strings.HasSuffix(r.Match, "/0") || strings.HasSuffix(r.Match, "/1") {
			recs = append(recs, view.Located{Where: "x", Rec: r})
		}
	}
	if len(recs) != 64 || recs[16].Rec.Game != 2 || recs[32].Rec.Match == recs[0].Rec.Match {
		t.Fatalf("test data: %d deals of matches 0 and 1", len(recs))
	}
	for _, c := range []struct {
		logged int  // deals in the log: match 0's 32, then match 1's
		inPlay bool // a match writes the log
		shown  int  // of match 1's deals
	}{{48, true, 0}, {51, true, 0}, {64, true, 0}, {48, false, 16}, {51, false, 19}, {64, false, 32}} {
		ls, _, err := NewLogSource("log", "x.jsonl", recs[:c.logged], c.inPlay)
		if err != nil {
			t.Fatal(err)
		}
		srv, err := New(ls, nil)
		if err != nil {
			t.Fatal(err)
		}
		var md view.MatchDeals
		decode(t, get(t, srv, "/api/league/log/match/0"), &md)
		if len(md.Deals) != 32 {
			t.Errorf("%d deals logged, in play %t: %d deals of the first match shown, want all 32", c.logged, c.inPlay, len(md.Deals))
		}
		decode(t, get(t, srv, "/api/league/log/match/1"), &md)
		if len(md.Deals) != c.shown {
			t.Errorf("%d deals logged, in play %t: %d deals of the match in play shown, want %d", c.logged, c.inPlay, len(md.Deals), c.shown)
		}
		for _, k := range []int{1, 16, c.logged - 32} {
			w := get(t, srv, "/api/league/log/match/1/deal/"+itoa(k))
			if withheld := w.Code == http.StatusNotFound && strings.Contains(w.Body.String(), "in play"); withheld != (c.shown == 0) {
				t.Errorf("%d deals logged, in play %t: deal %d: status %d, withheld %t", c.logged, c.inPlay, k, w.Code, withheld)
			}
		}
	}
}

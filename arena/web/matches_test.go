package web

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// TestMatchesPages: the match list of a long league comes in pages of matchesPerPage, each
// with only its matches, links to the pages around it (followed here) and a count that
// takes in the scheduled matches not yet stored; a page that does not exist is not found.
// Its API answer is every match, or the page asked for. A bot's page pages its matches so.
func TestMatchesPages(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "arena.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	const stored, scheduled = 2*matchesPerPage + 100, 2*matchesPerPage + 234
	if err := db.CreateLeague(&store.League{Name: "long", Bots: []string{"a", "b"}, Matches: scheduled, Rules: rules.Default()}, nil); err != nil {
		t.Fatal(err)
	}
	w := db.NewDealWriter("long", nil)
	for i := range stored {
		if err := w.Start(store.Match{Index: i, ID: fmt.Sprintf("long/%d", i), Seats: []int{0, 1, 0, 1}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	srv, err := New(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	shows := func(body string, i int) bool { return strings.Contains(body, fmt.Sprintf(`>long/%d<`, i)) }
	path := "/league/long/matches"
	for page := 1; page <= 3; page++ {
		res := get(t, srv, path)
		body := res.Body.String()
		if res.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", path, res.Code, body)
		}
		first, last := (page-1)*matchesPerPage, min(page*matchesPerPage, stored)-1
		if !shows(body, first) || !shows(body, last) || shows(body, first-1) || shows(body, last+1) {
			t.Errorf("%s: not matches %d to %d alone", path, first, last)
		}
		if want := fmt.Sprintf("matches %d to %d of %d, page %d of 3", first+1, min(page*matchesPerPage, scheduled), scheduled, page); !strings.Contains(body, want) {
			t.Errorf("%s: no %q", path, want)
		}
		next := fmt.Sprintf(`href="/league/long/matches?page=%d">next`, page+1)
		if got := strings.Contains(body, next); got != (page < 3) {
			t.Errorf("%s: link to the next page %v", path, got)
		}
		if page > 1 && !strings.Contains(body, fmt.Sprintf(`href="/league/long/matches?page=%d">‹ previous`, page-1)) {
			t.Errorf("%s: no link to the previous page", path)
		}
		path = fmt.Sprintf("/league/long/matches?page=%d", page+1)
	}
	for _, bad := range []string{"4", "0", "-1", "x", "1e3"} {
		if res := get(t, srv, "/league/long/matches?page="+bad); res.Code != http.StatusNotFound {
			t.Errorf("page %s: %d", bad, res.Code)
		}
	}
	// A bot's page pages its matches, newest first.
	for page, want := range map[int][2]int{1: {stored - 1, stored - matchesPerPage}, 3: {stored - 2*matchesPerPage - 1, 0}} {
		path := fmt.Sprintf("/league/long/bot/a?page=%d", page)
		res := get(t, srv, path)
		body := res.Body.String()
		if res.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", path, res.Code, body)
		}
		newest, oldest := want[0], want[1]
		if !shows(body, newest) || !shows(body, oldest) || shows(body, newest+1) || shows(body, oldest-1) {
			t.Errorf("%s: not matches %d down to %d alone", path, newest, oldest)
		}
		if !strings.Contains(body, fmt.Sprintf("page %d of 3", page)) || !strings.Contains(body, `href="/league/long/bot/a?page=2"`) {
			t.Errorf("%s: no pager", path)
		}
	}
	if res := get(t, srv, "/league/long/bot/a?page=4"); res.Code != http.StatusNotFound {
		t.Errorf("bot page 4: %d", res.Code)
	}
	var all, second []store.Match
	decode(t, get(t, srv, "/api/league/long/matches"), &all)
	decode(t, get(t, srv, "/api/league/long/matches?page=2"), &second)
	if len(all) != stored || all[stored-1].Index != stored-1 {
		t.Errorf("API: %d matches", len(all))
	}
	if len(second) != matchesPerPage || second[0].Index != matchesPerPage || second[matchesPerPage-1].Index != 2*matchesPerPage-1 {
		t.Errorf("API page 2: %d matches", len(second))
	}
}

// TestMatchNumberBeyondKeys: a match number past the store's 32-bit keys is no match, not
// the match it truncates to (4294967297 is not match 1).
func TestMatchNumberBeyondKeys(t *testing.T) {
	db, name := testDB(t)
	srv, err := New(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/match/4294967297", "/match/4294967297/deal/1", "/match/18446744073709551617"} {
		for _, pre := range []string{"", "/api"} {
			if w := get(t, srv, pre+"/league/"+url.PathEscape(name)+p); w.Code != http.StatusNotFound {
				t.Errorf("%s%s: %d, want 404", pre, p, w.Code)
			}
		}
	}
}

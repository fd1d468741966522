package web

import (
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/arena/web/browsertest"
	"github.com/klaverjas-arena/arena/referee"
)

// TestBrowserDealViewer opens a deal in a real headless Chromium, steps through every card
// with the → key and checks each appears in the order the record played it, then goes back
// with ←, follows a trick's permalink, and checks the pages ran with no script error under
// the Content-Security-Policy (the hostile bot names stayed text).
func TestBrowserDealViewer(t *testing.T) {
	b := browsertest.Start(t)
	db, name := testDB(t)
	srv, err := New(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	var recs []referee.DealRecord
	if err := db.Deals(name, 1, func(_ *store.Match, r *referee.DealRecord) error { recs = append(recs, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	const k = 5
	var want []string
	for _, a := range recs[k-1].Actions {
		if a.Card != "" {
			want = append(want, a.Seat+" "+a.Card)
		}
	}
	page := ts.URL + "/league/" + url.PathEscape(name) + "/match/1/deal/" + fmt.Sprint(k)
	ctx := b.Ctx
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitReady(chromedp.CSS(`#viewer[data-ready="true"]`))); err != nil {
		t.Fatal(err)
	}
	lastCard := func() string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.ID("last-card"), "data-card"))
		if err != nil {
			t.Fatal(err)
		}
		return v.Value
	}
	// showsCard waits until the viewer shows want as the last card, at most 10 s: a loaded
	// machine may render a key's step after the key event has returned.
	showsCard := func(want string) (string, bool) {
		t.Helper()
		got := lastCard()
		for deadline := time.Now().Add(10 * time.Second); got != want && time.Now().Before(deadline); got = lastCard() {
			time.Sleep(10 * time.Millisecond)
		}
		return got, got == want
	}
	if got := lastCard(); got != "" {
		t.Fatalf("before the first card: %q", got)
	}
	for i, w := range want {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		if got, ok := showsCard(w); !ok {
			t.Fatalf("after → %d: last card %q, want %q", i+1, got, w)
		}
		if i == 12 {
			b.Screenshot(t, "deal-viewer.png")
		}
	}
	// Every card has left the hands, and the address is the last trick's permalink.
	left, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#table .hand .card:not(.gone)').length`))
	if err != nil || left != 0 {
		t.Errorf("%d cards still in the hands (%v)", left, err)
	}
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	if !strings.HasSuffix(loc, "#trick-8") {
		t.Errorf("address after the last card: %s", loc)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	if got, ok := showsCard(want[len(want)-2]); !ok {
		t.Errorf("after ←: %q, want %q", got, want[len(want)-2])
	}
	// A trick's permalink opens the viewer at the end of that trick.
	if err := chromedp.Do(ctx, chromedp.Navigate(page+"#trick-3"), chromedp.Reload(), chromedp.WaitReady(chromedp.CSS(`#viewer[data-ready="true"]`))); err != nil {
		t.Fatal(err)
	}
	if got := lastCard(); got != want[11] {
		t.Errorf("at #trick-3: last card %q, want %q", got, want[11])
	}
	step, _ := chromedp.Run(ctx, chromedp.Text(chromedp.ID("step")))
	if step != "card 12 of 32" {
		t.Errorf("step %q", step)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("first"))); err != nil || lastCard() != "" {
		t.Errorf("the start button: %v %q", err, lastCard())
	}
	// The bot names are text: shown, never run.
	names, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(".hand.seat-N .bot")))
	if names != recs[k-1].Seats[0] {
		t.Errorf("seat N shows %q, want the name %q as text", names, recs[k-1].Seats[0])
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/league/"+url.PathEscape(name)), chromedp.WaitReady(chromedp.ID("standings"))); err != nil {
		t.Fatal(err)
	}
	// The hostile names and HTML author lines are text: no element of theirs is in the page.
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelectorAll('#standings script, #standings img, #standings u, #standings b, #standings a[href^="http"]').length + '',
		[...document.querySelectorAll('#standings tbody tr')].map(tr => tr.querySelector('.name a').textContent + '=' + (tr.querySelector('.author') || {textContent: ''}).textContent).sort().join('|')]`))
	rows := []string{hostile["h"], hostile["r"], hostile["r2"]}
	for i, n := range rows {
		rows[i] = n + "=" + authors[n]
	}
	slices.Sort(rows)
	if err != nil || got[0] != "0" || got[1] != strings.Join(rows, "|") {
		t.Errorf("league page: injected elements, names=authors %q, want %q (%v)", got, strings.Join(rows, "|"), err)
	}
	shot := b.Screenshot(t, "league.png")
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 10000 {
		t.Errorf("screenshot %s: %v", filepath.Base(shot), err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/league/"+url.PathEscape(name)+"/bot/"+url.PathEscape(hostile["h"])), chromedp.WaitReady(chromedp.ID("author"))); err != nil {
		t.Fatal(err)
	}
	byline, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelectorAll('main a[href^="http"], main u, main img, main script').length + '', document.getElementById('author').textContent, document.querySelector('h1').textContent]`))
	if err != nil || byline[0] != "0" || byline[1] != "by "+authors[hostile["h"]] || byline[2] != hostile["h"] {
		t.Errorf("bot page: injected elements, author, name %q (%v)", byline, err)
	}
	if p := b.Problems(); len(p) > 0 {
		t.Errorf("the pages reported errors: %q", p)
	}
}

// TestBrowserLiveProgress: the league page of a league running in this process follows its
// progress from the server's events in a real headless Chromium: the matches done after a
// finished match, without a reload, and the stopped line at the end (league.js reads the
// status's JSON fields).
func TestBrowserLiveProgress(t *testing.T) {
	b := browsertest.Start(t)
	db, name := testDB(t)
	totals, err := db.Totals(name)
	if err != nil {
		t.Fatal(err)
	}
	progress := &view.Progress{}
	progress.Started(5, 1, totals)
	srv, err := New(db, map[string]*view.Progress{name: progress})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer ts.CloseClientConnections() // the page's event stream, which ends only with the league
	defer progress.Stopped()
	ctx := b.Ctx
	// shown polls the progress line's matches done and text until done is want and the text
	// holds line, at most 20 s (the events come at most once a second).
	shown := func(want, line string) {
		t.Helper()
		var got []string
		var err error
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			got, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.getElementById('progress').dataset.done || '', document.getElementById('progress').textContent]`))
			if err == nil && got[0] == want && strings.Contains(got[1], line) {
				return
			}
		}
		t.Fatalf("progress %q, %v; want %s matches done and %q", got, err, want, line)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/league/"+url.PathEscape(name))); err != nil {
		t.Fatal(err)
	}
	shown("1", "matches 1/5")
	progress.MatchDone(totals)
	shown("2", "matches 2/5")
	progress.Stopped()
	shown("2", "matches 2/5, stopped")
}

package web

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/referee"
)

// TestEventsThrottled: a league that finishes a match every few milliseconds sends each
// spectator at most one event per eventGap, every one with the standings and the authors,
// and the last one says it stopped.
func TestEventsThrottled(t *testing.T) {
	db, name := testDB(t)
	totals, err := db.Totals(name)
	if err != nil {
		t.Fatal(err)
	}
	pr := &view.Progress{}
	pr.Started(1000, 0, totals)
	srv, err := New(db, map[string]*view.Progress{name: pr})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	type stream struct {
		events      []string
		first, last time.Time
	}
	streams := make([]stream, 3)
	var wg sync.WaitGroup
	for i := range streams {
		resp, err := http.Get(ts.URL + "/league/" + url.PathEscape(name) + "/events")
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
					if streams[i].first.IsZero() {
						streams[i].first = time.Now()
					}
					streams[i].last = time.Now()
					streams[i].events = append(streams[i].events, data)
				}
			}
		})
	}
	var matches atomic.Int64
	for start := time.Now(); time.Since(start) < 3*eventGap; time.Sleep(5 * time.Millisecond) {
		pr.MatchDone(totals)
		matches.Add(1)
	}
	pr.Stopped()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the event streams did not end a minute after the league stopped")
	}
	for i, s := range streams {
		span := s.last.Sub(s.first)
		if n := len(s.events); n < 2 || float64(n) > span.Seconds()/eventGap.Seconds()+2 {
			t.Errorf("stream %d: %d events in %v for %d finished matches: want at most one every %v", i, n, span, matches.Load(), eventGap)
		}
		var last struct {
			Status    statusJSON
			Standings view.Standings
		}
		if err := json.Unmarshal([]byte(s.events[len(s.events)-1]), &last); err != nil {
			t.Fatal(err)
		}
		if last.Status.Running || last.Status.Done != int(matches.Load()) || len(last.Standings.Standings) != 3 {
			t.Errorf("stream %d: last event %+v", i, last.Status)
		}
		for _, st := range last.Standings.Standings {
			if st.Author != authors[st.Bot] {
				t.Errorf("stream %d: %q's author %q, want %q", i, st.Bot, st.Author, authors[st.Bot])
			}
		}
	}
}

// countingSource counts the deals read through it.
type countingSource struct {
	Source
	deals atomic.Int64
}

func (c *countingSource) Deals(league string, match int, fn func(m *store.Match, rec *referee.DealRecord) error) error {
	return c.Source.Deals(league, match, func(m *store.Match, rec *referee.DealRecord) error {
		c.deals.Add(1)
		return fn(m, rec)
	})
}

// TestMatchCached: a finished match's deals are read once for its match page and all its
// deal pages; the pages are the same on every load.
func TestMatchCached(t *testing.T) {
	db, name := testDB(t)
	src := &countingSource{Source: db}
	srv, err := New(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := "/league/" + url.PathEscape(name) + "/match/1"
	pages := []string{base, base + "/deal/1", base + "/deal/32", "/api" + base + "/deal/7"}
	var first []string
	for _, p := range pages {
		w := get(t, srv, p)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d", p, w.Code)
		}
		first = append(first, w.Body.String())
	}
	if n := src.deals.Load(); n != 32 {
		t.Errorf("match 1's pages read %d deals, want its 32 once", n)
	}
	for i, p := range pages {
		if again := get(t, srv, p).Body.String(); again != first[i] {
			t.Errorf("%s differs on a later load", p)
		}
	}
	if n := src.deals.Load(); n != 32 {
		t.Errorf("later loads read %d more deals, want none", n-32)
	}
}

// TestBotPageCached: a bot's page reads its deals once while the league's matches stay as
// they are, and shows the same on every load.
func TestBotPageCached(t *testing.T) {
	db, name := testDB(t)
	src := &countingSource{Source: db}
	srv, err := New(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := "/league/" + url.PathEscape(name) + "/bot/" + url.PathEscape(hostile["r"])
	first := get(t, srv, path).Body.String()
	read := src.deals.Load()
	if read != 64 {
		t.Errorf("the first load read %d deals, want the bot's 64", read)
	}
	for range 3 {
		if again := get(t, srv, path).Body.String(); again != first {
			t.Errorf("a later load differs:\n%s\n%s", first, again)
		}
	}
	if n := src.deals.Load(); n != read {
		t.Errorf("later loads read %d more deals, want none", n-read)
	}
	var rep view.BotReport
	decode(t, get(t, srv, "/api"+path), &rep)
	if rep.Scanned != 64 || rep.Times.Decisions < 64 {
		t.Errorf("the report from the cache: %d deals, %d decisions", rep.Scanned, rep.Times.Decisions)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/web"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// TestStandingsScale stores ARENA_SCALE_DEALS deals (e.g. 1000000) as a 10-bot league,
// in matches of 32 deals (binary rows, through a DealWriter, as a league stores them), and
// times arena standings on it. It is a measurement, skipped
// unless the variable is set (make bench-reads makes its database with it).
func TestStandingsScale(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("ARENA_SCALE_DEALS"))
	if err != nil {
		t.Skip("set ARENA_SCALE_DEALS to run")
	}
	path := filepath.Join(t.TempDir(), "scale.db")
	if d := os.Getenv("ARENA_SCALE_DB"); d != "" {
		path = d
		if _, err := os.Stat(d); err == nil {
			t.Logf("%s exists: timing it as it is", d)
			timeViewer(t, path, n/32)
			return
		}
	}
	db, err := store.Open(path, store.Options{Command: "scale test"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := range 10 {
		names = append(names, "bot"+strconv.Itoa(i))
	}
	config := "name = \"scale\"\nformat = \"round_robin\"\n" // the league file commands read back
	for _, name := range names {
		config += "[[bot]]\nname = \"" + name + "\"\ncmd = [\"true\"]\n"
	}
	if err := db.PutLeague(&store.League{Name: "scale", Rules: rules.Default(), Bots: names, Config: config, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var samples [][]referee.DealRecord
	for s := range 8 {
		samples = append(samples, inProcessMatch(t, uint64(s)))
	}
	start := time.Now()
	matches := n / 32
	w := db.NewDealWriter("scale", nil) // binary rows and group commits, as a league stores them
	for i := range matches {
		a, b := i%10, (i/10+1+i%10)%10
		if a == b {
			b = (b + 1) % 10
		}
		m := store.Match{Index: i, ID: "scale/" + strconv.Itoa(i), Seed: uint64(i % len(samples)), Seats: []int{a, b, a, b}}
		recs := slices.Clone(samples[i%len(samples)])
		for j := range recs {
			recs[j].Match, recs[j].Seats = m.ID, [4]string{names[a], names[b], names[a], names[b]}
		}
		if err := w.Start(m); err != nil {
			t.Fatal(err)
		}
		for j := range recs {
			if err := w.Put(i, &recs[j]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Finish(i, recs, league.Summarize, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("stored %d deals in %d matches in %v", matches*32, matches, time.Since(start))
	db.Close()
	st, _ := os.Stat(path)
	t.Logf("file %d bytes: %.0f bytes per deal", st.Size(), float64(st.Size())/float64(matches*32))
	start = time.Now()
	out, _, err := runArena(t, "standings", "--db", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("arena standings over %d deals took %v:\n%s", matches*32, time.Since(start), out)
	timeViewer(t, path, matches)
}

// timeViewer times the web viewer's league page (after Warm has fitted the rating history,
// as arena serve does before serving), deal pages, the list of matches and a bot's page
// (each read of the match records, the bot's also of its latest 50 matches' deals), the
// second time of a page from the viewer's caches.
func timeViewer(t *testing.T, path string, matches int) {
	db, err := store.Open(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv, err := web.New(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := srv.Warm(); err != nil {
		t.Fatal(err)
	}
	t.Logf("viewer: rating chart of %d deals computed in %v (arena serve does it before serving)", matches*32, time.Since(start))
	for _, page := range []string{"/league/scale", "/league/scale", "/league/scale/match/" + strconv.Itoa(matches/2) + "/deal/17", "/league/scale/match/7/deal/3",
		"/league/scale/matches", "/league/scale/matches", "/api/league/scale/matches", "/league/scale/bot/bot3", "/league/scale/bot/bot3"} {
		w := httptest.NewRecorder()
		start := time.Now()
		srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, page, nil))
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", page, w.Code, w.Body.String())
		}
		t.Logf("viewer %s over %d deals: %v (%d bytes)", page, matches*32, time.Since(start), w.Body.Len())
	}
}

// inProcessMatch plays one duplicate pair with in-process bots.
func inProcessMatch(t *testing.T, seed uint64) []referee.DealRecord {
	lowest := bot.Bot{Name: "lowest", Decide: func(_ *bot.State, d bot.Decision) bot.Answer {
		if d.Kind == bot.BidKind {
			return bot.Answer{Bid: d.LegalBids.All()[0]}
		}
		return bot.Answer{Card: d.LegalCards.Lowest()}
	}}
	var log bytes.Buffer
	var es [4]referee.Entrant
	for i := range es {
		es[i] = referee.Entrant{Name: "b", Start: referee.NewInProcess(lowest)}
	}
	cfg := referee.Config{ID: "x", Rules: rules.Default(), Games: 1, Duplicate: true, Seed: seed, Records: referee.NewLogWriter(&log)}
	if _, err := referee.Run(context.Background(), cfg, es[:]); err != nil {
		t.Fatal(err)
	}
	var recs []referee.DealRecord
	for line := range bytes.Lines(log.Bytes()) {
		var r referee.DealRecord
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

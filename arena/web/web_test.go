package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/referee"
)

// hostile are the bot names of the test league: bot-controlled text that must show as text.
var hostile = map[string]string{
	"h":  `<script>alert(1)</script>`,
	"r":  `<img src=x onerror=alert(2)>`,
	"r2": `"'><b>bold</b>&amp;`,
}

// authors are the author lines of the test league's bots, by name: HTML that must show as
// text. The third bot has none.
var authors = map[string]string{
	hostile["h"]: `<a href="http://evil.example/">Mallory</a> <u>&amp;</u>`,
	hostile["r"]: `<img src=y onerror=alert(4)> & co`,
}

// testRecords reads the deals of a real league (three example bots, three matches, exported
// with arena export), renamed to the hostile names; one deal gets a crash fault with an HTML
// stderr tail.
func testRecords(t testing.TB) []referee.DealRecord {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "league.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var recs []referee.DealRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r referee.DealRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		for i, s := range r.Seats {
			if h, ok := hostile[s]; ok {
				r.Seats[i] = h
			}
		}
		r.Match = "<i>w</i>" + r.Match[strings.Index(r.Match, "/"):]
		recs = append(recs, r)
	}
	recs[5].Faults = append(recs[5].Faults, referee.FaultRecord{Seat: "E", Bot: recs[5].Seats[1], Kind: "crash",
		Detail: "<b>exit 2</b>", Stderr: "panic: <script>alert(3)</script>\n"})
	return recs
}

// testDB stores the test league in a real bbolt file, match by match as a league does, and
// returns it open with the league's name.
func testDB(t testing.TB) (*store.DB, string) {
	t.Helper()
	return storeLeague(t, testRecords(t))
}

// storeLeague stores the deals recs as testDB does.
func storeLeague(t testing.TB, recs []referee.DealRecord) (*store.DB, string) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "arena.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	name := "<i>w</i>"
	var bots []string
	byMatch := map[string][]referee.DealRecord{}
	var order []string
	for _, r := range recs {
		for _, s := range r.Seats[:4] {
			if !slices.Contains(bots, s) {
				bots = append(bots, s)
			}
		}
		if byMatch[r.Match] == nil {
			order = append(order, r.Match)
		}
		byMatch[r.Match] = append(byMatch[r.Match], r)
	}
	l := &store.League{Name: name, Bots: bots, Matches: len(order), Rules: recs[0].Rules}
	for _, b := range bots {
		l.Authors = append(l.Authors, authors[b])
	}
	if err := db.CreateLeague(l, nil); err != nil {
		t.Fatal(err)
	}
	for i, id := range order {
		deals := byMatch[id]
		m := &store.Match{Index: i, ID: id, Seed: deals[0].Seed}
		for _, s := range deals[0].Seats[:4] {
			m.Seats = append(m.Seats, slices.Index(bots, s))
		}
		if err := db.StartMatch(name, m); err != nil {
			t.Fatal(err)
		}
		if err := db.PutDeals(name, i, deals); err != nil {
			t.Fatal(err)
		}
		if _, err := db.FinishMatch(name, i, league.Summarize); err != nil {
			t.Fatal(err)
		}
	}
	return db, name
}

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	return w
}

var hrefs = regexp.MustCompile(`href="(/[^"#]*)`)

// TestPagesByLinks: every page reachable by links from / answers, with the security headers
// and no hostile text unescaped; the crawl reaches every kind of page.
func TestPagesByLinks(t *testing.T) {
	db, _ := testDB(t)
	srv, err := New(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{"/": true}
	queue := []string{"/"}
	kinds := map[string]int{}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		w := get(t, srv, path)
		if w.Code != http.StatusOK {
			t.Errorf("%s: %d %s", path, w.Code, w.Body.String())
			continue
		}
		if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		body := w.Body.String()
		for _, bad := range []string{"<script>alert", "<img src=x", "<img src=y", "<a href=\"http://evil", "<u>", "<b>bold</b>", "<i>w</i>", "<b>exit 2</b>"} {
			if strings.Contains(body, bad) {
				t.Errorf("%s: unescaped %q", path, bad)
			}
		}
		for _, kind := range []string{"/bot/", "/match/", "/deal/", "/api/", "/matches", "/static/"} {
			if strings.Contains(path, kind) {
				kinds[kind]++
			}
		}
		if strings.HasPrefix(path, "/static/") || strings.HasPrefix(path, "/api/") {
			continue
		}
		for _, m := range hrefs.FindAllStringSubmatch(body, -1) {
			link := strings.ReplaceAll(m[1], "&amp;", "&")
			if !seen[link] && len(seen) < 400 {
				seen[link] = true
				queue = append(queue, link)
			}
		}
	}
	for _, kind := range []string{"/bot/", "/match/", "/deal/", "/api/", "/matches", "/static/"} {
		if kinds[kind] == 0 {
			t.Errorf("no %s page reached by links from / (%d pages)", kind, len(seen))
		}
	}
	// The escaped names are there, as text.
	body := get(t, srv, "/").Body.String() + get(t, srv, "/league/%3Ci%3Ew%3C%2Fi%3E").Body.String()
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(2)&gt;", "&lt;i&gt;w&lt;/i&gt;",
		`<span class="author">&lt;a href=&#34;http://evil.example/&#34;&gt;Mallory&lt;/a&gt; &lt;u&gt;&amp;amp;&lt;/u&gt;</span>`,
		`<span class="author">&lt;img src=y onerror=alert(4)&gt; &amp; co</span>`} {
		if !strings.Contains(body, want) {
			t.Errorf("missing escaped %q", want)
		}
	}
	faulty := testRecords(t)[5].Seats[1]
	bot := get(t, srv, "/league/"+url.PathEscape("<i>w</i>")+"/bot/"+url.PathEscape(faulty)).Body.String()
	if !strings.Contains(bot, "panic: &lt;script&gt;alert(3)&lt;/script&gt;") || !strings.Contains(bot, "crash") {
		t.Errorf("bot page: no escaped stderr tail or fault kind:\n%s", bot)
	}
	bot = get(t, srv, "/league/"+url.PathEscape("<i>w</i>")+"/bot/"+url.PathEscape(hostile["h"])).Body.String()
	if want := `<p class="author" id="author">by &lt;a href=&#34;http://evil.example/&#34;&gt;Mallory&lt;/a&gt; &lt;u&gt;&amp;amp;&lt;/u&gt;</p>`; !strings.Contains(bot, want) {
		t.Errorf("bot page: no escaped author line %s:\n%s", want, bot)
	}
}

// TestReadOnly: nothing but GET and HEAD is served, and unknown places are 404.
func TestReadOnly(t *testing.T) {
	db, _ := testDB(t)
	srv, _ := New(db, nil)
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest(m, "/league/x", strings.NewReader("x")))
		if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d", m, w.Code)
		}
	}
	for _, path := range []string{"/nope", "/league/nope", "/league/%3Ci%3Ew%3C%2Fi%3E/match/99", "/league/%3Ci%3Ew%3C%2Fi%3E/match/x",
		"/league/%3Ci%3Ew%3C%2Fi%3E/match/0/deal/0", "/league/%3Ci%3Ew%3C%2Fi%3E/match/0/deal/33", "/league/%3Ci%3Ew%3C%2Fi%3E/bot/nobody",
		"/league/%3Ci%3Ew%3C%2Fi%3E/events", "/api/league/nope"} {
		if w := get(t, srv, path); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d", path, w.Code)
		}
	}
}

// TestAPI: the JSON API serves the standings, the match's boards and each deal with its
// cards in the order the record played them.
func TestAPI(t *testing.T) {
	db, name := testDB(t)
	srv, _ := New(db, nil)
	base := "/api/league/%3Ci%3Ew%3C%2Fi%3E"
	var lp struct {
		League     store.League
		Standings  view.Standings
		Crosstable view.Crosstable
		History    []view.HistoryPoint
	}
	decode(t, get(t, srv, base), &lp)
	if len(lp.Standings.Standings) != 3 || lp.Standings.Standings[0].Bot != hostile["h"] || lp.Standings.Deals != 96 || len(lp.Crosstable.Cells) != 3 || len(lp.History) != 3 {
		t.Errorf("league: %+v", lp)
	}
	for _, st := range lp.Standings.Standings {
		if st.Author != authors[st.Bot] {
			t.Errorf("standing of %q: author %q, want %q", st.Bot, st.Author, authors[st.Bot])
		}
	}
	if !slices.Equal(lp.League.Authors, []string{authors[lp.League.Bots[0]], authors[lp.League.Bots[1]], authors[lp.League.Bots[2]]}) {
		t.Errorf("league record authors %q", lp.League.Authors)
	}
	var bot view.BotReport
	decode(t, get(t, srv, base+"/bot/"+url.PathEscape(hostile["r"])), &bot)
	if bot.Standing.Author != authors[hostile["r"]] {
		t.Errorf("bot report author %q", bot.Standing.Author)
	}
	tm := bot.Times
	hist := 0
	for _, b := range tm.Histogram {
		hist += b.Count
	}
	// r plays 2 of the 3 matches, 64 deals; each deal it decides at two seats.
	if len(bot.Opponents) != 2 || bot.Scanned != 64 || tm.Decisions < 64 || hist != tm.Decisions ||
		!(tm.Median <= tm.P90 && tm.P90 <= tm.P99 && tm.P99 <= tm.Max) || tm.Max <= 0 {
		t.Errorf("bot report: %d opponents, %d deals, times %+v", len(bot.Opponents), bot.Scanned, tm)
	}
	var md view.MatchDeals
	decode(t, get(t, srv, base+"/match/1"), &md)
	if len(md.Deals) != 32 || len(md.Boards) != 16 || len(md.Boards[0].Tables) != 2 || len(md.Games) != 2 {
		t.Fatalf("match: %d deals, %d boards", len(md.Deals), len(md.Boards))
	}
	for _, b := range md.Boards {
		sum := 0
		for _, tb := range b.Tables {
			sum += tb.BotScore[0] - tb.BotScore[1]
		}
		if sum != b.Diff || b.Tables[0].Rotation != 0 || b.Tables[1].Rotation != 1 {
			t.Errorf("board %+v", b)
		}
	}
	var recs []referee.DealRecord
	if err := db.Deals(name, 1, func(_ *store.Match, r *referee.DealRecord) error { recs = append(recs, *r); return nil }); err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 32; k += 7 {
		var d DealJSON
		decode(t, get(t, srv, base+"/match/1/deal/"+itoa(k)), &d)
		var want, got []string
		for _, a := range recs[k-1].Actions {
			if a.Card != "" {
				want = append(want, a.Seat+a.Card)
			}
		}
		for _, tr := range d.Tricks {
			for _, p := range tr.Plays {
				got = append(got, p.Seat+p.Card)
			}
		}
		if !slices.Equal(got, want) || d.N != k || d.Of != 32 || len(d.Seats) != 4 || len(d.Seats[0].Hand) != 8 {
			t.Errorf("deal %d: plays %v, want %v", k, got, want)
		}
	}
}

func decode(t *testing.T, w *httptest.ResponseRecorder, v any) {
	t.Helper()
	if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s", w.Code, w.Body.String())
	}
	if err := json.NewDecoder(io.Reader(w.Body)).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestLogSource: a log of the league serves the same standings as its database.
func TestLogSource(t *testing.T) {
	db, name := testDB(t)
	recs := testRecords(t)
	loc := make([]view.Located, len(recs))
	for i, r := range recs {
		loc[i] = view.Located{Where: "x", Rec: r}
	}
	ls, skipped, err := NewLogSource("log", "x.jsonl", loc, false)
	if err != nil || skipped != 0 {
		t.Fatal(err, skipped)
	}
	a, _ := db.Totals(name)
	b, _ := ls.Totals("log")
	if err := league.Compare(a, b); err != nil {
		t.Error(err)
	}
	cut, skipped, err := NewLogSource("log", "x.jsonl", loc[:40], false) // the second match stops short
	if err != nil || skipped != 1 {
		t.Fatalf("cut log: %v, %d sets skipped", err, skipped)
	}
	if tot, _ := cut.Totals("log"); tot.Matches != 1 || tot.Deals != 32 {
		t.Errorf("cut log totals: %d matches, %d deals", tot.Matches, tot.Deals)
	}
	srv, _ := New(ls, nil)
	if w := get(t, srv, "/league/log/match/2/deal/32"); w.Code != http.StatusOK {
		t.Errorf("log deal page: %d", w.Code)
	}
	if _, _, err := NewLogSource("log", "x.jsonl", nil, false); err == nil {
		t.Error("an empty log")
	}
}

// TestDealJSONClaims: with roem claims required, each claim names the trick it was made for.
func TestDealJSONClaims(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "view", "testdata", "claims.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	claims := 0
	for line := range bytes.Lines(data) {
		var r referee.DealRecord
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		d := dealJSON(view.DealFromRecord(&r, "x"))
		for _, c := range d.Claims {
			claims++
			if c.Trick < 1 || c.Trick > len(d.Tricks) {
				t.Errorf("claim %+v outside the %d tricks", c, len(d.Tricks))
			} else if tr := d.Tricks[c.Trick-1]; c.Roem > 0 && tr.Roem != c.Roem && len(tr.RoemItems) > 0 {
				t.Errorf("claim %+v for trick %+v", c, tr)
			}
		}
	}
	if claims == 0 {
		t.Fatal("no claim in the claims log")
	}
}

// TestBotPageBusyTimeouts: a bot's page counts, below its faults, the timeouts that came on
// a busy machine (referee.BusyMachine), and a bot without any shows no such row.
func TestBotPageBusyTimeouts(t *testing.T) {
	recs := testRecords(t)
	slow := recs[9].Seats[0]
	for i, detail := range []string{"no answer within 150ms", "no answer within 150ms; for 78 ms ... other programs had the CPU (cpu.pressure): " + referee.BusyMachine} {
		r := &recs[9+2*i]
		r.Faults = append(r.Faults, referee.FaultRecord{Seat: "N", Bot: r.Seats[0], Kind: referee.FaultTimeout, Detail: detail})
		if r.Seats[0] != slow {
			t.Fatalf("deals 9 and 11 have %s and %s in the north seat, want one bot", slow, r.Seats[0])
		}
	}
	db, name := storeLeague(t, recs)
	srv, err := New(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	for bot := range maps.Values(hostile) {
		body := get(t, srv, "/league/"+url.PathEscape(name)+"/bot/"+url.PathEscape(bot)).Body.String()
		row := regexp.MustCompile(`(?s)<tr><td>of the timeouts, on a busy machine</td>\s*<td[^>]*>(\d+)</td>`).FindStringSubmatch(body)
		timeouts := regexp.MustCompile(`(?s)<tr><td>timeout</td>\s*<td[^>]*>(\d+)</td>`).FindStringSubmatch(body)
		switch {
		case bot != slow && row != nil:
			t.Errorf("%s, with no timeout on a busy machine, has the row: %q", bot, row[0])
		case bot == slow && (row == nil || row[1] != "1" || timeouts == nil || timeouts[1] != "2"):
			t.Errorf("%s's page: timeouts %q, on a busy machine %q, want 2 and 1:\n%s", bot, timeouts, row, body)
		}
	}
}

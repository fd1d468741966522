package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/referee"
)

//go:embed templates static
var files embed.FS

// Server is the viewer's http.Handler. It only reads its Source.
type Server struct {
	src       Source
	live      map[string]*view.Progress // running leagues, by name
	templates map[string]*template.Template
	mux       *http.ServeMux

	mu      sync.Mutex
	history map[string]cached[[]view.HistoryPoint] // by league
	bots    map[string]cached[botData]             // by league NUL bot
	latest  map[string]cached[[]byte]              // the latest event of a running league
	done    *recent[matchDeals]                    // finished matches' deals, by league NUL index
	pages   *recent[[]byte]                        // rendered pages that cannot change, by path
}

// recent keeps the last values put, up to max of them; the Server's mu guards it.
type recent[V any] struct {
	max   int
	m     map[string]V
	order []string // the keys of m, oldest first
}

func newRecent[V any](max int) *recent[V] { return &recent[V]{max: max, m: map[string]V{}} }

func (r *recent[V]) get(key string) (V, bool) {
	v, ok := r.m[key]
	return v, ok
}

// put keeps v under key, unless a value is kept there already, forgetting the oldest.
func (r *recent[V]) put(key string, v V) {
	if _, ok := r.m[key]; ok {
		return
	}
	r.m[key] = v
	r.order = append(r.order, key)
	if len(r.order) > r.max {
		delete(r.m, r.order[0])
		r.order = r.order[1:]
	}
}

// fixed is the data of a page that can no longer change (a finished match's page, its deals'
// pages): rendered once and kept (the last fixedPages of them).
type fixed interface{ fixed() bool }

// fixedPages is how many rendered pages that cannot change the server keeps.
const fixedPages = 64

// matchDeals is a match record with its deals.
type matchDeals struct {
	m     *store.Match
	deals []referee.DealRecord
}

// doneMatches is how many finished matches the server keeps the deals of: a finished match
// never changes, and its match page and deal pages (and everyone looking at them) read its
// deals once.
const doneMatches = 16

// cached is a value computed from a league when it had a number of done matches.
type cached[T any] struct {
	matches int
	at      time.Time
	v       T
}

// fresh says whether c may stand for the league with done matches: it was computed with as
// many, or less than age ago.
func (c cached[T]) fresh(done int, age time.Duration) bool {
	return !c.at.IsZero() && (c.matches == done || time.Since(c.at) < age)
}

// historyAge is how long a running league's rating chart may lag behind its matches: the
// chart reads every match record, which costs a league of a million deals half a second.
const historyAge = 30 * time.Second

// botAge is how long a running league's bot page may lag behind its matches in what it reads
// from the match records and deals (its matches, decision times and last stderr; its
// standing is always the latest): it reads every match record and the deals of the bot's
// latest 50 matches (about 30 ms of CPU in make bench-serve's league), which spectators
// reloading the page must not cost a busy league (BENCHMARKS.md, "The cost of serving a
// running league").
const botAge = 10 * time.Second

// eventGap is the least time between two events of a league's event stream: a league of fast
// bots finishes tens of matches a second, and a spectator's page needs no more than one
// update a second.
const eventGap = time.Second

// csp allows this server's own script and style only: no inline script, no inline
// style, nothing from elsewhere.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// New returns a viewer of src. live maps the name of a league running in this process to
// its progress, whose changes the league page shows as they happen; it may be nil.
func New(src Source, live map[string]*view.Progress) (*Server, error) {
	s := &Server{src: src, live: live, templates: map[string]*template.Template{}, mux: http.NewServeMux(), history: map[string]cached[[]view.HistoryPoint]{},
		bots: map[string]cached[botData]{}, latest: map[string]cached[[]byte]{}, done: newRecent[matchDeals](doneMatches),
		pages: newRecent[[]byte](fixedPages)}
	for _, p := range []string{"index", "league", "matches", "bot", "match", "deal"} {
		t, err := template.New(p).Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/"+p+".html")
		if err != nil {
			return nil, err
		}
		s.templates[p] = t
	}
	static, err := fs.Sub(files, "static")
	if err != nil {
		return nil, err
	}
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.route("/{$}", s.index)
	s.route("/league/{league}", s.league)
	s.route("/league/{league}/matches", s.matches)
	s.route("/league/{league}/bot/{bot}", s.bot)
	s.route("/league/{league}/match/{match}", s.match)
	s.route("/league/{league}/match/{match}/deal/{deal}", s.deal)
	s.mux.HandleFunc("GET /league/{league}/events", s.events)
	return s, nil
}

// page is a handler that renders one page, or its JSON under /api with the same path.
type page func(r *http.Request) (name string, data any, err error)

// route serves a page at path and its data as JSON at /api+path.
func (s *Server) route(path string, p page) {
	s.mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
		name, data, err := p(r)
		if err != nil {
			s.fail(w, err)
			return
		}
		f, ok := data.(fixed)
		keep := ok && f.fixed()
		s.mu.Lock()
		html, kept := s.pages.get(r.URL.Path)
		s.mu.Unlock()
		if !keep || !kept {
			var buf bytes.Buffer
			if err := s.templates[name].ExecuteTemplate(&buf, "layout", data); err != nil {
				s.fail(w, fmt.Errorf("page %s: %w", r.URL.Path, err))
				return
			}
			if html = buf.Bytes(); keep {
				s.mu.Lock()
				s.pages.put(r.URL.Path, html)
				s.mu.Unlock()
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(html)
	})
	api := "/api" + path
	if path == "/{$}" {
		api = "/api/leagues"
	}
	s.mux.HandleFunc("GET "+api, func(w http.ResponseWriter, r *http.Request) {
		_, data, err := p(r)
		if err != nil {
			s.fail(w, err)
			return
		}
		if j, ok := data.(interface{ api() any }); ok {
			data = j.api()
		}
		body, err := json.MarshalIndent(data, "", "  ")
		if err != nil {
			s.fail(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(append(body, '\n'))
	})
}

// ServeHTTP serves GET and HEAD only, with the security headers on every answer.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "read-only: only GET and HEAD", http.StatusMethodNotAllowed)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// errNotFound is a page that does not exist.
var errNotFound = errors.New("not found")

func (s *Server) fail(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, errNotFound), errors.Is(err, store.ErrNotFound):
		http.Error(w, err.Error(), http.StatusNotFound)
	default:
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// leagues returns the source's leagues as spectators may see them: without the league
// file's text and path, which hold the bots' commands, directories and environments (env
// is where a bot's tokens go) and the paths of the arena's machine. Its hash stays.
func (s *Server) leagues() ([]store.League, error) {
	ls, err := s.src.Leagues()
	for i := range ls {
		ls[i].Config, ls[i].File = "", ""
	}
	return ls, err
}

// leagueInfo finds a league by name.
func (s *Server) leagueInfo(name string) (*store.League, error) {
	ls, err := s.leagues()
	if err != nil {
		return nil, err
	}
	for i := range ls {
		if ls[i].Name == name {
			return &ls[i], nil
		}
	}
	return nil, fmt.Errorf("league %q: %w", name, errNotFound)
}

// standings computes a league's standings (with its bots' author lines), crosstable and
// totals.
func (s *Server) standings(l *store.League) (*store.Totals, *view.Standings, *view.Crosstable, error) {
	t, err := s.src.Totals(l.Name)
	if err != nil {
		return nil, nil, nil, err
	}
	tab, err := view.ComputeStandings(l.Name, t, view.StandingsOptions{})
	if err != nil {
		return nil, nil, nil, err
	}
	tab.SetAuthors(l.Authors)
	return t, tab, view.ComputeCrosstable(t, tab), nil
}

// ratingHistory returns the league's rating chart data after done matches: computed again
// when more matches are done, at most every historyAge.
func (s *Server) ratingHistory(name string, done, bots int) ([]view.HistoryPoint, error) {
	s.mu.Lock()
	c := s.history[name]
	s.mu.Unlock()
	if c.fresh(done, historyAge) {
		return c.v, nil
	}
	matches, err := s.src.Matches(name)
	if err != nil {
		return nil, err
	}
	h := view.RatingHistory(matches, bots, 40)
	s.mu.Lock()
	s.history[name] = cached[[]view.HistoryPoint]{matches: done, at: time.Now(), v: h}
	s.mu.Unlock()
	return h, nil
}

// Warm computes every league's rating chart now, so that the first visitor of a large
// league does not wait for it (it reads every match record).
func (s *Server) Warm() error {
	ls, err := s.leagues()
	if err != nil {
		return err
	}
	for _, l := range ls {
		t, err := s.src.Totals(l.Name)
		if err != nil {
			return err
		}
		if _, err := s.ratingHistory(l.Name, t.Matches, len(l.Bots)); err != nil {
			return err
		}
	}
	return nil
}

// matchDeals reads one match and the deals of it that may be shown (shown), and how many
// are withheld; those of a finished match are kept (the last doneMatches of them) and
// shared: nobody changes them.
func (s *Server) matchDeals(league string, index int) (*store.Match, []referee.DealRecord, int, error) {
	key := league + "\x00" + strconv.Itoa(index)
	s.mu.Lock()
	c, ok := s.done.get(key)
	s.mu.Unlock()
	if ok {
		return c.m, c.deals, 0, nil
	}
	m, deals, err := s.readMatch(league, index)
	if err != nil {
		return nil, nil, 0, err
	}
	if !m.Done {
		vis := shown(m, deals)
		return m, vis, len(deals) - len(vis), nil
	}
	s.mu.Lock()
	s.done.put(key, matchDeals{m, deals})
	s.mu.Unlock()
	return m, deals, 0, nil
}

// shown returns the deals of match m that spectators may see: every deal of a finished
// match; of a match not finished (being played, or interrupted and to be resumed) only those
// of the duplicate sets before the one of its last stored deal. The deals of the set in play
// are withheld: those of its first table are the very cards its later tables are dealt next
// (the hands moved on a seat), and whoever saw them could pass every hand to a bot at those
// tables.
func shown(m *store.Match, deals []referee.DealRecord) []referee.DealRecord {
	if m.Done || len(deals) == 0 {
		return deals
	}
	pair, i := deals[len(deals)-1].Pair, len(deals)
	for i > 0 && deals[i-1].Pair == pair {
		i--
	}
	return deals[:i]
}

// readMatch reads one match and its deals.
func (s *Server) readMatch(league string, index int) (*store.Match, []referee.DealRecord, error) {
	var m *store.Match
	var deals []referee.DealRecord
	err := s.src.Deals(league, index, func(sm *store.Match, rec *referee.DealRecord) error {
		if m == nil {
			c := *sm
			m = &c
		}
		deals = append(deals, *rec)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if m == nil {
		ms, err := s.src.Matches(league)
		if err != nil {
			return nil, nil, err
		}
		i := slices.IndexFunc(ms, func(x store.Match) bool { return x.Index == index })
		if i < 0 {
			return nil, nil, fmt.Errorf("match %s/%d: %w", league, index, errNotFound)
		}
		m = &ms[i]
	}
	return m, deals, nil
}

// number reads a path value that must be a number ≥ min.
func number(r *http.Request, name string, min int) (int, error) {
	n, err := strconv.Atoi(r.PathValue(name))
	if err != nil || n < min {
		return 0, fmt.Errorf("%s %q: %w", name, r.PathValue(name), errNotFound)
	}
	return n, nil
}

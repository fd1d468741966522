package web

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/referee"
)

// indexPage lists the leagues.
type indexPage struct {
	Leagues []leagueLine
}

type leagueLine struct {
	store.League
	Done    int  `json:"done"`
	Running bool `json:"running"`
}

func (p *indexPage) api() any { return p.Leagues }

func (s *Server) index(r *http.Request) (string, any, error) {
	ls, err := s.leagues()
	if err != nil {
		return "", nil, err
	}
	p := &indexPage{Leagues: []leagueLine{}}
	for _, l := range ls {
		line := leagueLine{League: l, Running: s.live[l.Name] != nil}
		if t, err := s.src.Totals(l.Name); err == nil {
			line.Done = t.Matches
		}
		p.Leagues = append(p.Leagues, line)
	}
	return "index", p, nil
}

// leaguePage is a league's standings, crosstable, rating chart and progress.
type leaguePage struct {
	League     *store.League       `json:"league"`
	Standings  *view.Standings     `json:"standings"`
	Crosstable *view.Crosstable    `json:"crosstable"`
	History    []view.HistoryPoint `json:"history"`
	Status     *statusJSON         `json:"status,omitempty"` // while it runs in this process
	Recent     []store.Match       `json:"-"`
	Chart      *chart              `json:"-"`
}

func (s *Server) league(r *http.Request) (string, any, error) {
	l, err := s.leagueInfo(r.PathValue("league"))
	if err != nil {
		return "", nil, err
	}
	_, tab, x, err := s.standings(l)
	if err != nil {
		return "", nil, err
	}
	history, err := s.ratingHistory(l.Name, tab.Matches, len(l.Bots))
	if err != nil {
		return "", nil, err
	}
	p := &leaguePage{League: l, Standings: tab, Crosstable: x, History: history}
	p.Chart = newChart(p.History, l.Bots)
	if pr := s.live[l.Name]; pr != nil {
		p.Status = newStatus(pr.Status())
	}
	if p.Recent, err = s.src.LastMatches(l.Name, 20); err != nil {
		return "", nil, err
	}
	return "league", p, nil
}

// matchesPerPage is the matches a page of a list of matches shows.
const matchesPerPage = 500

// pager is one page of a long list of matches: its entries From to To (counted from 1) of
// All, page Page of Pages (from 1), each page at URL?page=N.
type pager struct {
	URL                        string
	Page, Pages, From, To, All int
}

// pageOf returns page arg (from 1; "" is the first) of a list of all matches at url, or a
// not-found error naming what.
func pageOf(url, what, arg string, all int) (pager, error) {
	p := pager{URL: url, Page: 1, All: all, Pages: max(1, (all+matchesPerPage-1)/matchesPerPage)}
	if arg != "" {
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 || n > p.Pages {
			return p, fmt.Errorf("%w: page %q of %s: there are pages 1 to %d", errNotFound, arg, what, p.Pages)
		}
		p.Page = n
	}
	p.From, p.To = (p.Page-1)*matchesPerPage+1, min(p.Page*matchesPerPage, all)
	return p, nil
}

// Prev and Next are the neighbouring pages, 0 for none.
func (p pager) Prev() int { return p.Page - 1 }

func (p pager) Next() int {
	if p.Page < p.Pages {
		return p.Page + 1
	}
	return 0
}

// matchesPage is a page of a league's match list, by index, of the matches scheduled or
// stored, whichever are more. Its API answer, without ?page, is every match.
type matchesPage struct {
	League  *store.League
	Matches []store.Match
	Pager   pager
}

func (p *matchesPage) api() any { return p.Matches }

// matches serves a page of the match list (?page=N, from 1; the first by default), and as
// JSON every match, or the page asked for.
func (s *Server) matches(r *http.Request) (string, any, error) {
	l, err := s.leagueInfo(r.PathValue("league"))
	if err != nil {
		return "", nil, err
	}
	p := &matchesPage{League: l}
	arg := r.URL.Query().Get("page")
	if arg == "" && strings.HasPrefix(r.URL.Path, "/api/") {
		p.Matches, err = s.src.Matches(l.Name)
		return "matches", p, err
	}
	first, _ := strconv.Atoi(arg) // a bad page is refused by pageOf below
	from := max(first-1, 0) * matchesPerPage
	ms, end, err := s.src.MatchRange(l.Name, from, from+matchesPerPage)
	if err != nil {
		return "", nil, err
	}
	if p.Pager, err = pageOf(leagueURL(l.Name)+"/matches", "the matches of "+l.Name, arg, max(l.Matches, end)); err != nil {
		return "", nil, err
	}
	p.Matches = ms
	return "matches", p, nil
}

// botPage is one bot of a league.
type botPage struct {
	League  *store.League
	Report  *view.BotReport
	Matches []store.Match // a page of the bot's matches, newest first
	Pager   pager
	Faults  []kindCount
	Hist    *histogram
}

type kindCount struct {
	Kind  string
	Count int
}

func (p *botPage) api() any { return p.Report }

// botData is what a bot's page reads from the league's match records and deals.
type botData struct {
	mine  []store.Match // the bot's matches, newest first
	deals view.BotDeals // from the deals of the latest botDeals of them
}

// readBot reads the match records and the deals of the latest matches of the bot of st.
func (s *Server) readBot(league string, st view.Standing) (botData, error) {
	ms, err := s.src.Matches(league)
	if err != nil {
		return botData{}, err
	}
	var d botData
	for _, m := range ms {
		if slices.Contains(m.Seats, st.Index) {
			d.mine = append(d.mine, m)
		}
	}
	slices.SortStableFunc(d.mine, func(a, b store.Match) int { return b.Index - a.Index })
	var deals []view.Located
	recent := d.mine[:min(len(d.mine), botDeals)]
	for i := len(recent) - 1; i >= 0; i-- { // oldest first: the last stderr is the newest
		var recs []referee.DealRecord
		err := s.src.Deals(league, recent[i].Index, func(_ *store.Match, rec *referee.DealRecord) error {
			recs = append(recs, *rec)
			return nil
		})
		if err != nil {
			return botData{}, err
		}
		// Of a match in play, not the deal set in play: a stderr tail may tell its cards.
		for _, rec := range shown(&recent[i], recs) {
			deals = append(deals, view.Located{Where: recent[i].ID, Rec: rec})
		}
	}
	d.deals = view.ReadBotDeals(st.Bot, deals)
	return d, nil
}

// botDeals is how many of a bot's most recent matches its page reads deals of, for its
// decision times and its last stderr.
const botDeals = 50

func (s *Server) bot(r *http.Request) (string, any, error) {
	l, err := s.leagueInfo(r.PathValue("league"))
	if err != nil {
		return "", nil, err
	}
	_, tab, x, err := s.standings(l)
	if err != nil {
		return "", nil, err
	}
	row := slices.IndexFunc(tab.Standings, func(st view.Standing) bool { return st.Bot == r.PathValue("bot") })
	if row < 0 {
		return "", nil, fmt.Errorf("bot %q: %w", r.PathValue("bot"), errNotFound)
	}
	key := l.Name + "\x00" + tab.Standings[row].Bot
	s.mu.Lock()
	c := s.bots[key]
	s.mu.Unlock()
	if !c.fresh(tab.Matches, botAge) {
		d, err := s.readBot(l.Name, tab.Standings[row])
		if err != nil {
			return "", nil, err
		}
		c = cached[botData]{matches: tab.Matches, at: time.Now(), v: d}
		s.mu.Lock()
		s.bots[key] = c
		s.mu.Unlock()
	}
	p := &botPage{League: l, Report: view.BotPageOf(tab, x, row, c.v.deals)}
	bot := tab.Standings[row].Bot
	if p.Pager, err = pageOf(leagueURL(l.Name)+"/bot/"+url.PathEscape(bot), "the matches of "+bot, r.URL.Query().Get("page"), len(c.v.mine)); err != nil {
		return "", nil, err
	}
	p.Matches = c.v.mine[min(p.Pager.From-1, len(c.v.mine)):p.Pager.To]
	for k, n := range tab.Standings[row].Faults {
		p.Faults = append(p.Faults, kindCount{k, n})
	}
	slices.SortFunc(p.Faults, func(a, b kindCount) int { return b.Count - a.Count })
	if n := tab.Standings[row].BusyTimeouts; n > 0 {
		p.Faults = append(p.Faults, kindCount{"of the timeouts, on a busy machine", n})
	}
	p.Hist = newHistogram(p.Report.Times.Histogram)
	return "bot", p, nil
}

// matchPage is one match: its games, deals and duplicate boards.
type matchPage struct {
	League   *store.League
	Match    *view.MatchDeals
	Withheld int // deals of the duplicate set in play, not shown until the match is finished
}

func (p *matchPage) api() any { return p.Match }

func (p *matchPage) fixed() bool { return p.Match.Done }

// requestedMatch reads the league and the match the request's path names, with the deals
// of it that may be shown and how many more are withheld (shown).
func (s *Server) requestedMatch(r *http.Request) (*store.League, *store.Match, []referee.DealRecord, int, error) {
	l, err := s.leagueInfo(r.PathValue("league"))
	if err != nil {
		return nil, nil, nil, 0, err
	}
	n, err := number(r, "match", 0)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	m, deals, withheld, err := s.matchDeals(l.Name, n)
	return l, m, deals, withheld, err
}

func (s *Server) match(r *http.Request) (string, any, error) {
	l, m, deals, withheld, err := s.requestedMatch(r)
	if err != nil {
		return "", nil, err
	}
	return "match", &matchPage{League: l, Match: view.MatchPage(l.Name, m, deals, l.Bots), Withheld: withheld}, nil
}

// dealPage is the deal viewer.
type dealPage struct {
	League *store.League
	Match  *store.Match
	Deal   *DealJSON
	API    string // the deal's JSON
	Prev   string
	Next   string
}

func (p *dealPage) api() any { return p.Deal }

func (p *dealPage) fixed() bool { return p.Match.Done }

func (s *Server) deal(r *http.Request) (string, any, error) {
	l, m, deals, withheld, err := s.requestedMatch(r)
	if err != nil {
		return "", nil, err
	}
	k, err := number(r, "deal", 1)
	if err != nil {
		return "", nil, err
	}
	if k > len(deals) && k <= len(deals)+withheld {
		return "", nil, fmt.Errorf("match %s: deal %d is of the duplicate set in play, shown when the set is finished at every table: %w", m.ID, k, errNotFound)
	}
	if k > len(deals) {
		return "", nil, fmt.Errorf("match %s has %d deals, not %d: %w", m.ID, len(deals), k, errNotFound)
	}
	d := dealJSON(view.DealFromRecord(&deals[k-1], "db "+m.ID))
	d.League, d.N, d.Of = l.Name, k, len(deals)
	base := matchURL(l.Name, m.Index) + "/deal/"
	p := &dealPage{League: l, Match: m, Deal: d, API: "/api" + base + strconv.Itoa(k)}
	if k > 1 {
		p.Prev = base + strconv.Itoa(k-1)
	}
	if k < len(deals) {
		p.Next = base + strconv.Itoa(k+1)
	}
	return "deal", p, nil
}

// statusJSON is a running league's progress as the league page and its events show it.
type statusJSON struct {
	view.Status
	Line string `json:"line"` // the same on one line
}

func newStatus(st view.Status) *statusJSON {
	eta := "-"
	if st.ETAKnown {
		eta = st.ETA.Round(time.Second).String()
	}
	line := fmt.Sprintf("matches %d/%d, %.0f deals/s, ETA %s", st.Done, st.Total, st.Rate, eta)
	if !st.Running {
		line = fmt.Sprintf("matches %d/%d, stopped", st.Done, st.Total)
	}
	st.Totals = nil // the standings carry them
	return &statusJSON{Status: st, Line: line}
}

// events streams a running league's progress and standings as server-sent events: one
// "progress" event at once and one after finished matches, at most one every eventGap, until
// the client leaves or the league stops.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("league")
	pr := s.live[name]
	if pr == nil {
		http.Error(w, fmt.Sprintf("league %q is not running in this server", name), http.StatusNotFound)
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	var authors []string
	if l, err := s.leagueInfo(name); err == nil {
		authors = l.Authors
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	for {
		changed := pr.Changed()
		data, st := s.event(name, pr, authors)
		if _, err := fmt.Fprintf(w, "event: progress\ndata: %s\n\n", data); err != nil {
			return
		}
		flusher.Flush()
		sent := time.Now()
		if !st.Running && st.Total > 0 {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-changed:
		case <-time.After(15 * time.Second): // a heartbeat: rate and ETA move on
		}
		select { // the matches finished meanwhile go in the next event
		case <-r.Context().Done():
			return
		case <-time.After(eventGap - time.Since(sent)):
		}
	}
}

// event returns a running league's progress event as of now and the status it shows. While
// the league runs, the event of its last change is shared by every stream for up to
// eventGap: its standings are fitted once, however many spectators watch.
func (s *Server) event(name string, pr *view.Progress, authors []string) ([]byte, view.Status) {
	st := pr.Status()
	s.mu.Lock()
	c := s.latest[name]
	s.mu.Unlock()
	if st.Running && c.matches == st.Done && time.Since(c.at) < eventGap {
		return c.v, st
	}
	ev := struct {
		Status    *statusJSON     `json:"status"`
		Standings *view.Standings `json:"standings,omitempty"`
	}{Status: newStatus(st)}
	if st.Totals != nil {
		if ev.Standings, _ = view.ComputeStandings(name, st.Totals, view.StandingsOptions{}); ev.Standings != nil {
			ev.Standings.SetAuthors(authors)
		}
	}
	data, err := json.Marshal(ev)
	if err != nil {
		data, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	if st.Running {
		s.mu.Lock()
		s.latest[name] = cached[[]byte]{matches: st.Done, at: time.Now(), v: data}
		s.mu.Unlock()
	}
	return data, st
}

// leagueURL is a league page's path.
func leagueURL(l string) string { return "/league/" + url.PathEscape(l) }

// matchURL is a match page's path.
func matchURL(league string, index int) string {
	return "/league/" + url.PathEscape(league) + "/match/" + strconv.Itoa(index)
}

var funcs = template.FuncMap{
	"pct": func(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) },
	"elo": func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf("%+.0f", *v)
	},
	"ci": func(v *float64) string {
		if v == nil {
			return ""
		}
		return fmt.Sprintf("± %.0f", *v)
	},
	"ms":        func(v float64) string { return fmt.Sprintf("%.2f", v) },
	"leagueURL": leagueURL,
	"botURL":    func(l, b string) string { return "/league/" + url.PathEscape(l) + "/bot/" + url.PathEscape(b) },
	"matchURL":  matchURL,
	"dealURL": func(l string, m, d int) string {
		return matchURL(l, m) + "/deal/" + strconv.Itoa(d)
	},
	// heat is a crosstable cell's colour class: 0 (row lost everything) … 10 (won all).
	"heat": func(c view.Cell) string {
		if c.Pairs == 0 {
			return "none"
		}
		return "h" + strconv.Itoa(int(math.Round(10*c.Share)))
	},
	"losText": func(v *float64) string {
		if v == nil {
			return ""
		}
		return fmt.Sprintf("LOS %.0f%%", 100**v)
	},
	"botName": func(names []string, i int) string {
		if i >= 0 && i < len(names) {
			return names[i]
		}
		return "?"
	},
	"side": func(players, i int) string {
		if players == 3 {
			return []string{"N", "E", "S", "W"}[min(i, 3)]
		}
		return []string{"NS", "EW"}[min(i, 1)]
	},
	"add": func(a, b int) int { return a + b },
	"time": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04:05")
	},
	"faults": func(f map[string]int) string {
		n := 0
		for _, v := range f {
			n += v
		}
		return strconv.Itoa(n)
	},
}

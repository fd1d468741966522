package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/arena/view/textview"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/urfave/cli/v2"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "show a stored or logged deal trick by trick, or re-referee every deal (--verify)",
		ArgsUsage: "[MATCH[/DEAL]]",
		Description: "MATCH is a match id as stored (LEAGUE/N, e.g. demo/12) or as in a log; DEAL is the\n" +
			"n-th deal of the match (from 1, redeals included). Without DEAL every deal of the match is\n" +
			"shown. --verify re-referees every deal (of the log, of the league, or of the match) with\n" +
			"the rules engine, then checks every match as a whole (deal numbers, dealers, redeals,\n" +
			"game ends, duplicate twins, and from the database the stored sums), reports every\n" +
			"inconsistency with its location, and exits non-zero if there is any.",
		Flags: []cli.Flag{
			dbFlag(),
			&cli.StringFlag{Name: "log", Usage: "read a match log `FILE` (JSON lines, spec.md §12) instead of the database"},
			&cli.StringFlag{Name: "league", Usage: "league `NAME` for --verify from the database (default: every league)"},
			&cli.BoolFlag{Name: "verify", Usage: "re-referee every deal and report inconsistencies"},
			&cli.BoolFlag{Name: "ascii", Usage: "plain ASCII even on a terminal"},
		},
		Action: runReplay,
	}
}

// located is a deal record with where it came from, for messages.
type located struct {
	where string // "FILE:LINE" or "db LEAGUE/N"
	rec   referee.DealRecord
	// derived says the store re-derived the record with the rules engine as it read it (a
	// binary row, see store.DB.DealsDerived), under a ruleset replay validated: Verify
	// would repeat that.
	derived bool
}

// source is what replay reads: deals, and for --verify what the match checks need.
type source struct {
	deals  []located
	stored map[string]*store.Match // --db: the match records, by match id
	order  []string                // --db: the match ids in schedule order (done ones without deals too)
	open   bool                    // --log: the last line was torn, or a match writes the log now: the match of the last deal may stop short
	last   string                  // --log: where the file's last deal is
}

func runReplay(c *cli.Context) error {
	if c.NArg() > 1 {
		return usageError{"arena replay: at most one MATCH[/DEAL] (arena replay --help)"}
	}
	sel := c.Args().First()
	if errs := sourceFlagConflicts(c, sel); len(errs) > 0 {
		return usageError{errors.Join(errs...).Error()}
	}
	if sel == "" && !c.Bool("verify") && c.String("log") == "" {
		return errors.New("which match? give MATCH[/DEAL] (arena standings lists the league; match ids are LEAGUE/N; with --log FILE alone, the log's matches are listed)")
	}
	if sel == "" && c.Bool("verify") && c.String("log") == "" {
		return verifyStore(c)
	}
	var src source
	var err error
	if path := c.String("log"); path != "" {
		src, err = logDeals(path, c.App.ErrWriter)
	} else {
		src, err = dbDeals(c, sel)
	}
	if err != nil {
		return err
	}
	if sel == "" && !c.Bool("verify") {
		listMatches(c.App.Writer, src.deals)
		return nil
	}
	deals, single, err := selectDeals(src.deals, sel)
	if err != nil {
		return err
	}
	if c.Bool("verify") {
		src.deals = deals
		return verifyDeals(c.App.Writer, &src, !single)
	}
	// A deal of a log is shown as the log has it: one edited by hand, or damaged, is
	// re-refereed first, so that it is reported instead of shown as if it had been played
	// (the store re-derives or checks its deals as it reads them).
	if bad := verifyEach(c.App.ErrWriter, deals); bad > 0 {
		what, check := "database", "arena replay --verify --db "+c.String("db")
		if path := c.String("log"); path != "" {
			what, check = "log", "arena replay --verify --log "+path
		}
		return fmt.Errorf("%d of the %d deals selected are inconsistent with the rules (a damaged or altered %s): not shown; %s lists every problem", bad, len(deals), what, check)
	}
	st := cardStyle(c.App.Writer, c.Bool("ascii"))
	for i, d := range deals {
		if i > 0 {
			fmt.Fprintln(c.App.Writer)
		}
		textview.Replay(c.App.Writer, view.DealFromRecord(&d.rec, d.where), st)
	}
	return nil
}

// logDeals reads a whole log file, as long as it is when opened: a match may be writing it
// faster than it is read.
func logDeals(path string, warn io.Writer) (source, error) {
	f, err := os.Open(path)
	if err != nil {
		return source{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return source{}, err
	}
	entries, torn, err := readLog(io.LimitReader(f, fi.Size()), path, warn)
	if err != nil {
		return source{}, err
	}
	if len(entries) == 0 {
		// Nothing to verify is not a verified log: a log truncated to nothing (or to a torn
		// first line) is an error, as arena serve --log says of it.
		return source{}, fmt.Errorf("%s: no deal record in it: an empty or truncated log (arena match --log FILE writes one)", path)
	}
	writing, err := logBeingWritten(path)
	if err != nil {
		return source{}, fmt.Errorf("%s: %w", path, err)
	}
	if writing {
		fmt.Fprintf(warn, "%s: a match is writing it now: its last game and duplicate set may be unfinished\n", path)
	}
	src := source{deals: make([]located, len(entries)), open: torn || writing}
	for i, e := range entries {
		src.deals[i] = located{where: fmt.Sprintf("%s:%d", path, e.line), rec: e.rec}
		src.last = src.deals[i].where
	}
	return src, nil
}

// dbDeals reads the deals of the selected match, or of every league (or --league) when
// there is no selection, with their match records.
func dbDeals(c *cli.Context, sel string) (source, error) {
	src := source{stored: map[string]*store.Match{}}
	db, err := openForReading(c, "arena replay")
	if err != nil {
		return src, err
	}
	defer db.Close()
	collect := func(league string, match int) error {
		ms, err := db.Matches(league)
		if err != nil {
			return err
		}
		rulesOK, err := validRules(db, league)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if match >= 0 && m.Index != match {
				continue
			}
			src.stored[m.ID] = &m
			src.order = append(src.order, m.ID)
			if src.deals, err = appendMatchDeals(src.deals, db, league, &m, rulesOK); err != nil {
				return err
			}
		}
		return nil
	}
	if sel != "" {
		league, match, err := parseMatchID(sel)
		if err != nil {
			return src, err
		}
		if err := collect(league, match); errors.Is(err, store.ErrNotFound) {
			return src, fmt.Errorf("no league %q in %s%s", league, db.Path(), leagueList(db))
		} else if err != nil {
			return src, err
		}
		if len(src.order) == 0 {
			ms, _ := db.Matches(league)
			if len(ms) == 0 {
				return src, fmt.Errorf("league %s has no finished match yet", league)
			}
			return src, fmt.Errorf("league %s has no match %d: its matches are %s to %s", league, match, ms[0].ID, ms[len(ms)-1].ID)
		}
		return src, nil
	}
	leagues, err := selectedLeagues(c, db)
	if err != nil {
		return src, err
	}
	for _, l := range leagues {
		if err := collect(l, -1); err != nil {
			return src, err
		}
	}
	return src, nil
}

// selectedLeagues is --league, or else every league of the database.
func selectedLeagues(c *cli.Context, db *store.DB) ([]string, error) {
	if name := c.String("league"); name != "" {
		return []string{name}, nil
	}
	ls, err := db.Leagues()
	var names []string
	for _, l := range ls {
		names = append(names, l.Name)
	}
	return names, err
}

// verifyStore is replay --verify of a whole database (or --league): verifyDeals, match by
// match, the matches decoded and verified on every CPU (store.MatchDeals), holding a few
// matches' deals at a time, so that memory does not grow with the league.
func verifyStore(c *cli.Context) error {
	w := c.App.Writer
	db, err := openForReading(c, "arena replay")
	if err != nil {
		return err
	}
	defer db.Close()
	leagues, err := selectedLeagues(c, db)
	if err != nil {
		return err
	}
	refereeGC()
	var n, bad, problems int
	for _, league := range leagues {
		rulesOK, err := validRules(db, league)
		if err != nil {
			return err
		}
		// Under valid rules a binary row's decisions were checked as it was read: its
		// record is needed without its actions (see verified.verify).
		err = store.MatchDeals(db, league, -1, store.ReadOptions{NoDerivedActions: rulesOK}, func(m *store.Match, recs []referee.DealRecord, derived []bool, v *verified) error {
			v.verify(m, recs, derived, rulesOK)
			return nil
		}, func(_ *store.Match, v *verified) error {
			n, bad, problems = n+v.deals, bad+v.bad, problems+v.problems
			_, err := w.Write(v.report.Bytes())
			return err
		})
		if err != nil {
			return err
		}
	}
	return verdict(w, n, bad, problems, true)
}

// verified is one stored match as verifyStore verified it.
type verified struct {
	deals, bad, problems int
	report               bytes.Buffer // the problems found, as verifyDeals reports them
}

// verify verifies the deals of the stored match m into v: each record that the store did
// not derive as it read it (or under rules that are not valid) with Verify, and the match as
// a whole.
func (v *verified) verify(m *store.Match, recs []referee.DealRecord, derived []bool, rulesOK bool) {
	v.report.Reset()
	where := "db " + m.ID
	v.deals, v.bad = len(recs), 0
	for i := range recs {
		if !(derived[i] && rulesOK) && !verifyDeal(&v.report, where, &recs[i]) {
			v.bad++
		}
	}
	v.problems = verifyMatch(&v.report, m.ID, m, recs, !m.Done, func(int) string { return where })
}

// validRules reports whether the league's stored ruleset is valid: if not, every record's
// Verify reports it, so no record counts as derived.
func validRules(db *store.DB, league string) (bool, error) {
	l, err := db.League(league)
	if err != nil {
		return false, err
	}
	return l.Rules.Validate() == nil, nil
}

// appendMatchDeals appends the stored deals of the league's match m to deals, each marked derived when
// the store re-derived it as it read it under valid rules.
func appendMatchDeals(deals []located, db *store.DB, league string, m *store.Match, rulesOK bool) ([]located, error) {
	err := db.DealsDerived(league, m.Index, func(m *store.Match, rec *referee.DealRecord, derived bool) error {
		deals = append(deals, located{where: "db " + m.ID, rec: *rec, derived: derived && rulesOK})
		return nil
	})
	return deals, err
}

// leagueList is ": it holds leagues a, b" for a message, or "; it holds no league".
func leagueList(db *store.DB) string {
	ls, err := db.Leagues()
	if err != nil || len(ls) == 0 {
		return "; it holds no league"
	}
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = l.Name
	}
	return ": it holds " + strings.Join(names, ", ")
}

// listMatches prints each match of the deals with its number of deals, in order.
func listMatches(w io.Writer, deals []located) {
	var ids []string
	count := map[string]int{}
	for _, d := range deals {
		if count[d.rec.Match] == 0 {
			ids = append(ids, d.rec.Match)
		}
		count[d.rec.Match]++
	}
	fmt.Fprintf(w, "%d matches (arena replay --log FILE MATCH[/DEAL] shows one):\n", len(ids))
	for _, id := range ids {
		fmt.Fprintf(w, "  %s  %d deals\n", id, count[id])
	}
}

// parseMatchID reads LEAGUE/N[/DEAL] as stored.
func parseMatchID(sel string) (string, int, error) {
	parts := strings.Split(sel, "/")
	if len(parts) >= 2 {
		if n, err := strconv.Atoi(parts[1]); err == nil && n >= 0 && len(parts) <= 3 {
			return parts[0], n, nil
		}
	}
	return "", 0, fmt.Errorf("match %q: want LEAGUE/N or LEAGUE/N/DEAL, e.g. demo/12/3", sel)
}

// selectDeals keeps the deals of MATCH[/DEAL]; an empty selection keeps all. single says
// one deal was selected.
func selectDeals(all []located, sel string) (deals []located, single bool, err error) {
	if sel == "" {
		return all, false, nil
	}
	match, deal := sel, 0
	if i := strings.LastIndex(sel, "/"); i >= 0 {
		if n, err := strconv.Atoi(sel[i+1:]); err == nil && n > 0 && matchExists(all, sel[:i]) {
			match, deal = sel[:i], n
		}
	}
	var out []located
	for _, d := range all {
		if d.rec.Match == match {
			out = append(out, d)
		}
	}
	switch {
	case len(out) == 0:
		var ids []string
		for _, d := range all {
			if !slices.Contains(ids, d.rec.Match) {
				ids = append(ids, d.rec.Match)
			}
		}
		if len(ids) > 10 {
			ids = append(ids[:10], fmt.Sprintf("… (%d in all)", len(ids)))
		}
		return nil, false, fmt.Errorf("no deals of match %q; there are: %s", match, strings.Join(ids, ", "))
	case deal > len(out):
		return nil, false, fmt.Errorf("match %s has %d deals, not %d", match, len(out), deal)
	case deal > 0:
		return out[deal-1 : deal], true, nil
	}
	return out, false, nil
}

func matchExists(all []located, id string) bool {
	for _, d := range all {
		if d.rec.Match == id {
			return true
		}
	}
	return false
}

// verifyDeals re-referees every deal (but those the store re-derived as it read them) and,
// with matches, checks that each match's deals make whole games and duplicate sets
// (referee.VerifyMatch) and, from the database, that they add up to the sums stored with the
// match. It reports each inconsistency with its place.
func verifyDeals(w io.Writer, src *source, matches bool) error {
	bad := verifyEach(w, src.deals)
	problems := 0
	if matches {
		problems = verifyMatches(w, src)
	}
	return verdict(w, len(src.deals), bad, problems, matches)
}

// verifyEach re-referees every deal but those the store re-derived as it read them, reports
// each inconsistent one with its place, and returns their number.
func verifyEach(w io.Writer, deals []located) int {
	bad := 0
	for i := range deals {
		if d := &deals[i]; !d.derived && !verifyDeal(w, d.where, &d.rec) {
			bad++
		}
	}
	return bad
}

// verifyDeal verifies one record, reporting a failure as read at where.
func verifyDeal(w io.Writer, where string, rec *referee.DealRecord) bool {
	err := rec.Verify()
	if err != nil {
		fmt.Fprintf(w, "%s: match %s game %d deal %d attempt %d: %v\n", where, rec.Match, rec.Game, rec.Deal, rec.Attempt, err)
	}
	return err == nil
}

// verdict sums up a verification of n deals: an error when bad deals or match problems were
// found, else the line that says what was verified.
func verdict(w io.Writer, n, bad, problems int, matches bool) error {
	switch {
	case bad > 0 && problems > 0:
		return fmt.Errorf("%d of %d deals are inconsistent with the rules, and the matches have %d problems", bad, n, problems)
	case bad > 0:
		return fmt.Errorf("%d of %d deals are inconsistent with the rules", bad, n)
	case problems > 0:
		return fmt.Errorf("the matches have %d problems (deals missing, repeated or out of order, or games that do not add up); every deal on its own is consistent with the rules", problems)
	}
	if matches {
		fmt.Fprintf(w, "%d deals verified: every one consistent with the rules, and every match made of whole games and duplicate sets\n", n)
	} else {
		fmt.Fprintf(w, "%d deals verified: every one consistent with the rules\n", n)
	}
	return nil
}

// verifyMatches checks every match of the source as a whole and returns the number of
// problems it reported. The deals of a log are grouped by match id and seed (a log may hold
// several matches), in the order of the file.
func verifyMatches(w io.Writer, src *source) int {
	type group struct {
		id   string
		idx  []int
		recs []referee.DealRecord
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, id := range src.order {
		byKey[id] = &group{id: id}
		groups = append(groups, byKey[id])
	}
	for i := range src.deals {
		r := &src.deals[i].rec
		key := r.Match
		if src.stored == nil {
			key = fmt.Sprintf("%s\x00%d", r.Match, r.Seed)
		}
		g := byKey[key]
		if g == nil {
			g = &group{id: r.Match}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.idx = append(g.idx, i)
		g.recs = append(g.recs, *r)
	}
	problems := 0
	for _, g := range groups {
		m := src.stored[g.id]
		open := m != nil && !m.Done || m == nil && len(g.idx) > 0 && src.open && src.deals[g.idx[len(g.idx)-1]].where == src.last
		problems += verifyMatch(w, g.id, m, g.recs, open, func(i int) string { return src.deals[g.idx[i]].where })
	}
	return problems
}

// verifyMatch checks the records of match id as a whole (with its stored record m, nil
// for a log), the match still open or not, and returns the number of problems it reported,
// each at where its record was read.
func verifyMatch(w io.Writer, id string, m *store.Match, recs []referee.DealRecord, open bool, where func(i int) string) int {
	if m != nil && len(recs) == 0 {
		if m.Done {
			fmt.Fprintf(w, "db %s: match %s is done but has no deals stored\n", id, id)
			return 1
		}
		return 0
	}
	sums, found := referee.VerifyMatch(recs, open)
	for _, p := range found {
		fmt.Fprintf(w, "%s: match %s %s\n", where(p.Index), id, p.Text)
	}
	problems := len(found)
	if m != nil && m.Done {
		problems += compareStored(w, m, len(recs), sums)
	}
	return problems
}

// compareStored reports every difference between a done match's stored sums and what its
// stored deals add up to.
func compareStored(w io.Writer, m *store.Match, deals int, sums []referee.GameSum) int {
	n := 0
	fail := func(format string, args ...any) {
		fmt.Fprintf(w, "db %s: match %s: %s\n", m.ID, m.ID, fmt.Sprintf(format, args...))
		n++
	}
	if m.Deals != deals {
		fail("%d deals stored, but the match record counts %d", deals, m.Deals)
	}
	if len(m.Games) != len(sums) {
		fail("%d games in the stored deals, but the match record has %d", len(sums), len(m.Games))
	}
	for i := range min(len(m.Games), len(sums)) {
		g, s := &m.Games[i], &sums[i]
		if g.Number != s.Number || g.Deals != s.Deals || !slices.Equal(g.Totals, s.Totals) {
			fail("game %d: the stored deals add up to %d deals and totals %v, but the match record has game %d with %d deals and totals %v",
				s.Number, s.Deals, s.Totals, g.Number, g.Deals, g.Totals)
		}
	}
	return n
}

// logEntry is one deal of a log file and its line number.
type logEntry struct {
	line int
	rec  referee.DealRecord
}

// maxLogLine bounds one line of a log.
const maxLogLine = 4 << 20

// readLog reads a match log: one deal record per line. A torn last line (no newline, not
// valid JSON: the arena was stopped while writing it) is reported to warn and skipped, and
// the second result says so; anything else that is not a deal record of this format version
// is an error with the file and line.
func readLog(r io.Reader, name string, warn io.Writer) ([]logEntry, bool, error) {
	return readLogFrom(r, name, 1, warn)
}

// readLogFrom is readLog of the lines of a log from line number first on.
func readLogFrom(r io.Reader, name string, first int, warn io.Writer) ([]logEntry, bool, error) {
	end := &lastByte{r: r}
	lines := protocol.NewLineReader(end, maxLogLine)
	var out []logEntry
	for n := first; ; n++ {
		line, err := lines.ReadLine()
		switch {
		case errors.Is(err, io.EOF):
			return out, false, nil
		case errors.Is(err, protocol.ErrNotASCII): // a UTF-8 name: the line is returned whole
		case err != nil:
			return nil, false, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		text := bytes.TrimSpace(line)
		if len(text) == 0 {
			continue
		}
		rec, perr := parseRecord(text)
		if perr == nil {
			out = append(out, logEntry{line: n, rec: rec})
			continue
		}
		if _, err := lines.ReadLine(); errors.Is(err, io.EOF) && end.last != '\n' {
			fmt.Fprintf(warn, "%s:%d: torn last line (the log ends in the middle of a deal): skipped\n", name, n)
			return out, true, nil
		}
		return nil, false, fmt.Errorf("%s:%d: %w", name, n, perr)
	}
}

// lastByte passes a reader through and remembers the last byte read: at the end of the
// input it tells whether the last line ended with a newline.
type lastByte struct {
	r    io.Reader
	last byte
}

func (l *lastByte) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if n > 0 {
		l.last = p[n-1]
	}
	return n, err
}

// parseRecord decodes one log line, rejecting anything that is not a deal record.
func parseRecord(text []byte) (referee.DealRecord, error) {
	var probe struct {
		V *int `json:"v"`
	}
	var rec referee.DealRecord
	if err := json.Unmarshal(text, &probe); err != nil {
		return rec, fmt.Errorf("not a deal record: %v", err)
	}
	if probe.V == nil {
		return rec, errors.New("not a deal record (no format version \"v\")")
	}
	if *probe.V != referee.LogVersion {
		return rec, fmt.Errorf("log format version %d: this arena reads version %d", *probe.V, referee.LogVersion)
	}
	if err := json.Unmarshal(text, &rec); err != nil {
		return rec, fmt.Errorf("bad deal record: %v", err)
	}
	if rec.Match == "" || len(rec.Result.Score) < 2 {
		return rec, errors.New("bad deal record: no match id or no score")
	}
	return rec, nil
}

// cardStyle is how replay writes cards: suit symbols in colour on a terminal, letters
// otherwise.
func cardStyle(w io.Writer, ascii bool) textview.Style {
	tty := !ascii && isTerminal(w)
	return textview.Style{Symbols: tty, Colour: tty && os.Getenv("NO_COLOR") == ""}
}

package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/klaverjas-arena/arena/arena/ask"
	"github.com/klaverjas-arena/arena/arena/botdef"
	"github.com/klaverjas-arena/arena/arena/confine"
	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/arena/view/textview"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/urfave/cli/v2"
)

func askCommand() *cli.Command {
	return &cli.Command{
		Name:      "ask",
		Usage:     "put logged decisions to a bot again (a new build) and compare its answers with the log",
		ArgsUsage: "BOT [MATCH[/DEAL[@SEAT[#N]]]]",
		Description: "BOT is a bot command or a name from --bots. It is started in the same sandbox, with the\n" +
			"same limits, as in a match, and sent exactly the lines the seat received in the logged\n" +
			"deal (the handshake, the ruleset, the game's start, the deal and its events, each request),\n" +
			"re-refereed from the log; each answer is shown beside the logged one, with its time.\n" +
			"MATCH/DEAL@SEAT#N asks the seat's N-th decision in the deal (the earlier ones are sent too,\n" +
			"as in the match); without #N every decision of the seat in the deal. Without @SEAT, and\n" +
			"for a whole MATCH, or every match of the log or of --league without MATCH, every decision\n" +
			"of the bot --bot NAME (default: BOT's name, or the name its hello says) is asked, with a summary.\n" +
			"Exit status: 0 when every answer is the logged one, 1 when some differ or fault, 2 on an\n" +
			"arena error.",
		Flags: []cli.Flag{
			dbFlag(),
			&cli.StringFlag{Name: "log", Usage: "read a match log `FILE` (JSON lines, spec.md §12) instead of the database"},
			&cli.StringFlag{Name: "league", Usage: "league `NAME` to ask from the database when no MATCH is given (default: every league)"},
			&cli.StringFlag{Name: "bot", Usage: "the logged bot `NAME` whose decisions are asked (default: BOT's name)"},
			botsFlag(),
			&cli.DurationFlag{Name: "time", Value: referee.DefaultTimeControl.Decision, Usage: "time per decision (default from the database: the league's; a log does not keep the match's)"},
			graceFlag(),
			startupFlag(),
			&cli.BoolFlag{Name: "all", Usage: "show every decision asked, not only those that differ or fault"},
			&cli.BoolFlag{Name: "json", Usage: "print the decisions and the summary as JSON"},
			&cli.BoolFlag{Name: "ascii", Usage: "plain ASCII even on a terminal"},
			sandboxFlag(),
		},
		Action: runAsk,
	}
}

// askSelection is the deals and seats to ask: MATCH[/DEAL][@SEAT[#N]].
type askSelection struct {
	deals string        // MATCH[/DEAL] as replay reads it; "" for every deal
	seat  protocol.Seat // NoSeat: the seats of --bot
	n     int           // 0: every decision
}

func parseAskSelection(text string) (askSelection, error) {
	sel := askSelection{deals: text, seat: protocol.NoSeat}
	deals, seatText, ok := strings.Cut(text, "@")
	if !ok {
		return sel, nil
	}
	sel.deals = deals
	seatText, nText, hasN := strings.Cut(seatText, "#")
	seat, err := protocol.ParseSeat(seatText)
	if err != nil {
		return sel, fmt.Errorf("%q: want MATCH/DEAL@SEAT[#N], SEAT one of N E S W", text)
	}
	sel.seat = seat
	if hasN {
		if sel.n, err = strconv.Atoi(nText); err != nil || sel.n < 1 {
			return sel, fmt.Errorf("%q: #N is the seat's decision in the deal, from 1", text)
		}
	}
	return sel, nil
}

// askReport is what ask prints with --json.
type askReport struct {
	Bot       string            `json:"bot"`     // the logged bot whose decisions were asked
	Command   []string          `json:"command"` // the bot asked
	Decisions []ask.Decision    `json:"decisions"`
	Summary   ask.Summary       `json:"summary"`
	Deals     int               `json:"deals"` // deals in which decisions were asked
	Errors    []string          `json:"errors,omitempty"`
	positions map[int]askedDeal // the deal of each decision, for the text output
}

// askedDeal is a deal asked, with its number in its match (MATCH/DEAL).
type askedDeal struct {
	located
	n int
}

// askConfig is arena ask's command line as given: every flag and argument, none checked.
type askConfig struct {
	Args     []string // BOT [MATCH[/DEAL[@SEAT[#N]]]]
	BotsFile string
	LogFile  string // --log: the deals from a log; else from the database
	DBFile   string
	Bot      string              // --bot: the logged bot whose decisions are asked
	Time     referee.TimeControl // Startup, Decision, Grace
	TimeSet  bool                // --time given: it overrides a league's time control
	Sandbox  string
}

// askConfigFromFlags reads arena ask's flags and arguments; it checks nothing.
func askConfigFromFlags(c *cli.Context) askConfig {
	return askConfig{
		Args:     c.Args().Slice(),
		BotsFile: c.String("bots"),
		LogFile:  c.String("log"),
		DBFile:   c.String("db"),
		Bot:      c.String("bot"),
		Time:     referee.TimeControl{Startup: c.Duration("startup"), Decision: c.Duration("time"), Grace: c.Duration("grace")},
		TimeSet:  c.IsSet("time"),
		Sandbox:  c.String("sandbox"),
	}
}

// askPlan is a checked ask, ready to run: the bot checked in its sandbox, nothing started.
type askPlan struct {
	bot     botdef.Bot
	sel     askSelection
	selText string // the selection as typed, for messages
	botName string // --bot, or "" for the bot's own name
	opt     ask.Options
	logFile string // the deals' log; "": the database's deals
	timeSet bool
	policy  confine.Policy
	notes   []string // for the user, before the first bot starts
}

// validate checks the whole command line, the bots file and the bot (in its sandbox, as
// arena match checks its bots), and returns the ask to run, or every problem found,
// together. A bot given as a command runs in the directory cwd.
func (ac askConfig) validate(cwd string) (*askPlan, error) {
	if len(ac.Args) < 1 || len(ac.Args) > 2 {
		return nil, errors.New("want BOT [MATCH[/DEAL[@SEAT[#N]]]]")
	}
	var errs []error
	fail := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	p := &askPlan{botName: ac.Bot, logFile: ac.LogFile, timeSet: ac.TimeSet, opt: ask.Options{Time: ac.Time}}
	if len(ac.Args) == 2 {
		p.selText = ac.Args[1]
	}
	var err error
	p.sel, err = parseAskSelection(p.selText)
	fail(err)
	p.opt.Only = p.sel.n
	var bots botdef.File
	if ac.BotsFile != "" {
		bots, err = botdef.Load(ac.BotsFile)
		fail(err)
	}
	p.bot, err = botdef.Lookup(ac.Args[0], bots, cwd)
	fail(err)
	for _, err := range checkTimeFlags(ac.Time) {
		fail(err)
	}
	p.policy, err = sandboxPolicy(ac.Sandbox)
	fail(err)
	p.policy.Hide = append(p.policy.Hide, ac.LogFile, ac.BotsFile, ac.DBFile, p.bot.Stderr)
	if err := p.policy.Check(); err != nil {
		fail(err)
	} else if len(errs) == 0 {
		p.notes, err = checkSandboxed(p.policy, p.bot)
		fail(err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return p, nil
}

func runAsk(c *cli.Context) error {
	report, err := askDecisions(c)
	if err != nil {
		return cli.Exit("arena ask: "+err.Error(), 2)
	}
	if c.Bool("json") {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return cli.Exit(err.Error(), 2)
		}
	} else {
		printAsk(c.App.Writer, report, c.Bool("all") || report.Deals == 1, cardStyle(c.App.Writer, c.Bool("ascii")))
	}
	switch s := report.Summary; {
	case len(report.Errors) > 0:
		return cli.Exit("", 2)
	case s.Different+s.Faults+s.Skipped > 0:
		return cli.Exit("", 1)
	}
	return nil
}

// askDecisions checks the command line, reads the selected deals and asks the bot each
// decision of the selection.
func askDecisions(c *cli.Context) (*askReport, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	conflicts := sourceFlagConflicts(c, c.Args().Get(1))
	p, err := askConfigFromFlags(c).validate(cwd)
	if err = errors.Join(append(conflicts, err)...); err != nil {
		return nil, err
	}
	for _, note := range p.notes {
		fmt.Fprintln(c.App.ErrWriter, note)
	}
	var src source
	if p.logFile != "" {
		src, err = logDeals(p.logFile, c.App.ErrWriter)
	} else {
		src, err = dbDeals(c, p.sel.deals)
	}
	if err != nil {
		return nil, err
	}
	deals, _, err := selectDeals(src.deals, p.sel.deals)
	if err != nil {
		return nil, err
	}
	return p.run(c, src.deals, deals)
}

// run asks the bot every decision of the selection in the deals (all is every deal of the
// source, to number them as MATCH/DEAL does).
func (p *askPlan) run(c *cli.Context, all, deals []located) (*askReport, error) {
	name := cmp.Or(p.botName, p.bot.Name)
	start := procStarter(p.bot, nil, p.policy, logger(c.App.ErrWriter, defaultLogLevel()))
	if p.sel.seat != protocol.NoSeat && int(p.sel.seat) < len(deals[0].rec.Seats) {
		name = deals[0].rec.Seats[p.sel.seat] // the seat's bot
	} else if !botPlays(deals, name) {
		said := ""
		if p.botName == "" && p.bot.Unnamed {
			// A bot given as a command was logged by the name it said in hello.
			if hello, err := helloOnce(c.Context, start, referee.DefaultTimeControl.Startup); err == nil && botPlays(deals, hello.Name) {
				name = hello.Name
			} else if err == nil {
				said = fmt.Sprintf(" (its hello says %q)", hello.Name)
			}
		}
		if !botPlays(deals, name) {
			return nil, fmt.Errorf("bot %q%s does not play in the selected deals: name the logged bot with --bot NAME, or a seat with MATCH/DEAL@SEAT", name, said)
		}
	}
	var leagues map[string]*league.File // from the database: the time control of each league
	if p.logFile == "" && !p.timeSet {
		var err error
		if leagues, err = leagueFiles(c); err != nil {
			return nil, err
		}
	}
	report := &askReport{Bot: name, Command: p.bot.Cmd, positions: map[int]askedDeal{}}
	numbers := dealNumbers(all)
	for _, d := range deals {
		seats := askSeats(&d.rec, p.sel.seat, name)
		if len(seats) > 0 {
			report.Deals++
		}
		opt := p.opt
		if f := leagues[leagueOf(d.rec.Match)]; f != nil {
			opt.Time = matchTime(f, &d.rec)
		}
		for _, seat := range seats {
			ds, err := ask.Deal(c.Context, start, &d.rec, seat, opt)
			if c.Context.Err() != nil {
				return nil, c.Context.Err()
			}
			if err != nil {
				report.Errors = append(report.Errors, fmt.Sprintf("%s: match %s game %d deal %d seat %s: %v", d.where, d.rec.Match, d.rec.Game, d.rec.Deal, seat, err))
			}
			for _, dec := range ds {
				report.positions[len(report.Decisions)] = askedDeal{d, numbers[dealKey(&d.rec)]}
				report.Decisions = append(report.Decisions, dec)
			}
		}
	}
	if len(report.Decisions) == 0 && len(report.Errors) == 0 {
		if p.sel.n > 0 {
			return nil, fmt.Errorf("%s: the seat has fewer than %d decisions in the deal", p.selText, p.sel.n)
		}
		return nil, errors.New("no decisions to ask in the selected deals")
	}
	report.Summary = ask.Summarize(report.Decisions)
	return report, nil
}

// leagueFiles reads the league file each league of the database was run with.
func leagueFiles(c *cli.Context) (map[string]*league.File, error) {
	db, err := openForReading(c, "arena ask")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	ls, err := db.Leagues()
	if err != nil {
		return nil, err
	}
	out := map[string]*league.File{}
	for _, l := range ls {
		f, err := league.Parse([]byte(l.Config), l.File)
		if err != nil {
			return nil, fmt.Errorf("league %s: its stored league file: %w", l.Name, err)
		}
		out[l.Name] = f
	}
	return out, nil
}

// leagueOf is the league of a stored match id, LEAGUE/N.
func leagueOf(match string) string {
	name, _, _ := strings.Cut(match, "/")
	return name
}

// matchTime is the time control the league gave the deal's match: the league's, with the
// most generous decision time of the bots at the table.
func matchTime(f *league.File, rec *referee.DealRecord) referee.TimeControl {
	var bots []int
	for i, name := range f.BotNames() {
		if slices.Contains(rec.Seats[:], name) {
			bots = append(bots, i)
		}
	}
	return f.TimeControl(bots...)
}

// botPlays reports whether the bot sits at any of the deals.
func botPlays(deals []located, name string) bool {
	for _, d := range deals {
		if len(askSeats(&d.rec, protocol.NoSeat, name)) > 0 {
			return true
		}
	}
	return false
}

// askSeats is the seats of the deal to ask: the one given, or every seat of the bot.
func askSeats(rec *referee.DealRecord, seat protocol.Seat, bot string) []protocol.Seat {
	if seat != protocol.NoSeat {
		return []protocol.Seat{seat}
	}
	var out []protocol.Seat
	seating, err := rec.Seating()
	if err != nil {
		return nil
	}
	for i, name := range rec.Seats[:seating.Table] {
		if name == bot {
			out = append(out, protocol.Seat(i))
		}
	}
	return out
}

// printAsk shows the decisions (all of them, or those that differ or fault, each with its
// position) and the summary.
func printAsk(w io.Writer, r *askReport, all bool, st textview.Style) {
	for i, d := range r.Decisions {
		if !all && d.Outcome == ask.Same {
			continue
		}
		fmt.Fprintf(w, "%s/%d@%s#%d %-7s logged %-8s %7.2f ms   now %-8s %7.2f ms   %s\n", d.Match, r.positions[i].n, d.Seat, d.N, d.Request,
			orDash(d.Logged), d.LoggedMS, orDash(d.Answer), d.MS, d.Outcome)
		if d.Fault != "" {
			fmt.Fprintf(w, "  fault: %s\n", d.Fault)
		}
		if d.Outcome == ask.Different || d.Outcome == ask.Faulted && d.Index > 0 {
			loc := r.positions[i].located
			textview.Position(w, view.PositionFromRecord(&loc.rec, loc.where, d.Index), st)
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "error: %s\n", e)
	}
	s := r.Summary
	fmt.Fprintf(w, "%s, asked again (%s): %s in %s: %d same, %d different, %s", r.Bot, strings.Join(r.Command, " "), plural(s.Asked, "decision"), plural(r.Deals, "deal"), s.Same, s.Different, plural(s.Faults, "fault"))
	if s.Skipped > 0 {
		fmt.Fprintf(w, ", %d not asked after a fault", s.Skipped)
	}
	fmt.Fprintln(w)
	if s.LoggedMeanMS > 0 {
		fmt.Fprintf(w, "time per decision: mean %.2f ms now, %.2f ms in the log (%.2fx); max %.1f ms now, %.1f ms in the log\n",
			s.MeanMS, s.LoggedMeanMS, s.MeanMS/s.LoggedMeanMS, s.MaxMS, s.LoggedMaxMS)
	}
}

// dealNumbers numbers the deals as MATCH/DEAL does: the n-th deal of its match in the
// source, from 1, redeals included.
func dealNumbers(all []located) map[string]int {
	count := map[string]int{}
	numbers := map[string]int{}
	for i := range all {
		r := &all[i].rec
		match := fmt.Sprintf("%s\x00%d", r.Match, r.Seed)
		count[match]++
		numbers[dealKey(r)] = count[match]
	}
	return numbers
}

// dealKey identifies a deal of a source.
func dealKey(r *referee.DealRecord) string {
	return fmt.Sprintf("%s\x00%d\x00%d\x00%d\x00%d", r.Match, r.Seed, r.Game, r.Deal, r.Attempt)
}

// plural writes a count of things: "1 deal", "2 deals".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

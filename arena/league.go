package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/klaverjas-arena/arena/arena/confine"
	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/arena/view/textview"
	"github.com/klaverjas-arena/arena/arena/web"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/syntax"
)

// dbFlag is the database flag every storage command shares.
func dbFlag() cli.Flag {
	return &cli.StringFlag{Name: "db", Value: "arena.db", EnvVars: []string{"ARENA_DB"}, Usage: "the bbolt database `FILE`"}
}

func leagueCommand() *cli.Command {
	return &cli.Command{
		Name:      "league",
		Usage:     "run (or resume) a league described in a TOML file, storing every deal",
		ArgsUsage: "FILE",
		Description: "Plays every match of the league's schedule, several at once, each one duplicate pair,\n" +
			"and stores every deal in the database as it finishes. Ctrl-C stops cleanly; running the\n" +
			"same command again resumes where it stopped (also after a crash or kill -9).\n" +
			"The cards are derived from the league's seed and a secret key made when the league\n" +
			"starts and kept in the database, so that knowing the league file reveals no hand;\n" +
			"--key FILE (arena keygen) gives the key instead, to reproduce a league or run it in shards.",
		Flags: append([]cli.Flag{
			dbFlag(),
			&cli.StringFlag{Name: "key", Usage: "secret deal key `FILE` (arena keygen) to start the league with, for a reproducible or sharded league (default: a fresh key kept in the database); on resume it must be the league's key"},
			&cli.BoolFlag{Name: "force", Usage: "continue although the league file changed since the league started (recorded)"},
			&cli.IntFlag{Name: "concurrency", Usage: "matches at once (overrides the league file)", DefaultText: "the league file's"},
			&cli.IntFlag{Name: "standings-every", Usage: "print the standings every `N` matches", DefaultText: "only at the end"},
			&cli.DurationFlag{Name: "progress-every", Usage: "interval of the plain progress lines when not on a terminal", DefaultText: "30s"},
			&cli.StringFlag{Name: "serve", Usage: "serve the read-only web viewer on `HOST:PORT` while the league runs (e.g. 127.0.0.1:8080), its league page updating live"},
			&cli.StringFlag{Name: "affinity", Value: "shared", Usage: "CPU placement: shared (each match's referee and bots on one CPU, a CPU to each table while there are free ones), spread or none"},
			&cli.StringFlag{Name: "shard", Usage: "play only shard `I/N` of the league's matches into this database (with --key; arena merge joins the shards)"},
		}, verbosityFlags()...),
		Action: runLeague,
	}
}

func runLeague(c *cli.Context) error {
	refereeGC()
	if c.NArg() != 1 {
		return usageError{fmt.Sprintf("arena league: want one league FILE, got %d arguments (arena help league)", c.NArg())}
	}
	path := c.Args().First()
	f, err := league.Load(path)
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	v, err := verbosityFromFlags(c)
	if err != nil {
		errs = append(errs, err)
	}
	if c.IsSet("concurrency") && f != nil {
		if f.Concurrency = c.Int("concurrency"); f.Concurrency < 1 {
			errs = append(errs, errors.New("--concurrency must be at least 1"))
		}
	}
	cpus, err := parsePlacement(c.String("affinity"))
	if err != nil {
		errs = append(errs, err)
	}
	key, err := keyFromFlag(c)
	if err != nil {
		errs = append(errs, err)
	}
	var shard *league.Shard
	if c.IsSet("shard") {
		s, err := league.ParseShard(c.String("shard"))
		if err != nil {
			errs = append(errs, fmt.Errorf("--shard: %w", err))
		}
		if key == nil {
			errs = append(errs, errors.New("--shard needs --key KEYFILE (arena keygen): every shard must deal with the same key"))
		}
		shard = &s
	}
	dbPath := c.String("db")
	if err := checkOutputFile("db", dbPath); err != nil {
		errs = append(errs, err)
	}
	if n := c.Int("standings-every"); n < 0 {
		errs = append(errs, fmt.Errorf("--standings-every %d: want a number of matches, 1 or more (0: only at the end)", n))
	}
	if d := c.Duration("progress-every"); c.IsSet("progress-every") && d <= 0 {
		errs = append(errs, fmt.Errorf("--progress-every %v: want a positive interval, such as 30s", d))
	}
	var viewer net.Listener // opened now, so that a bad address fails before the league starts
	if addr := c.String("serve"); addr != "" {
		if viewer, err = listen(addr); err != nil {
			errs = append(errs, err)
		} else {
			defer viewer.Close()
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	policy := confine.Policy{Off: f.SandboxOff}
	if err := policy.Check(); err != nil {
		return err
	}
	policy.Hide = append(policy.Hide, path, c.String("key"))
	for _, db := range shardDBs(dbPath, shard) {
		policy.Hide = append(policy.Hide, db, snapshotPath(db), db+".holder", store.CopyPath(db), store.CopyPath(db)+".tmp")
	}
	for _, b := range f.Bots {
		policy.Hide = append(policy.Hide, b.Stderr)
		policy.HideScratch(b.Scratch)
	}
	notes, err := checkSandboxed(policy, f.Bots...)
	if err != nil {
		return err
	}
	for _, note := range notes {
		fmt.Fprintln(v.notes(c.App.ErrWriter), note)
	}
	signal.Ignore(syscall.SIGPIPE)
	db, err := store.Open(dbPath, store.Options{Command: "arena league " + path})
	if err != nil {
		return err
	}
	defer db.Close()
	if db.Unclean() {
		fmt.Fprintf(c.App.Writer, "note: the last run did not stop cleanly; %s was checked and is consistent\n", dbPath)
	}
	log := logger(c.App.ErrWriter, v.level)
	out := c.App.Writer
	progress := &view.Progress{}
	r := &league.Runner{
		File: f, DB: db, Force: c.Bool("force"), Key: key, Logger: log, Snapshot: snapshotPath(dbPath), Shard: shard,
		Entrants: func(slot int, seats []int) []referee.Entrant {
			es := make([]referee.Entrant, len(seats))
			for i, b := range seats {
				bot := f.Bots[b]
				es[i] = referee.Entrant{Name: bot.Name, Start: slotStarter(bot, slot, cpus.at(slot).bot(i), policy, log)}
			}
			return es
		},
		Pin: func(slot int) func() { return cpus.at(slot).pinReferee() },
		Progress: &textview.ProgressPrinter{Progress: progress, Out: v.notes(out), Live: !v.quiet && isTerminal(out), Width: func() int { return terminalWidth(out) }, Every: c.Duration("progress-every"),
			StandingsEvery: c.Int("standings-every"),
			Standings: func(w io.Writer, t *store.Totals) {
				fmt.Fprintln(w)
				_ = printStandings(w, f.Name, t, f.BotAuthors(), standingsOptions{})
				fmt.Fprintln(w)
			}},
	}
	if shard != nil {
		r.Copy, r.CopyEvery = store.CopyPath(dbPath), 10*time.Second
	}
	l, todo, err := r.Prepare()
	switch {
	case errors.Is(err, league.ErrFinished):
		if r.Copy != "" {
			_ = os.Remove(r.Copy) // left by a shard killed after its last match
		}
		fmt.Fprintf(out, "league %s is finished (%d matches); its standings:\n\n", l.Name, l.Matches)
		return showStandings(out, db, l.Name, standingsOptions{})
	case err != nil:
		return err
	}
	if viewer != nil { // the league is in the database now: its pages can be served
		srv, err := web.New(db, map[string]*view.Progress{f.Name: progress})
		if err != nil {
			return err
		}
		defer serveOn(viewer, srv, out)()
	}
	resumed := ""
	if r.Done > 0 {
		resumed = fmt.Sprintf(" (resumed: %d done)", r.Done)
	}
	if r.Unkeyed {
		fmt.Fprintf(out, "note: league %s was started before deal keys: it keeps dealing from its seed alone, which a bot that knows the seed can use; start a new league for secret deals\n", l.Name)
	}
	switch {
	case r.BeforeDeals:
		fmt.Fprintf(out, "note: the league file changed since the league started, before any deal was stored; continuing with it (recorded)\n")
	case r.Forced:
		fmt.Fprintf(out, "note: the league file changed since the league started; continuing with it (--force, recorded)\n")
	}
	part := ""
	if shard != nil {
		part = fmt.Sprintf(" (shard %v)", shard)
	}
	fmt.Fprintf(out, "league %s%s: %d matches%s, %d at once, database %s\n", l.Name, part, l.Matches, resumed, min(f.Concurrency, len(todo)), dbPath)
	fmt.Fprintf(out, "isolation: %s\n", policy.Describe())
	if shard != nil {
		starters := map[string]referee.Starter{}
		for _, s := range todo {
			for _, b := range s.Bots {
				starters[f.Bots[b].Name] = procStarter(f.Bots[b], nil, policy, log)
			}
		}
		if err := checkBotsStart(c.Context, starters, f.Time.Startup); err != nil {
			return err
		}
		fmt.Fprintf(out, "every bot of the shard starts on this node (%d)\n", len(starters))
	}
	err = r.Run(c.Context, todo)
	_ = os.Remove(r.Snapshot)
	if r.Copy != "" {
		_ = os.Remove(r.Copy) // the database itself is free to read now
	}
	if errors.Is(err, league.ErrInterrupted) {
		msg := fmt.Sprintf("stopped: every finished deal is stored in %s; to resume, run the same command again:\n  arena league %s%s%s",
			dbPath, dbArg(c), setFlags(c, "db"), shellQuote(path))
		return errors.New(msg)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nleague %s finished\n\n", l.Name)
	return showStandings(out, db, l.Name, standingsOptions{})
}

// snapshotPath is where a running league keeps its totals for arena standings.
func snapshotPath(db string) string { return db + ".standings.json" }

// shardDBs returns the databases whose files the league's bots must not see: its own and,
// for a shard whose database has the name arena slurm gives it (shardDBName), every other
// shard's beside it, which the same bots would otherwise find there (with every deal that
// shard has played, cards and all).
func shardDBs(db string, shard *league.Shard) []string {
	dbs := []string{db}
	if shard == nil || filepath.Base(db) != shardDBName(shard.I) {
		return dbs
	}
	for j := 1; j <= shard.N; j++ {
		if j != shard.I {
			dbs = append(dbs, filepath.Join(filepath.Dir(db), shardDBName(j)))
		}
	}
	return dbs
}

// dbArg repeats --db for a resume hint, when it was given on the command line.
func dbArg(c *cli.Context) string {
	if !dbOnCommandLine(c) {
		return ""
	}
	return "--db " + shellQuote(c.String("db")) + " "
}

// setFlags writes the flags of c's command that its command line set, but those of skip, as
// "--name value " each (a bool as "--name"), for a command the user is told to run again.
func setFlags(c *cli.Context, skip ...string) string {
	var b strings.Builder
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		if !c.IsSet(name) || slices.Contains(skip, name) {
			continue
		}
		if _, isBool := f.(*cli.BoolFlag); isBool {
			fmt.Fprintf(&b, "--%s ", name)
			continue
		}
		fmt.Fprintf(&b, "--%s %s ", name, shellQuote(fmt.Sprint(c.Value(name))))
	}
	return b.String()
}

// shellQuote quotes s for a command the user is told to run, as bash reads it.
func shellQuote(s string) string {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return strconv.Quote(s) // a NUL byte or invalid UTF-8: no shell word holds it
	}
	return q
}

// terminalWidth returns the columns of the terminal w is, or 0.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// openForReading opens the database read-only for a command that only reads it, and says
// what to do when a running league holds it. It checks the whole file first (every page,
// every stored checksum, the deals of every finished match), so that a damaged page is
// reported whatever the command reads.
func openForReading(c *cli.Context, what string) (*store.DB, error) {
	db, err := store.Open(c.String("db"), store.Options{ReadOnly: true})
	var held *store.HeldError
	if errors.As(err, &held) {
		return nil, fmt.Errorf("%s needs to read the database, and %w.\nbbolt allows one writer or any number of readers, not both: run this again when the league stops\n(Ctrl-C stops it cleanly; running the same league command again resumes it)", what, err)
	}
	if err != nil {
		return nil, err
	}
	if err := db.Verify(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

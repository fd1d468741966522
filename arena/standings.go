package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/arena/view/textview"
	"github.com/urfave/cli/v2"
)

func standingsCommand() *cli.Command {
	return &cli.Command{
		Name:  "standings",
		Usage: "print a league's standings: ratings with 95% intervals, results, faults",
		Description: "The rating is the points channel (each duplicate pair's points share) with its\n" +
			"cluster-robust 95% interval; the game-channel rating (win/draw/loss per game) is beside it.\n" +
			"Read from the sums stored with every finished match, after checking the database file\n" +
			"(every page, every stored checksum, every finished match's deals: about 0.1-0.25 s per million deals).",
		Flags: []cli.Flag{
			dbFlag(),
			&cli.StringFlag{Name: "league", Usage: "league `NAME` (default: the most recently started)"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.BoolFlag{Name: "los", Usage: "also print the likelihood-of-superiority matrix"},
			&cli.StringFlag{Name: "anchor", Usage: "fix one bot's rating: `NAME=VALUE` (default: mean 0)"},
			&cli.BoolFlag{Name: "recompute", Usage: "recompute everything from the stored deals (re-refereeing each), check it agrees with the stored sums, and print that"},
		},
		ArgsUsage: "[LEAGUE]",
		Action: func(c *cli.Context) error {
			opt := standingsOptions{json: c.Bool("json"), los: c.Bool("los"), anchor: c.String("anchor")}
			switch {
			case c.NArg() > 1:
				return usageError{fmt.Sprintf("arena standings: at most one LEAGUE, got %d arguments (arena standings --help)", c.NArg())}
			case c.NArg() == 1 && c.IsSet("league") && c.String("league") != c.Args().First():
				return usageError{"arena standings: give the league as an argument or with --league, not both"}
			case c.NArg() == 1:
				if err := c.Set("league", c.Args().First()); err != nil {
					return err
				}
			}
			db, err := openForReading(c, "arena standings")
			var held *store.HeldError
			if errors.As(err, &held) && !c.Bool("recompute") {
				// A running league holds the database: show its latest snapshot (which
				// --recompute, a check of the stored deals, cannot use).
				if snap, serr := league.ReadSnapshot(snapshotPath(c.String("db"))); serr == nil &&
					held.Holder != nil && snap.PID == held.Holder.PID && (c.String("league") == "" || c.String("league") == snap.League) {
					note := c.App.Writer
					if opt.json {
						note = c.App.ErrWriter // stdout is the JSON alone
					}
					fmt.Fprintf(note, "(league %s is running, pid %d: standings as of %s)\n", snap.League, snap.PID, snap.Time.Format("15:04:05"))
					return printStandings(c.App.Writer, snap.League, snap.Totals, snap.Authors, opt)
				} else if errors.Is(serr, league.ErrSnapshotDamaged) {
					return fmt.Errorf("%w\n%v: not shown; the league rewrites it after its next match", err, serr)
				}
			}
			if err != nil {
				return err
			}
			defer db.Close()
			name, err := leagueName(db, c.String("league"))
			if err != nil {
				return err
			}
			if c.Bool("recompute") {
				return recomputeStandings(c.App.Writer, db, name, opt)
			}
			return showStandings(c.App.Writer, db, name, opt)
		},
	}
}

type standingsOptions struct {
	json, los bool
	anchor    string
}

// leagueName returns the named league, or the most recent one.
func leagueName(db *store.DB, name string) (string, error) {
	ls, err := db.Leagues()
	if err != nil {
		return "", err
	}
	if name != "" {
		if !slices.ContainsFunc(ls, func(l store.League) bool { return l.Name == name }) {
			return "", fmt.Errorf("no league %q in %s%s", name, db.Path(), leagueList(db))
		}
		return name, nil
	}
	if len(ls) == 0 {
		return "", fmt.Errorf("database %s holds no league yet (arena league FILE runs one)", db.Path())
	}
	return ls[len(ls)-1].Name, nil
}

func showStandings(w io.Writer, db *store.DB, name string, opt standingsOptions) error {
	t, err := db.Totals(name)
	if err != nil {
		return err
	}
	l, err := db.League(name)
	if err != nil {
		return err
	}
	if err := printStandings(w, name, t, l.Authors, opt); err != nil || opt.json {
		return err
	}
	return printRanking(w, db, name)
}

// recomputeStandings prints the standings recomputed from the raw deals, and fails unless
// they agree with the sums stored as the matches finished.
func recomputeStandings(w io.Writer, db *store.DB, name string, opt standingsOptions) error {
	fresh, err := league.Recompute(db, name)
	if err != nil {
		return err
	}
	stored, err := db.Totals(name)
	if err != nil {
		return err
	}
	l, err := db.League(name)
	if err != nil {
		return err
	}
	if err := printStandings(w, name, fresh, l.Authors, opt); err != nil {
		return err
	}
	if err := league.Compare(stored, fresh); err != nil {
		return fmt.Errorf("league %s: the totals recomputed from the stored deals differ from the stored sums, the database is inconsistent:\n%w", name, err)
	}
	if !opt.json {
		fmt.Fprintf(w, "\nrecomputed from %d stored deals, every one re-refereed: agrees with the stored sums\n", fresh.Deals)
	}
	return nil
}

// printStandings computes and writes a league's standings (as JSON with opt.json), with
// the bots' author lines by rating index (nil for none).
func printStandings(w io.Writer, name string, t *store.Totals, authors []string, opt standingsOptions) error {
	tab, err := view.ComputeStandings(name, t, view.StandingsOptions{LOS: opt.los, Anchor: opt.anchor})
	if err != nil {
		return err
	}
	tab.SetAuthors(authors)
	if opt.json {
		return textview.StandingsJSON(w, tab)
	}
	return textview.Standings(w, tab)
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/rating"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/urfave/cli/v2"
)

func standingsCommand() *cli.Command {
	return &cli.Command{
		Name:  "standings",
		Usage: "print a league's standings: ratings with 95% intervals, results, faults",
		Description: "The rating is the points channel (each duplicate pair's points share) with its\n" +
			"cluster-robust 95% interval; the game-channel rating (win/draw/loss per game) is beside it.\n" +
			"Read from the sums stored with every finished match, after checking the database file\n" +
			"(every page and every stored checksum: about 0.25 s per million deals).",
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
			if errors.As(err, &held) {
				// A running league holds the database: show its latest snapshot.
				if snap, serr := league.ReadSnapshot(snapshotPath(c.String("db"))); serr == nil &&
					held.Holder != nil && snap.PID == held.Holder.PID && (c.String("league") == "" || c.String("league") == snap.League) {
					note := c.App.Writer
					if opt.json {
						note = c.App.ErrWriter // stdout is the JSON alone
					}
					fmt.Fprintf(note, "(league %s is running, pid %d: standings as of %s)\n", snap.League, snap.PID, snap.Time.Format("15:04:05"))
					return printStandings(c.App.Writer, snap.League, snap.Totals, opt)
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
	return printStandings(w, name, t, opt)
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
	if err := printStandings(w, name, fresh, opt); err != nil {
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

// standing is one bot's line.
type standing struct {
	Rank      int            `json:"rank"`
	Bot       string         `json:"bot"`
	Elo       *float64       `json:"elo"`      // points channel
	CI95      *float64       `json:"ci95"`     // half-width of its 95% interval
	GameElo   *float64       `json:"game_elo"` // game channel
	GameCI95  *float64       `json:"game_ci95"`
	Games     int            `json:"games"`
	Deals     int            `json:"deals"`
	Share     float64        `json:"points_share"`
	Wins      int            `json:"wins"`
	Draws     int            `json:"draws"`
	Losses    int            `json:"losses"`
	NatRate   float64        `json:"nat_rate"` // of the deals its team made trump
	PitRate   float64        `json:"pit_rate"` // of its deals
	Faults    map[string]int `json:"faults,omitempty"`
	ratingIdx int
}

// standingsTable is what --json prints.
type standingsTable struct {
	League    string      `json:"league"`
	Matches   int         `json:"matches"`
	Deals     int         `json:"deals"`
	Standings []standing  `json:"standings"`
	Note      string      `json:"note,omitempty"` // why there are no ratings yet
	LOS       [][]float64 `json:"los,omitempty"`  // in standings order
}

// computeStandings fits both channels and builds the table, best first.
func computeStandings(name string, t *store.Totals, opt standingsOptions) (*standingsTable, error) {
	tab := &standingsTable{League: name, Matches: t.Matches, Deals: t.Deals}
	fitOpt := rating.Options{}
	if opt.anchor != "" {
		bot, value, ok := strings.Cut(opt.anchor, "=")
		v, err := strconv.ParseFloat(value, 64)
		idx := slices.IndexFunc(t.Bots, func(b store.BotTotals) bool { return b.Name == bot })
		if !ok || err != nil || idx < 0 {
			names := make([]string, len(t.Bots))
			for i, b := range t.Bots {
				names[i] = b.Name
			}
			return nil, fmt.Errorf("--anchor %q: want NAME=VALUE with NAME one of the league's bots: %s", opt.anchor, strings.Join(names, ", "))
		}
		fitOpt.Reference = &rating.Reference{Bot: idx, Elo: v}
	}
	st := &rating.Stats{Pairings: slices.Clone(t.Pairings)}
	points, perr := rating.Fit(st, fitOpt)
	fitOpt.Channel = rating.Games
	games, gerr := rating.Fit(st, fitOpt)
	if perr != nil {
		tab.Note = "no ratings yet: " + perr.Error()
		if errors.Is(perr, rating.ErrInvalidOptions) {
			return nil, perr
		}
	}
	for i, b := range t.Bots {
		s := standing{Bot: b.Name, Games: b.Games, Deals: b.Deals, Wins: b.Wins, Draws: b.Draws, Losses: b.Losses, Faults: b.Faults, ratingIdx: i}
		if all := b.PointsFor + b.PointsAgainst; all > 0 {
			s.Share = float64(b.PointsFor) / float64(all)
		}
		if b.Made+b.Nat > 0 {
			s.NatRate = float64(b.Nat) / float64(b.Made+b.Nat)
		}
		if b.Deals > 0 {
			s.PitRate = float64(b.Pit) / float64(b.Deals)
		}
		if perr == nil && i < len(points.Elo) {
			s.Elo, s.CI95 = ptr(points.Elo[i]), ptr(1.96*points.SE(i))
		}
		if gerr == nil && i < len(games.Elo) {
			s.GameElo, s.GameCI95 = ptr(games.Elo[i]), ptr(1.96*games.SE(i))
		}
		tab.Standings = append(tab.Standings, s)
	}
	slices.SortStableFunc(tab.Standings, func(a, b standing) int {
		if a.Elo != nil && b.Elo != nil && *a.Elo != *b.Elo {
			return cmpDesc(*a.Elo, *b.Elo)
		}
		return cmpDesc(a.Share, b.Share)
	})
	for i := range tab.Standings {
		tab.Standings[i].Rank = i + 1
	}
	if opt.los && perr == nil {
		for _, a := range tab.Standings {
			row := make([]float64, len(tab.Standings))
			for j, b := range tab.Standings {
				row[j] = points.LOS(a.ratingIdx, b.ratingIdx)
			}
			tab.LOS = append(tab.LOS, row)
		}
	}
	return tab, nil
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

func ptr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func printStandings(w io.Writer, name string, t *store.Totals, opt standingsOptions) error {
	tab, err := computeStandings(name, t, opt)
	if err != nil {
		return err
	}
	if opt.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(tab)
	}
	fmt.Fprintf(w, "league %s: %d matches, %d deals\n", name, tab.Matches, tab.Deals)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rank\tbot\telo\t±95%\tgame elo\t±95%\tgames\tdeals\tpoints\tW-D-L\tnat\tpit\tfaults\t")
	for _, s := range tab.Standings {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%.1f%%\t%d-%d-%d\t%.1f%%\t%.1f%%\t%s\t\n", s.Rank, s.Bot,
			num(s.Elo, "%+.0f"), num(s.CI95, "%.0f"), num(s.GameElo, "%+.0f"), num(s.GameCI95, "%.0f"),
			s.Games, s.Deals, 100*s.Share, s.Wins, s.Draws, s.Losses, 100*s.NatRate, 100*s.PitRate, faultList(s.Faults))
	}
	tw.Flush()
	if tab.Note != "" {
		fmt.Fprintln(w, tab.Note)
	}
	if len(tab.LOS) > 0 {
		fmt.Fprintln(w, "\nlikelihood of superiority (row over column):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		header := "\t"
		for _, s := range tab.Standings {
			header += s.Bot + "\t"
		}
		fmt.Fprintln(tw, header)
		for i, s := range tab.Standings {
			line := s.Bot + "\t"
			for j := range tab.Standings {
				if i == j {
					line += "-\t"
					continue
				}
				line += fmt.Sprintf("%.1f%%\t", 100*tab.LOS[i][j])
			}
			fmt.Fprintln(tw, line)
		}
		tw.Flush()
	}
	return nil
}

func num(v *float64, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}

package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/urfave/cli/v2"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:  "export",
		Usage: "write a league's stored deals as JSON lines in the deal-log format (spec.md §12)",
		Flags: []cli.Flag{
			dbFlag(),
			&cli.StringFlag{Name: "league", Usage: "league `NAME` (default: the most recently started)"},
			&cli.StringFlag{Name: "match", Usage: "only this match, `LEAGUE/N`"},
			&cli.StringFlag{Name: "output", Usage: "write to `FILE` instead of standard output (-o is --option, a ruleset option, in the commands that play)"},
		},
		Action: runExport,
	}
}

func runExport(c *cli.Context) error {
	if errs := sourceFlagConflicts(c, c.String("match")); len(errs) > 0 {
		return usageError{errors.Join(errs...).Error()}
	}
	db, err := openForReading(c, "arena export")
	if err != nil {
		return err
	}
	defer db.Close()
	name, match := c.String("league"), -1
	if sel := c.String("match"); sel != "" {
		if name, match, err = parseMatchID(sel); err != nil {
			return err
		}
	}
	if name, err = leagueName(db, name); err != nil {
		return err
	}
	var out io.Writer = c.App.Writer
	var file *os.File
	if path := c.String("output"); path != "" {
		if file, err = os.Create(path); err != nil {
			return err
		}
		out = file
	}
	refereeGC()
	n := 0
	err = store.MatchLines(db, name, match, func(_ *store.Match, lines []byte, deals int) error {
		n += deals
		_, err := out.Write(lines) // a match's lines at once: no buffer needed
		return err
	})
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			fmt.Fprintf(c.App.ErrWriter, "arena: %d deals of league %s written to %s\n", n, name, file.Name())
		}
	}
	return err
}

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/klaverjas-arena/arena/arena/dealjson"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
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
	w := bufio.NewWriterSize(out, 256<<10)
	refereeGC()
	n := 0
	encoders := sync.Pool{New: func() any { return new(dealjson.Encoder) }} // what json.Marshal writes, without reflection
	err = store.MatchDeals(db, name, match, func(_ *store.Match, recs []referee.DealRecord, _ []bool, out *exported) error {
		enc := encoders.Get().(*dealjson.Encoder)
		defer encoders.Put(enc)
		out.lines, out.deals = out.lines[:0], len(recs)
		for i := range recs {
			var err error
			if out.lines, err = enc.Append(out.lines, &recs[i]); err != nil {
				return err
			}
			out.lines = append(out.lines, '\n')
		}
		return nil
	}, func(_ *store.Match, out *exported) error {
		n += out.deals
		_, err := w.Write(out.lines)
		return err
	})
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
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

// exported is one match as export writes it: its deals' JSON lines, made on one of the
// store's decoding goroutines.
type exported struct {
	lines []byte
	deals int
}

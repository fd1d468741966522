package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
)

// sourceFlagConflicts lists the flags of a command that reads a log or a database which say
// something the command would otherwise ignore: --db given on the command line (not only by
// ARENA_DB) beside --log, --league beside --log (a log has no leagues), and --league naming
// another league than the match selected, match (LEAGUE/N…, "" for none). Each is an
// error, since the user expected the flag to be read.
func sourceFlagConflicts(c *cli.Context, match string) []error {
	var errs []error
	league := c.String("league")
	if log := c.String("log"); log != "" {
		if dbOnCommandLine(c) {
			errs = append(errs, fmt.Errorf("--db %s and --log %s: read either a database or a log; drop one of them", c.String("db"), log))
		}
		if league != "" {
			errs = append(errs, fmt.Errorf("--league %s with --log %s: a log has no leagues; drop --league (a log's matches are listed by arena replay --log %s)", league, log, log))
		}
		return errs
	}
	if name, _, ok := strings.Cut(match, "/"); ok && league != "" && name != league {
		errs = append(errs, fmt.Errorf("--league %s and match %s of league %s: drop --league, or give a match of league %s", league, match, name, league))
	}
	return errs
}

// dbOnCommandLine says whether --db was typed, not only set by the ARENA_DB environment
// variable (which urfave/cli counts as set).
func dbOnCommandLine(c *cli.Context) bool {
	return c.IsSet("db") && os.Getenv("ARENA_DB") != c.String("db")
}

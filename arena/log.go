package main

import (
	"errors"
	"io"
	"os"

	"github.com/rs/zerolog"
	"github.com/urfave/cli/v2"
)

// verbosityFlags are --quiet and --verbose, for the commands that run bots.
func verbosityFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only the results and errors: no notes, no progress, no warnings"},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "log every bot start and stop and every fault in detail (ARENA_LOG_LEVEL=trace: every protocol line)"},
	}
}

// verbosity is how much a command prints besides its results.
type verbosity struct {
	quiet bool          // results and errors only
	level zerolog.Level // of the log
}

// verbosityFromFlags reads --quiet, --verbose and ARENA_LOG_LEVEL (default warn).
func verbosityFromFlags(c *cli.Context) (verbosity, error) {
	return newVerbosity(c.Bool("quiet"), c.Bool("verbose"))
}

// newVerbosity is the verbosity of --quiet, --verbose and ARENA_LOG_LEVEL (default warn).
func newVerbosity(quiet, verbose bool) (verbosity, error) {
	v := verbosity{quiet: quiet, level: zerolog.WarnLevel}
	if l, err := zerolog.ParseLevel(os.Getenv("ARENA_LOG_LEVEL")); err == nil && l != zerolog.NoLevel {
		v.level = l
	}
	switch {
	case quiet && verbose:
		return v, errors.New("give --quiet or --verbose, not both")
	case v.quiet:
		v.level = zerolog.ErrorLevel
	case verbose && v.level > zerolog.DebugLevel:
		v.level = zerolog.DebugLevel
	}
	return v, nil
}

// defaultLogLevel is the log level of a command without --quiet and --verbose:
// ARENA_LOG_LEVEL, default warn.
func defaultLogLevel() zerolog.Level {
	v, _ := newVerbosity(false, false)
	return v.level
}

// logger returns the arena's logger: human-readable lines on w at the given level, in colour
// only on a terminal and without NO_COLOR.
func logger(w io.Writer, level zerolog.Level) zerolog.Logger {
	noColor := os.Getenv("NO_COLOR") != "" || !isTerminal(w)
	return zerolog.New(zerolog.ConsoleWriter{Out: w, TimeFormat: "15:04:05", NoColor: noColor}).Level(level).With().Timestamp().Logger()
}

// notes writes informational lines to w unless quiet.
func (v verbosity) notes(w io.Writer) io.Writer {
	if v.quiet {
		return io.Discard
	}
	return w
}

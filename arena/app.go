package main

import (
	"io"
	"os"

	"github.com/rs/zerolog"

	"github.com/urfave/cli/v2"
)

// newApp builds the command-line interface; out and errOut receive its output so tests can
// drive it.
func newApp(out, errOut io.Writer) *cli.App {
	return &cli.App{
		Name:            "arena",
		Usage:           "referee and tournament runner for Klaverjas bots",
		Writer:          out,
		ErrWriter:       errOut,
		HideHelpCommand: true,
		// A repeatable flag takes one value per use, commas included: -o deal_packets=[4,4],
		// --seat 'E=bot --levels 1,2'.
		DisableSliceFlagSeparator: true,
		Commands: []*cli.Command{
			demoCommand(),
			matchCommand(),
			checkCommand(),
			rulesCommand(),
			leagueCommand(),
			standingsCommand(),
			replayCommand(),
			askCommand(),
			playCommand(),
			exportCommand(),
			keygenCommand(),
			serveCommand(),
			mergeCommand(),
			slurmCommand(),
		},
	}
}

// logger returns the arena's logger: human-readable lines on w at the level named by
// ARENA_LOG_LEVEL (default warn).
func logger(w io.Writer) zerolog.Logger {
	level, err := zerolog.ParseLevel(os.Getenv("ARENA_LOG_LEVEL"))
	if err != nil || level == zerolog.NoLevel {
		level = zerolog.WarnLevel
	}
	return zerolog.New(zerolog.ConsoleWriter{Out: w, TimeFormat: "15:04:05", NoColor: os.Getenv("NO_COLOR") != ""}).Level(level).With().Timestamp().Logger()
}

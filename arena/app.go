package main

import (
	"io"

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
		Commands: []*cli.Command{
			demoCommand(),
			rulesCommand(),
		},
	}
}

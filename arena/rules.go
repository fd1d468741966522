package main

import (
	"fmt"
	"strings"

	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/rulesfile"
	"github.com/urfave/cli/v2"
)

func rulesCommand() *cli.Command {
	return &cli.Command{
		Name:  "rules",
		Usage: "print a ruleset with every option, or list the presets and options",
		Description: "Prints the ruleset chosen by --preset, --rules and --option in full, as TOML\n" +
			"(or JSON), so it can be saved, edited and passed back with --rules.",
		Flags: append(rulesetFlags(),
			&cli.StringFlag{Name: "format", Value: "toml", Usage: "output format: toml or json"},
			&cli.BoolFlag{Name: "list", Usage: "list the presets and every option with its allowed values"},
		),
		Action: func(c *cli.Context) error {
			out := c.App.Writer
			if c.Bool("list") {
				fmt.Fprintln(out, "presets:")
				for _, p := range rules.AllPresetNames() {
					fmt.Fprintf(out, "  %-26s %s\n", p, rules.PresetAbout(p))
				}
				fmt.Fprintln(out, "options:")
				for _, o := range rules.OptionNames() {
					fmt.Fprintf(out, "  %-28s %s\n", o, rules.OptionAllowed(o))
				}
				return nil
			}
			rs, err := rulesetFromFlags(c)
			if err != nil {
				return err
			}
			switch strings.ToLower(c.String("format")) {
			case "toml":
				_, err = out.Write(rulesfile.TOML(rs))
			case "json":
				_, err = fmt.Fprintf(out, "%s\n", rulesfile.JSON(rs))
			default:
				err = fmt.Errorf("--format %q: want toml or json", c.String("format"))
			}
			return err
		},
	}
}

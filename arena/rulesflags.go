package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/rulesfile"
	"github.com/urfave/cli/v2"
)

// rulesetFlags are the flags that choose a ruleset: a preset, a file, and single options.
func rulesetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "preset", Value: "amsterdams", EnvVars: []string{"ARENA_PRESET"},
			Usage: "ruleset preset: " + strings.Join(rules.AllPresetNames(), ", ")},
		&cli.StringFlag{Name: "rules", Usage: "ruleset `FILE` (.toml or .json); its options override the preset"},
		&cli.StringSliceFlag{Name: "option", Aliases: []string{"o"},
			Usage: "set one ruleset option, `NAME=VALUE` (repeatable), e.g. -o bidding=draaikaart"},
	}
}

// rulesetFromFlags builds the ruleset from --preset, --rules and --option, reporting every
// problem at once.
func rulesetFromFlags(c *cli.Context) (rules.Ruleset, error) {
	rs, err := rules.Preset(c.String("preset"))
	if err != nil {
		return rs, err
	}
	if path := c.String("rules"); path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return rs, err
		}
		parse := rulesfile.ParseTOML
		if strings.HasSuffix(path, ".json") {
			parse = rulesfile.ParseJSON
		}
		if rs, err = parse(data); err != nil {
			return rs, fmt.Errorf("%s: %w", path, err)
		}
		if c.IsSet("preset") {
			return rs, errors.New("give the preset in the rules file or with --preset, not both")
		}
	}
	var errs []error
	for _, kv := range c.StringSlice("option") {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			errs = append(errs, fmt.Errorf("--option %q: want NAME=VALUE", kv))
			continue
		}
		if err := rs.Set(strings.TrimSpace(name), strings.TrimSpace(value)); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		errs = append(errs, rs.Validate())
	}
	return rs, errors.Join(errs...)
}

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

// rulesetConfig is the ruleset as the flags give it, before it is built.
type rulesetConfig struct {
	Preset    string   // --preset
	PresetSet bool     // --preset given (or ARENA_PRESET set)
	File      string   // --rules
	Options   []string // --option NAME=VALUE
}

// rulesetConfigFromFlags reads --preset, --rules and --option.
func rulesetConfigFromFlags(c *cli.Context) rulesetConfig {
	return rulesetConfig{Preset: c.String("preset"), PresetSet: c.IsSet("preset"), File: c.String("rules"), Options: c.StringSlice("option")}
}

// rulesetFromFlags builds the ruleset from --preset, --rules and --option, reporting every
// problem at once.
func rulesetFromFlags(c *cli.Context) (rules.Ruleset, error) {
	return rulesetConfigFromFlags(c).build()
}

// build makes the ruleset: the preset, or the rules file, with the options set on it,
// reporting every problem at once.
func (rc rulesetConfig) build() (rules.Ruleset, error) {
	rs, err := rules.Preset(rc.Preset)
	if err != nil {
		return rs, err
	}
	if path := rc.File; path != "" {
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
		if rc.PresetSet {
			return rs, errors.New("give the preset in the rules file or with --preset, not both")
		}
	}
	var errs []error
	for _, kv := range rc.Options {
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

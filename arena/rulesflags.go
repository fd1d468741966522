package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
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
// reporting every problem at once. With an error it still returns a ruleset for the other
// checks of the command line: the preset's (a mistyped preset's nearest, else the default),
// so that the bots are counted against the game that was meant.
func (rc rulesetConfig) build() (rules.Ruleset, error) {
	var errs []error
	rs, err := rules.Preset(rc.Preset)
	if err != nil {
		near := suggest(rc.Preset, rules.AllPresetNames())
		if rs, err = rules.Preset(near); err != nil {
			rs = rules.Default()
		}
		msg := fmt.Sprintf("--preset %s: no such preset", rc.Preset)
		if near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		errs = append(errs, fmt.Errorf("%s (the presets: %s; arena rules --list describes them)", msg, strings.Join(rules.AllPresetNames(), ", ")))
	}
	if path := rc.File; path != "" {
		if fileRules, err := readRulesFile(path); err != nil {
			errs = append(errs, err)
		} else if rc.PresetSet {
			errs = append(errs, errors.New("give the preset in the rules file or with --preset, not both"))
		} else {
			rs = fileRules
		}
	}
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

// readRulesFile reads the ruleset file of --rules: TOML, or JSON for a name ending in .json.
func readRulesFile(path string) (rules.Ruleset, error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && slices.Contains(rules.AllPresetNames(), path):
		return rules.Ruleset{}, fmt.Errorf("--rules %s: no such file; the preset of that name is --preset %s", path, path)
	case err != nil:
		return rules.Ruleset{}, inputFileError("rules", path, err, "a ruleset file, .toml or .json: `arena rules > FILE` writes one to start from")
	}
	parse := rulesfile.ParseTOML
	if strings.HasSuffix(path, ".json") {
		parse = rulesfile.ParseJSON
	}
	rs, err := parse(data)
	if err != nil {
		return rs, fmt.Errorf("--rules %s: %w", path, err)
	}
	return rs, nil
}

package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// flagsFirst moves a command's flags before its positional arguments, so that
// "arena match A B --games 10" works as well as "arena match --games 10 A B": urfave/cli v2
// reads flags with the standard flag package, which stops at the first argument, and has no
// option to read them further (v3 does). "--" ends the flags as usual. A flag that wants a
// value but ends the line is left last, with no arguments after it, so that the flag package
// says that it needs a value.
func flagsFirst(app *cli.App, args []string) []string {
	if len(args) < 2 || args[len(args)-1] == "--generate-bash-completion" {
		return args // completion looks at the words as typed
	}
	cmd := app.Command(args[1])
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, name := range f.Names() {
			takesValue[name] = !isBool
		}
	}
	var flags, positional []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			positional = append(positional, rest[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && takesValue[name] {
			if i+1 == len(rest) || rest[i+1] == "--" {
				return append([]string{args[0], args[1]}, flags...)
			}
			flags = append(flags, rest[i+1])
			i++
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	if len(positional) > 0 {
		out = append(append(out, "--"), positional...)
	}
	return out
}

// badFlagValues takes out of args (as flagsFirst leaves them) every flag whose value its
// flag refuses (a duration without its unit, a number that is not one, a boolean that is
// neither true nor false) and returns the rest, and each refused one in words (see
// describeFlagError). The flag package would stop at the first; without them the command
// reads the rest, its defaults in their place, and can report every problem at once.
func badFlagValues(app *cli.App, args []string) (rest, problems []string) {
	if len(args) < 3 {
		return args, nil
	}
	cmd := app.Command(args[1])
	if cmd == nil {
		return args, nil
	}
	byName := map[string]cli.Flag{}
	for _, f := range cmd.Flags {
		for _, name := range f.Names() {
			byName[name] = f
		}
	}
	rest = args[:2:2]
	for i := 2; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			return append(rest, args[i:]...), problems
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := byName[name]
		_, isBool := f.(*cli.BoolFlag)
		switch {
		case f == nil || isBool && !hasValue:
			rest = append(rest, a) // unknown flags are the flag package's to report
			continue
		case !hasValue && i+1 < len(args):
			i++
			value = args[i]
		case !hasValue:
			return append(rest, a), problems // a value is missing: the flag package says so
		}
		if err := trySet(f, name, value); err != nil {
			msg := fmt.Sprintf("invalid value %q for flag -%s: %v", value, name, err)
			if isBool {
				msg = fmt.Sprintf("invalid boolean value %q for -%s: %v", value, name, err)
			}
			problems = append(problems, describeFlagError(msg, cmd.Flags))
			continue
		}
		rest = append(rest, args[i-btoi(!hasValue):i+1]...)
	}
	return rest, problems
}

// trySet sets flag f (one of its names, name) to value in a flag set of its own, as the
// command's parse would, and returns the flag's refusal.
func trySet(f cli.Flag, name, value string) error {
	set := flag.NewFlagSet(name, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	if err := f.Apply(set); err != nil {
		return nil // a flag that cannot be tried is left to the command's parse
	}
	return set.Set(name, value)
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

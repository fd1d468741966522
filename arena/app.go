package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
)

// Exit statuses besides 0 (success) and 1 (an error).
const (
	exitUsage = 2 // the command line is wrong: an unknown command or flag, a flag's bad value
	// An interrupted arena exits with 128 plus the signal's number, as a shell reports it:
	// 130 for Ctrl-C (SIGINT), 143 for SIGTERM.
	exitSignalBase = 128
)

// run runs the arena with the command line args and returns its exit status. Ctrl-C and
// SIGTERM cancel the command's context; the command then stops cleanly and the arena exits
// with 128 plus the signal's number. A second signal ends the arena at once (the bots are
// then ended as after a kill -9 of the arena, and the database is as safe).
func run(args []string, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	returned := make(chan struct{})
	defer close(returned)
	go func() {
		select {
		case s := <-sigs:
			cancel(interrupted{s.(syscall.Signal)})
		case <-ctx.Done():
			return
		}
		// The command stops cleanly on the first signal; a second one ends the arena at once,
		// for a command that cannot see the first (blocked opening a named pipe with no
		// writer, say, or reading a hung network file system).
		select {
		case s := <-sigs:
			fmt.Fprintf(stderr, "arena: %v again: stopping at once\n", s)
			os.Exit(exitSignalBase + int(s.(syscall.Signal)))
		case <-returned:
		}
	}()
	app := newApp(stdout, stderr)
	args, problems := badFlagValues(app, flagsFirst(app, args))
	app.Metadata = map[string]any{flagProblemsKey: problems}
	if len(problems) > 0 && !slices.Contains(collectsFlagProblems, args[1]) { // (problems: args[1] is a command)
		cmd := app.Command(args[1])
		// runs once the rest of the flags are read: the refused values stop the command
		cmd.Before = func(*cli.Context) error { return flagProblemsError(cmd.Name, problems) }
	}
	err := app.RunContext(ctx, args)
	var sig interrupted
	if errors.As(context.Cause(ctx), &sig) {
		if err != nil {
			fmt.Fprintln(stderr, withPrefix(err.Error()))
		}
		return exitSignalBase + int(sig.Signal)
	}
	return exitStatus(stderr, err)
}

// interrupted is the cause of a context cancelled by a signal.
type interrupted struct{ syscall.Signal }

func (i interrupted) Error() string { return "interrupted by " + i.Signal.String() }

// exitStatus prints err, if any, and returns the exit status it calls for.
func exitStatus(stderr io.Writer, err error) int {
	if err == nil {
		return 0
	}
	status := 1
	var usage usageError
	var coder cli.ExitCoder
	switch {
	case errors.As(err, &usage):
		status = exitUsage
	case errors.As(err, &coder):
		status = coder.ExitCode()
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(stderr, withPrefix(msg))
	}
	return status
}

// withPrefix starts an error message with "arena: ", unless it names its command already
// ("arena match: ...").
func withPrefix(msg string) string {
	if strings.HasPrefix(msg, "arena ") || strings.HasPrefix(msg, "arena: ") {
		return msg
	}
	return "arena: " + msg
}

// collectsFlagProblems is the commands that report the flag values their flags refused (see
// badFlagValues) with every other problem of their command line; for any other command the
// arena reports those values and stops.
var collectsFlagProblems = []string{"match", "play"}

// flagProblemsKey is the key of the app's Metadata that holds those values' problems.
const flagProblemsKey = "flag problems"

// flagProblems returns the problems of the flag values that badFlagValues took out.
func flagProblems(c *cli.Context) []string {
	problems, _ := c.App.Metadata[flagProblemsKey].([]string)
	return problems
}

// flagProblemsError is the usage error of command cmd for these refused flag values, a
// line each.
func flagProblemsError(cmd string, problems []string) error {
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = fmt.Sprintf("arena %s: %s", cmd, p)
	}
	lines[len(lines)-1] += fmt.Sprintf(" (arena %s --help)", cmd)
	return usageError{strings.Join(lines, "\n")}
}

// usageError is a mistake in the command line: the arena prints it in one line that starts
// with the command ("arena match: ...") and says what to do, instead of the whole help.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// newApp builds the command-line interface; out and errOut receive its output so tests can
// drive it.
func newApp(out, errOut io.Writer) *cli.App {
	app := &cli.App{
		Name:      "arena",
		Usage:     "referee and tournament runner for Klaverjas bots",
		Version:   versionLine(),
		Writer:    out,
		ErrWriter: errOut,
		Suggest:   true,
		// A repeatable flag takes one value per use, commas included: -o deal_packets=[4,4],
		// --seat 'E=bot --levels 1,2'.
		DisableSliceFlagSeparator: true,
		EnableBashCompletion:      true,
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
			versionCommand(),
			completionCommand(),
		},
		// The errors are printed once, by run, which also chooses the exit status.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   onUsageError,
		CommandNotFound: func(c *cli.Context, name string) {
			// Only reached by "arena help NAME"; an unknown command is caught by Before.
			fmt.Fprintf(c.App.ErrWriter, "arena: no command %q%s\n", name, suggestCommand(c.App, name))
		},
		Before: func(c *cli.Context) error {
			if name := c.Args().First(); name != "" && c.App.Command(name) == nil {
				return usageError{fmt.Sprintf("arena: no command %q%s (arena help lists the commands)", name, suggestCommand(c.App, name))}
			}
			return nil
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = onUsageError
	}
	return app
}

// suggestCommand returns `; did you mean "match"?` for a mistyped command, or "" when no
// command is alike (see suggest).
func suggestCommand(app *cli.App, name string) string {
	var names []string
	for _, c := range app.VisibleCommands() {
		names = append(names, c.Name)
	}
	if best := suggest(name, names); best != "" {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return ""
}

// suggest returns the one of names most like name (Jaro-Winkler similarity, as urfave/cli's
// own suggestions, of at least 0.8), or "" when none is.
func suggest(name string, names []string) string {
	best, score := "", 0.8
	for _, n := range names {
		if s := smetrics.JaroWinkler(name, n, 0.7, 4); s >= score {
			best, score = n, s
		}
	}
	return best
}

// onUsageError turns a flag the command line got wrong into one line saying what is wrong
// and what to do, instead of urfave/cli's whole help.
func onUsageError(c *cli.Context, err error, _ bool) error {
	cmd, flags := "arena", c.App.Flags
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		cmd, flags = "arena "+c.Command.Name, c.Command.Flags
	}
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	var lines []string
	for _, p := range flagProblems(c) { // the refused values before the flag package's stop
		lines = append(lines, fmt.Sprintf("%s: %s", cmd, p))
	}
	lines = append(lines, fmt.Sprintf("%s: %s (%s --help)", cmd, describeFlagError(err.Error(), flags), cmd))
	return usageError{strings.Join(lines, "\n")}
}

// describeFlagError rewrites a flag package error in words: `flag provided but not
// defined: -gmaes` as `no flag --gmaes; did you mean --games?`, `invalid value "5" for flag
// -time: parse error` as `--time 5: a duration needs its unit, such as 500ms, 2s or 1m30s`.
func describeFlagError(msg string, flags []cli.Flag) string {
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		name = strings.TrimLeft(name, "-")
		msg = "no flag --" + name
		if s := cli.SuggestFlag(flags, name, true); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", s)
		}
		return msg
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Sprintf("--%s needs a value", strings.TrimLeft(name, "-"))
	}
	var value, name string
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		q, after, _ := strings.Cut(rest, " for flag -")
		value, name = strings.Trim(q, `"`), strings.TrimLeft(after, "-")
	} else if rest, ok := strings.CutPrefix(msg, "invalid boolean value "); ok {
		q, after, _ := strings.Cut(rest, " for -")
		value, name = strings.Trim(q, `"`), strings.TrimLeft(after, "-")
	}
	name, _, _ = strings.Cut(name, ":")
	for _, f := range flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		switch f.(type) {
		case *cli.DurationFlag:
			return fmt.Sprintf("--%s %s: a duration needs its unit, such as 500ms, 2s or 1m30s", f.Names()[0], value)
		case *cli.IntFlag, *cli.Int64Flag:
			return fmt.Sprintf("--%s %s: want a whole number", f.Names()[0], value)
		case *cli.Uint64Flag, *cli.UintFlag:
			return fmt.Sprintf("--%s %s: want a whole number, 0 or more", f.Names()[0], value)
		case *cli.BoolFlag:
			return fmt.Sprintf("--%s=%s: want true or false", f.Names()[0], value)
		}
	}
	return msg
}

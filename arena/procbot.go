package main

import (
	"os"
	"sort"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/botproc"
	"github.com/rs/zerolog"
)

// procStarter returns a referee.Starter that runs the bot as a program under botproc, with
// its environment (PATH and LANG, plus the bot's env) when the bot sets any.
func procStarter(b botSpec, cpus []int, log zerolog.Logger) referee.Starter {
	spec := botproc.Spec{Name: b.Name, Argv: b.Cmd, Dir: b.Dir, StderrFile: b.Stderr, CPUs: cpus}
	if len(b.Env) > 0 {
		spec.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
		keys := make([]string, 0, len(b.Env))
		for k := range b.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			spec.Env = append(spec.Env, k+"="+b.Env[k])
		}
	}
	return botproc.Starter(spec, log)
}

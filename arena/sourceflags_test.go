package main

import (
	"strings"
	"testing"
)

// TestSourceFlagConflicts: a flag the command would ignore is an error naming it, before
// anything is read: --db beside --log, --league beside --log, --league naming another league
// than the match's. --db set only by ARENA_DB beside --log is no conflict.
func TestSourceFlagConflicts(t *testing.T) {
	db, log := storedLeague(t)
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"replay db and log", []string{"replay", "--db", db, "--log", log, "t/0/3"}, []string{"--db " + db + " and --log " + log}},
		{"replay league and log", []string{"replay", "--log", log, "--league", "t", "--verify"}, []string{"--league t with --log " + log}},
		{"replay both", []string{"replay", "--db", db, "--log", log, "--league", "t", "--verify"}, []string{"--db " + db + " and --log", "--league t with --log"}},
		{"replay another league", []string{"replay", "--db", db, "--league", "u", "t/0/3"}, []string{"--league u and match t/0/3 of league t"}},
		{"export another league", []string{"export", "--db", db, "--league", "u", "--match", "t/0"}, []string{"--league u and match t/0 of league t"}},
		{"serve db and log", []string{"serve", "--db", db, "--log", log, "--addr", "127.0.0.1:0"}, []string{"--db " + db + " and --log " + log}},
		{"ask league and log", []string{"ask", "--log", log, "--league", "t", "bash -c true"}, []string{"--league t with --log " + log}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, err := runArena(t, c.args...)
			if err == nil {
				t.Fatalf("accepted:\n%.300s", out+errOut)
			}
			for _, want := range c.want {
				if !strings.Contains(err.Error()+errOut, want) {
					t.Errorf("error %q\n%s\ndoes not say %q", err, errOut, want)
				}
			}
		})
	}
	t.Setenv("ARENA_DB", db)
	if out, _, err := runArena(t, "replay", "--log", log, "--verify"); err != nil || !strings.Contains(out, "32 deals verified") {
		t.Errorf("ARENA_DB set and --log: %v\n%s", err, out)
	}
}

package main

import (
	"io"
	"strings"
	"testing"
)

func TestFlagsFirst(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	for _, c := range []struct{ in, want string }{
		{"arena match A B --games 10", "arena match --games 10 -- A B"},
		{"arena match --json A --seed=3 B", "arena match --json --seed=3 -- A B"},
		{"arena match A -- --games B", "arena match -- A --games B"},
		{"arena match A B --games", "arena match --games"},
		{"arena match --seed 1 A B --games", "arena match --seed 1 --games"},
		{"arena match A B --games --", "arena match --games"},
		{"arena match A - B", "arena match -- A - B"},
		{"arena nosuch A --x", "arena nosuch A --x"},
		{"arena", "arena"},
	} {
		if got := strings.Join(flagsFirst(app, strings.Fields(c.in)), " "); got != c.want {
			t.Errorf("%s: %s, want %s", c.in, got, c.want)
		}
	}
}

// TestFlagsFirst_MissingValue: a flag that wants a value at the end of the line is reported
// as such, not as an invalid value "--".
func TestFlagsFirst_MissingValue(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	err := app.Run(flagsFirst(app, strings.Fields("arena match /bin/cat /bin/cat --games")))
	if err == nil || err.Error() != "arena match: --games needs a value (arena match --help)" {
		t.Errorf("err = %v, want --games needs a value", err)
	}
}

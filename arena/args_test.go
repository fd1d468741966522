package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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

// TestBadFlagValues: the flag values that their flags refuse are taken out, each described,
// and the rest of the command line is left as it was.
func TestBadFlagValues(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	for _, c := range []struct{ in, rest, problems string }{
		{"arena match --games 4 --time 250ms --duplicate=false -- A B", "arena match --games 4 --time 250ms --duplicate=false -- A B", ""},
		{"arena match --games x --time=5x --json --grace 1q -- A B", "arena match --json -- A B",
			"--games x: want a whole number|--time 5x: a duration needs its unit, such as 500ms, 2s or 1m30s|--grace 1q: a duration needs its unit, such as 500ms, 2s or 1m30s"},
		{"arena match --duplicate=maybe --nosuch --seed -1", "arena match --nosuch", "--duplicate=maybe: want true or false|--seed -1: want a whole number, 0 or more"},
		{"arena match --time", "arena match --time", ""},
		{"arena nosuch --time 5x", "arena nosuch --time 5x", ""},
		{"arena", "arena", ""},
	} {
		rest, problems := badFlagValues(app, strings.Fields(c.in))
		if got := strings.Join(rest, " "); got != c.rest {
			t.Errorf("%s: rest %s, want %s", c.in, got, c.rest)
		}
		if got := strings.Join(problems, "|"); got != c.problems {
			t.Errorf("%s: problems %s, want %s", c.in, got, c.problems)
		}
	}
}

// TestEveryProblemAtOnce: a command line with refused flag values gets them all reported
// with exit status 2, by arena match together with the other problems of its command line,
// by any other command together with an unknown flag, and runs nothing.
func TestEveryProblemAtOnce(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string // stderr's lines
	}{
		{[]string{"match", "/no/bot", "/no/bot", "--games", "x", "--time", "5x", "--preset", "amsterdam"}, []string{
			"arena: --games x: want a whole number",
			"--time 5x: a duration needs its unit, such as 500ms, 2s or 1m30s",
			`--preset amsterdam: no such preset; did you mean "amsterdams"?`,
			`bot "bot": program /no/bot: stat /no/bot: no such file or directory`}},
		{[]string{"check", "--time", "3", "--startup", "4", "/bin/true"}, []string{
			"arena check: --time 3: a duration needs its unit, such as 500ms, 2s or 1m30s",
			"arena check: --startup 4: a duration needs its unit, such as 500ms, 2s or 1m30s (arena check --help)"}},
		{[]string{"check", "--time", "3", "--bogus", "/bin/true"}, []string{
			"arena check: --time 3: a duration needs its unit, such as 500ms, 2s or 1m30s",
			"arena check: no flag --bogus; did you mean --bots? (arena check --help)"}},
	} {
		cliMu.Lock()
		var out, errOut strings.Builder
		status := run(append([]string{"arena"}, c.args...), &out, &errOut)
		cliMu.Unlock()
		got := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
		if status != exitUsage || !slices.EqualFunc(got, c.want, func(g, w string) bool { return strings.HasPrefix(g, w) }) {
			t.Errorf("%q: status %d, stderr\n%s\nwant status %d and\n%s", c.args, status, errOut.String(), exitUsage, strings.Join(c.want, "\n"))
		}
		if out.Len() > 0 {
			t.Errorf("%q: wrote %q", c.args, out.String())
		}
	}
}

// TestCheckGameClock: arena check --bank plays its games under that game clock, as arena match
// --bank does, so a bot that is too slow only under a game clock (this one takes 200 ms a
// card then, whatever the request gives it) fails the check instead of passing it.
func TestCheckGameClock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clock.sh")
	bot := `#!/usr/bin/env bash
slow=
while read -r kind rest; do
  set -- $rest
  case $kind in
    klaverjas) echo "hello 1 clock tests" ;;
    rules)     echo ok ;;
    game)      [ "$4" != 0 ] && slow=1 ;;
    bid)       shift 2; echo "$1" ;;
    play)      [ -n "$slow" ] && sleep 0.2; echo "$6" ;;
    claim)     echo 0 ;;
    discard)   set -- ${4//,/ }; echo "$1 $2" ;;
    quit)      exit 0 ;;
  esac
done
`
	if err := os.WriteFile(path, []byte(bot), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runArena(t, "check", "--bank", "1s", "bash "+path)
	if err == nil || !regexp.MustCompile(`FAIL  full game: .*timeout`).MatchString(out) {
		t.Fatalf("arena check --bank 1s of a bot too slow for the clock: %v, want the full game to fail with timeouts\n%s%s", err, out, errOut)
	}
}

// TestCheckListsEveryProblem: arena check lists every problem of its command line and bots
// file together, before the bot starts, as match does: not the first alone.
func TestCheckListsEveryProblem(t *testing.T) {
	bots := filepath.Join(t.TempDir(), "bots.toml")
	if err := os.WriteFile(bots, []byte("[[bot]]\nname = \"x\"\ncmd = [\"/no/such/bot\"]\ncolour = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cliMu.Lock()
	var out, errOut strings.Builder
	status := run([]string{"arena", "check", "--bots", bots, "--time", "0s", "--grace", "-1s", "--sandbox", "maybe", "-q", "-v", "x"}, &out, &errOut)
	cliMu.Unlock()
	for _, want := range []string{"give --quiet or --verbose, not both", `unknown key "bot.colour"`, "program /no/such/bot",
		"--time 0s: must be more than 0", "--grace -1s: must not be negative", `--sandbox: sandbox = "maybe"`} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("no %q in\n%s", want, errOut.String())
		}
	}
	if status != 1 || out.Len() > 0 {
		t.Errorf("status %d, stdout %q", status, out.String())
	}
}

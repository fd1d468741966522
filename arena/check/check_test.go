package check

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/botproc"
	"github.com/rs/zerolog"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// pythonExe is the real interpreter behind python3 (not a version manager's shim, which
// costs a tenth of a second per start), or "" without Python.
func pythonExe() string {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// checkBot runs the check on argv with the given time control and stderr file.
func checkBot(t *testing.T, argv []string, tc referee.TimeControl, stderrFile string) *Report {
	t.Helper()
	spec := botproc.Spec{Name: filepath.Base(argv[len(argv)-1]), Argv: argv, Dir: t.TempDir(), StderrFile: stderrFile}
	opts := Options{Bot: strings.Join(argv, " "), Time: tc, StderrFile: stderrFile,
		QuitWait: 5 * time.Second, // not the default second: a loaded machine can take longer to end an interpreter
		Start: func(ctx context.Context) (referee.Conn, error) {
			p, err := botproc.Start(ctx, spec, zerolog.Nop())
			if err != nil {
				return nil, err
			}
			return botproc.Conn{Proc: p}, nil
		}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + text.String())
	return rep
}

func lookPath(t *testing.T, prog string) string {
	t.Helper()
	p, err := exec.LookPath(prog)
	if err != nil {
		t.Skipf("%s not found", prog)
	}
	return p
}

// TestExampleBots: every example bot passes every item.
func TestExampleBots(t *testing.T) {
	root := repoRoot(t)
	bin := t.TempDir()
	for _, name := range []string{"random", "heuristic"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(bin, name), "./examplebots/go/"+name)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", name, err, out)
		}
	}
	py := pythonExe()
	bots := map[string]func(t *testing.T) []string{
		"go-random":    func(*testing.T) []string { return []string{filepath.Join(bin, "random")} },
		"go-heuristic": func(*testing.T) []string { return []string{filepath.Join(bin, "heuristic")} },
		"shell-random": func(t *testing.T) []string {
			return []string{lookPath(t, "bash"), filepath.Join(root, "examplebots/shell/random.sh")}
		},
		"js-random": func(t *testing.T) []string {
			return []string{lookPath(t, "node"), filepath.Join(root, "examplebots/js/random.js")}
		},
		"py-heuristic": func(*testing.T) []string { return []string{py, filepath.Join(root, "examplebots/python/heuristic.py")} },
		"py-random_bot": func(*testing.T) []string {
			return []string{py, filepath.Join(root, "examplebots/python/random_bot.py")}
		},
		"py-random_plain": func(*testing.T) []string {
			return []string{py, filepath.Join(root, "examplebots/python/random_plain.py")}
		},
	}
	for name, argv := range bots {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if strings.HasPrefix(name, "py-") && py == "" {
				t.Skip("python3 not found")
			}
			rep := checkBot(t, argv(t), referee.TimeControl{Startup: 10 * time.Second, Decision: time.Second, Grace: 50 * time.Millisecond}, "")
			if !rep.Passed {
				t.Errorf("%s: %s", name, rep.Summary)
			}
			if n := len(rep.Items); n < 32 {
				t.Errorf("%d items, want at least 32", n)
			}
			for _, it := range rep.Items {
				if it.Status == Info && strings.HasPrefix(it.Name, "rulesets") {
					t.Errorf("an example bot declines a preset: %s", it.Detail)
				}
			}
		})
	}
}

// base is a bash bot like examplebots/shell/random.sh whose answers can be replaced case by
// case: each entry of over is a case arm ("play) echo XX ;;") put before the standard ones.
func base(over ...string) string {
	return `#!/usr/bin/env bash
set -f
rot=
while read -r kind rest; do
  set -- $rest
  case $kind in
` + strings.Join(over, "\n") + `
    klaverjas) echo "hello 1 broken tests" ;;
    rules)     case $rest in *play_rule=rotterdams*) rot=1 ;; *) rot= ;; esac; echo ok ;;
    bid)       shift 2; legal=("$@"); echo "${legal[RANDOM % ${#legal[@]}]}" ;;
    play)      shift 5; legal=("$@"); echo "${legal[RANDOM % ${#legal[@]}]}" ;;
    claim)     echo 0 ;;
    discard)   set -- ${4//,/ }; echo "$1 $2" ;;
    quit)      exit 0 ;;
    #DEFAULT
  esac
done
`
}

// TestBrokenBots: each deliberately broken bot fails (or warns) on the right items.
func TestBrokenBots(t *testing.T) {
	fast := referee.TimeControl{Startup: 2 * time.Second, Decision: time.Second, Grace: 50 * time.Millisecond}
	cases := []struct {
		name   string
		script string
		tc     referee.TimeControl
		passed bool
		status Status
		items  []string // item name prefixes with that status
		got    string   // the bot line quoted in the first of items, if any
		sent   string   // a part of the lines the arena sent, in the first of items, if any
		detail string   // a part of the first item's detail
		fault  string   // the fault kind the first item gives in place of an answer, if any
	}{
		{name: "wrong-hello", script: base(`    klaverjas) echo "hello 2 wrong-version me" ;;`), tc: fast,
			status: Fail, items: []string{"handshake"}, got: "hello 2 wrong-version me", detail: "version 2"},
		{name: "picks-version-2", script: base(`    klaverjas) case " $rest " in *" 2 "*) echo "hello 2 greedy tests" ;; *) echo "hello 1 greedy tests" ;; esac ;;`), tc: fast,
			status: Fail, items: []string{"version negotiation"}, got: "hello 2 greedy tests", detail: "version 2"},
		{name: "no-hello", script: base(`    klaverjas) ;;`), tc: referee.TimeControl{Startup: 300 * time.Millisecond, Decision: time.Second},
			status: Fail, items: []string{"handshake"}, detail: "does the bot flush its output"},
		{name: "illegal-card", script: base(`    play) shift 4; hand=$1; echo "${hand%%,*}" ;;`), tc: fast,
			status: Fail, items: []string{"play amsterdams: must follow suit", "play amsterdams: must overtrump", "full game"}, got: "QC", detail: "illegal card"},
		{name: "pass-when-forced", script: base(`    bid) echo pass ;;`), tc: fast,
			status: Fail, items: []string{"bidding direct_kiezen_verplicht", "bidding direct_kiezen: forced", "bidding draaikaart: joker"}, got: "pass", detail: "illegal bid"},
		{name: "garbage", script: base(`    play) echo "card please" ;;`), tc: fast,
			status: Fail, items: []string{"play amsterdams: must follow suit", "full game"}, got: "card please", detail: "garbage"},
		{name: "long-line", script: base(`    bid) printf 'x%.0s' {1..5000}; echo ;;`), tc: fast,
			status: Fail, items: []string{"bidding direct_kiezen: free choice"}, detail: "longer than the 4096 bytes allowed", fault: "garbage"},
		{name: "overclaims", script: base(`    claim) echo 50 ;;`), tc: fast,
			passed: true, status: Warn, items: []string{"claim_required"}, detail: `claimed "50" with 20 roem in the trick`},
		{name: "slow-claims", script: base(`    claim) sleep 0.6; echo 0 ;;`), tc: fast,
			passed: true, status: Warn, items: []string{"response times"}, detail: "claim"},
		{name: "too-slow-claims", script: base(`    claim) sleep 1.5; echo 0 ;;`), tc: fast,
			status: Fail, items: []string{"claim_required", "response times"}, detail: "timeout"},
		{name: "passes-at-three", script: base(`    rules) case $rest in *players=3*) three=1 ;; *) three= ;; esac; echo ok ;;`,
			`    bid) if [ -n "$three" ]; then echo pass; else shift 2; legal=("$@"); echo "${legal[RANDOM % ${#legal[@]}]}"; fi ;;`), tc: fast,
			passed: true, status: Warn, items: []string{"three-player game: "}, detail: "never asked to discard"},
		{name: "bad-discard", script: base(`    discard) echo "7S" ;;`), tc: fast,
			status: Fail, items: []string{"three-player game"}, got: "7S", detail: "garbage"},
		{name: "exits-after-gameover", script: base(`    gameover) exit 0 ;;`), tc: fast,
			status: Fail, items: []string{"games in a row"}, detail: "crash"},
		{name: "expects-deal-1", script: base(`    dealt) [ "$1" = 1 ] || [ -n "$seen" ] || { echo "deal $1 first?" >&2; exit 1; }; seen=1 ;;`), tc: fast,
			status: Fail, items: []string{"restarted mid-game"}, sent: "game 2 E ", detail: "crash"},
		{name: "game-numbers-only-rise", script: base(`    game) [ "$1" -gt "${last:-0}" ] || { echo "game $1 again?" >&2; exit 1; }; last=$1 ;;`), tc: fast,
			status: Fail, items: []string{"next match on the same process"}, detail: "crash"},
		{name: "chokes-on-sitting-out", script: base(`    dealt) [ "$3" = - ] && { echo "no hand?" >&2; exit 1; } ;;`), tc: fast,
			status: Fail, items: []string{"three-player game at a table of four"}, sent: " N -\nactive ", detail: "crash"},
		{name: "ignores-quit", script: base(`    quit) ;;`), tc: fast,
			passed: true, status: Warn, items: []string{"quit"}, detail: "exited only when its input was closed"},
		{name: "crashes-on-rotterdams", script: base(`    play) [ -n "$rot" ] && { echo "rotterdams?" >&2; exit 3; }; shift 5; legal=("$@"); echo "${legal[0]}" ;;`), tc: fast,
			status: Fail, items: []string{"play rotterdams: must trump", "play rotterdams: must undertrump"}, detail: "crash"},
		{name: "chokes-on-unknown-event", script: strings.Replace(base(`    game|dealt|turned|said|trump|played|trick|scored|gameover|fault) ;;`),
			"#DEFAULT", `*) echo "unknown line: $kind" >&2; exit 1 ;;`, 1), tc: fast,
			status: Fail, items: []string{"unknown event"}, detail: "crash"},
	}
	bash := lookPath(t, "bash")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), tc.name+".sh")
			if err := os.WriteFile(path, []byte(tc.script), 0o755); err != nil {
				t.Fatal(err)
			}
			rep := checkBot(t, []string{bash, path}, tc.tc, "")
			if rep.Passed != tc.passed {
				t.Errorf("passed = %v, want %v (%s)", rep.Passed, tc.passed, rep.Summary)
			}
			for i, prefix := range tc.items {
				it := rep.Item(prefix)
				if it == nil {
					t.Errorf("no item %q", prefix)
					continue
				}
				if it.Status != tc.status {
					t.Errorf("item %q: %s, want %s (%s)", it.Name, it.Status, tc.status, it.Detail)
				}
				if i > 0 {
					continue
				}
				if !strings.Contains(it.Sent, tc.sent) {
					t.Errorf("item %q: the arena sent %q, which does not include %q", it.Name, it.Sent, tc.sent)
				}
				if tc.got != "" && it.Got != tc.got {
					t.Errorf("item %q: got %q, want the bot's line %q", it.Name, it.Got, tc.got)
				}
				if !strings.Contains(it.Detail, tc.detail) {
					t.Errorf("item %q: detail %q does not mention %q", it.Name, it.Detail, tc.detail)
				}
				if tc.fault != "" && it.Fault != tc.fault {
					t.Errorf("item %q: fault %q, want %q", it.Name, it.Fault, tc.fault)
				}
				if text := gotText(it); tc.fault != "" && !strings.Contains(text, "the "+tc.fault+" fault") {
					t.Errorf("item %q: the report shows the bot's answer as %s, want the %s fault named", it.Name, text, tc.fault)
				}
			}
			// Nothing else fails: the report names the failures it should and only those.
			for _, it := range rep.Items {
				if it.Status != Fail {
					continue
				}
				named := false
				for _, prefix := range tc.items {
					named = named || strings.HasPrefix(it.Name, prefix)
				}
				if !named && !expectedCollateral(tc.name, it.Name) {
					t.Errorf("unexpected failure: %s: %s", it.Name, it.Detail)
				}
			}
		})
	}
}

// TestExitsAtOnce: a bot that exits before its hello fails the handshake, with its whole
// short stderr shown (an interpreter's error names the missing file in its first line, as
// Node.js does, twelve lines above the end), and the response times, of which there are
// none, are not reported as passed.
func TestExitsAtOnce(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "exits.sh")
	script := "#!/bin/sh\necho \"Error: Cannot find module '/x/bot.js'\" >&2\nfor i in 1 2 3 4 5 6 7 8 9 10 11; do echo \"    at frame $i\" >&2; done\nexit 3\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	rep := checkBot(t, []string{lookPath(t, "sh"), path}, referee.TimeControl{Startup: 2 * time.Second, Decision: time.Second}, "")
	if it := rep.Item("handshake"); it == nil || it.Status != Fail || !strings.Contains(it.Detail, "crash") {
		t.Errorf("handshake item: %+v, want a crash failure", it)
	} else if !strings.Contains(it.Stderr, "Cannot find module") || !strings.Contains(it.Stderr, "at frame 11") {
		t.Errorf("handshake item's stderr %q, want all of it", it.Stderr)
	}
	if it := rep.Item("response times"); it == nil || it.Status == Pass || it.Status == Fail {
		t.Errorf("response times item: %+v, want neither PASS (nothing was measured) nor FAIL (no timeout)", it)
	}
}

// expectedCollateral says which further items a broken bot rightly fails too.
func expectedCollateral(bot, item string) bool {
	switch bot {
	case "illegal-card", "garbage":
		// the "nothing asked" bidding scenarios are named after their first request, a card;
		// the three-player game has cards to play too
		return strings.HasPrefix(item, "play ") || strings.Contains(item, "nothing asked") || strings.HasPrefix(item, "scripted deals") ||
			strings.HasPrefix(item, "three-player")
	case "crashes-on-rotterdams":
		return strings.HasPrefix(item, "three-player") // the three-player game is played Rotterdams
	case "pass-when-forced":
		return strings.HasPrefix(item, "bidding ") || strings.HasPrefix(item, "scripted deals") || strings.HasPrefix(item, "full game")
	case "chokes-on-unknown-event":
		// it knows every event but the active line of the three-player game's table of four
		return strings.HasPrefix(item, "three-player game at a table of four")
	case "long-line": // every deal it bids in
		return strings.HasPrefix(item, "bidding ") || strings.HasPrefix(item, "scripted deals") || strings.HasPrefix(item, "unknown event") ||
			strings.HasPrefix(item, "full game") || strings.HasPrefix(item, "three-player")
	case "exits-after-gameover": // the next match comes after a gameover too
		return strings.HasPrefix(item, "next match on the same process")
	case "no-hello", "too-slow-claims":
		return item == "response times"
	}
	return false
}

// TestDeclinedRuleset: a Python SDK bot that refuses Rotterdams play is reported as
// declining those rulesets, which is not a failure.
func TestDeclinedRuleset(t *testing.T) {
	t.Parallel()
	stderr := filepath.Join(t.TempDir(), "stderr.txt")
	bot := pickyBot(t, "amsterdammer", `options["play_rule"] == "rotterdams"`, "Amsterdams only")
	rep := checkBot(t, bot, referee.TimeControl{Startup: 10 * time.Second, Decision: time.Second, Grace: 50 * time.Millisecond}, stderr)
	if !rep.Passed {
		t.Errorf("a bot that declines Rotterdams fails: %s", rep.Summary)
	}
	for _, prefix := range []string{"rulesets", "play rotterdams: must trump"} {
		it := rep.Item(prefix)
		if it == nil || it.Status != Info || !strings.Contains(it.Detail, "declines ruleset rotterdams: Amsterdams only") {
			t.Errorf("item %s: %+v, want INFO declines ruleset rotterdams: Amsterdams only", prefix, it)
		}
	}
	if it := rep.Item("stderr"); it == nil || !strings.Contains(it.Detail, "bytes written") {
		t.Errorf("stderr item: %+v", it)
	}
}

// pickyBot writes a Python SDK bot that answers refuse with reason to every ruleset for which
// the Python condition refuseIf on its options holds, plays random legal choices otherwise,
// claims its roem honestly, and says "starting" on stderr.
func pickyBot(t *testing.T, name, refuseIf, reason string) []string {
	t.Helper()
	py := pythonExe()
	if py == "" {
		t.Skip("python3 not found")
	}
	script := `import sys
sys.path.insert(0, ` + "'" + filepath.Join(repoRoot(t), "examplebots/python") + "'" + `)
import random
import klaverjas as kj

def decide(state, d):
    if d.kind == "bid":
        return random.choice(d.legal_bids)
    if d.kind == "play":
        return random.choice(d.legal_cards)
    if d.kind == "claim":
        return kj.trick_roem(d.trick, d.trump, state.options)
    return 0

def accept(options):
    if ` + refuseIf + `:
        return "` + reason + `"
    return None

print("starting", file=sys.stderr)
kj.run(kj.Bot("` + name + `", "tests", decide, accept=accept))
`
	path := filepath.Join(t.TempDir(), name+".py")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{py, path}
}

// TestRefusesDefaultRuleset: a bot that plays only Rotterdams refuses the default ruleset,
// which spec.md allows: that is a warning, and the battery is played under rotterdams, not
// skipped. A bot that refuses every four-player preset fails, with the rest not run.
func TestRefusesDefaultRuleset(t *testing.T) {
	tc := referee.TimeControl{Startup: 10 * time.Second, Decision: time.Second, Grace: 50 * time.Millisecond}
	t.Run("rotterdams-only", func(t *testing.T) {
		t.Parallel()
		rep := checkBot(t, pickyBot(t, "rotterdammer", `options["play_rule"] != "rotterdams"`, "not my game"), tc, "")
		if !rep.Passed {
			t.Errorf("a bot that plays only Rotterdams fails: %s", rep.Summary)
		}
		if it := rep.Item("ruleset amsterdams"); it == nil || it.Status != Warn || !strings.Contains(it.Detail, "under rotterdams") {
			t.Errorf("ruleset item: %+v, want WARN naming rotterdams", it)
		}
		for _, prefix := range []string{"bidding direct_kiezen: free choice", "bidding draaikaart: joker", "claim_required", "unknown event",
			"play rotterdams: must trump", "full game: a whole game under rotterdams", "games in a row", "quit"} {
			if it := rep.Item(prefix); it == nil || it.Status != Pass {
				t.Errorf("item %s: %+v, want PASS", prefix, it)
			}
		}
		if it := rep.Item("play amsterdams: must follow suit"); it == nil || it.Status != Info {
			t.Errorf("play amsterdams item: %+v, want INFO (declined)", it)
		}
	})
	t.Run("no-preset", func(t *testing.T) {
		t.Parallel()
		rep := checkBot(t, pickyBot(t, "nothing", `options["players"] == "4"`, "not my game"), tc, "")
		if rep.Passed {
			t.Errorf("a bot that plays no four-player preset passes: %s", rep.Summary)
		}
		if it := rep.Item("ruleset amsterdams"); it == nil || it.Status != Fail || !strings.Contains(it.Detail, "every other four-player preset") {
			t.Errorf("ruleset item: %+v, want FAIL", it)
		}
		if it := rep.Item("full game"); it == nil || it.Status != Skip || !strings.Contains(it.Detail, "no four-player preset") {
			t.Errorf("full game item: %+v, want SKIP", it)
		}
		if it := rep.Item("rulesets"); it == nil || it.Status != Info || !strings.Contains(it.Detail, "plays no preset") {
			t.Errorf("rulesets item: %+v, want INFO: plays no preset", it)
		}
	})
}

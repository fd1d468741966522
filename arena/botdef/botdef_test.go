package botdef

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mustFile writes a file under dir with the given mode and returns its path.
func mustFile(tb testing.TB, dir, name, text string, mode os.FileMode) string {
	tb.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestCheck_DotSlashIsTheBotsDirectory: "./python3" names the bot directory's python3, never
// the one on PATH, whether the directory is given or the file's own; "python3" is from PATH.
func TestCheck_DotSlashIsTheBotsDirectory(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the case needs a program that PATH has and the bot directory has not")
	}
	base := t.TempDir()
	for _, b := range []Bot{
		{Name: "a", Cmd: []string{"./python3", "x.py"}},
		{Name: "b", Cmd: []string{"./python3"}, Dir: "."},
	} {
		errs := b.Check(base)
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), "program ./python3") {
			t.Errorf("%+v: %v, want the missing ./python3 refused", b, errs)
		}
	}
	ok := Bot{Name: "c", Cmd: []string{"python3", "x.py"}}
	if errs := ok.Check(base); len(errs) != 0 {
		t.Errorf("python3 from PATH refused: %v", errs)
	}
	mustFile(t, base, "python3", "#!/bin/sh\n", 0o755)
	own := Bot{Name: "d", Cmd: []string{"./python3"}}
	if errs := own.Check(base); len(errs) != 0 {
		t.Errorf("the directory's own ./python3 refused: %v", errs)
	}
}

// TestCheck_EveryProblemTogether: a bot with many problems gets one error for each, each
// naming the bot.
func TestCheck_EveryProblemTogether(t *testing.T) {
	base := t.TempDir()
	file := mustFile(t, base, "notadir", "", 0o644)
	b := Bot{Name: "bad name", Cmd: []string{"./nosuch"}, Dir: file, Decision: 5,
		Stderr: filepath.Join(base, "missing", "err.txt")}
	b.Pids = 1
	errs := b.Check(base)
	want := []string{
		`bot "bad name": name "bad name": no spaces`,
		`bot "bad name": working directory ` + file + ` is not a directory`,
		`bot "bad name": decision = 5ns: under a millisecond; give a duration with its unit`,
		`bot "bad name": stderr = "` + filepath.Join(base, "missing", "err.txt") + `": its directory`,
		`bot "bad name": pids = 1: at least 4`,
	}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(want), errors.Join(errs...))
	}
	for i, w := range want {
		if !strings.HasPrefix(errs[i].Error(), w) {
			t.Errorf("error %d = %q, want it to start %q", i, errs[i], w)
		}
	}
}

func TestCheck_RelativeDirAndProgram(t *testing.T) {
	base := t.TempDir()
	mustFile(t, base, "bots/x/run", "#!/bin/sh\n", 0o755)
	mustFile(t, base, "bots/x/notexec", "", 0o644)
	b := Bot{Name: "x", Cmd: []string{"./run"}, Dir: "bots/x"}
	if errs := b.Check(base); len(errs) != 0 || b.Dir != filepath.Join(base, "bots/x") {
		t.Fatalf("errs %v, dir %s: want the dir made relative to %s", errs, b.Dir, base)
	}
	n := Bot{Name: "n", Cmd: []string{"./notexec"}, Dir: "bots/x"}
	if errs := n.Check(base); len(errs) != 1 || !strings.Contains(errs[0].Error(), "permission denied") {
		t.Errorf("a program without execute permission: %v", errs)
	}
	e := Bot{Name: "e", Cmd: []string{""}}
	if errs := e.Check(base); len(errs) != 1 || errs[0].Error() != `bot "e": cmd: the program name is empty` {
		t.Errorf("an empty program name: %v", errs)
	}
	m := Bot{Name: "m", Dir: "nosuch"}
	errs := m.Check(base)
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "does not exist") || errs[1].Error() != `bot "m" has no cmd` {
		t.Errorf("no cmd in a missing directory: %v", errs)
	}
}

func TestCheckName(t *testing.T) {
	for _, name := range []string{"random", "heuristic-2", "pimc_v3.1", "Ω"} {
		if err := CheckName(name); err != nil {
			t.Errorf("%q refused: %v", name, err)
		}
	}
	for _, name := range []string{"", "a b", "a/b", `a\b`, "tab\tx", "bell\a", `q"uote`, "it's", strings.Repeat("x", MaxNameLen+1), "\u00a0"} {
		if err := CheckName(name); err == nil {
			t.Errorf("%q accepted", name)
		}
	}
	long := strings.Repeat("x", 50<<20)
	if err := CheckName(long); err == nil || len(err.Error()) > 100 {
		t.Errorf("a 50 MB name: error of %d bytes, want a short one", len(err.Error()))
	}
}

func TestCheckAuthor(t *testing.T) {
	for _, a := range []string{"", "A. Jansen <a.jansen@example.org>", `<b>team</b> "x" & 'y'`, "Ω ü 漢", strings.Repeat("x", MaxAuthorLen)} {
		if err := CheckAuthor(a); err != nil {
			t.Errorf("%q refused: %v", a, err)
		}
	}
	for _, a := range []string{"two\nlines", "tab\tx", "bell\a", "\x1b[31mred", "bad \xff utf-8", strings.Repeat("x", MaxAuthorLen+1)} {
		if err := CheckAuthor(a); err == nil {
			t.Errorf("%q accepted", a)
		}
	}
	if err := CheckAuthor(strings.Repeat("x", 50<<20)); err == nil || len(err.Error()) > 100 {
		t.Errorf("a 50 MB author: error of %d bytes, want a short one", len(err.Error()))
	}
}

func TestCheckTime(t *testing.T) {
	for _, c := range []struct {
		d      time.Duration
		zeroOK bool
		want   string
	}{
		{time.Second, false, ""},
		{0, true, ""},
		{0, false, "--time 0s: must be more than 0"},
		{-time.Second, true, "--time -1s: must not be negative"},
		{5, false, `--time 5ns: under a millisecond; give a duration with its unit, such as "500ms" or "2s"`},
		{1000000 * time.Hour, false, "--time 1000000h0m0s: at most 1h0m0s"},
		{MaxTime, false, ""},
	} {
		err := CheckTime("--time", c.d, c.zeroOK)
		if got := ""; err != nil {
			got = err.Error()
			if got != c.want {
				t.Errorf("%v: %q, want %q", c.d, got, c.want)
			}
		} else if c.want != "" {
			t.Errorf("%v: accepted, want %q", c.d, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	base := t.TempDir()
	path := filepath.Join(base, "bots.toml")
	f, err := Parse([]byte(`
[[bot]]
name = "cat"
cmd = ["/bin/cat"]
decision = "250ms"
colour = "red"

[[bot]]
name = "cat"
cmd = ["/bin/cat"]

[[bot]]
cmd = ["/bin/cat"]

[[bot]]
name = "late"
cmd = ["/bin/cat"]
decision = "2h"

[[bot]]
name = "by"
author = "<i>me</i>"
cmd = ["/bin/cat"]

[[bot]]
name = "bell"
author = "ring\u0007"
cmd = ["/bin/cat"]
`), path)
	want := []string{
		`bots file ` + path + `: unknown key "bot.colour"`,
		`bots file ` + path + `: two bots are named "cat"`,
		`bots file ` + path + `: bot 3 has no name`,
		`bots file ` + path + `: bot "late": decision = 2h0m0s: at most 1h0m0s`,
		`bots file ` + path + `: bot "bell": author "ring\a": one line of text, no control characters or tabs`,
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Fatalf("got\n%v\nwant\n%s", err, strings.Join(want, "\n"))
	}
	if f["cat"].Decision != 250*time.Millisecond || f["cat"].Dir != base {
		t.Errorf("cat = %+v, want decision 250ms in %s", f["cat"], base)
	}
	if f["by"].Author != "<i>me</i>" {
		t.Errorf("by's author %q", f["by"].Author)
	}
	if _, err := Parse([]byte("[[bot]]\nname = 1\n"), path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a TOML type error: %v", err)
	}
	if _, err := Parse([]byte("[[bot]]\nname = \"x\"\ncmd = [\"/bin/cat\"]\ndecision = \"5\"\n"), path); err == nil || !strings.Contains(err.Error(), `invalid duration: "5"`) {
		t.Errorf("a duration without its unit: %v", err)
	}
	if _, err := Parse(make([]byte, MaxFileSize+1), path); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("an oversized file: %v", err)
	}
}

func TestLookup(t *testing.T) {
	cwd := t.TempDir()
	bots := File{"cat": {Name: "cat", Cmd: []string{"/bin/cat"}, Dir: "/"}}
	if b, err := Lookup("cat", bots, cwd); err != nil || b.Unnamed || b.Dir != "/" {
		t.Errorf("a name from the file: %+v, %v", b, err)
	}
	b, err := Lookup("/bin/cat -u 'a b'", bots, cwd)
	if err != nil || !b.Unnamed || b.Name != "a b" || b.Dir != cwd || len(b.Cmd) != 3 || b.Cmd[2] != "a b" {
		t.Errorf("a command: %+v, %v", b, err)
	}
	for arg, want := range map[string]string{
		"'unclosed":    `bot "'unclosed": `,
		"   ":          `bot "   ": empty command`,
		"./nosuch x.y": `bot "x": program ./nosuch: `,
	} {
		if _, err := Lookup(arg, nil, cwd); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %q…", arg, err, want)
		}
	}
}

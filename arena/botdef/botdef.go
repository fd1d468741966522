// Package botdef is a bot as the arena's files and command line describe it: its name,
// command, working directory, environment, time override, stderr file and confinement
// limits. A bot read from a bots file, a league file or a command-line argument is checked
// by one function, Check, before any bot starts.
package botdef

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/klaverjas-arena/arena/arena/confine"
	"github.com/klaverjas-arena/arena/referee/botproc"
)

// MaxTime is the longest time of a time control (per decision, for the handshake, a game
// clock): beyond it a mistyped unit is far more likely than a bot that needs it.
const MaxTime = time.Hour

// CheckTime returns what is wrong with a time of a time control, or nil. what names it as
// the user wrote it ("--time", "decision ="); zeroOK allows 0 (none). A time under a
// millisecond is refused: it is a number whose unit was left out (TOML reads a bare number
// as nanoseconds).
func CheckTime(what string, d time.Duration, zeroOK bool) error {
	switch {
	case d < 0:
		return fmt.Errorf("%s %v: must not be negative", what, d)
	case d == 0 && !zeroOK:
		return fmt.Errorf("%s %v: must be more than 0", what, d)
	case d > 0 && d < time.Millisecond:
		return fmt.Errorf("%s %v: under a millisecond; give a duration with its unit, such as \"500ms\" or \"2s\"", what, d)
	case d > MaxTime:
		return fmt.Errorf("%s %v: at most %v", what, d, MaxTime)
	}
	return nil
}

// MaxNameLen is the longest bot name, in bytes.
const MaxNameLen = 64

// MaxAuthorLen is the longest author line, in bytes.
const MaxAuthorLen = 200

// CheckAuthor returns what is wrong with a bot's author line, or nil: it is free text (who
// wrote the bot, a team, a link), shown as text in tables and on the web viewer's pages, so
// it is one line of printable UTF-8 of at most MaxAuthorLen bytes. Empty is no author.
func CheckAuthor(author string) error {
	switch {
	case len(author) > MaxAuthorLen:
		return fmt.Errorf("author %.20q… is %d bytes long: at most %d", author, len(author), MaxAuthorLen)
	case !utf8.ValidString(author):
		return fmt.Errorf("author %.40q is not UTF-8 text", author)
	case strings.IndexFunc(author, func(r rune) bool { return r != ' ' && !unicode.IsPrint(r) }) >= 0:
		return fmt.Errorf("author %.40q: one line of text, no control characters or tabs", author)
	}
	return nil
}

// Bot is how to run one bot. Its TOML keys are those of a [[bot]] entry in a bots file or a
// league file:
//
//	[[bot]]
//	name = "heuristic"
//	author = "A. Jansen <a.jansen@example.org>"   # optional, shown beside the name
//	cmd = ["python3", "heuristic.py", "--level", "2"]
//	dir = "examplebots/python"   # working directory, relative to the file (default: its directory)
//	env = { SEED = "1" }         # the bot's environment is then PATH, LANG and these
//	decision = "2s"              # time per decision this bot asks for
//	stderr = "heuristic.err"     # file to append the bot's stderr to
//
// with the keys of confine.Limits beside them.
type Bot struct {
	Name     string            `toml:"name"`
	Author   string            `toml:"author"`
	Cmd      []string          `toml:"cmd"`
	Dir      string            `toml:"dir"`
	Env      map[string]string `toml:"env"`
	Decision time.Duration     `toml:"decision"`
	Stderr   string            `toml:"stderr"`
	confine.Limits

	// Unnamed is a bot given as a command on the command line: Name is made from the
	// command and stands in until the bot says its own name in hello.
	Unnamed bool `toml:"-"`
}

// CheckName returns what is wrong with a bot's name, or nil: a name is printed in tables and
// logs and typed on the command line, so it is short and has no spaces, slashes, quotes or
// control characters.
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("no name")
	case len(name) > MaxNameLen:
		return fmt.Errorf("name %.20q… is %d bytes long: at most %d", name, len(name), MaxNameLen)
	case strings.IndexFunc(name, func(r rune) bool {
		return unicode.IsSpace(r) || !unicode.IsPrint(r) || strings.ContainsRune(`/\"'`, r)
	}) >= 0:
		return fmt.Errorf("name %.40q: no spaces, slashes, quotes or control characters", name)
	}
	return nil
}

// Check makes b's relative paths relative to base (the directory of the file that defines
// it; the current directory for a bot given on the command line) and returns every problem
// that would keep b from starting, each naming the bot: its name, command, working
// directory, program, decision time, stderr file and limits, and its author line.
func (b *Bot) Check(base string) []error {
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("bot %.40q: "+format, append([]any{b.Name}, args...)...))
	}
	if !b.Unnamed {
		if err := CheckName(b.Name); err != nil {
			fail("%v", err)
		}
	}
	if err := CheckAuthor(b.Author); err != nil {
		fail("%v", err)
	}
	if !filepath.IsAbs(b.Dir) {
		b.Dir = filepath.Join(base, b.Dir)
	}
	dirOK := true
	if st, err := os.Stat(b.Dir); err != nil {
		fail("working directory %s does not exist", b.Dir)
		dirOK = false
	} else if !st.IsDir() {
		fail("working directory %s is not a directory", b.Dir)
		dirOK = false
	}
	switch {
	case len(b.Cmd) == 0:
		errs = append(errs, fmt.Errorf("bot %.40q has no cmd", b.Name))
	case b.Cmd[0] == "":
		fail("cmd: the program name is empty")
	case dirOK:
		if _, err := botproc.ResolveProgram(b.Cmd[0], b.Dir); err != nil {
			fail("program %s: %v", b.Cmd[0], err)
		}
	}
	if err := CheckTime("decision =", b.Decision, true); err != nil {
		fail("%v", err)
	}
	if b.Stderr != "" {
		if st, err := os.Stat(filepath.Dir(b.Stderr)); err != nil || !st.IsDir() {
			fail("stderr = %q: its directory %s does not exist", b.Stderr, filepath.Dir(b.Stderr))
		} else if st, err := os.Stat(b.Stderr); err == nil && st.IsDir() {
			fail("stderr = %q is a directory", b.Stderr)
		}
	}
	for _, err := range b.Limits.Resolve(base) {
		fail("%v", err)
	}
	return errs
}

package botdef

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/shell"
)

// MaxFileSize is the largest bots file read: far more than any list of bots needs.
const MaxFileSize = 1 << 20

// File is a bots file's bots by name, each checked.
type File map[string]Bot

// Load reads a bots file, a TOML file of [[bot]] entries referred to by name on the command
// line, and checks every entry, reporting all problems together.
func Load(path string) (File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("bots file: %w", err)
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("bots file %s: %d bytes, at most %d", path, st.Size(), MaxFileSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("bots file: %w", err)
	}
	return Parse(data, path)
}

// Parse reads and checks a bots file's text; path places the bots' relative directories and
// names the file in errors.
func Parse(data []byte, path string) (File, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("bots file %s: %d bytes, at most %d", path, len(data), MaxFileSize)
	}
	var f struct {
		Bot []Bot `toml:"bot"`
	}
	_, unknown, problems, err := DecodeTOML(string(data), &f)
	if err != nil {
		return nil, fmt.Errorf("bots file %s: %w", path, err)
	}
	var errs []error
	fail := func(err error) { errs = append(errs, fmt.Errorf("bots file %s: %w", path, err)) }
	for _, err := range problems {
		fail(err)
	}
	for _, k := range unknown {
		fail(fmt.Errorf("unknown key %q", k.String()))
	}
	bots := File{}
	for i, b := range f.Bot {
		if b.Name == "" {
			fail(fmt.Errorf("bot %d has no name", i+1))
			continue
		}
		for _, err := range b.Check(filepath.Dir(path)) {
			fail(err)
		}
		if _, dup := bots[b.Name]; dup {
			fail(fmt.Errorf("two bots are named %.40q", b.Name))
			continue
		}
		bots[b.Name] = b
	}
	return bots, errors.Join(errs...)
}

// Lookup turns a command-line bot argument into a checked bot: a name from bots (which may
// be nil), or a command split into words the way a shell would ("python3 bot.py --level 2"),
// run in the directory dir (the current one, as the command would be).
func Lookup(arg string, bots File, dir string) (Bot, error) {
	if b, ok := bots[arg]; ok {
		return b, nil
	}
	words, err := shell.Fields(arg, func(string) string { return "" })
	if err != nil {
		return Bot{}, fmt.Errorf("bot %q: %w", arg, err)
	}
	if len(words) == 0 {
		return Bot{}, fmt.Errorf("bot %q: empty command", arg)
	}
	b := Bot{Name: nameOf(words), Unnamed: true, Cmd: words, Dir: dir}
	return b, errors.Join(b.Check(dir)...)
}

// nameOf makes a readable default name from a command: the program or script name.
func nameOf(words []string) string {
	name := filepath.Base(words[0])
	for _, w := range words[1:] {
		if !strings.HasPrefix(w, "-") {
			name = filepath.Base(w)
			break
		}
	}
	return strings.TrimSuffix(name, filepath.Ext(name))
}

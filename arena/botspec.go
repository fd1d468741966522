package main

import (
	"errors"
	"fmt"
	"github.com/klaverjas-arena/arena/arena/confine"
	"github.com/klaverjas-arena/arena/referee/botproc"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"mvdan.cc/sh/v3/shell"
)

// botSpec is how to run one bot: a name and an argv, with optional working directory,
// environment and time overrides.
type botSpec struct {
	Name string `toml:"name"`
	// Unnamed is a bot given as a command: Name is made from the command and stands in
	// until the bot says its own name in hello.
	Unnamed  bool              `toml:"-"`
	Cmd      []string          `toml:"cmd"`
	Dir      string            `toml:"dir"` // working directory (bots file: relative to the file)
	Env      map[string]string `toml:"env"`
	Decision duration          `toml:"decision"` // overrides the match's per-decision time
	Stderr   string            `toml:"stderr"`   // file to append the bot's stderr to
	confine.Limits
}

// duration is a time.Duration read from TOML as "1s", "250ms".
type duration struct{ time.Duration }

// UnmarshalText parses a Go duration.
func (d *duration) UnmarshalText(text []byte) error {
	v, err := time.ParseDuration(string(text))
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// botsFile is a TOML file of bot definitions, referred to by name on the command line:
//
//	[[bot]]
//	name = "heuristic"
//	cmd = ["python3", "examplebots/python/heuristic.py"]
type botsFile struct {
	Bot []botSpec `toml:"bot"`
}

// loadBots reads a bots file and checks every entry, reporting all problems together.
func loadBots(path string) (map[string]botSpec, error) {
	var f botsFile
	md, err := toml.DecodeFile(path, &f)
	if err != nil {
		return nil, fmt.Errorf("bots file %s: %w", path, err)
	}
	var errs []error
	for _, k := range md.Undecoded() {
		errs = append(errs, fmt.Errorf("bots file %s: unknown key %q", path, k.String()))
	}
	bots := map[string]botSpec{}
	for i, b := range f.Bot {
		if b.Name == "" {
			errs = append(errs, fmt.Errorf("bots file %s: bot %d has no name", path, i+1))
			continue
		}
		if _, dup := bots[b.Name]; dup {
			errs = append(errs, fmt.Errorf("bots file %s: two bots are named %q", path, b.Name))
		}
		// A bot runs in its dir, relative to the bots file; by default the file's directory.
		if !filepath.IsAbs(b.Dir) {
			b.Dir = filepath.Join(filepath.Dir(path), b.Dir)
		}
		if err := b.check(); err != nil {
			errs = append(errs, fmt.Errorf("bots file %s: %w", path, err))
		}
		for _, err := range b.Limits.Resolve(filepath.Dir(path)) {
			errs = append(errs, fmt.Errorf("bots file %s: bot %q: %w", path, b.Name, err))
		}
		bots[b.Name] = b
	}
	return bots, errors.Join(errs...)
}

// resolveBot turns a command-line bot argument into a spec: a name from the bots file, or a
// command split into words the way a shell would ("python3 bot.py --level 2").
func resolveBot(arg string, bots map[string]botSpec) (botSpec, error) {
	if b, ok := bots[arg]; ok {
		return b, nil
	}
	words, err := shell.Fields(arg, func(string) string { return "" })
	if err != nil {
		return botSpec{}, fmt.Errorf("bot %q: %w", arg, err)
	}
	if len(words) == 0 {
		return botSpec{}, fmt.Errorf("bot %q: empty command", arg)
	}
	// A bot given as a command runs in the current directory, like the command would.
	dir, err := os.Getwd()
	if err != nil {
		return botSpec{}, err
	}
	b := botSpec{Name: botName(words), Unnamed: true, Cmd: words, Dir: dir}
	return b, b.check()
}

// botName makes a readable default name from a command: the program or script name.
func botName(words []string) string {
	name := filepath.Base(words[0])
	for _, w := range words[1:] {
		if !strings.HasPrefix(w, "-") {
			name = filepath.Base(w)
			break
		}
	}
	return strings.TrimSuffix(name, filepath.Ext(name))
}

// check verifies that the bot's program exists and is executable, and its directory exists.
func (b botSpec) check() error {
	if len(b.Cmd) == 0 {
		return fmt.Errorf("bot %q has no command", b.Name)
	}
	if b.Dir != "" {
		if st, err := os.Stat(b.Dir); err != nil || !st.IsDir() {
			return fmt.Errorf("bot %q: working directory %s does not exist", b.Name, b.Dir)
		}
	}
	dir := b.Dir
	if dir == "" {
		dir = "." // a command-line bot runs in the current directory
	}
	if _, err := botproc.ResolveProgram(b.Cmd[0], dir); err != nil {
		return fmt.Errorf("bot %q: program %s: %w", b.Name, b.Cmd[0], err)
	}
	return nil
}

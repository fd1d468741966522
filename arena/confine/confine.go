// Package confine holds what an organiser says about how bots are confined: whether they run
// in a sandbox (on by default), each bot's memory, process, open files and file size limits,
// the extra paths it may read and its writable scratch directory, as written in a bots file
// or a league file; and it turns that into the botproc.Spec fields that enforce it.
package confine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/dustin/go-humanize"
	"github.com/klaverjas-arena/arena/referee/botproc"
)

// Default limits of every bot (all its processes together), unless its entry says otherwise.
const (
	DefaultMemory = 1 << 30 // bytes: 1 GiB
	DefaultPids   = 256     // processes and threads
	MinOpenFiles  = 16      // the least open_files a bot's entry may set: an interpreter needs a few
	MinFileSize   = 1 << 20 // bytes: the least file_size a bot's entry may set
)

// Limits is the part of a bot's entry in a bots or league file about its confinement. It is
// embedded in those entries, so its keys sit beside name and cmd:
//
//	memory = "2GiB"            # default 1GiB; on reaching it the bot is killed (memory_limit)
//	pids = 64                  # processes and threads, default 256
//	open_files = 4096          # open files of each process, default 1024
//	file_size = "8GiB"         # the largest file a process may write, default 1GiB
//	read_only = ["/opt/books"] # more paths the sandboxed bot may read (relative: to the file)
//	scratch = "scratch/x"      # each sandboxed process writes a directory of its own here (must exist)
//	scratch_size = "256MiB"    # and that directory is a file system of its own of this size (root only)
//	tmp = "512MiB"             # the size of the sandbox's private /tmp, default 64MiB
type Limits struct {
	Memory      Size     `toml:"memory" json:"memory,omitempty"`
	Tmp         Size     `toml:"tmp" json:"tmp,omitempty"`
	Pids        int      `toml:"pids" json:"pids,omitempty"`
	OpenFiles   int      `toml:"open_files" json:"open_files,omitempty"`
	FileSize    Size     `toml:"file_size" json:"file_size,omitempty"`
	ReadOnly    []string `toml:"read_only" json:"read_only,omitempty"`
	Scratch     string   `toml:"scratch" json:"scratch,omitempty"`
	ScratchSize Size     `toml:"scratch_size" json:"scratch_size,omitempty"`
}

// Size is a number of bytes read from TOML as "512MiB", "1GiB" or "2GB" (go-humanize).
type Size int64

// UnmarshalText parses a size with a unit.
func (s *Size) UnmarshalText(text []byte) error {
	n, err := humanize.ParseBytes(string(text))
	if err != nil {
		return fmt.Errorf("%q is not a size: want a number and a unit, such as \"512MiB\" or \"2GiB\"", text)
	}
	if n > 1<<50 {
		return fmt.Errorf("size %s is too large", text)
	}
	*s = Size(n)
	return nil
}

// MarshalText writes the size in IEC units.
func (s Size) MarshalText() ([]byte, error) { return []byte(humanize.IBytes(uint64(s))), nil }

// Resolve makes the relative paths of l relative to dir (the directory of the file that
// names them) and checks them and the limits, returning every problem.
func (l *Limits) Resolve(dir string) []error {
	var errs []error
	if l.Memory < 0 || (l.Memory > 0 && l.Memory < 16<<20) {
		errs = append(errs, fmt.Errorf("memory = %s: at least 16MiB", humanize.IBytes(uint64(max(l.Memory, 0)))))
	}
	if l.Tmp < 0 || (l.Tmp > 0 && l.Tmp < 1<<20) {
		errs = append(errs, fmt.Errorf("tmp = %s: at least 1MiB", humanize.IBytes(uint64(max(l.Tmp, 0)))))
	}
	if l.Pids < 0 || (l.Pids > 0 && l.Pids < 4) {
		errs = append(errs, fmt.Errorf("pids = %d: at least 4 (the sandbox itself takes two)", l.Pids))
	}
	switch ceiling := botproc.OpenFilesCeiling(); {
	case l.OpenFiles < 0 || (l.OpenFiles > 0 && l.OpenFiles < MinOpenFiles):
		errs = append(errs, fmt.Errorf("open_files = %d: at least %d", l.OpenFiles, MinOpenFiles))
	case uint64(l.OpenFiles) > ceiling:
		errs = append(errs, fmt.Errorf("open_files = %d: at most %d here, the arena's own hard limit (raise it with ulimit -Hn before the arena starts)", l.OpenFiles, ceiling))
	}
	switch ceiling := botproc.FileSizeCeiling(); {
	case l.FileSize < 0 || (l.FileSize > 0 && l.FileSize < MinFileSize):
		errs = append(errs, fmt.Errorf("file_size = %s: at least 1MiB", humanize.IBytes(uint64(max(l.FileSize, 0)))))
	case uint64(l.FileSize) > ceiling:
		errs = append(errs, fmt.Errorf("file_size = %s: at most %s here, the arena's own hard limit (raise it with ulimit -Hf before the arena starts)", humanize.IBytes(uint64(l.FileSize)), humanize.IBytes(ceiling)))
	}
	for i, p := range l.ReadOnly {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
			l.ReadOnly[i] = p
		}
		if _, err := os.Stat(p); err != nil {
			errs = append(errs, fmt.Errorf("read_only: %w", err))
		}
	}
	if l.Scratch != "" {
		if !filepath.IsAbs(l.Scratch) {
			l.Scratch = filepath.Join(dir, l.Scratch)
		}
		if fi, err := os.Stat(l.Scratch); err != nil || !fi.IsDir() {
			errs = append(errs, fmt.Errorf("scratch = %q: not a directory (create it first)", l.Scratch))
		}
	}
	switch {
	case l.ScratchSize != 0 && l.Scratch == "":
		errs = append(errs, fmt.Errorf("scratch_size = %s without scratch: name the directory that holds the file systems", humanize.IBytes(uint64(max(l.ScratchSize, 0)))))
	case l.ScratchSize < 0 || (l.ScratchSize > 0 && l.ScratchSize < botproc.MinScratchSize):
		errs = append(errs, fmt.Errorf("scratch_size = %s: at least 4MiB", humanize.IBytes(uint64(max(l.ScratchSize, 0)))))
	}
	return errs
}

// Policy is how a whole match, check or league confines its bots.
type Policy struct {
	// Off runs bots without a sandbox (--sandbox=off, or sandbox = "off" in a league file):
	// process group and cgroup limits only.
	Off bool
	// Hide lists the arena's own files (database, snapshot, logs, traces, key, stderr
	// files, the league or bots file), which no bot may see.
	Hide []string
	// Scratches lists the scratch directories of every bot of the run (Limits.Scratch).
	// Each bot sees its own process's directory in its own, and none of another bot's: a
	// bot whose working directory or read-only paths hold another's scratch directory would
	// otherwise read what that bot writes there (every sandboxed bot is the same user).
	Scratches []string
}

// HideScratch adds the scratch directories of bots to Scratches.
func (p *Policy) HideScratch(scratch ...string) {
	for _, s := range scratch {
		if s != "" {
			p.Scratches = append(p.Scratches, s)
		}
	}
}

// ParseMode reads "on" or "off" (the --sandbox flag and the league file's sandbox key).
func ParseMode(s string) (off bool, err error) {
	switch s {
	case "", "on":
		return false, nil
	case "off":
		return true, nil
	}
	return false, fmt.Errorf("sandbox = %q: want \"on\" or \"off\"", s)
}

// Check returns an error, saying what to do, when the policy asks for a sandbox that this
// machine cannot make.
func (p Policy) Check() error {
	if p.Off {
		return nil
	}
	if err := botproc.SandboxError(); err != nil {
		return fmt.Errorf("bots cannot be sandboxed here: %w\n"+
			"install bubblewrap, or run the bots unconfined with --sandbox=off (league file: sandbox = \"off\"), "+
			"which lets them read the other bots' cards and the arena's files", err)
	}
	return nil
}

// Describe says what confines the bots, for the line every run prints.
func (p Policy) Describe() string {
	s := botproc.Limits()
	if p.Off {
		return s + "; SANDBOX OFF: bots run as the arena's user and can read its memory and files"
	}
	return s + "; " + botproc.SandboxDescription()
}

// Apply sets the limits and the sandbox of spec: the bot's own limits or the defaults, and,
// unless the policy is off, a sandbox hiding the policy's files.
func (p Policy) Apply(spec *botproc.Spec, l Limits) {
	spec.MemoryMax, spec.PidsMax = DefaultMemory, DefaultPids
	if l.Memory > 0 {
		spec.MemoryMax = int64(l.Memory)
	}
	if l.Pids > 0 {
		spec.PidsMax = l.Pids
	}
	spec.OpenFiles = l.OpenFiles      // 0: botproc's default
	spec.FileSize = int64(l.FileSize) // 0: botproc's default
	if p.Off {
		return
	}
	hide := slices.Clone(p.Hide)
	for _, s := range p.Scratches {
		if filepath.Clean(s) != filepath.Clean(l.Scratch) {
			hide = append(hide, s)
		}
	}
	spec.Sandbox = &botproc.Sandbox{ReadOnly: l.ReadOnly, Scratch: l.Scratch, ScratchSize: int64(l.ScratchSize), Hide: hide, TmpSize: int64(l.Tmp)}
}

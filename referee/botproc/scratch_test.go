//go:build linux

package botproc

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// scratchScript answers "req ls" with the entries of its scratch directory $S ("ans [a,b,]")
// and "req write NAME" by writing NAME there ("ans wrote NAME").
const scratchScript = `while read -r _ cmd arg; do
  case $cmd in
  ls) echo "ans [$(ls -A "$S" | tr '\n' ,)]";;
  write) echo "from $arg" > "$S/$arg" && echo "ans wrote $arg" || echo "ans denied $arg";;
  esac
done`

// TestSandbox_Scratch: two processes of one bot (partners at a table) granted the same
// scratch directory each write a directory of their own there and share nothing: the second,
// started after the first wrote, sees neither the first's file nor its directory, and the
// first never sees the second's. After Stop both directories are on the host, named in start
// order with the bot's name, holding what each wrote. Also where the scratch directory is in
// the bot's working directory beside a hidden file, holds a hidden file itself, or is given
// relative to the current directory, or through a symbolic link to the working directory.
func TestSandbox_Scratch(t *testing.T) {
	needSandbox(t)
	for _, tc := range []struct {
		name string
		// setup returns the bot's working directory ("" for a fresh one), its scratch
		// directory as the entry gives it, the files to hide, and the path at which the bot
		// uses the scratch directory ("" for the absolute path of the entry's).
		setup func(t *testing.T) (dir, scratch string, hide []string, use string)
	}{
		{"alone", func(t *testing.T) (string, string, []string, string) {
			return "", t.TempDir(), nil, ""
		}},
		{"in the working directory beside a hidden file", func(t *testing.T) (string, string, []string, string) {
			dir := openDir(t, t.TempDir())
			scratch := openDir(t, filepath.Join(dir, "scratch"))
			db, _ := arenaFiles(t, dir)
			return dir, scratch, []string{db}, ""
		}},
		{"through a link, used in the working directory", func(t *testing.T) (string, string, []string, string) {
			dir := openDir(t, t.TempDir())
			scratch := openDir(t, filepath.Join(dir, "scratch"))
			link := filepath.Join(t.TempDir(), "link")
			if err := os.Symlink(dir, link); err != nil {
				t.Fatal(err)
			}
			return dir, filepath.Join(link, "scratch"), nil, scratch
		}},
		{"holding a hidden file, relative", func(t *testing.T) (string, string, []string, string) {
			dir := openDir(t, t.TempDir())
			scratch := openDir(t, filepath.Join(dir, "scratch"))
			db, _ := arenaFiles(t, scratch)
			wd, err := os.Getwd()
			if err != nil {
				t.Fatal(err)
			}
			rel, err := filepath.Rel(wd, scratch)
			if err != nil {
				t.Fatal(err)
			}
			return dir, rel, []string{db}, ""
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, scratch, hide, use := tc.setup(t)
			abs, err := filepath.Abs(scratch)
			if err != nil {
				t.Fatal(err)
			}
			if use == "" {
				use = abs
			}
			start := func() *Proc {
				b := sandboxed(shBot(t, scratchScript), Sandbox{Scratch: scratch, Hide: hide})
				b.Name, b.Dir, b.Env = "partner", dir, append(b.Env, "S="+use)
				return mustStart(t, b)
			}
			ask := func(p *Proc, req, want string) {
				t.Helper()
				if r := exchange(t, p, req, 30*time.Second); r.Line != want {
					t.Errorf("%s: %q, want %q", req, r.Line, want)
				}
			}
			north := start()
			ask(north, "req ls", "ans []")
			ask(north, "req write north.txt", "ans wrote north.txt")
			south := start()
			ask(south, "req ls", "ans []")
			ask(south, "req write south.txt", "ans wrote south.txt")
			ask(north, "req ls", "ans [north.txt,]")
			ask(south, "req ls", "ans [south.txt,]")
			for _, p := range []*Proc{north, south} {
				if err := p.Stop(100 * time.Millisecond); err != nil {
					t.Errorf("Stop: %v", err)
				}
			}
			own := processDirs(t, abs)
			if len(own) != 2 {
				t.Fatalf("directories in the scratch directory after Stop: %v, want one for each process", own)
			}
			for i, who := range []string{"north", "south"} {
				if base := filepath.Base(own[i]); !strings.Contains(base, "-partner-") {
					t.Errorf("directory %s does not name the bot", base)
				}
				got, err := os.ReadFile(filepath.Join(own[i], who+".txt"))
				if err != nil || string(got) != "from "+who+".txt\n" {
					t.Errorf("%s's file in %s after Stop: %q, %v", who, own[i], got, err)
				}
			}
		})
	}
}

// TestSandbox_ScratchHoldsBotFiles: a path the bot must see that lies in its scratch
// directory (here its working directory), where its own directory would hide it, is refused
// before the start.
func TestSandbox_ScratchHoldsBotFiles(t *testing.T) {
	needSandbox(t)
	scratch := openDir(t, t.TempDir())
	dir := openDir(t, filepath.Join(scratch, "bot"))
	b := sandboxed(shBot(t, scratchScript), Sandbox{Scratch: scratch})
	b.Dir = dir
	if _, err := CheckSandbox(b.Spec); err == nil || !strings.Contains(err.Error(), dir+" lies in it") {
		t.Errorf("CheckSandbox of a working directory in the scratch directory: %v", err)
	}
}

// openDir makes (if need be) the directory dir with mode 0755 and returns it.
func openDir(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// processDirs returns the directories in scratch, sorted by name.
func processDirs(t *testing.T, scratch string) []string {
	t.Helper()
	entries, err := os.ReadDir(scratch)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(scratch, e.Name()))
		}
	}
	slices.Sort(dirs)
	return dirs
}

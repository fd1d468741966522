package confine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/klaverjas-arena/arena/referee/botproc"
)

func TestLimitsFromTOML(t *testing.T) {
	var e struct {
		Name string `toml:"name"`
		Limits
	}
	text := "name = \"x\"\nmemory = \"512MiB\"\npids = 64\nopen_files = 4096\nfile_size = \"8GiB\"\nread_only = [\"books\"]\nscratch = \"tmp\"\nscratch_size = \"1GiB\"\ntmp = \"256MiB\"\n"
	if _, err := toml.Decode(text, &e); err != nil {
		t.Fatal(err)
	}
	if e.Memory != 512<<20 || e.Pids != 64 || e.OpenFiles != 4096 || e.FileSize != 8<<30 || len(e.ReadOnly) != 1 || e.Scratch != "tmp" || e.ScratchSize != 1<<30 || e.Tmp != 256<<20 {
		t.Errorf("decoded %+v", e)
	}
	for _, bad := range []string{"memory = \"lots\"", "memory = \"2EiB\""} {
		if _, err := toml.Decode(bad, &e); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	if _, err := toml.Decode(`memory = "lots"`, &e); err == nil || !strings.Contains(err.Error(), `"lots" is not a size`) || strings.Contains(err.Error(), "strconv") {
		t.Errorf(`memory = "lots": %v, want it to name the text and no Go internals`, err)
	}
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "books"), 0o755); err != nil {
		t.Fatal(err)
	}
	l := Limits{ReadOnly: []string{"books"}}
	if errs := l.Resolve(dir); len(errs) != 0 || l.ReadOnly[0] != filepath.Join(dir, "books") {
		t.Errorf("resolve: %v %v", errs, l.ReadOnly)
	}
	bad := Limits{Memory: 1 << 20, Tmp: 1 << 10, Pids: 2, OpenFiles: 8, FileSize: 1000, ReadOnly: []string{"nosuch"}, Scratch: "nosuch", ScratchSize: 1 << 20}
	errs := bad.Resolve(dir)
	var all []string
	for _, err := range errs {
		all = append(all, err.Error())
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{"memory = 1.0 MiB: at least 16MiB", "tmp = 1.0 KiB: at least 1MiB", "pids = 2", "open_files = 8: at least 16", "file_size = 1000 B: at least 1MiB", "read_only", `scratch = "` + filepath.Join(dir, "nosuch"), "scratch_size = 1.0 MiB: at least 4MiB"} {
		if !strings.Contains(text, want) {
			t.Errorf("problems %q lack %q", text, want)
		}
	}
}

// An entry may not allow a bot more open files than the arena itself may have.
func TestResolveOpenFilesCeiling(t *testing.T) {
	ceiling := botproc.OpenFilesCeiling()
	if ceiling > 1<<30 {
		t.Skipf("the arena's hard limit on open files is %d: no entry can exceed it", ceiling)
	}
	l := Limits{OpenFiles: int(ceiling) + 1}
	if errs := l.Resolve(t.TempDir()); len(errs) != 1 || !strings.Contains(errs[0].Error(), fmt.Sprintf("at most %d here", ceiling)) {
		t.Errorf("open_files above the ceiling: %v", errs)
	}
	l = Limits{OpenFiles: int(ceiling)}
	if errs := l.Resolve(t.TempDir()); len(errs) != 0 {
		t.Errorf("open_files at the ceiling: %v", errs)
	}
}

// An entry may not allow a bot a larger file than the arena itself may write. The arena's
// hard limit is usually unlimited, so the test runs itself again under a hard limit of 2 MiB
// (ulimit -f counts 512-byte blocks).
func TestResolveFileSizeCeiling(t *testing.T) {
	if os.Getenv("CONFINE_TEST_FSIZE") == "" {
		cmd := exec.Command("/bin/sh", "-c", `ulimit -f 4096 && exec "$0" -test.run '^TestResolveFileSizeCeiling$' -test.v`, os.Args[0])
		cmd.Env = append(os.Environ(), "CONFINE_TEST_FSIZE=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestResolveFileSizeCeiling") {
			t.Fatalf("under a 2 MiB file size limit: %v\n%s", err, out)
		}
		return
	}
	if ceiling := botproc.FileSizeCeiling(); ceiling != 2<<20 {
		t.Fatalf("FileSizeCeiling under ulimit -f 4096: %d, want %d", ceiling, 2<<20)
	}
	l := Limits{FileSize: 4 << 20}
	if errs := l.Resolve(t.TempDir()); len(errs) != 1 || !strings.Contains(errs[0].Error(), "file_size = 4.0 MiB: at most 2.0 MiB here") || !strings.Contains(errs[0].Error(), "ulimit -Hf") {
		t.Errorf("file_size above the ceiling: %v", errs)
	}
	l = Limits{FileSize: 2 << 20}
	if errs := l.Resolve(t.TempDir()); len(errs) != 0 {
		t.Errorf("file_size at the ceiling: %v", errs)
	}
}

// TestResolveScratchSize: a scratch size needs a scratch directory to hold the file systems.
func TestResolveScratchSize(t *testing.T) {
	l := Limits{ScratchSize: 8 << 20}
	if errs := l.Resolve(t.TempDir()); len(errs) != 1 || !strings.Contains(errs[0].Error(), "scratch_size = 8.0 MiB without scratch") {
		t.Errorf("scratch_size alone: %v", errs)
	}
	l = Limits{Scratch: t.TempDir(), ScratchSize: 8 << 20}
	if errs := l.Resolve(t.TempDir()); len(errs) != 0 {
		t.Errorf("scratch and scratch_size: %v", errs)
	}
	var spec botproc.Spec
	Policy{}.Apply(&spec, l)
	if spec.Sandbox.Scratch != l.Scratch || spec.Sandbox.ScratchSize != 8<<20 {
		t.Errorf("applied: %+v", spec.Sandbox)
	}
}

func TestParseMode(t *testing.T) {
	for in, off := range map[string]bool{"": false, "on": false, "off": true} {
		if got, err := ParseMode(in); err != nil || got != off {
			t.Errorf("ParseMode(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseMode("maybe"); err == nil {
		t.Error("ParseMode(maybe) accepted")
	}
}

func TestApply(t *testing.T) {
	var spec botproc.Spec
	Policy{Hide: []string{"/x/arena.db"}}.Apply(&spec, Limits{})
	if spec.MemoryMax != DefaultMemory || spec.PidsMax != DefaultPids || spec.Sandbox == nil || spec.Sandbox.Hide[0] != "/x/arena.db" {
		t.Errorf("defaults: %+v %+v", spec, spec.Sandbox)
	}
	spec = botproc.Spec{}
	Policy{Off: true}.Apply(&spec, Limits{Memory: 2 << 30, Pids: 10, OpenFiles: 100, FileSize: 8 << 30})
	if spec.MemoryMax != 2<<30 || spec.PidsMax != 10 || spec.OpenFiles != 100 || spec.FileSize != 8<<30 || spec.Sandbox != nil {
		t.Errorf("off, own limits: %+v", spec)
	}
	if !strings.Contains(Policy{Off: true}.Describe(), "SANDBOX OFF") {
		t.Error("an unconfined run does not say so")
	}
}

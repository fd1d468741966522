//go:build linux

package botproc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
)

// Catalogue E: resource abuse. These need cgroup limits and are skipped without them.

func needLimit(t *testing.T, what string) {
	t.Helper()
	if l := Limits(); !strings.Contains(l, what+": cgroup") {
		t.Skipf("no %s on this machine: %s", what, l)
	}
}

// E1: a memory balloon is killed by the kernel at MemoryMax, and the fault says so. The
// balloon stops at 1 GiB in any case.
func TestExchange_MemoryBalloon(t *testing.T) {
	t.Parallel()
	needLimit(t, "memory.max")
	b := pyBot(t, pyReady+`sys.stdin.readline()
blocks = []
for i in range(128):
    blocks.append(bytearray(8 << 20))  # zero-filled: every page is touched
print("ans survived", flush=True)
sys.stdin.readline()`)
	b.MemoryMax = 64 << 20
	p := mustStart(t, b)
	ready(t, p)
	_, err := p.Exchange([]byte("req grow\n"), true, 20*time.Second)
	wantFault(t, err, referee.FaultMemory, "killed by signal 9", "memory limit of 67108864 bytes")
	stopWithin(t, p, 100*time.Millisecond, time.Second)
}

// E2: a fork bomb stops at PidsMax; the bot still answers (with how far it got) and every
// process it made dies at Stop. The bomb stops at 200 forks in any case.
func TestExchange_ForkBomb(t *testing.T) {
	t.Parallel()
	needLimit(t, "pids.max")
	b := pyBot(t, pyReady+`import os
sys.stdin.readline()
forked = failed = 0
for i in range(200):
    try:
        pid = os.fork()
    except OSError:
        failed += 1
        continue
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    forked += 1
print("ans", forked, failed, flush=True)
sys.stdin.readline()`)
	b.PidsMax = 16
	p := mustStart(t, b)
	ready(t, p)
	r := exchange(t, p, "req bomb", 20*time.Second)
	f := strings.Fields(r.Line)
	if len(f) != 3 {
		t.Fatalf("answer %q", r.Line)
	}
	forked, _ := strconv.Atoi(f[1])
	failed, _ := strconv.Atoi(f[2])
	if forked >= 16 || failed == 0 {
		t.Errorf("forked %d, failed %d, want fewer than 16 forks", forked, failed)
	}
	if n := len(findMarked(b.mark)); n > 16 {
		t.Errorf("%d bot processes alive, PidsMax is 16", n)
	}
	stopWithin(t, p, 100*time.Millisecond, time.Second)
	assertGone(t, b.mark)
}

// openFilesScript opens /dev/null until it cannot and then tries to raise its open files
// and core file limits, answering "ans OPENED RAISED-FILES RAISED-CORE".
const openFilesScript = pyReady + `import os, resource
sys.stdin.readline()
fds = []
while len(fds) < 100000:
    try:
        fds.append(os.open("/dev/null", os.O_RDONLY))
    except OSError:
        break
for fd in fds:
    os.close(fd)
def raised(which, to):
    try:
        resource.setrlimit(which, (to, to))
        return "raised"
    except (ValueError, OSError):
        return "denied"
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
print("ans", len(fds), raised(resource.RLIMIT_NOFILE, hard + 1), raised(resource.RLIMIT_CORE, 1 << 20), flush=True)
sys.stdin.readline()
`

// E4: a bot process may open at most DefaultOpenFiles files, or what its Spec allows, with
// the sandbox and without, and in the sandbox it cannot raise that limit or its core file
// limit. The control runs the same script as a plain child of the test, which opens many
// more.
func TestRlimits_OpenFiles(t *testing.T) {
	t.Parallel()
	control := exec.Command(pyBot(t, "").Argv[0], "-c", strings.Replace(openFilesScript, "sys.stdin.readline()", "", 2))
	out, err := control.Output()
	if err != nil {
		t.Fatalf("control: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if f := strings.Fields(lines[len(lines)-1]); len(f) != 4 {
		t.Fatalf("control answered %q", out)
	} else if n, _ := strconv.Atoi(f[1]); n <= DefaultOpenFiles {
		t.Logf("control: a plain child opens only %d files here; the limit is not what stops the bot", n)
	} else {
		t.Logf("control: a plain child opens %d files", n)
	}
	for _, c := range []struct {
		name    string
		sandbox bool
		allowed int
	}{{"plain", false, 0}, {"sandbox", true, 0}, {"plain-64", false, 64}, {"sandbox-2000", true, 2000}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b := pyBot(t, openFilesScript)
			if c.sandbox {
				needSandbox(t)
				b = sandboxed(b, Sandbox{})
			}
			b.OpenFiles = c.allowed
			limit := min(DefaultOpenFiles, int(OpenFilesCeiling()))
			if c.allowed > 0 {
				if uint64(c.allowed) > OpenFilesCeiling() {
					t.Skipf("the arena's own hard limit is %d", OpenFilesCeiling())
				}
				limit = c.allowed
			}
			p := mustStart(t, b)
			ready(t, p)
			r := exchange(t, p, "req open", 20*time.Second)
			f := strings.Fields(r.Line)
			if len(f) != 4 {
				t.Fatalf("answer %q", r.Line)
			}
			opened, _ := strconv.Atoi(f[1])
			if opened > limit-3 || opened < limit-20 {
				t.Errorf("the bot opened %d files besides its standard ones, want about %d", opened, limit-3)
			}
			if c.sandbox || os.Geteuid() != 0 { // root without a sandbox may raise its limits
				if f[2] != "denied" || f[3] != "denied" {
					t.Errorf("raising the open files and core limits: %s, %s; want both denied", f[2], f[3])
				}
			}
		})
	}
}

// Start refuses a bot more open files than the arena itself may have, before it runs.
func TestStart_OpenFilesAboveCeiling(t *testing.T) {
	t.Parallel()
	for _, sandbox := range []bool{false, true} {
		b := shBot(t, "echo started >&2")
		if sandbox {
			if SandboxError() != nil {
				continue
			}
			b = sandboxed(b, Sandbox{})
		}
		b.OpenFiles = int(OpenFilesCeiling()) + 1
		p, err := Start(context.Background(), b.Spec, testLog(t))
		if err == nil {
			p.Stop(time.Second)
			t.Fatalf("sandbox %v: Start allowed %d open files, above the ceiling", sandbox, b.OpenFiles)
		}
		if AsFault(err) != nil || !strings.Contains(err.Error(), "above the arena's own hard limit") {
			t.Errorf("sandbox %v: Start: %v, want the arena's error naming the hard limit", sandbox, err)
		}
	}
}

// fileSizeScript reads its file size limit, writes 2 MiB to a file in its working directory
// (EFBIG ends the write: Python ignores SIGXFSZ) and tries to raise the limit, answering
// "ans SOFT HARD WRITTEN RAISED".
const fileSizeScript = pyReady + `import os, resource
sys.stdin.readline()
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
with open("big", "wb", buffering=0) as f:
    try:
        f.write(b"x" * (2 << 20))
    except OSError:
        pass
def raised():
    try:
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard + 1, hard + 1))
        return "raised"
    except (ValueError, OSError):
        return "denied"
print("ans", soft, hard, os.path.getsize("big"), raised(), flush=True)
sys.stdin.readline()
`

// E3, G3: no file a bot process writes grows past DefaultFileSize, or what its Spec allows,
// with the sandbox and without, and in the sandbox the bot cannot raise that limit. The bot
// writes in its working directory, which lies on the host's disk in the sandbox too. The
// default case, which writes the whole 2 MiB, is the control of the 1 MiB one.
func TestRlimits_FileSize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		sandbox bool
		allowed int64
	}{{"plain", false, 0}, {"sandbox", true, 0}, {"plain-1MiB", false, 1 << 20}, {"sandbox-1MiB", true, 1<<20 + 100}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b := pyBot(t, fileSizeScript)
			if c.sandbox {
				needSandbox(t)
				b = sandboxed(b, Sandbox{})
			}
			b.FileSize = c.allowed
			limit, written := min(uint64(DefaultFileSize), FileSizeCeiling()), 2<<20
			if c.allowed > 0 {
				limit, written = 1<<20, 1<<20 // rounded down to whole 512-byte blocks
			}
			p := mustStart(t, b)
			ready(t, p)
			r := exchange(t, p, "req write", 20*time.Second)
			want := fmt.Sprintf("ans %d %d %d", limit, limit, written)
			if !strings.HasPrefix(r.Line, want+" ") {
				t.Fatalf("answer %q, want %q and then whether it raised its limit", r.Line, want)
			}
			if raised := strings.TrimPrefix(r.Line, want+" "); (c.sandbox || os.Geteuid() != 0) && raised != "denied" {
				t.Errorf("raising the file size limit: %s, want denied", raised)
			}
		})
	}
}

// A program that does not ignore SIGXFSZ is killed by it on writing past its limit, and the
// fault says why.
func TestExchange_FileSizeSignal(t *testing.T) {
	t.Parallel()
	b := shBot(t, "read line; exec head -c 2000000 /dev/zero >big")
	b.FileSize = 1 << 20
	p := mustStart(t, b)
	_, err := p.Exchange([]byte("req write\n"), true, 20*time.Second)
	wantFault(t, err, referee.FaultCrash, "SIGXFSZ", "file size limit")
}

// E5: a bot that crashes writes no core file, here in its working directory (where the
// kernel's core_pattern "core" puts it), even with its soft limit raised to its hard one. The control crashes the same program as a plain
// child of the test with the core file size limit raised, which writes one.
func TestRlimits_NoCoreDump(t *testing.T) {
	t.Parallel()
	if pattern, err := os.ReadFile("/proc/sys/kernel/core_pattern"); err != nil || strings.ContainsAny(string(pattern), "|/") {
		t.Skipf("core files do not go to the crashing process's directory here (core_pattern %q, %v)", pattern, err)
	}
	// The bot raises its soft limit to its hard one, as any process may (a service manager
	// or a container often starts programs so), and aborts.
	crash := "import os, resource, sys\nsys.stdin.readline()\n" +
		"hard = resource.getrlimit(resource.RLIMIT_CORE)[1]\nresource.setrlimit(resource.RLIMIT_CORE, (hard, hard))\nos.abort()\n"
	py := pyBot(t, "").Argv[0]
	controlDir := t.TempDir()
	control := exec.Command("/bin/sh", "-c", `ulimit -c unlimited && exec "$0" -c "$1" </dev/null`, py, crash)
	control.Dir = controlDir
	if out, err := control.CombinedOutput(); err == nil || strings.Contains(string(out), "ulimit") {
		// Once a bot has started, the test process's own hard limit is 0 (Harden): only
		// root may raise it again.
		t.Skipf("control: could not crash a plain child with an unlimited core size: %v, %s", err, out)
	}
	if cores, _ := filepath.Glob(filepath.Join(controlDir, "core*")); len(cores) == 0 {
		t.Skip("control: a plain child that aborts with an unlimited core size writes no core file here either")
	}

	b := pyBot(t, crash)
	b.Dir = t.TempDir()
	p := mustStart(t, b)
	_, err := p.Exchange([]byte("req crash\n"), true, 20*time.Second)
	wantFault(t, err, referee.FaultCrash, "SIGABRT")
	if cores, _ := filepath.Glob(filepath.Join(b.Dir, "core*")); len(cores) > 0 {
		t.Errorf("the bot left core files: %v", cores)
	}
}

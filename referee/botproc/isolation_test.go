//go:build linux

package botproc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"golang.org/x/sys/unix"
)

// Catalogue A8, E, F, H: what a bot gets and what it cannot keep.

func TestLimits(t *testing.T) {
	t.Parallel()
	l := Limits()
	if !strings.HasPrefix(l, "process group") {
		t.Errorf("Limits() = %q", l)
	}
	t.Log(l)
}

// A8: a bot sees only descriptors 0, 1 and 2, even if the arena holds one without
// close-on-exec (as if inherited from its own parent).
func TestStart_NoInheritedFDs(t *testing.T) {
	t.Parallel()
	fd, err := syscall.Open("/dev/null", syscall.O_RDONLY, 0) // no O_CLOEXEC
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	// Not a Go bot: the Go runtime opens cgroup files of its own at start.
	p := mustStart(t, pyBot(t, `import os, sys
def is_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False
sys.stdin.readline()
print("ans", *[fd for fd in range(4096) if is_open(fd)])
sys.stdin.readline()`))
	if r := exchange(t, p, "req fds", 10*time.Second); r.Line != "ans 0 1 2" {
		t.Errorf("bot's open descriptors: %q, want 0 1 2 (the arena's fd %d leaked?)", r.Line, fd)
	}
}

// A8: without Spec.Env the bot gets PATH, HOME (its fresh working directory) and LANG only,
// not the arena's secrets; the directory is removed at Stop.
func TestStart_DefaultEnvAndDir(t *testing.T) {
	t.Setenv("BOTPROC_SECRET", "hunter2")
	b := goBot(t, "echo")
	b.Env = nil
	p := mustStart(t, b)
	env := strings.Split(strings.TrimPrefix(exchange(t, p, "req env", 10*time.Second).Line, "ans "), "|")
	cwd := strings.TrimPrefix(exchange(t, p, "req cwd", 10*time.Second).Line, "ans ")
	slices.Sort(env)
	want := []string{"HOME=" + cwd, "LANG=C.UTF-8", "PATH=" + os.Getenv("PATH")}
	if !slices.Equal(env, want) {
		t.Errorf("bot environment %q, want %q", env, want)
	}
	if !strings.HasPrefix(filepath.Base(cwd), "botproc-") {
		t.Errorf("working directory %q is not a fresh one", cwd)
	}
	if err := p.Stop(time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cwd); !os.IsNotExist(err) {
		t.Errorf("working directory %s not removed: %v", cwd, err)
	}
}

// A given working directory is used and kept.
func TestStart_GivenDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b := goBot(t, "echo")
	b.Dir = dir
	p := mustStart(t, b)
	if got := exchange(t, p, "req cwd", 10*time.Second).Line; got != "ans "+dir {
		t.Errorf("got %q, want cwd %s", got, dir)
	}
	if err := p.Stop(time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("given directory removed: %v", err)
	}
}

// Stderr is appended to the stderr file, run after run.
func TestStart_StderrFileAppends(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "bot.stderr")
	for i := range 2 {
		b := shBot(t, fmt.Sprintf(`echo run %d >&2; exit 0`, i))
		b.StderrFile = file
		p := mustStart(t, b)
		if err := p.Stop(time.Second); err != nil {
			t.Fatal(err)
		}
		if got := p.StderrTail(); got != fmt.Sprintf("run %d\n", i) {
			t.Errorf("StderrTail = %q", got)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "run 0\nrun 1\n" {
		t.Errorf("stderr file has %q", b)
	}
}

// When Start's context ends, the bot is killed and the Exchange says so.
func TestStart_ContextCancel(t *testing.T) {
	t.Parallel()
	b := goBot(t, "echo")
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Start(ctx, b.Spec, testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := p.Stop(time.Second); err != nil {
			t.Error(err)
		}
		assertGone(t, b.mark)
	}()
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = p.Exchange([]byte("req sleep 20000\n"), true, 30*time.Second)
	wantFault(t, err, referee.FaultCrash, "killed by the arena: context canceled")
}

// CPUs places the bot, and the arena's threads keep their own affinity and cgroups.
func TestStart_CPUAffinityAndThreadRestore(t *testing.T) {
	t.Parallel()
	if n := len(onlineCPUs(t)); n < 2 {
		t.Skip("one CPU only")
	}
	b := goBot(t, "echo")
	b.CPUs = []int{1}
	b.MemoryMax, b.PidsMax = 256<<20, 64
	p := mustStart(t, b)
	if got := exchange(t, p, "req affinity", 10*time.Second).Line; got != "ans 1" {
		t.Errorf("bot affinity %q, want CPU 1", got)
	}
	// Every thread of the bot, not just the one that was asked.
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", p.Pid()))
	for _, task := range tasks {
		if got := statusField(t, fmt.Sprintf("/proc/%d/task/%s/status", p.Pid(), task.Name()), "Cpus_allowed_list"); got != "1" {
			t.Errorf("bot thread %s runs on CPUs %q", task.Name(), got)
		}
	}
	own, _ := os.ReadFile("/proc/self/cgroup")
	affinity := statusField(t, "/proc/self/status", "Cpus_allowed_list")
	tasks, _ = os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		// The spawner thread visits a bot's cgroups and CPUs while it starts one, for the
		// parallel tests too: a thread counts as moved only if it stays away.
		dir := "/proc/self/task/" + task.Name()
		var gotAffinity string
		var gotCgroups []byte
		var err error
		for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(time.Millisecond) {
			gotAffinity = statusField(t, dir+"/status", "Cpus_allowed_list")
			gotCgroups, err = os.ReadFile(dir + "/cgroup")
			if err != nil || gotAffinity == affinity && string(gotCgroups) == string(own) || time.Now().After(deadline) {
				break
			}
		}
		if err != nil {
			continue // the thread has ended
		}
		if gotAffinity != affinity {
			t.Errorf("arena thread %s kept affinity %q, want %q", task.Name(), gotAffinity, affinity)
		}
		if string(gotCgroups) != string(own) {
			t.Errorf("arena thread %s is in cgroups\n%s\nwant\n%s", task.Name(), gotCgroups, own)
		}
	}
	// The bot is in its own cgroups.
	cg, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", p.Pid()))
	if strings.Contains(Limits(), "cgroup v2") && !strings.Contains(string(cg), "/"+cgroupPrefix) {
		t.Errorf("bot cgroups:\n%s", cg)
	}
	t.Logf("bot cgroups:\n%s", cg)
}

func onlineCPUs(t *testing.T) []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	var cpus []int
	for c := range 1024 {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}

func statusField(t testing.TB, file, key string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && k == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Go ends a thread when a goroutine locked to it exits; a bot whose Pdeathsig were tied to
// that thread would die. Bots are started from the spawner, whose thread never ends.
func TestStart_SurvivesThreadExits(t *testing.T) {
	t.Parallel()
	p := mustStart(t, goBot(t, "echo"))
	exchange(t, p, "req 1", 10*time.Second)
	for range 50 {
		done := make(chan struct{})
		go func() {
			defer close(done)
			runtime.LockOSThread() // and exit locked: Go ends this thread
		}()
		<-done
		runtime.Gosched()
	}
	time.Sleep(50 * time.Millisecond)
	if r, err := p.Exchange([]byte("req 2\n"), true, 5*time.Second); err != nil || r.Line != "ans 2" {
		t.Fatalf("bot after 50 thread exits: %q %v", r.Line, err)
	}
}

// H1/H16: when the arena is killed with SIGKILL, its bots die with it (Pdeathsig), and the
// cgroups it left are swept by the next arena.
func TestArenaKilled(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	mark := newMark()
	arena := exec.Command(exe, testBotArg, "arena", mark)
	stdin, _ := arena.StdinPipe()
	stdout, _ := arena.StdoutPipe()
	if err := arena.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(stdin, mark)
	var word string
	var botPid int
	if _, err := fmt.Fscanln(stdout, &word, &botPid); err != nil || word != "started" {
		arena.Process.Kill()
		arena.Wait()
		t.Fatalf("helper arena: %q %d %v", word, botPid, err)
	}
	if len(findMarked(mark)) == 0 {
		t.Fatal("the helper arena's bot is not running")
	}
	arena.Process.Kill()
	arena.Wait()
	deadline := time.Now().Add(2 * time.Second)
	for len(findMarked(mark)) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assertGone(t, mark)

	// Any arena process starting meanwhile on this machine (another test binary of
	// go test ./..., another developer's run) sweeps the dead arena's leftovers first; then
	// there is nothing left for this test's sweep, and that part is not tested here.
	tmp, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+ownerOf(arena.Process.Pid)+"-*"))
	if len(tmp) > 1 {
		t.Errorf("the killed arena left working directories %v, want one", tmp)
	} else if len(tmp) == 0 {
		t.Logf("the killed arena's working directory was swept already by another arena process")
	}
	sweepTempDirs(os.Getpid())
	for _, dir := range tmp {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("stale working directory %s not swept", dir)
		}
	}

	s := cgroups()
	if s.v2Parent == "" {
		return
	}
	pattern := cgroupPrefix + ownerOf(arena.Process.Pid) + "-*"
	var stale []string
	for _, p := range s.parents() {
		m, _ := filepath.Glob(filepath.Join(p, pattern))
		stale = append(stale, m...)
	}
	if len(stale) == 0 {
		t.Logf("the killed arena's cgroups were swept already by another arena process; this sweep is not tested")
	}
	s.sweepStale(os.Getpid())
	for _, dir := range stale {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("stale cgroup %s not swept", dir)
		}
	}
}

// The process-group-only mode (machines without usable cgroups) passes the tests that do
// not need a cgroup: the test binary runs a selection of them again with cgroups off.
func TestWithoutCgroups(t *testing.T) {
	if os.Getenv(noCgroupsEnv) == "1" {
		t.Skip("already without cgroups")
	}
	if testing.Short() {
		t.Skip("short")
	}
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^(TestLimits|TestPause|TestExchange_(ExitsAtOnce|OrphanKeepsStdout|OrphanBetweenRequests|CPUTime|HugeLine|StderrFlood|MemoryBalloon)|TestStop_(IgnoresSIGTERM|SetsidGrandchild|DuringExchange)|TestArenaKilled|TestStart_CPUAffinityAndThreadRestore)$", "-test.v")
	cmd.Env = append(os.Environ(), noCgroupsEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("without cgroups: %v\n%s", err, out)
	}
	for _, want := range []string{"--- PASS: TestPause ", "--- PASS: TestExchange_OrphanKeepsStdout", "--- SKIP: TestStop_SetsidGrandchild", "--- SKIP: TestExchange_MemoryBalloon"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("without cgroups: no %q in\n%s", want, out)
		}
	}
}

// TestSweepStaleNamespaces: an arena sweeps up the cgroups and working directories that dead
// arenas of its own PID namespace left, and leaves alone those whose names say they are of
// another PID namespace, or of an older arena that did not say: the pid in the name may be a
// live arena there, which this one cannot see. The pid in all three names is one that no
// process has here (above pid_max); a real process stands in each cgroup.
func TestSweepStaleNamespaces(t *testing.T) {
	s := cgroups()
	if s.v2Parent == "" {
		t.Skip("no cgroup v2 for the bots")
	}
	if ownPIDNamespace == 0 {
		t.Skip("the PID namespace of this process cannot be read")
	}
	b, err := os.ReadFile("/proc/sys/kernel/pid_max")
	if err != nil {
		t.Fatal(err)
	}
	var pidMax int
	if _, err := fmt.Sscan(string(b), &pidMax); err != nil {
		t.Fatal(err)
	}
	ghost := pidMax + 1
	type leftover struct {
		cgroup, tmp string
		proc        *exec.Cmd
	}
	leave := func(tag string) leftover {
		l := leftover{cgroup: filepath.Join(s.v2Parent, cgroupPrefix+tag+"-1")}
		if err := os.Mkdir(l.cgroup, 0o755); err != nil {
			t.Fatal(err)
		}
		l.proc = exec.Command("sleep", "60")
		if err := l.proc.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = l.proc.Process.Kill()
			_ = l.proc.Wait()
			_ = removeCgroupTree(l.cgroup, time.Second)
			_ = os.RemoveAll(l.tmp)
		})
		if err := writeFile(l.cgroup, "cgroup.procs", fmt.Sprint(l.proc.Process.Pid)); err != nil {
			t.Fatal(err)
		}
		if l.tmp, err = os.MkdirTemp("", tempPrefix+tag+"-*"); err != nil {
			t.Fatal(err)
		}
		return l
	}
	dead := leave(fmt.Sprintf("%d.%d", ghost, ownPIDNamespace))
	others := []leftover{leave(fmt.Sprintf("%d.%d", ghost, ownPIDNamespace+1)), leave(fmt.Sprint(ghost))}

	s.sweepStale(os.Getpid())
	sweepTempDirs(os.Getpid())

	exited := make(chan error, 1)
	go func() { exited <- dead.proc.Wait() }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Errorf("the process in %s, a dead arena's of this PID namespace, lives on", dead.cgroup)
	}
	for _, path := range []string{dead.cgroup, dead.tmp} {
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s, a dead arena's of this PID namespace, was not swept up", path)
		}
	}
	for _, l := range others {
		if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", l.proc.Process.Pid)); err != nil || strings.Contains(string(st), ") Z ") {
			t.Errorf("the process in %s was killed", l.cgroup)
		}
		for _, path := range []string{l.cgroup, l.tmp} {
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s, not of this PID namespace, was swept up: %v", path, err)
			}
		}
	}
}

//go:build linux

// The tests of this package find bot processes, cgroups and sandboxes through /proc and the
// cgroup file system, so they are built and run on Linux only; on macOS the package itself
// builds (make cross) and runs with the weaker isolation Limits describes there.

package botproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/rs/zerolog"
	"go.uber.org/goleak"
	"golang.org/x/sys/unix"
)

// The test binary doubles as a bot: "botproc.test botproc-test-bot MODE MARK" runs testBot.
const testBotArg = "botproc-test-bot"

// noCgroupsEnv set to 1 makes the test binary run as if the machine had no cgroups.
const noCgroupsEnv = "BOTPROC_TEST_NO_CGROUPS"

func TestMain(m *testing.M) {
	if os.Getenv(noCgroupsEnv) == "1" { // see TestWithoutCgroups
		detectOnce.Do(func() { detected = &cgroupSupport{notes: []string{"disabled for this test run"}} })
	}
	if len(os.Args) > 2 && os.Args[1] == testBotArg {
		os.Exit(testBot(os.Args[2]))
	}
	code := m.Run()
	if code == 0 {
		code = checkClean()
	}
	os.Exit(code)
}

// checkClean fails the run if a goroutine, a bot cgroup or a bot process is left over.
func checkClean() int {
	if n := liveGoroutines.Load(); n != 0 {
		fmt.Fprintf(os.Stderr, "botproc: %d goroutines still running after the tests\n", n)
		return 1
	}
	// The watchdog ends at its first tick after the last bot's Stop, which comes late on a
	// loaded machine; then goleak looks.
	if !watchdogEnded(5 * time.Second) {
		fmt.Fprintln(os.Stderr, "botproc: the turn watchdog still runs 5s after the tests")
		return 1
	}
	// The spawner lives as long as the process, by design.
	if err := goleak.Find(goleak.IgnoreTopFunction("github.com/klaverjas-arena/arena/referee/botproc.spawnLoop")); err != nil {
		fmt.Fprintf(os.Stderr, "botproc: goroutine leak: %v\n", err)
		return 1
	}
	if left := leftoverCgroups(); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "botproc: cgroups left over: %v\n", left)
		return 1
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+owner+"-*")); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "botproc: working directories left over: %v\n", left)
		return 1
	}
	if left := findMarked("m" + strconv.Itoa(os.Getpid()) + "-"); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "botproc: bot processes left over: %v\n", left)
		return 1
	}
	return 0
}

// watchdogEnded reports whether the turn watchdog has stopped, waiting at most d.
func watchdogEnded(d time.Duration) bool {
	for deadline := time.Now().Add(d); ; time.Sleep(10 * time.Millisecond) {
		watchdog.mu.Lock()
		running := watchdog.running
		watchdog.mu.Unlock()
		if !running || time.Now().After(deadline) {
			return !running
		}
	}
}

// leftoverCgroups lists this process's bot cgroups that still exist.
func leftoverCgroups() []string {
	var left []string
	for _, p := range cgroups().parents() {
		m, _ := filepath.Glob(filepath.Join(p, cgroupPrefix+owner+"-*"))
		left = append(left, m...)
	}
	return left
}

var markSeq atomic.Int64

// newMark returns a string unique to one test bot, put in its command line and environment
// so that its processes (and their descendants) can be found in /proc.
func newMark() string {
	return fmt.Sprintf("m%d-%d-x", os.Getpid(), markSeq.Add(1))
}

// findMarked returns the pids of live processes whose command line or environment contains mark.
func findMarked(mark string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		if i := strings.LastIndexByte(string(stat), ')'); i < 0 || len(stat) < i+3 || stat[i+2] == 'Z' {
			continue
		}
		for _, f := range []string{"cmdline", "environ"} {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, f))
			if strings.Contains(string(b), mark) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// bot is a test bot: its Spec and its mark.
type bot struct {
	Spec
	mark string
}

func testEnv(mark string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "BOTPROC_MARK=" + mark}
}

// goBot is the test binary run as a bot in mode.
func goBot(t testing.TB, mode string) bot {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	mark := newMark()
	return bot{Spec{Name: "go-" + mode, Argv: []string{exe, testBotArg, mode, mark}, Env: testEnv(mark)}, mark}
}

// shBot is /bin/sh running script; $0 is the mark.
func shBot(t testing.TB, script string) bot {
	t.Helper()
	mark := newMark()
	return bot{Spec{Name: "sh", Argv: []string{"/bin/sh", "-c", script, mark}, Env: testEnv(mark)}, mark}
}

var (
	pythonOnce sync.Once
	pythonPath string
)

// pyBot is python3 (unbuffered) running script; sys.argv[1] is the mark.
func pyBot(t testing.TB, script string) bot {
	t.Helper()
	pythonOnce.Do(func() {
		out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
		if err == nil {
			pythonPath = strings.TrimSpace(string(out))
		}
	})
	if pythonPath == "" {
		t.Skip("python3 not available")
	}
	mark := newMark()
	return bot{Spec{Name: "py", Argv: []string{pythonPath, "-u", "-c", script, mark}, Env: testEnv(mark)}, mark}
}

// pyReady starts a Python bot script: it imports sys and time and answers a first request
// with "ans ready", so a test can wait with ready until the interpreter is up before timing
// anything.
const pyReady = "import sys, time\nsys.stdin.readline()\nprint('ans ready')\n"

// ready sends the first request of a bot with a generous timeout (start-up under load).
func ready(t testing.TB, p *Proc) {
	t.Helper()
	if r := exchange(t, p, "req ready", 20*time.Second); r.Line != "ans ready" {
		t.Fatalf("first answer %q, want %q", r.Line, "ans ready")
	}
}

// testLog returns a logger writing to t.Log.
func testLog(t testing.TB) zerolog.Logger {
	return zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.DebugLevel)
}

// mustStart starts b and registers a cleanup that stops it and checks nothing is left.
func mustStart(t testing.TB, b bot) *Proc {
	t.Helper()
	p, err := Start(context.Background(), b.Spec, testLog(t))
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := p.Stop(100 * time.Millisecond); err != nil {
			t.Errorf("Stop: %v", err)
		}
		assertGone(t, b.mark)
	})
	return p
}

// stopWithin stops p and fails the test if that takes longer than max.
func stopWithin(t testing.TB, p *Proc, grace, max time.Duration) {
	t.Helper()
	start := time.Now()
	if err := p.Stop(grace); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if took := time.Since(start); took > max {
		t.Errorf("Stop took %v, want at most %v", took, max)
	}
}

// assertGone fails the test if a process carrying mark is alive.
func assertGone(t testing.TB, mark string) {
	t.Helper()
	if left := findMarked(mark); len(left) > 0 {
		for _, pid := range left {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
		t.Errorf("bot processes survived Stop: %v", left)
	}
}

// wantFault checks that err is a *Fault of kind k whose Detail contains each of details.
func wantFault(t testing.TB, err error, k referee.FaultKind, details ...string) *Fault {
	t.Helper()
	f := AsFault(err)
	if f == nil {
		t.Fatalf("got error %v, want a %s fault", err, k)
	}
	if f.Kind != k {
		t.Fatalf("got fault %v, want kind %s", f, k)
	}
	for _, d := range details {
		if !strings.Contains(f.Detail, d) {
			t.Errorf("fault detail %q does not contain %q", f.Detail, d)
		}
	}
	for _, c := range []byte(f.Detail) {
		if c < 0x20 || c > 0x7e {
			t.Errorf("fault detail %q has a raw byte %#x", f.Detail, c)
			break
		}
	}
	return f
}

// exchange sends one request line and returns the answer.
func exchange(t testing.TB, p *Proc, req string, timeout time.Duration) Reply {
	t.Helper()
	r, err := p.Exchange([]byte(req+"\n"), true, timeout)
	if err != nil {
		t.Fatalf("Exchange(%q): %v", req, err)
	}
	return r
}

// testBot is the Go bot program: for each line "req CMD ARG" it does CMD and answers one
// line; other lines are ignored.
func testBot(mode string) int {
	switch mode {
	case "arena":
		return testArena()
	case "sigpipe":
		return testSIGPIPE()
	case "echo":
	default:
		fmt.Fprintf(os.Stderr, "unknown mode %q\n", mode)
		return 2
	}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return 0
		}
		rest, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "req ")
		if !ok {
			continue
		}
		cmd, arg, _ := strings.Cut(rest, " ")
		n, _ := strconv.Atoi(arg)
		answer := "ans " + rest
		switch cmd {
		case "sleep":
			time.Sleep(time.Duration(n) * time.Millisecond)
		case "spin":
			for start := time.Now(); time.Since(start) < time.Duration(n)*time.Millisecond; {
			}
		case "exit":
			return n
		case "panic":
			panic("test bot panics as asked")
		case "env":
			answer = "ans " + strings.Join(os.Environ(), "|")
		case "cwd":
			wd, _ := os.Getwd()
			answer = "ans " + wd
		case "affinity":
			var set unix.CPUSet
			_ = unix.SchedGetaffinity(0, &set)
			var cpus []string
			for c := range 1024 {
				if set.IsSet(c) {
					cpus = append(cpus, strconv.Itoa(c))
				}
			}
			answer = "ans " + strings.Join(cpus, ",")
		case "infos":
			for i := range n {
				fmt.Fprintf(out, "info %d\n", i)
			}
		}
		out.WriteString(answer + "\n")
		out.Flush()
	}
}

// testArena is a small arena: it starts a bot that sleeps (with the mark given on stdin),
// writes "started PID", and waits to be killed. It is used to check what happens to a bot
// whose arena dies. A scratch directory after the mark on the line puts the bot in a sandbox
// with a scratch file system of 8 MiB there.
func testArena() int {
	var mark, scratch string
	if n, _ := fmt.Fscanln(os.Stdin, &mark, &scratch); n == 0 {
		return 2
	}
	spec := Spec{
		Name: "orphan", Argv: []string{"/bin/sleep", "60"}, Env: testEnv(mark),
		MemoryMax: 256 << 20, PidsMax: 16,
	}
	if scratch != "" {
		spec.Sandbox = &Sandbox{Scratch: scratch, ScratchSize: 8 << 20}
	}
	p, err := Start(context.Background(), spec, zerolog.Nop())
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Println("started", p.Pid())
	time.Sleep(time.Minute)
	return 0
}

// errorIs is errors.Is, with a message.
func errorIs(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("error %v is not %v", err, target)
	}
}

// AsFault returns the *Fault in err's chain, or nil.
func AsFault(err error) *Fault {
	var f *Fault
	if errors.As(err, &f) {
		return f
	}
	return nil
}

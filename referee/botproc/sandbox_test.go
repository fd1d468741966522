//go:build linux

package botproc

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
)

// The sandbox (Spec.Sandbox): what a bot can see and do, and what it cannot.

// needSandbox skips the test, saying why, where the machine cannot make a sandbox.
func needSandbox(t testing.TB) {
	t.Helper()
	if err := SandboxError(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
}

// sandboxed returns b confined by sb.
func sandboxed(b bot, sb Sandbox) bot {
	b.Sandbox = &sb
	return b
}

// hostileScript tries, at its first request, every way a bot could learn what it must not
// or hurt the arena and the other bots, and answers one line of "attempt=ok|denied" pairs.
// $1.. are: the arena's pid, an opponent's pids (comma-separated), the TCP port of a listener
// on 127.0.0.1 and a world-writable directory outside the bot's; $FILES lists the arena files
// to read (not on the command line: a file named there is the bot's to read).
// ptrace is PTRACE_SEIZE, which does not stop the tracee. With kill=0 it only probes signal
// permission (kill -0): used where the attempt would
// otherwise succeed and hurt.
const hostileScript = `
arena=$1 opp=$2 port=$3 outside=$4 kill=$5
res=""
try() { name=$1; shift; if "$@" >/dev/null 2>&1; then res="$res $name=ok"; else res="$res $name=denied"; fi; }
read -r _req
for pid in $arena ${opp//,/ }; do
  try mem-$pid head -c 1 /proc/$pid/mem
  try memrd-$pid python3 -c "import sys; f=open('/proc/$pid/mem','rb'); import re; m=open('/proc/$pid/maps').read().split()[0].split('-')[0]; f.seek(int(m,16)); f.read(16)"
  try environ-$pid head -c 1 /proc/$pid/environ
  try cmdline-$pid test -s /proc/$pid/cmdline
  try fd0-$pid head -c 0 /proc/$pid/fd/0
  try fdls-$pid ls /proc/$pid/fd/
  try cwd-$pid ls /proc/$pid/cwd/
  try ptrace-$pid python3 -c "import ctypes,sys; l=ctypes.CDLL(None, use_errno=True); sys.exit(0 if l.ptrace(0x4206, $pid, 0, 0)==0 else 1)"
  try kill-$pid kill -$kill $pid
done
for f in $FILES; do try read-$(basename $f) head -c 1 "$f"; try exists-$(basename $f) test -e "$f"; done
try tcp bash -c "exec 3<>/dev/tcp/127.0.0.1/$port"
try write-outside touch "$outside/written-by-bot"
try write-own-dir touch ./written-by-bot
try tty sh -c 'echo hello > /dev/tty'
try home ls /home/ /root/
try sys ls /sys/fs/cgroup
echo "ans$res"
read -r _req
`

// hostileAttempts runs the hostile script as b (sandboxed or not) against the arena (this
// process), the opponent, a listener and files, and returns the attempts and their results.
func hostileAttempts(t *testing.T, b bot, oppPids []int, files []string, kill string) map[string]string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	outside := t.TempDir()
	if err := os.Chmod(outside, 0o1777); err != nil {
		t.Fatal(err)
	}
	var opp []string
	for _, pid := range oppPids {
		opp = append(opp, strconv.Itoa(pid))
	}
	b.Argv = []string{"/bin/bash", "-c", hostileScript, b.mark, strconv.Itoa(os.Getpid()), strings.Join(opp, ","),
		strconv.Itoa(ln.Addr().(*net.TCPAddr).Port), outside, kill}
	b.Env = append(slices.Clone(b.Env), "FILES="+strings.Join(files, " "))
	p := mustStart(t, b)
	r := exchange(t, p, "req go", 60*time.Second)
	got := map[string]string{}
	for _, kv := range strings.Fields(strings.TrimPrefix(r.Line, "ans")) {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	if _, err := os.Stat(filepath.Join(outside, "written-by-bot")); err == nil && got["write-outside"] != "ok" {
		t.Errorf("the bot wrote outside its directory but says it did not")
	}
	return got
}

// opponent starts a sandboxed bot that waits, and returns its host pids (bwrap and the bot).
func opponent(t *testing.T) (*Proc, []int) {
	t.Helper()
	o := sandboxed(pyBot(t, pyReady+"for line in sys.stdin:\n    print('ans alive')\n"), Sandbox{})
	p := mustStart(t, o)
	ready(t, p)
	pids := findMarked(o.mark)
	if len(pids) == 0 {
		t.Fatal("opponent's processes not found")
	}
	return p, pids
}

// arenaFiles makes files as the arena would (mode 0600): one in the bot's working directory,
// listed in Sandbox.Hide, and one outside anything the bot sees.
func arenaFiles(t *testing.T, botDir string) (inDir, outside string) {
	t.Helper()
	inDir = filepath.Join(botDir, "arena.db")
	outside = filepath.Join(t.TempDir(), "deals.log")
	for _, f := range []string{inDir, outside} {
		if err := os.WriteFile(f, []byte("all four hands\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return inDir, outside
}

// TestSandbox_Hostile: from inside its sandbox a bot cannot read the memory, environment,
// command line or descriptors of the arena or of another bot, ptrace or kill either, open the
// arena's files by path, connect to a listener on 127.0.0.1, write outside its directory
// (or in it) or open a terminal. Unsandboxed, the same script succeeds at much of it, so the
// test can tell.
func TestSandbox_Hostile(t *testing.T) {
	needSandbox(t)
	botDir := t.TempDir()
	if err := os.Chmod(botDir, 0o755); err != nil {
		t.Fatal(err)
	}
	hidden, outsideFile := arenaFiles(t, botDir)

	opp, oppPids := opponent(t)
	b := sandboxed(shBot(t, ""), Sandbox{Hide: []string{hidden}})
	b.Dir = botDir
	got := hostileAttempts(t, b, oppPids, []string{hidden, outsideFile}, "9")
	t.Logf("sandboxed: %v", got)
	if len(got) < 20 {
		t.Fatalf("only %d attempts reported: %v", len(got), got)
	}
	for k, v := range got {
		if v != "denied" {
			t.Errorf("sandboxed bot: %s succeeded", k)
		}
	}
	// The opponent lives on, untouched.
	if r := exchange(t, opp, "req still-there", 10*time.Second); r.Line == "" {
		t.Error("opponent did not answer")
	}
	if opp.ExitStatus() != "" {
		t.Errorf("opponent exited: %s", opp.ExitStatus())
	}

	// Control: the same attempts without a sandbox (signals only probed).
	c := shBot(t, "")
	c.Dir = botDir
	ctl := hostileAttempts(t, c, oppPids, []string{hidden, outsideFile}, "0")
	t.Logf("unsandboxed: %v", ctl)
	var okCount int
	for _, k := range []string{"read-arena.db", "read-deals.log", "tcp", "write-outside", fmt.Sprintf("cmdline-%d", os.Getpid())} {
		if ctl[k] == "ok" {
			okCount++
		}
	}
	if okCount < 4 {
		t.Errorf("unsandboxed control: expected most attempts to succeed, got %v", ctl)
	}
}

// TestSandbox_View: what a sandboxed bot sees: user nobody, no capabilities, no_new_privs, its
// own processes only, a private writable /tmp, a read-only working directory, the paths it is
// granted and the files its command line names, only the four devices, the configured
// environment, and no host directories it was not given.
func TestSandbox_View(t *testing.T) {
	needSandbox(t)
	botDir := t.TempDir()
	if err := os.Chmod(botDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(botDir, "book.txt"), []byte("opening book\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	extra := t.TempDir()
	if err := os.Chmod(extra, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(extra, "weights"), []byte("w\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `read -r _
id=$(id -u):$(id -g)
caps=$(grep CapEff /proc/self/status | tr -d '[:space:]')
nnp=$(grep NoNewPrivs /proc/self/status | tr -d '[:space:]')
procs=$(ls /proc | grep -c '^[0-9]')
devs=$(ls /dev | tr '\n' ,)
book=$(cat book.txt | tr ' ' _)
weights=$(cat ` + extra + `/weights)
named=$(cat "$1")
echo x > /tmp/t && tmp=ok || tmp=no
touch ./new 2>/dev/null && own=writable || own=readonly
env=$(env | grep -v '^_=' | grep -v '^PWD=' | grep -v '^SHLVL=' | sort | tr '\n' ,)
ls /home >/dev/null 2>&1 && home=yes || home=no
hn=$(uname -n)
echo "ans id=$id $caps $nnp procs=$procs devs=$devs book=$book weights=$weights named=$named tmp=$tmp own=$own home=$home host=$hn env=$env"
read -r _`
	// A file named on the command line is readable (with its directory).
	argDir := t.TempDir()
	if err := os.Chmod(argDir, 0o755); err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(argDir, "model.bin")
	if err := os.WriteFile(named, []byte("model\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := sandboxed(shBot(t, script), Sandbox{ReadOnly: []string{extra}})
	b.Argv[0] = "/bin/bash"
	b.Argv = append(b.Argv, named)
	b.Dir = botDir
	b.Env = []string{"PATH=/usr/bin:/bin", "BOTPROC_MARK=" + b.mark, "LEVEL=2"}
	p := mustStart(t, b)
	line := exchange(t, p, "req view", 30*time.Second).Line
	want := []string{
		fmt.Sprintf("id=%d:%d", SandboxUID, SandboxGID), "CapEff:0000000000000000", "NoNewPrivs:1",
		"devs=fd,null,random,stderr,stdin,stdout,urandom,zero,", "book=opening_book", "weights=w", "named=model",
		"tmp=ok", "own=readonly", "home=no",
		"env=BOTPROC_MARK=" + b.mark + ",LEVEL=2,PATH=/usr/bin:/bin,",
	}
	for _, w := range want {
		if !strings.Contains(line, " "+w) {
			t.Errorf("sandbox view: want %q in %q", w, line)
		}
	}
	if h, _ := os.Hostname(); strings.Contains(line, "host="+h+" ") {
		t.Errorf("the bot sees the host's name: %q", line)
	}
	// Its processes: the sandbox's init, the shell, and what the shell runs for ls: at most 6.
	procs := strings.TrimPrefix(fieldWith(line, "procs="), "procs=")
	if n, err := strconv.Atoi(procs); err != nil || n > 6 {
		t.Errorf("the bot sees %s processes, want only its own: %q", procs, line)
	}
}

// fieldWith returns the first space-separated field of line that starts with prefix.
func fieldWith(line, prefix string) string {
	for _, f := range strings.Fields(line) {
		if strings.HasPrefix(f, prefix) {
			return f
		}
	}
	return ""
}

// TestSandbox_HideLater: a file the arena creates in the bot's directory after the bot
// started is not visible either; the bot's view of a directory holding a hidden file is
// fixed at start.
func TestSandbox_HideLater(t *testing.T) {
	needSandbox(t)
	botDir := t.TempDir()
	if err := os.Chmod(botDir, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(botDir, "arena.db")
	if err := os.WriteFile(db, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	b := sandboxed(shBot(t, `while read -r req; do set -- $req; if [ -e "$2" ]; then echo "ans seen"; else echo "ans absent"; fi; done`),
		Sandbox{Hide: []string{db, db + ".standings.json"}})
	b.Dir = botDir
	p := mustStart(t, b)
	if r := exchange(t, p, "req "+db, 30*time.Second); r.Line != "ans absent" {
		t.Errorf("hidden file: %q", r.Line)
	}
	snap := db + ".standings.json"
	if err := os.WriteFile(snap+".tmp", []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(snap+".tmp", snap); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{snap, filepath.Join(botDir, "later.txt")} {
		if f != snap {
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if r := exchange(t, p, "req "+f, 10*time.Second); r.Line != "ans absent" {
			t.Errorf("%s, created after the bot started: %q", filepath.Base(f), r.Line)
		}
	}
}

// TestSandbox_EntryGoneBeforeStart: the entries of a directory that holds a hidden file are
// listed when the sandbox is planned; one that another process removes before bwrap mounts it
// (another shard's database copy, another bot's directory) is left out, and the bot starts.
func TestSandbox_EntryGoneBeforeStart(t *testing.T) {
	needSandbox(t)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "arena.db")
	gone, goneDir, kept := filepath.Join(dir, "other.db.copy"), filepath.Join(dir, "botproc-x"), filepath.Join(dir, "kept.txt")
	for _, f := range []string{db, gone, kept} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(goneDir, 0o755); err != nil {
		t.Fatal(err)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("test -e %s && test ! -e %s && test ! -e %s && test ! -e %s", kept, gone, goneDir, db)
	sb := sandboxes()
	plan, err := sb.plan(Spec{Argv: []string{sh, "-c", script}, Dir: dir, Sandbox: &Sandbox{Hide: []string{db}}},
		dir, sh, []string{"PATH=/usr/bin:/bin"}, procPaths{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(goneDir); err != nil {
		t.Fatal(err)
	}
	files, err := plan.files()
	if err != nil {
		t.Fatal(err)
	}
	defer closeFiles(files)
	cmd := exec.Command(sb.bwrap, plan.bwrapArgs()...)
	cmd.ExtraFiles = files
	cmd.Env = []string{}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the sandbox did not start, or showed what it must not, after two listed entries went: %v: %s", err, out)
	}
}

// TestSandbox_Limits: a memory bomb is a MemoryLimit fault and a fork bomb gets no more than
// PidsMax processes, with the limits the arena uses by default.
func TestSandbox_Limits(t *testing.T) {
	needSandbox(t)
	s := cgroups()
	if s.v2Parent == "" || (!s.v2Memory && s.v1Memory == nil) || (!s.v2Pids && s.v1Pids == nil) {
		t.Skipf("no memory and pids cgroup controllers here: %s", Limits())
	}
	t.Run("memory", func(t *testing.T) {
		b := sandboxed(pyBot(t, pyReady+"sys.stdin.readline()\nx = bytearray(2 << 30)\nprint('ans survived')\n"), Sandbox{})
		b.MemoryMax, b.PidsMax = 1<<30, 256
		p := mustStart(t, b)
		ready(t, p)
		_, err := p.Exchange([]byte("req bomb\n"), true, 30*time.Second)
		wantFault(t, err, referee.FaultMemory)
	})
	t.Run("fork", func(t *testing.T) {
		b := sandboxed(pyBot(t, pyReady+`import os
sys.stdin.readline()
n = 0
for i in range(400):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    n += 1
print('ans', n)
sys.stdin.readline()
`), Sandbox{})
		b.MemoryMax, b.PidsMax = 1<<30, 256
		p := mustStart(t, b)
		ready(t, p)
		r := exchange(t, p, "req bomb", 60*time.Second)
		n, err := strconv.Atoi(strings.TrimPrefix(r.Line, "ans "))
		if err != nil || n >= 256 || n < 100 {
			t.Errorf("fork bomb: %q forks, want fewer than 256 (and the bomb to have run)", r.Line)
		}
	})
}

// TestSandbox_StartFailures: a missing program is the bot's StartFailed fault, as without a
// sandbox.
func TestSandbox_StartFailures(t *testing.T) {
	needSandbox(t)
	b := sandboxed(shBot(t, ""), Sandbox{})
	b.Argv = []string{"no-such-program-here"}
	_, err := Start(context.Background(), b.Spec, testLog(t))
	wantFault(t, err, referee.FaultStart)
}

// TestSandbox_RelativePaths: a working directory and program given relative to the current
// directory (as a league file in the current directory gives them) are made absolute.
func TestSandbox_RelativePaths(t *testing.T) {
	needSandbox(t)
	done := make(chan error, 1)
	go func() {
		_, err := CheckSandbox(Spec{Argv: []string{"./sandbox_test.go"}, Dir: ".", Sandbox: &Sandbox{}})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a program that is not executable passed the check")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("CheckSandbox with a relative directory did not return")
	}
	b := sandboxed(shBot(t, `read -r _; echo "ans $(pwd)"; read -r _`), Sandbox{})
	b.Dir = "."
	p := mustStart(t, b)
	wd, _ := os.Getwd()
	if r := exchange(t, p, "req pwd", 30*time.Second); r.Line != "ans "+wd {
		t.Errorf("working directory %q, want %q", r.Line, "ans "+wd)
	}
}

// TestSandbox_ExitBeforeWriting: a sandboxed bot that exits before its first line is told
// as that, with its exit status: no process of it is left (the arena's own writer held its
// stdout FIFO open), so the leftover-process message would send its author looking for one.
func TestSandbox_ExitBeforeWriting(t *testing.T) {
	needSandbox(t)
	b := sandboxed(shBot(t, "exit 3"), Sandbox{})
	p := mustStart(t, b)
	_, err := p.Exchange([]byte("req x\n"), true, 20*time.Second)
	f := wantFault(t, err, referee.FaultCrash, "exited without writing a line", "exit status 3")
	if strings.Contains(f.Detail, "leftover") {
		t.Errorf("fault %q speaks of a leftover process", f.Detail)
	}
}

// TestSandbox_WholeSystem: a working directory, program directory or read-only path that is
// / (an arena started in / runs a bot given as a command there) is refused before the bot
// starts, each named with what to do; bubblewrap could not build the sandbox anyway.
func TestSandbox_WholeSystem(t *testing.T) {
	needSandbox(t)
	for _, c := range []struct {
		spec Spec
		want []string
	}{
		{Spec{Argv: []string{"/bin/sh"}, Dir: "/"}, []string{"working directory /", "run the arena from another directory"}},
		{Spec{Argv: []string{"/bin/sh"}, Dir: t.TempDir(), Sandbox: &Sandbox{ReadOnly: []string{"/"}}}, []string{"read_only path /"}},
	} {
		if c.spec.Sandbox == nil {
			c.spec.Sandbox = &Sandbox{}
		}
		_, err := CheckSandbox(c.spec)
		if err == nil {
			t.Errorf("%+v: passed the check", c.spec)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: %v, want it to say %q", c.spec, err, w)
			}
		}
	}
}

// TestSandbox_HomeNote: the check notes a working directory that is, or holds, the arena
// user's home directory, which the bot may read; another directory gets no note.
func TestSandbox_HomeNote(t *testing.T) {
	needSandbox(t)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	for d, want := range map[string]string{home: "is your home directory", dir: "holds your home directory " + home, t.TempDir(): ""} {
		note, err := CheckSandbox(Spec{Argv: []string{"/bin/sh"}, Dir: d, Sandbox: &Sandbox{}})
		switch {
		case err != nil:
			t.Errorf("%s: %v", d, err)
		case want == "" && strings.Contains(note, "home directory"):
			t.Errorf("%s: note %q", d, note)
		case want != "" && !strings.Contains(note, want):
			t.Errorf("%s: note %q, want it to say %q", d, note, want)
		}
	}
}

// TestSandbox_ClosedStdio: a sandboxed bot that closes its stdout, or its stdin, and lives on
// is seen to at once (a Crash, not a Timeout): the sandbox's own processes hold neither.
func TestSandbox_ClosedStdio(t *testing.T) {
	needSandbox(t)
	for _, tc := range []struct{ name, script, second string }{
		{"stdout", `read -r _; echo "ans ready"; read -r _; exec >&-; sleep 30`, "req next"},
		{"stdin", `read -r _; echo "ans ready"; exec <&-; sleep 30`, "req next"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustStart(t, sandboxed(shBot(t, tc.script), Sandbox{}))
			ready(t, p)
			if tc.name == "stdin" {
				time.Sleep(200 * time.Millisecond) // let it close stdin
			}
			start := time.Now()
			_, err := p.Exchange([]byte(tc.second+"\n"), true, 20*time.Second)
			wantFault(t, err, referee.FaultCrash)
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("the closed %s was noticed after %v", tc.name, took)
			}
		})
	}
}

// TestSandbox_PrivateFiles: as root, a bot whose directory is private to the arena's user
// (a 0700 checkout) is not refused: CheckSandbox says so and how to open it, and the bot runs
// as the arena's user inside a user namespace, confined as ever.
func TestSandbox_PrivateFiles(t *testing.T) {
	needSandbox(t)
	if os.Geteuid() != 0 {
		t.Skip("not root: every bot runs as the arena's user in a user namespace already")
	}
	botDir := t.TempDir()
	if err := os.Chmod(botDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(botDir, "book.txt"), []byte("private book\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hidden, outsideFile := arenaFiles(t, botDir)
	b := sandboxed(shBot(t, ""), Sandbox{Hide: []string{hidden}})
	b.Dir = botDir
	note, err := CheckSandbox(b.Spec)
	if err != nil || !strings.Contains(note, "chmod o+rx") || !strings.Contains(note, "user namespace") {
		t.Fatalf("CheckSandbox: note %q, error %v", note, err)
	}
	_, oppPids := opponent(t)
	got := hostileAttempts(t, b, oppPids, []string{hidden, outsideFile}, "9")
	for k, v := range got {
		if v != "denied" {
			t.Errorf("sandboxed bot with private files: %s succeeded", k)
		}
	}
	v := sandboxed(shBot(t, `read -r _; echo "ans $(id -u) $(cat book.txt)"; read -r _`), Sandbox{})
	v.Dir = botDir
	p := mustStart(t, v)
	if r := exchange(t, p, "req x", 30*time.Second); r.Line != fmt.Sprintf("ans %d private book", SandboxUID) {
		t.Errorf("bot with private files: %q", r.Line)
	}
}

// unprivilegedEnv marks the run of this test binary under an ordinary user id.
const unprivilegedEnv = "BOTPROC_UNPRIVILEGED_RUN"

// TestSandbox_Unprivileged runs the sandbox tests again as an ordinary user (uid
// SandboxUID), where bubblewrap uses an unprivileged user namespace instead of root.
func TestSandbox_Unprivileged(t *testing.T) {
	if os.Getenv(unprivilegedEnv) != "" {
		t.Skip("already the unprivileged run")
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: this run is the unprivileged one already (the sandbox tests above ran as this user)")
	}
	needSandbox(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "botproc-unprivileged-*") // not t.TempDir: its parent is 0700
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyExe := filepath.Join(dir, "botproc.test")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copyExe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, SandboxUID, SandboxGID); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, copyExe, "-test.run", "^TestSandbox_(Hostile|View|HideLater|StartFailures|Scratch)$", "-test.v")
	cmd.Dir = home
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + home, unprivilegedEnv + "=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: SandboxUID, Gid: SandboxGID}}
	out, err := cmd.CombinedOutput()
	t.Logf("as uid %d:\n%s", SandboxUID, out)
	if err != nil {
		t.Fatalf("sandbox tests as an ordinary user: %v", err)
	}
	for _, name := range []string{"TestSandbox_Hostile", "TestSandbox_View", "TestSandbox_HideLater", "TestSandbox_Scratch"} {
		if !slices.Contains(strings.Fields(string(out)), name) || strings.Contains(string(out), "--- SKIP: "+name) {
			t.Errorf("%s did not run as an ordinary user", name)
		}
	}
}

// TestSandbox_EndsAtOnce: sandboxed bots that end as soon as their program runs start (their
// exit is the handshake's business) and leave nothing behind; run with -race, the wait for the
// sandbox's ready byte, which the exit cuts short, shares nothing unguarded with Start.
func TestSandbox_EndsAtOnce(t *testing.T) {
	needSandbox(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				b := sandboxed(shBot(t, `exit 0`), Sandbox{})
				p, err := Start(context.Background(), b.Spec, testLog(t))
				if err != nil {
					t.Errorf("Start: %v", err)
					return
				}
				if _, err := p.Exchange([]byte("req ready\n"), true, 20*time.Second); err == nil {
					t.Error("a bot that ended at once answered")
				}
				if err := p.Stop(100 * time.Millisecond); err != nil {
					t.Errorf("Stop: %v", err)
				}
				assertGone(t, b.mark)
			}
		}()
	}
	wg.Wait()
}

package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/botdef"
	"github.com/klaverjas-arena/arena/arena/check"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/botproc"
)

// cheatBot plays its first legal choice like hostileBot, but at its first play request it
// first tries to cheat: it waits for the test to write targets/pids (the arena's pid and its
// opponents' host pids, the port of a listener on 127.0.0.1 and a world-writable directory)
// and targets/files (the arena's files), then tries everything on them and reports each
// attempt on stderr as "attack NAME=ok|denied". With the argument "honest" it does not.
const cheatBot = `#!/usr/bin/env bash
dir=$(dirname "$0")
attack() {
  for i in $(seq 200); do [ -s "$dir/targets/files" ] && break; sleep 0.05; done
  read -r arena port outside opp < "$dir/targets/pids"
  try() { name=$1; shift; if "$@" </dev/null >/dev/null 2>&1; then echo "attack $name=ok" >&2; else echo "attack $name=denied" >&2; fi; }
  for pid in $arena ${opp//,/ }; do
    try mem-$pid head -c 1 /proc/$pid/mem
    try environ-$pid head -c 1 /proc/$pid/environ
    try cmdline-$pid test -s /proc/$pid/cmdline
    try fd-$pid ls /proc/$pid/fd/0
    try ptrace-$pid python3 -c "import ctypes,sys; l=ctypes.CDLL(None); sys.exit(0 if l.ptrace(0x4206, $pid, 0, 0)==0 else 1)"
  done
  for pid in ${opp//,/ } $arena; do try kill-$pid kill -9 $pid; done
  while read -r f; do
    try read-$(basename "$f") head -c 1 "$f"
    try write-$(basename "$f") sh -c "echo forged >> '$f'"
  done < "$dir/targets/files"
  try tcp bash -c "exec 3<>/dev/tcp/127.0.0.1/$port"
  try write-outside touch "$outside/cheat-was-here"
  try tty sh -c 'echo hello > /dev/tty'
  echo "attack done" >&2
}
n=0
while read -r kind rest; do
  set -- $rest
  case $kind in
    klaverjas) echo "hello 1 cheat tests" ;;
    rules) echo ok ;;
    bid) shift 2; echo "$1" ;;
    play)
      n=$((n+1))
      if [ $n -eq 1 ] && [ "$CHEAT" != honest ]; then attack; fi
      shift 5; echo "$1" ;;
    claim) echo 0 ;;
    quit) exit 0 ;;
  esac
done
`

// cheatSetup writes the cheating bot into a directory of its own (with targets/) and an
// honest opponent into another, and a bots file naming them, with the cheater's stderr kept
// in out. It returns the bot directory and the bots file.
func cheatSetup(t *testing.T, out string, honest bool) (dir, bots string) {
	t.Helper()
	dir, goodDir := botDir(t), botDir(t)
	if err := os.Mkdir(filepath.Join(dir, "targets"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cheat.sh"), []byte(cheatBot), 0o755); err != nil {
		t.Fatal(err)
	}
	good := writeBot(t, goodDir, "good", ":", "echo ok")
	mode := "cheat"
	if honest {
		mode = "honest"
	}
	bots = filepath.Join(out, "bots.toml")
	text := fmt.Sprintf(`[[bot]]
name = "cheat"
cmd = ["bash", "cheat.sh"]
dir = %q
env = { CHEAT = %q }
stderr = %q

[[bot]]
name = "good"
cmd = ["bash", %q]
dir = %q
`, dir, mode, filepath.Join(out, "cheat.stderr"), good, goodDir)
	if err := os.WriteFile(bots, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, bots
}

// aim writes the targets once the opponent's processes (found by its directory in their
// command lines) run: the arena's pid, a listener's port, a world-writable directory, the
// opponent's pids and the files to attack. It returns a function that waits for it.
func aim(t *testing.T, dir, goodMarker string, files []string) func() {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
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
	done := make(chan struct{})
	go func() {
		defer close(done)
		pidRE := regexp.MustCompile(`^/proc/(\d+):`)
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			var pids []string
			for _, s := range survivors(goodMarker) {
				if m := pidRE.FindStringSubmatch(s); m != nil {
					pids = append(pids, m[1])
				}
			}
			if len(pids) == 0 {
				continue
			}
			line := fmt.Sprintf("%d %d %s %s\n", os.Getpid(), ln.Addr().(*net.TCPAddr).Port, outside, strings.Join(pids, ","))
			_ = os.WriteFile(filepath.Join(dir, "targets", "pids"), []byte(line), 0o644)
			_ = os.WriteFile(filepath.Join(dir, "targets", "files"), []byte(strings.Join(files, "\n")+"\n"), 0o644)
			return
		}
	}()
	return func() {
		<-done
		if _, err := os.Stat(filepath.Join(outside, "cheat-was-here")); err == nil {
			t.Error("the cheating bot wrote outside its directory")
		}
	}
}

// attacks reads the cheating bot's report from its stderr file and checks that every attempt
// was denied and that all of them were made.
func attacks(t *testing.T, stderrFile string, want int) {
	t.Helper()
	data, err := os.ReadFile(stderrFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the cheating bot's report:\n%s", data)
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(line, "attack ")
		if !ok || rest == "done" {
			continue
		}
		n++
		if !strings.HasSuffix(rest, "=denied") {
			t.Errorf("the cheating bot succeeded: %s", rest)
		}
	}
	if n < want || !strings.Contains(string(data), "attack done") {
		t.Errorf("the cheating bot made %d attempts (want at least %d):\n%s", n, want, data)
	}
}

// TestSandboxCheatingBotMatch: in arena match, a bot that tries to read the memory,
// environment, command line and descriptors of the arena and of its opponents, ptrace and
// kill them, read and forge the log and trace, connect to 127.0.0.1, write outside its
// directory and open the terminal gets nowhere, and the match is exactly the one it plays
// honestly: nobody faults, the opponents' results are unchanged.
func TestSandboxCheatingBotMatch(t *testing.T) {
	if err := botproc.SandboxError(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	play := func(honest bool) (referee.Result, string, []byte) {
		out := botDir(t)
		dir, bots := cheatSetup(t, out, honest)
		logFile := filepath.Join(dir, "deals.jsonl") // in the bot's own directory: hidden from it
		trace := filepath.Join(out, "trace.txt")
		wait := aim(t, dir, filepath.Dir(mustLookup(t, bots, "good")), []string{logFile, trace, filepath.Join(out, "cheat.stderr"), bots})
		stdout, errOut, err := runArena(t, "match", "cheat", "good", "--bots", bots, "--games", "1", "-o", "game_end=deals:2",
			"--time", "30s", "--seed", "11", "--json", "--log", logFile, "--trace", trace)
		if err != nil {
			t.Fatalf("arena: %v\n%s", err, errOut)
		}
		if !honest {
			wait()
		}
		var res referee.Result
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatalf("result: %v\n%s", err, stdout)
		}
		log, err := os.ReadFile(logFile)
		if err != nil {
			t.Fatal(err)
		}
		return res, filepath.Join(out, "cheat.stderr"), log
	}
	cheat, stderrFile, log := play(false)
	attacks(t, stderrFile, 20)
	honest, _, honestLog := play(true)
	for i, b := range cheat.Bots {
		if len(b.Faults) > 0 {
			t.Errorf("seat %d (%s) faulted: %v", i, b.Name, b.Faults)
		}
	}
	for s := range cheat.Sides {
		if cheat.Sides[s].Points != honest.Sides[s].Points || cheat.Sides[s].Forfeits != 0 {
			t.Errorf("side %d: %d points (%d forfeits) with the cheater, %d when it plays honestly", s,
				cheat.Sides[s].Points, cheat.Sides[s].Forfeits, honest.Sides[s].Points)
		}
	}
	if strings.Contains(string(log), "forged") || len(strings.Split(string(log), "\n")) != len(strings.Split(string(honestLog), "\n")) {
		t.Error("the log differs from the honest match's")
	}
}

// mustLookup returns the program argument of a bot in a bots file (its script).
func mustLookup(t *testing.T, bots, name string) string {
	t.Helper()
	m, err := botdef.Load(bots)
	if err != nil {
		t.Fatal(err)
	}
	return m[name].Cmd[len(m[name].Cmd)-1]
}

// TestSandboxCheatingBotLeague: in a league, the cheating bot cannot read or write the
// database, its standings snapshot or the league file, nor hurt the arena or its opponent:
// the league finishes with every deal stored and verified, and no faults.
func TestSandboxCheatingBotLeague(t *testing.T) {
	if err := botproc.SandboxError(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	out := botDir(t)
	dir, bots := cheatSetup(t, out, false)
	m, err := botdef.Load(bots)
	if err != nil {
		t.Fatal(err)
	}
	leagueFile := filepath.Join(dir, "cheat.toml") // in the bot's own directory: hidden from it
	db := filepath.Join(dir, "arena.db")
	var entries []string
	for _, name := range []string{"cheat", "good"} {
		b := m[name]
		cmd, _ := json.Marshal(b.Cmd)
		env := ""
		if name == "cheat" {
			env = "env = { CHEAT = \"cheat\" }\nstderr = " + strconv.Quote(b.Stderr) + "\n"
		}
		entries = append(entries, fmt.Sprintf("[[bot]]\nname = %q\ncmd = %s\ndir = %q\n%s", name, cmd, b.Dir, env))
	}
	text := "games = 2\nseed = 5\nconcurrency = 1\n[rules]\ngame_end = \"deals:2\"\n[time]\ndecision = \"30s\"\n\n" + strings.Join(entries, "\n")
	if err := os.WriteFile(leagueFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	wait := aim(t, dir, filepath.Dir(mustLookup(t, bots, "good")),
		[]string{db, snapshotPath(db), db + ".holder", leagueFile, m["cheat"].Stderr})
	if _, errOut, err := runArena(t, "league", leagueFile, "--db", db); err != nil {
		t.Fatalf("league: %v\n%s", err, errOut)
	}
	wait()
	attacks(t, m["cheat"].Stderr, 20)
	sdb, err := store.Open(db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	totals, err := sdb.Totals("cheat")
	if err != nil {
		t.Fatal(err)
	}
	if len(totals.Bots) != 2 || totals.Deals == 0 {
		t.Errorf("league totals: %d bots, %d deals", len(totals.Bots), totals.Deals)
	}
	for _, b := range totals.Bots {
		if len(b.Faults) > 0 {
			t.Errorf("%s faulted: %v", b.Name, b.Faults)
		}
	}
}

// TestSandboxBombs: under the default limits (1 GiB, 256 processes) a memory bomb is a
// memory_limit fault and a fork bomb at most costs its own side; the opponents play on.
func TestSandboxBombs(t *testing.T) {
	if err := botproc.SandboxError(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	if !strings.Contains(botproc.Limits(), "memory.max") || !strings.Contains(botproc.Limits(), "pids.max") {
		t.Skipf("no memory and pids limits on this machine: %s", botproc.Limits())
	}
	for _, tc := range []struct {
		name, bomb, time string
		kind             referee.FaultKind
	}{
		// Filling 1 GiB takes a second of CPU time, much more on a loaded machine: the
		// decision time is long enough that the memory limit, not the clock, ends the bomb.
		{"memory", `exec python3 -c 'x = bytearray(2 << 30); print(len(x))'`, "60s", referee.FaultMemory},
		{"fork", `for i in $(seq 400); do (sleep 60) & done 2>/dev/null; sleep 60`, "3s", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := botDir(t)
			bad := writeBot(t, dir, "bad", tc.bomb, "echo ok")
			good := writeBot(t, botDir(t), "good", ":", "echo ok")
			out, errOut, err := runArena(t, "match", "bash "+bad, "bash "+good, "--games", "1", "--duplicate=false",
				"-o", "game_end=deals:2", "--time", tc.time, "--seed", "3", "--json")
			if err != nil {
				t.Fatalf("arena: %v\n%s", err, errOut)
			}
			var res referee.Result
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("result: %v\n%s", err, out)
			}
			if len(res.Games) != 1 || res.Games[0].Deals != 2 {
				t.Fatalf("match did not finish: %+v", res.Games)
			}
			for _, s := range []int{1, 3} {
				if len(res.Bots[s].Faults) > 0 {
					t.Errorf("the opponent at seat %d faulted: %v", s, res.Bots[s].Faults)
				}
			}
			if res.Sides[1].Forfeits != 0 || res.Sides[0].Forfeits == 0 {
				t.Errorf("forfeits %d/%d: want the bomb's side only", res.Sides[0].Forfeits, res.Sides[1].Forfeits)
			}
			if tc.kind != "" && res.Bots[0].Faults[tc.kind]+res.Bots[2].Faults[tc.kind] == 0 {
				t.Errorf("faults %v %v: want %s", res.Bots[0].Faults, res.Bots[2].Faults, tc.kind)
			}
			deadline := time.Now().Add(5 * time.Second)
			for len(survivors(dir)) > 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if s := survivors(dir); len(s) > 0 {
				t.Errorf("%d bomb processes survived the match", len(s))
			}
		})
	}
}

// TestCheckSandboxItem: arena check runs the bot in its sandbox and lists what the bot's
// stderr says was refused; a bot that keeps to its rights passes the item.
func TestCheckSandboxItem(t *testing.T) {
	if err := botproc.SandboxError(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, cmd string
		status    check.Status
		got       string
	}{
		{"keeps-to-its-rights", "exec bash examplebots/shell/random.sh", check.Pass, ""},
		{"writes-the-system", "touch /usr/share/cheat; exec bash examplebots/shell/random.sh", check.Warn, "/usr/share/cheat"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := botDir(t)
			bots := filepath.Join(dir, "bots.toml")
			text := fmt.Sprintf("[[bot]]\nname = %q\ncmd = [\"bash\", \"-c\", %q]\ndir = %q\nstderr = %q\n",
				tc.name, tc.cmd, root, filepath.Join(dir, "stderr.txt"))
			if err := os.WriteFile(bots, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out, errOut, err := runArena(t, "check", tc.name, "--bots", bots, "--json")
			var rep check.Report
			if jerr := json.Unmarshal([]byte(out), &rep); jerr != nil {
				t.Fatalf("check: %v %v\n%s\n%s", err, jerr, out, errOut)
			}
			for _, it := range rep.Items {
				if it.Name != "sandbox" {
					continue
				}
				if it.Status != tc.status || !strings.Contains(it.Got, tc.got) {
					t.Errorf("sandbox item %+v, want %s with %q", it, tc.status, tc.got)
				}
				return
			}
			t.Errorf("no sandbox item in the report: %s", out)
		})
	}
}

// TestSandboxScratchOfOtherBots: a bot's scratch directory is private to that bot's
// processes even where it lies in a directory another bot may read (that bot's working
// directory here): every sandboxed bot is the same user, so without hiding the other bot's
// scratch directory the reader would read the writer's hands from its debug log as they are
// dealt.
func TestSandboxScratchOfOtherBots(t *testing.T) {
	if err := botproc.SandboxError(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	dir := botDir(t) // the reader's working directory, holding the writer's directory and scratch
	scratch, wdir := filepath.Join(dir, "scratch"), filepath.Join(dir, "w")
	for _, d := range []string{scratch, wdir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const play = `
    klaverjas) echo "hello 1 NAME tests" ;;
    rules) echo ok ;;
    bid) shift 2; echo "$1" ;;
    play) PLAY; shift 5; echo "$1" ;;
    claim) echo 0 ;;
    quit) exit 0 ;;
  esac
done
`
	writer := `#!/usr/bin/env bash
while read -r kind rest; do
  set -- $rest
  case $kind in
    dealt) echo "hand $3" >> "$SCRATCH/debug.log" ;;` + strings.NewReplacer("NAME", "writer", "PLAY", ":").Replace(play)
	reader := `#!/usr/bin/env bash
while read -r kind rest; do
  set -- $rest
  case $kind in` + strings.NewReplacer("NAME", "reader", "PLAY", `for f in scratch/*/debug.log; do [ -r "$f" ] && echo "seen $(cat "$f")" >&2; done`).Replace(play)
	for name, script := range map[string]string{filepath.Join(wdir, "writer.sh"): writer, filepath.Join(dir, "reader.sh"): reader} {
		if err := os.WriteFile(name, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stderr := filepath.Join(t.TempDir(), "reader.stderr")
	bots := filepath.Join(t.TempDir(), "bots.toml")
	if err := os.WriteFile(bots, fmt.Appendf(nil, `[[bot]]
name = "writer"
cmd = ["bash", "writer.sh"]
dir = %q
env = { PATH = "/usr/bin:/bin", SCRATCH = %q }
scratch = %q

[[bot]]
name = "reader"
cmd = ["bash", "reader.sh"]
dir = %q
stderr = %q
`, wdir, scratch, scratch, dir, stderr), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, err := runArena(t, "match", "--bots", bots, "writer", "reader", "--games", "1", "--duplicate=false",
		"-o", "game_end=deals:2", "--seed", "3", "--quiet"); err != nil {
		t.Fatalf("arena: %v\n%s", err, errOut)
	}
	logs, _ := filepath.Glob(filepath.Join(scratch, "*", "debug.log"))
	if len(logs) == 0 {
		t.Fatal("the writer wrote no debug log in its scratch directory")
	}
	if b, err := os.ReadFile(stderr); err != nil {
		t.Fatal(err)
	} else if strings.Contains(string(b), "seen hand") {
		t.Errorf("the reader read the writer's scratch directory:\n%s", b)
	}
}

// TestSandboxScratchSize: a bot entry's scratch_size makes each process's scratch directory a
// file system of its own of that size: a bot that writes 20 MB there at its start gets "no
// space" at 8 MiB, plays on, and after the match the scratch directory holds one image for
// each process, with what the bot wrote. Too small a size, or one without scratch, is
// refused before any bot starts, each problem named; a scratch directory without a size gets
// a note saying what it leaves open.
func TestSandboxScratchSize(t *testing.T) {
	if err := botproc.SandboxError(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	dir := botDir(t)
	scratch := filepath.Join(dir, "scratch")
	if err := os.Mkdir(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	script := `#!/usr/bin/env bash
if head -c 20000000 /dev/zero 2>&1 > "$SCRATCH/fill" | grep -q "No space"; then rm -f "$SCRATCH/fill"; echo full > "$SCRATCH/result"; else echo room > "$SCRATCH/result"; fi
` + strings.Replace(hostileBot[len("#!/usr/bin/env bash\n"):], "BOTNAME", "filler", 1)
	script = strings.NewReplacer("MISBEHAVE", ":", "RULES_ANSWER", "echo ok").Replace(script)
	if err := os.WriteFile(filepath.Join(dir, "filler.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	good := writeBot(t, botDir(t), "good", ":", "echo ok")
	entry := func(extra string) string {
		bots := filepath.Join(t.TempDir(), "bots.toml")
		if err := os.WriteFile(bots, fmt.Appendf(nil, "[[bot]]\nname = \"filler\"\ncmd = [\"bash\", \"filler.sh\"]\ndir = %q\nenv = { PATH = \"/usr/bin:/bin\", SCRATCH = %q }\n%s\n",
			dir, scratch, extra), 0o644); err != nil {
			t.Fatal(err)
		}
		return bots
	}
	match := func(bots string) (string, error) {
		_, errOut, err := runArena(t, "match", "--bots", bots, "filler", "bash "+good, "--games", "1", "--duplicate=false",
			"-o", "game_end=deals:2", "--seed", "3")
		return errOut, err
	}
	for extra, want := range map[string][]string{
		`scratch_size = "8MiB"`:                         {"scratch_size = 8.0 MiB without scratch"},
		"scratch = \"nosuch\"\nscratch_size = \"1MiB\"": {"scratch_size = 1.0 MiB: at least 4MiB", "nosuch\": not a directory"},
		"open_files = 8":                                {"open_files = 8: at least 16"},
		"open_files = 100000000":                        {"open_files = 100000000: at most", "ulimit -Hn"},
		`file_size = "100KiB"`:                          {"file_size = 100 KiB: at least 1MiB"},
	} {
		errOut, err := match(entry(extra))
		if err == nil {
			t.Errorf("%q: accepted", extra)
			continue
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: %v, want it to say %q", extra, err, w)
			}
		}
		if strings.Contains(errOut, "started") {
			t.Errorf("%q: a bot started:\n%s", extra, errOut)
		}
	}
	errOut, err := match(entry(fmt.Sprintf("scratch = %q", scratch)))
	if err != nil {
		t.Fatalf("scratch without a size: %v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "no size limit") {
		t.Errorf("no note on a scratch directory without a size:\n%s", errOut)
	}
	if os.Geteuid() != 0 {
		t.Skip("scratch_size needs the arena to run as root; this test runs as uid", os.Geteuid())
	}
	sized := t.TempDir()
	if err := os.Chmod(sized, 0o755); err != nil {
		t.Fatal(err)
	}
	scratch = sized
	if errOut, err := match(entry(fmt.Sprintf("scratch = %q\nscratch_size = \"8MiB\"", scratch))); err != nil {
		t.Fatalf("scratch_size = 8MiB: %v\n%s", err, errOut)
	} else if strings.Contains(errOut, "no size limit") {
		t.Errorf("a note on a scratch directory without a size, given one:\n%s", errOut)
	}
	images, _ := filepath.Glob(filepath.Join(scratch, "*-filler-*.ext2"))
	if len(images) != 2 {
		t.Fatalf("images in the scratch directory after a match: %v, want one for each of the two processes", images)
	}
	debugfs, err := exec.LookPath("debugfs")
	if err != nil {
		t.Skip("debugfs (e2fsprogs) not found, to read the images:", err)
	}
	for _, im := range images {
		deadline := time.Now().Add(30 * time.Second)
		for {
			out, err := exec.Command(debugfs, "-R", "cat /result", im).Output()
			if err == nil && string(out) == "full\n" {
				break
			}
			if time.Now().After(deadline) { // the kernel writes the image back as the bot ends
				t.Errorf("what the bot found in %s: %q, %v, want full", im, out, err)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// TestLeagueScratchSlots: in a league at two tables with fresh processes for every match, a
// bot's scratch images are compacted at the end of each of its matches, each table on its
// own (botproc.Sandbox.ScratchGroup "league slot N"), not only when neither table runs the
// bot; every image the bot's processes made is compacted by the end.
func TestLeagueScratchSlots(t *testing.T) {
	if err := botproc.SandboxError(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	if os.Geteuid() != 0 {
		t.Skip("scratch_size needs the arena to run as root; this test runs as uid", os.Geteuid())
	}
	dir := botDir(t)
	scratch := t.TempDir()
	if err := os.Chmod(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	writer := writeBot(t, dir, "writer", `head -c 1000000 /dev/urandom > "$SCRATCH/written"`, "echo ok")
	good := writeBot(t, botDir(t), "good", ":", "echo ok")
	leagueFile := filepath.Join(t.TempDir(), "slots.toml")
	text := fmt.Sprintf(`name = "slots"
games = 12
seed = 7
concurrency = 2
keep_bots = false
[rules]
game_end = "deals:2"

[[bot]]
name = "writer"
cmd = ["bash", %q]
env = { PATH = "/usr/bin:/bin", SCRATCH = %q }
scratch = %q
scratch_size = "8MiB"

[[bot]]
name = "good"
cmd = ["bash", %q]
`, writer, scratch, scratch, good)
	if err := os.WriteFile(leagueFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runArena(t, "league", leagueFile, "--db", filepath.Join(t.TempDir(), "slots.db"), "--verbose")
	if err != nil {
		t.Fatalf("league: %v\n%s", err, errOut)
	}
	var matches int
	if _, err := fmt.Sscanf(out[strings.Index(out, "league slots: "):], "league slots: %d matches", &matches); err != nil {
		t.Fatalf("no match count in the league's output: %v\n%s", err, out)
	}
	events := map[string]int{} // compactions by scratch group
	compacted := 0
	compaction := regexp.MustCompile(`scratch images compacted.*images=(\d+).*scratch_group=("[^"]*"|\S*)`)
	for _, m := range compaction.FindAllStringSubmatch(errOut, -1) {
		n, _ := strconv.Atoi(m[1])
		group, err := strconv.Unquote(m[2])
		if err != nil {
			group = m[2]
		}
		events[group]++
		compacted += n
	}
	t.Logf("%d matches; compactions by scratch group: %v", matches, events)
	if events["league slot 0"] == 0 || events["league slot 1"] == 0 || len(events) != 2 {
		t.Errorf("compactions by scratch group %v, want some in league slot 0 and league slot 1 and no others", events)
	}
	if n := events["league slot 0"] + events["league slot 1"]; n != matches {
		t.Errorf("%d compactions in %d matches, want one as each match ends", n, matches)
	}
	images, _ := filepath.Glob(filepath.Join(scratch, "*-writer-*.ext2"))
	if len(images) == 0 || compacted != len(images) {
		t.Errorf("%d images compacted, %d made", compacted, len(images))
	}
	for _, im := range images {
		var st syscall.Stat_t
		if err := syscall.Stat(im, &st); err != nil {
			t.Fatal(err)
		}
		if n := st.Blocks * 512; n > 4<<20 {
			t.Errorf("image %s has %d bytes allocated after the league, want the zero blocks given back", im, n)
		}
	}
}

// TestSandboxTmpSize: a bot entry's tmp sets the size of the sandbox's private /tmp: a bot
// that writes 100 MB there at its start cannot start in the default 64 MiB, and plays with
// tmp = "256MiB" unless its memory limit is below 100 MB (the tmpfs is memory).
func TestSandboxTmpSize(t *testing.T) {
	if err := botproc.SandboxError(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	dir := botDir(t)
	script := `#!/usr/bin/env bash
head -c 100000000 /dev/zero > /tmp/fill || exit 3
` + strings.Replace(hostileBot[len("#!/usr/bin/env bash\n"):], "BOTNAME", "filler", 1)
	script = strings.NewReplacer("MISBEHAVE", ":", "RULES_ANSWER", "echo ok").Replace(script)
	if err := os.WriteFile(filepath.Join(dir, "filler.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	good := writeBot(t, botDir(t), "good", ":", "echo ok")
	for _, tmp := range []string{"", `tmp = "256MiB"`, "tmp = \"256MiB\"\nmemory = \"48MiB\""} {
		bots := filepath.Join(t.TempDir(), "bots.toml")
		if err := os.WriteFile(bots, fmt.Appendf(nil, "[[bot]]\nname = \"filler\"\ncmd = [\"bash\", \"filler.sh\"]\ndir = %q\n%s\n", dir, tmp), 0o644); err != nil {
			t.Fatal(err)
		}
		_, errOut, err := runArena(t, "match", "--bots", bots, "filler", "bash "+good, "--games", "1", "--duplicate=false",
			"-o", "game_end=deals:2", "--seed", "3", "--quiet")
		plays := strings.HasPrefix(tmp, "tmp") && !strings.Contains(tmp, "memory")
		if !plays && (err == nil || !strings.Contains(err.Error(), "no match played")) {
			t.Errorf("%q: the bot filled 100 MB of its /tmp: %v\n%s", tmp, err, errOut)
		}
		if strings.Contains(tmp, "memory") && (err == nil || !strings.Contains(err.Error(), "memory_limit")) {
			t.Errorf("%q: the bot filled 100 MB of its /tmp with a memory limit of 48 MiB: %v", tmp, err)
		}
		if plays && err != nil {
			t.Errorf("%s: %v\n%s", tmp, err, errOut)
		}
	}
}

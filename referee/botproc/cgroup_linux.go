package botproc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// cgroupSupport is the cgroup machinery this arena process can use, found once by detect.
type cgroupSupport struct {
	v2Parent string // bot cgroups are made here in the v2 hierarchy; "" = no cgroups at all
	v2Memory bool   // the v2 memory controller is available in bot cgroups
	v2Pids   bool   // the v2 pids controller is available in bot cgroups
	v2CPU    bool   // the v2 cpu controller can be enabled for bot cgroups (cpu.weight)
	v1Memory *v1Hierarchy
	v1Pids   *v1Hierarchy
	v1CPU    *v1Hierarchy // the v1 cpu hierarchy (cpu.shares), where v2 has no cpu controller
	notes    []string     // why something is not available

	cpuOnce sync.Once // enables the v2 cpu controller for bot cgroups, at the first demotion
	cpuErr  error
}

// v1Hierarchy is one cgroup v1 hierarchy (memory, pids or cpu) used on hybrid hosts.
type v1Hierarchy struct {
	ctrl   string // "memory", "pids" or "cpu"
	mount  string // e.g. /sys/fs/cgroup/memory
	parent string // bot cgroups are made here: mount + the arena's own path
}

var (
	detectOnce sync.Once
	detected   *cgroupSupport
	cgroupSeq  atomic.Int64
)

// cgroups returns the cgroup support of this machine, detecting it (and sweeping cgroups left
// behind by dead arenas) on first use.
func cgroups() *cgroupSupport {
	detectOnce.Do(func() {
		detected = detect()
		detected.sweepStale(os.Getpid())
		sweepTempDirs(os.Getpid())
	})
	return detected
}

const cgroupPrefix = "botproc-"

func detect() *cgroupSupport {
	s := &cgroupSupport{}
	own, err := parseProcCgroup("/proc/self/cgroup")
	if err != nil {
		s.notes = append(s.notes, err.Error())
		return s
	}
	var root string
	switch {
	case isFS("/sys/fs/cgroup", unix.CGROUP2_SUPER_MAGIC):
		root = "/sys/fs/cgroup"
	case isFS("/sys/fs/cgroup/unified", unix.CGROUP2_SUPER_MAGIC):
		root = "/sys/fs/cgroup/unified"
	default:
		s.notes = append(s.notes, "no cgroup v2 hierarchy mounted at /sys/fs/cgroup or /sys/fs/cgroup/unified")
		return s
	}
	ownV2, ok := own[""]
	if !ok {
		s.notes = append(s.notes, "the arena is in no cgroup v2 (no 0:: line in /proc/self/cgroup)")
		return s
	}
	parent := filepath.Join(root, ownV2)
	probe := filepath.Join(parent, cgroupPrefix+"probe-"+owner)
	if err := os.Mkdir(probe, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		s.notes = append(s.notes, fmt.Sprintf("cannot create cgroups under %s: %v", parent, err))
		return s
	}
	defer os.Remove(probe)
	if _, err := os.Stat(filepath.Join(probe, "cgroup.kill")); err != nil {
		s.notes = append(s.notes, "cgroup v2 has no cgroup.kill (Linux < 5.14)")
		return s
	}
	s.v2Parent = parent
	s.v2Memory = enableController(parent, probe, "memory", "memory.max")
	s.v2Pids = enableController(parent, probe, "pids", "pids.max")
	// Not enabled yet: group scheduling costs every bot's wake-ups, so only a demotion does.
	s.v2CPU = hasWord(filepath.Join(parent, "cgroup.controllers"), "cpu") && (s.v2Memory || s.v2Pids)
	if !s.v2Memory {
		s.v1Memory = findV1("memory", "memory.limit_in_bytes", own)
	}
	if !s.v2Pids {
		s.v1Pids = findV1("pids", "pids.max", own)
	}
	if !s.v2CPU {
		s.v1CPU = findV1("cpu", "cpu.shares", own)
	}
	if !s.v2Memory && s.v1Memory == nil {
		s.notes = append(s.notes, "no memory controller in cgroup v2 or v1")
	}
	if !s.v2Pids && s.v1Pids == nil {
		s.notes = append(s.notes, "no pids controller in cgroup v2 or v1")
	}
	if !s.v2CPU && s.v1CPU == nil {
		s.notes = append(s.notes, "no cpu controller in cgroup v2 or v1")
	}
	return s
}

// enableController makes ctrl available to the children of parent if parent has it, and
// reports whether the probe child now has the file that sets its limit.
func enableController(parent, probe, ctrl, file string) bool {
	if !hasWord(filepath.Join(parent, "cgroup.controllers"), ctrl) {
		return false
	}
	if !hasWord(filepath.Join(parent, "cgroup.subtree_control"), ctrl) {
		_ = os.WriteFile(filepath.Join(parent, "cgroup.subtree_control"), []byte("+"+ctrl), 0)
	}
	_, err := os.Stat(filepath.Join(probe, file))
	return err == nil
}

// findV1 returns the v1 hierarchy of ctrl if it is mounted at /sys/fs/cgroup/CTRL and the
// arena can make cgroups under its own cgroup there.
func findV1(ctrl, file string, own map[string]string) *v1Hierarchy {
	mount := filepath.Join("/sys/fs/cgroup", ctrl)
	path, ok := own[ctrl]
	if !ok || !isFS(mount, unix.CGROUP_SUPER_MAGIC) {
		return nil
	}
	h := &v1Hierarchy{ctrl: ctrl, mount: mount, parent: filepath.Join(mount, path)}
	probe := filepath.Join(h.parent, cgroupPrefix+"probe-"+owner)
	if err := os.Mkdir(probe, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil
	}
	defer os.Remove(probe)
	if _, err := os.Stat(filepath.Join(probe, file)); err != nil {
		return nil
	}
	return h
}

// parseProcCgroup reads a /proc/…/cgroup file into a map from controller name to path; the
// cgroup v2 path has the key "".
func parseProcCgroup(file string) (map[string]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	m := map[string]string{}
	for line := range strings.Lines(string(b)) {
		parts := strings.SplitN(strings.TrimSuffix(line, "\n"), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			m[""] = parts[2]
			continue
		}
		for c := range strings.SplitSeq(parts[1], ",") {
			if c != "" {
				m[c] = parts[2]
			}
		}
	}
	return m, nil
}

func isFS(path string, magic int64) bool {
	var st unix.Statfs_t
	return unix.Statfs(path, &st) == nil && int64(st.Type) == magic
}

func hasWord(file, word string) bool {
	b, err := os.ReadFile(file)
	return err == nil && slices.Contains(strings.Fields(string(b)), word)
}

// describe says in one line what isolation is in force.
func (s *cgroupSupport) describe() string {
	var b strings.Builder
	b.WriteString("process group (Setpgid, killed as a group; Pdeathsig SIGKILL)")
	if s.v2Parent == "" {
		b.WriteString("; no cgroups (" + strings.Join(s.notes, "; ") + "): a bot's descendants that call setsid escape the group kill; no memory or pids limits; CPU time of the bot's main process only (process CPU clock, ns)")
		return b.String()
	}
	wait := "time kept from a CPU from cpu.pressure, for timeouts"
	if _, err := os.Stat(filepath.Join(s.v2Parent, "cpu.pressure")); err != nil {
		wait = "no cpu.pressure: a timeout cannot say how long the bot was kept from a CPU"
	}
	fmt.Fprintf(&b, "; cgroup v2 per bot under %s (cgroup.kill, CPU time from cpu.stat in µs, %s)", s.v2Parent, wait)
	switch {
	case s.v2Memory:
		b.WriteString("; memory.max: cgroup v2")
	case s.v1Memory != nil:
		b.WriteString("; memory.max: cgroup v1 memory under " + s.v1Memory.parent)
	default:
		b.WriteString("; memory.max: not available")
	}
	switch {
	case s.v2Pids:
		b.WriteString("; pids.max: cgroup v2")
	case s.v1Pids != nil:
		b.WriteString("; pids.max: cgroup v1 pids under " + s.v1Pids.parent)
	default:
		b.WriteString("; pids.max: not available")
	}
	switch {
	case s.v2CPU:
		b.WriteString("; turn priority: a bot found computing while it is not to move gets cgroup v2 cpu.weight " + v2OffTurn + " between its turns, " + v2OnTurn + " during them")
	case s.v1CPU != nil:
		b.WriteString("; turn priority: a bot found computing while it is not to move gets a cgroup v1 cpu under " + s.v1CPU.parent + ", cpu.shares " + v1OffTurn + " between its turns, " + v1OnTurn + " during them")
	default:
		b.WriteString("; turn priority: not available (no cpu controller): a bot computing while it is not to move takes CPU from the bot that is")
	}
	return b.String()
}

// Limits returns one line saying what isolation botproc can put bots in on this machine, for
// the arena to print at start and store with a run: always a process group, and, where the
// machine allows it, a cgroup per bot with cgroup.kill, memory and pids limits and the turn
// priority (turn.go); and the open files and core dump limits (rlimit_linux.go).
func Limits() string { return cgroups().describe() + rlimitNote() }

// botCgroup is the cgroup (v2, plus v1 on hybrid hosts) of one bot.
type botCgroup struct {
	v2      string   // the bot's cgroup v2 directory
	v1      []v1Join // v1 cgroups the bot joins at fork time
	pidsV1  string   // v1 pids directory, to lower pids.max after the fork
	pidsMax int      // Spec.PidsMax
	memV1   string   // v1 memory directory, for OOM counts
	memV2   bool     // memory limit set in v2
	cpu     *os.File // v2 cpu.stat, kept open for cheap rereads
	cpuRC   syscall.RawConn
	cpuRead func(fd uintptr) // c.preadCPU, bound once: Control with it does not allocate
	cpuBuf  []byte           // preadCPU's buffer and result
	cpuErr  error
	psi     int      // v2 cpu.pressure, kept open; -1 where the kernel keeps no pressure (PSI)
	watch   *os.File // cpu.stat again, for the turn watchdog; nil without a cpu controller
	cpuV1   string   // the v1 cpu cgroup the bot was moved into when demoted
	turn    *os.File // cpu.weight (v2) or cpu.shares (v1) for setTurn, once demoted
	onTurn  []byte   // turn's ordinary share
	offTurn []byte   // turn's least share
	fd      int      // O_PATH descriptor of v2 for UseCgroupFD; -1 once closed
	applied []string // the limits in force, for the log
	missing []string // the limits asked for that could not be set
}

// v1Join is a v1 cgroup the forking thread enters before the clone.
type v1Join struct {
	dir  string
	hier *v1Hierarchy
}

// newCgroup makes the cgroups of one bot and sets its limits. It returns nil and no error
// when the machine has no usable cgroups.
func (s *cgroupSupport) newCgroup(spec Spec) (c *botCgroup, err error) {
	if s.v2Parent == "" {
		return nil, nil
	}
	name := fmt.Sprintf("%s%s-%d", cgroupPrefix, owner, cgroupSeq.Add(1))
	c = &botCgroup{v2: filepath.Join(s.v2Parent, name), fd: -1, psi: -1, pidsMax: spec.PidsMax}
	if err := os.Mkdir(c.v2, 0o755); err != nil {
		return nil, fmt.Errorf("make cgroup: %w", err)
	}
	defer func() {
		if err != nil {
			c.kill()
			_ = c.remove(time.Second)
			c.close()
		}
	}()
	if spec.MemoryMax > 0 {
		mem := strconv.FormatInt(spec.MemoryMax, 10)
		switch {
		case s.v2Memory:
			if err := writeFile(c.v2, "memory.max", mem); err != nil {
				return nil, err
			}
			_ = writeFile(c.v2, "memory.swap.max", "0")
			_ = writeFile(c.v2, "memory.oom.group", "1")
			c.memV2 = true
			c.applied = append(c.applied, "memory.max="+mem+" (v2)")
		case s.v1Memory != nil:
			dir := filepath.Join(s.v1Memory.parent, name)
			if err := os.Mkdir(dir, 0o755); err != nil {
				return nil, fmt.Errorf("make cgroup: %w", err)
			}
			c.v1 = append(c.v1, v1Join{dir: dir, hier: s.v1Memory})
			c.memV1 = dir
			if err := writeFile(dir, "memory.limit_in_bytes", mem); err != nil {
				return nil, err
			}
			_ = writeFile(dir, "memory.memsw.limit_in_bytes", mem) // fails without swap accounting
			c.applied = append(c.applied, "memory.limit_in_bytes="+mem+" (v1)")
		default:
			c.missing = append(c.missing, "memory.max")
		}
	}
	if spec.PidsMax > 0 {
		n := strconv.Itoa(spec.PidsMax)
		switch {
		case s.v2Pids:
			if err := writeFile(c.v2, "pids.max", n); err != nil {
				return nil, err
			}
			c.applied = append(c.applied, "pids.max="+n+" (v2)")
		case s.v1Pids != nil:
			dir := filepath.Join(s.v1Pids.parent, name)
			if err := os.Mkdir(dir, 0o755); err != nil {
				return nil, fmt.Errorf("make cgroup: %w", err)
			}
			c.v1 = append(c.v1, v1Join{dir: dir, hier: s.v1Pids})
			c.pidsV1 = dir
			// The forking thread is in the cgroup during the clone and counts as one task.
			if err := writeFile(dir, "pids.max", strconv.Itoa(spec.PidsMax+1)); err != nil {
				return nil, err
			}
			c.applied = append(c.applied, "pids.max="+n+" (v1)")
		default:
			c.missing = append(c.missing, "pids.max")
		}
	}
	if c.cpu, err = os.Open(filepath.Join(c.v2, "cpu.stat")); err != nil {
		return nil, fmt.Errorf("open cpu.stat: %w", err)
	}
	if s.v2CPU || s.v1CPU != nil {
		if c.watch, err = os.Open(filepath.Join(c.v2, "cpu.stat")); err != nil {
			return nil, fmt.Errorf("open cpu.stat: %w", err)
		}
	}
	if c.cpuRC, err = c.cpu.SyscallConn(); err != nil {
		return nil, fmt.Errorf("open cpu.stat: %w", err)
	}
	c.cpuRead = c.preadCPU
	c.psi, err = unix.Open(filepath.Join(c.v2, "cpu.pressure"), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil { // a kernel without PSI, or booted with psi=0
		c.psi = -1
	}
	fd, err := unix.Open(c.v2, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open cgroup: %w", err)
	}
	c.fd = fd
	return c, nil
}

// afterStart is called once the bot runs and the forking thread has left the v1 cgroups.
func (c *botCgroup) afterStart() error {
	if c.fd >= 0 {
		unix.Close(c.fd)
		c.fd = -1
	}
	if c.pidsV1 != "" {
		return writeFile(c.pidsV1, "pids.max", strconv.Itoa(c.pidsMax))
	}
	return nil
}

// The CPU shares of a bot to move and of a demoted one that is not (setTurn, turn.go):
// cgroup v2's cpu.weight runs from 1 to 10000, 100 being an ordinary process's; v1's
// cpu.shares from 2, 1024 being an ordinary process's.
const (
	v2OnTurn, v2OffTurn = "100", "1"
	v1OnTurn, v1OffTurn = "1024", "2"
)

// turnable says whether the bot can be demoted (turn.go): the machine has a cpu controller.
func (c *botCgroup) turnable() bool { return c.watch != nil }

// demote gives the bot a CPU share of its own and sets it to the least there is: in cgroup
// v2 by enabling the cpu controller for the bot cgroups (for all of them, once), in v1 by
// moving the bot's processes into a cpu cgroup of its own.
func (c *botCgroup) demote() error {
	s := cgroups()
	var file string
	switch {
	case s.v2CPU:
		s.cpuOnce.Do(func() {
			s.cpuErr = writeFile(s.v2Parent, "cgroup.subtree_control", "+cpu")
		})
		if s.cpuErr != nil {
			return s.cpuErr
		}
		file = filepath.Join(c.v2, "cpu.weight")
		c.onTurn, c.offTurn = []byte(v2OnTurn), []byte(v2OffTurn)
	case s.v1CPU != nil:
		dir := filepath.Join(s.v1CPU.parent, filepath.Base(c.v2))
		if err := os.Mkdir(dir, 0o755); err != nil {
			return fmt.Errorf("make cgroup: %w", err)
		}
		c.cpuV1 = dir
		if err := moveProcs(c.v2, dir); err != nil {
			return err
		}
		file = filepath.Join(dir, "cpu.shares")
		c.onTurn, c.offTurn = []byte(v1OnTurn), []byte(v1OffTurn)
	default:
		return errors.New("no cpu controller")
	}
	f, err := os.OpenFile(file, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("open %s: %w", file, err)
	}
	c.turn = f
	return c.setTurn(false)
}

// moveProcs moves every process of the cgroup v2 directory from into the v1 cgroup to, over
// and over while the bot forks processes that are not there yet (pids.max bounds them).
func moveProcs(from, to string) error {
	for range 100 {
		procs, err := os.ReadFile(filepath.Join(from, "cgroup.procs"))
		if err != nil {
			return fmt.Errorf("read cgroup.procs: %w", err)
		}
		there, err := os.ReadFile(filepath.Join(to, "cgroup.procs"))
		if err != nil {
			return fmt.Errorf("read cgroup.procs: %w", err)
		}
		moved := strings.Fields(string(there))
		missing := 0
		for pid := range strings.FieldsSeq(string(procs)) {
			if !slices.Contains(moved, pid) {
				missing++
				_ = writeFile(to, "cgroup.procs", pid) // fails for a process that has ended
			}
		}
		if missing == 0 {
			return nil
		}
	}
	return fmt.Errorf("the bot's processes were not all in %s after 100 rounds of moving them", to)
}

// setTurn gives the bot an ordinary process's share of the CPU (on) or the least share there
// is. The share is the cgroup's, however many processes and threads the bot runs. It does
// nothing where the machine has no cpu controller.
func (c *botCgroup) setTurn(on bool) error {
	if c.turn == nil {
		return nil
	}
	v := c.offTurn
	if on {
		v = c.onTurn
	}
	if _, err := c.turn.WriteAt(v, 0); err != nil {
		return fmt.Errorf("set the CPU share: %w", err)
	}
	return nil
}

// kill kills every process in the bot's cgroup, including ones that left its process group.
func (c *botCgroup) kill() {
	_ = writeFile(c.v2, "cgroup.kill", "1")
}

// freeze freezes (on) or thaws every process of the bot (cgroup.freeze). Freezing takes
// effect soon after, not at once: cgroup.events says when all are frozen.
func (c *botCgroup) freeze(on bool) error {
	v := "0"
	if on {
		v = "1"
	}
	return writeFile(c.v2, "cgroup.freeze", v)
}

// waitEmpty waits until no process of the bot is left, at most d.
func (c *botCgroup) waitEmpty(d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		b, err := os.ReadFile(filepath.Join(c.v2, "cgroup.events"))
		if err != nil {
			return fmt.Errorf("read cgroup.events: %w", err)
		}
		if bytes.Contains(b, []byte("populated 0")) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroup %s still has processes %v after cgroup.kill", c.v2, d)
		}
		time.Sleep(time.Millisecond)
	}
}

// oomKills returns how many processes of the bot the kernel killed for lack of memory.
func (c *botCgroup) oomKills() int64 {
	switch {
	case c.memV2:
		return statValue(filepath.Join(c.v2, "memory.events"), "oom_kill")
	case c.memV1 != "":
		return statValue(filepath.Join(c.memV1, "memory.oom_control"), "oom_kill")
	}
	return 0
}

// cpuTime returns the CPU time used by all the bot's processes so far, in µs resolution.
// It costs one pread of cpu.stat (os.File.ReadAt would make a second one, to find EOF, as
// the file is shorter than buf). buf must be large enough for the usage_usec line.
func (c *botCgroup) cpuTime(buf []byte) (time.Duration, bool) {
	c.cpuBuf, c.cpuErr = buf, nil
	if err := c.cpuRC.Control(c.cpuRead); err != nil || c.cpuErr != nil {
		c.cpuBuf = nil
		return 0, false
	}
	b := c.cpuBuf
	c.cpuBuf = nil
	return cpuUsage(b)
}

// watchedCPU is cpuTime for the turn watchdog (turn.go), which reads cpu.stat through
// a file of its own, concurrently with Exchange.
func (c *botCgroup) watchedCPU() (time.Duration, bool) {
	var buf [64]byte
	n, err := c.watch.ReadAt(buf[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, false
	}
	return cpuUsage(buf[:n])
}

// cpuUsage reads the CPU time from the start of a cgroup v2 cpu.stat: "usage_usec N".
func cpuUsage(b []byte) (time.Duration, bool) {
	const key = "usage_usec "
	if !bytes.HasPrefix(b, []byte(key)) {
		return 0, false
	}
	var us int64
	for _, ch := range b[len(key):] {
		if ch < '0' || ch > '9' {
			break
		}
		us = us*10 + int64(ch-'0')
	}
	return time.Duration(us) * time.Microsecond, true
}

// cpuWait returns how long the bot has been kept from a CPU by other programs: the time when
// some of its processes were ready to run and none was running (the "full" total of
// cpu.pressure, µs). A bot that runs more threads than it has CPUs waits for its own threads
// too, but that is in the "some" total only. It costs one pread into buf, which must hold
// the file's two lines.
func (c *botCgroup) cpuWait(buf []byte) (time.Duration, bool) {
	if c.psi < 0 {
		return 0, false
	}
	n, err := unix.Pread(c.psi, buf, 0)
	for err == unix.EINTR {
		n, err = unix.Pread(c.psi, buf, 0)
	}
	if err != nil {
		return 0, false
	}
	const line, key = "\nfull ", " total="
	b := buf[:n]
	i := bytes.Index(b, []byte(line))
	if i < 0 {
		return 0, false
	}
	b = b[i+len(line):]
	j := bytes.Index(b, []byte(key))
	if j < 0 {
		return 0, false
	}
	var us int64
	digits := 0
	for _, ch := range b[j+len(key):] {
		if ch < '0' || ch > '9' {
			break
		}
		us = us*10 + int64(ch-'0')
		digits++
	}
	if digits == 0 {
		return 0, false
	}
	return time.Duration(us) * time.Microsecond, true
}

// preadCPU reads cpu.stat from its start into c.cpuBuf, which it cuts to what was read.
func (c *botCgroup) preadCPU(fd uintptr) {
	for {
		n, err := unix.Pread(int(fd), c.cpuBuf, 0)
		if err == unix.EINTR {
			continue
		}
		c.cpuBuf, c.cpuErr = c.cpuBuf[:max(n, 0)], err
		return
	}
}

// close releases the open files; remove the directories with remove.
func (c *botCgroup) close() {
	if c.fd >= 0 {
		unix.Close(c.fd)
		c.fd = -1
	}
	if c.cpu != nil {
		c.cpu.Close()
	}
	if c.psi >= 0 {
		unix.Close(c.psi)
		c.psi = -1
	}
	if c.turn != nil {
		c.turn.Close()
		c.turn = nil
	}
	if c.watch != nil {
		c.watch.Close()
		c.watch = nil
	}
}

// remove deletes the bot's cgroups, retrying for at most d while they empty.
func (c *botCgroup) remove(d time.Duration) error {
	dirs := []string{c.v2}
	for _, j := range c.v1 {
		dirs = append(dirs, j.dir)
	}
	if c.cpuV1 != "" {
		dirs = append(dirs, c.cpuV1)
	}
	var errs []error
	for _, dir := range dirs {
		if err := removeCgroupTree(dir, d); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// removeCgroupTree removes dir and any cgroups a bot made inside it, deepest first, retrying
// EBUSY for at most d.
func removeCgroupTree(dir string, d time.Duration) error {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			_ = removeCgroupTree(filepath.Join(dir, e.Name()), d)
		}
	}
	deadline := time.Now().Add(d)
	for {
		err := unix.Rmdir(dir)
		if err == nil || errors.Is(err, unix.ENOENT) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("remove cgroup %s: %w", dir, err)
		}
		time.Sleep(time.Millisecond)
	}
}

// parents returns the directories in which bot cgroups are made: the v2 one first, then
// those of the v1 hierarchies in use.
func (s *cgroupSupport) parents() []string {
	var parents []string
	if s.v2Parent != "" {
		parents = append(parents, s.v2Parent)
	}
	for _, h := range []*v1Hierarchy{s.v1Memory, s.v1Pids, s.v1CPU} {
		if h != nil {
			parents = append(parents, h.parent)
		}
	}
	return parents
}

// sweepStale kills and removes bot cgroups left behind by arena processes that no longer run
// (an arena killed with SIGKILL cannot clean up after itself).
func (s *cgroupSupport) sweepStale(self int) {
	for _, parent := range s.parents() {
		entries, _ := os.ReadDir(parent)
		for _, e := range entries {
			pid, ok := ownerHere(e.Name())
			if !ok || pid == self || !e.IsDir() || unix.Kill(pid, 0) != unix.ESRCH {
				continue
			}
			dir := filepath.Join(parent, e.Name())
			if parent == s.v2Parent {
				_ = writeFile(dir, "cgroup.kill", "1")
			} else {
				killProcs(dir)
			}
			_ = removeCgroupTree(dir, time.Second)
		}
	}
}

// sweepTempDirs removes the working directories that dead arena processes left in
// os.TempDir().
func sweepTempDirs(self int) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+"*"))
	for _, dir := range dirs {
		if pid, ok := ownerHere(filepath.Base(dir)); ok && pid != self && unix.Kill(pid, 0) == unix.ESRCH {
			_ = os.RemoveAll(dir)
		}
	}
}

// ownerHere returns the arena pid in the name of a bot cgroup or working directory
// ("botproc-OWNER-N", "botproc-probe-OWNER", "botproc-OWNER-…", OWNER made by ownerOf), and
// whether that arena ran in this PID namespace, so that the pid is its pid here. Names of
// older arenas, without a namespace, are not counted as here.
func ownerHere(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, cgroupPrefix)
	if !ok {
		return 0, false
	}
	rest = strings.TrimPrefix(rest, "probe-")
	tag, _, _ := strings.Cut(rest, "-")
	pidText, _, _ := strings.Cut(tag, ".")
	pid, err := strconv.Atoi(pidText)
	return pid, err == nil && pid > 0 && tag == ownerOf(pid)
}

// killProcs SIGKILLs the processes listed in a v1 cgroup until it is empty, for at most a second.
func killProcs(dir string) {
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
		if err != nil || len(bytes.TrimSpace(b)) == 0 {
			return
		}
		for f := range strings.FieldsSeq(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
				_ = unix.Kill(pid, unix.SIGKILL)
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// statValue returns the number after key in a "key value" per line file, or 0.
func statValue(file, key string) int64 {
	f, err := os.Open(file)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), " ")
		if ok && k == key {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

func writeFile(dir, name, value string) error {
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("set %s: %w", name, err)
	}
	_, err = f.WriteString(value)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("set %s=%s: %w", name, value, err)
	}
	return nil
}

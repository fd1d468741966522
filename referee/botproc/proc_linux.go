package botproc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// launch starts cmd in the bot's own process group, killed with the arena (Pdeathsig), in
// its cgroup where the machine has one (with the limits of spec) and on spec's CPUs.
func (p *Proc) launch(cmd *exec.Cmd, spec Spec) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if p.ownMounts {
		cmd.SysProcAttr.Unshareflags = syscall.CLONE_NEWNS // Go makes it private: no mount leaves it
	}
	var v1 []v1Join
	var err error
	if p.cg, err = cgroups().newCgroup(spec); err != nil {
		return arenaError{err}
	}
	var missing []string
	if p.cg != nil {
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, p.cg.fd
		v1 = p.cg.v1
		missing = p.cg.missing
	} else {
		if spec.MemoryMax > 0 {
			missing = append(missing, "memory.max")
		}
		if spec.PidsMax > 0 {
			missing = append(missing, "pids.max")
		}
	}
	if len(missing) > 0 {
		p.log.Warn().Strs("limits", missing).Msg("botproc: limits not enforced on this machine")
	}
	return startOnSpawner(cmd, v1, spec.CPUs)
}

// limitFiles sets the open files and file size limits of the bot process pid as soon as it
// runs, for a bot without a sandbox: before it has read a request, though not before its
// first instructions. (In the sandbox the shell that becomes the bot sets them before the
// bot runs.) A bot that has already exited is no error.
func limitFiles(pid int, l fileLimits) error {
	for _, r := range []struct {
		resource int
		n        uint64
		what     string
	}{{unix.RLIMIT_NOFILE, l.openFiles, "open files"}, {unix.RLIMIT_FSIZE, l.fileSize, "file size"}} {
		lim := unix.Rlimit{Cur: r.n, Max: r.n}
		if err := unix.Prlimit(pid, r.resource, &lim, nil); err != nil && !errors.Is(err, unix.ESRCH) {
			return arenaError{fmt.Errorf("limit the bot's %s: %w", r.what, err)}
		}
	}
	return nil
}

// sandboxCmd returns the command that runs the bot of spec in its sandbox (bwrap, reading
// its arguments and system call filter from the returned files, which the caller closes once
// the bot has started).
// A program that cannot be found is the bot's fault; a sandbox that cannot be made is the
// arena's.
func (p *Proc) sandboxCmd(spec Spec, dir string, env []string) (*exec.Cmd, []*os.File, error) {
	sb := sandboxes()
	if sb.err != nil {
		return nil, nil, arenaError{fmt.Errorf("no sandbox: %w", sb.err)}
	}
	prog, err := ResolveProgram(spec.Argv[0], dir)
	if err != nil {
		return nil, nil, err
	}
	// As root the bot runs as SandboxUID, unless its files are private to the arena's user.
	_, err = sb.plan(spec, dir, prog, env, procPaths{}, false)
	var private *PrivateFilesError
	asArenaUser := errors.As(err, &private)
	if err != nil && !asArenaUser {
		return nil, nil, err
	}
	if asArenaUser {
		p.log.Debug().Err(err).Msg("botproc: the bot runs as the arena's user in a user namespace")
	}
	dropUID := sb.root && !asArenaUser
	switch {
	case spec.Sandbox.ScratchSize > 0:
		uid, gid := os.Getuid(), os.Getgid()
		if dropUID {
			uid, gid = SandboxUID, SandboxGID
		}
		p.ledgerKey = scratchKey{spec.Name, spec.Sandbox.ScratchGroup}
		scratchImagesLedger.started(p.ledgerKey)
		p.inLedger = true
		if p.scratchImage, p.scratchDir, err = newScratchFS(spec.Sandbox.Scratch, spec.Name, spec.Sandbox.ScratchSize, uid, gid); err != nil {
			return nil, nil, arenaError{fmt.Errorf("make the bot's own scratch file system: %w", err)}
		}
	case spec.Sandbox.Scratch != "":
		if p.scratchDir, err = newScratchDir(spec.Sandbox.Scratch, spec.Name); err != nil {
			return nil, nil, arenaError{fmt.Errorf("make the bot's own scratch directory: %w", err)}
		}
	}
	if dropUID {
		// The bot's own directories belong to the user it runs as. bwrap enters the working
		// directory as root without CAP_DAC_OVERRIDE, so a fresh one is 0711, not 0700.
		for _, d := range []string{p.tmpDir, p.scratchDir} {
			if d != "" {
				if err := os.Chown(d, SandboxUID, SandboxGID); err != nil {
					return nil, nil, arenaError{fmt.Errorf("give %s to the sandbox user: %w", d, err)}
				}
			}
		}
		if p.tmpDir != "" {
			if err := os.Chmod(p.tmpDir, 0o711); err != nil {
				return nil, nil, arenaError{err}
			}
		}
	}
	if p.fifoDir, err = os.MkdirTemp("", tempPrefix+owner+"-*"); err != nil {
		return nil, nil, arenaError{fmt.Errorf("make the bot's FIFO directory: %w", err)}
	}
	uid, gid := -1, -1
	if dropUID {
		uid, gid = SandboxUID, SandboxGID
		if err := os.Chmod(p.fifoDir, 0o711); err != nil {
			return nil, nil, arenaError{err}
		}
	}
	in, out, err := p.pipes.openFIFOs(p.fifoDir, uid, gid)
	if err != nil {
		return nil, nil, arenaError{fmt.Errorf("the bot's stdin and stdout: %w", err)}
	}
	var ready string
	if ready, p.ready.r, p.ready.w, err = openReady(p.fifoDir, uid, gid); err != nil {
		return nil, nil, arenaError{fmt.Errorf("the sandbox's ready FIFO: %w", err)}
	}
	plan, err := sb.plan(spec, dir, prog, env, procPaths{fifoDir: p.fifoDir, in: in, out: out, ready: ready, scratch: p.scratchDir}, asArenaUser)
	if err != nil {
		return nil, nil, err
	}
	files, err := plan.files()
	if err != nil {
		return nil, nil, arenaError{err}
	}
	cmd := exec.CommandContext(p.ctx, sb.bwrap, plan.bwrapArgs()...)
	if p.scratchImage != "" {
		cmd = p.scratchMountCmd(p.scratchImage, p.scratchDir, cmd.Args)
	}
	cmd.Dir, cmd.Env, cmd.ExtraFiles = "/", []string{}, files
	return cmd, files, nil
}

// sandboxReady is a sandboxed bot's FIFO ready (see openReady) until Start has read it.
type sandboxReady struct{ r, w *os.File }

// close closes both ends; a closed sandboxReady does nothing.
func (s *sandboxReady) close() {
	for _, f := range []*os.File{s.r, s.w} {
		if f != nil {
			f.Close()
		}
	}
	s.r, s.w = nil, nil
}

// pending reads what the FIFO holds into b without waiting, as a read after the deadline
// would not: a deadline in the past fails a read before it looks.
func (s *sandboxReady) pending(b []byte) int {
	n := 0
	if rc, err := s.r.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { n, _ = unix.Read(int(fd), b) })
	}
	return max(n, 0)
}

// sandboxBuildWait bounds awaitSandbox's wait.
const sandboxBuildWait = 30 * time.Second

// awaitSandbox waits until the shell in a sandboxed bot's sandbox has said (a byte on the
// FIFO ready) that the sandbox is built, and returns a *sandboxBuildError if the process ended
// first. No program of the bot's runs before that byte, so the bot cannot fake a failure. A
// wait that ends otherwise (the context, or sandboxBuildWait on a machine that slow) is left
// to the handshake, as without the FIFO. Without a sandbox it does nothing.
func (p *Proc) awaitSandbox() error {
	if p.ready.r == nil {
		return nil
	}
	r := p.ready.r
	defer p.ready.close() // runs after the goroutine below has ended
	stop, stopped := make(chan struct{}), make(chan struct{})
	defer func() { close(stop); <-stopped }()
	go func() { // a read waits in the netpoller: the exit or the context ends it
		defer close(stopped)
		select {
		case <-p.exited:
		case <-p.ctx.Done():
		case <-stop:
			return
		}
		_ = r.SetReadDeadline(time.Now())
	}()
	_ = r.SetReadDeadline(time.Now().Add(sandboxBuildWait))
	var b [1]byte
	n, _ := r.Read(b[:])
	if n == 0 && p.exitedFlag.Load() {
		n = p.ready.pending(b[:]) // the byte of a bot that ended at once
	}
	if n == 1 || !p.exitedFlag.Load() {
		return nil
	}
	select { // bwrap's message, complete once its processes are gone
	case <-p.drainDone:
	case <-time.After(time.Second):
	}
	return &sandboxBuildError{stderr: p.errBuf.String(), status: p.exitInfo.String()}
}

// cpuWaitNow returns the time other programs have kept the bot from a CPU, from its cgroup's
// cpu.pressure (PSI, "full" total: some of its processes ready to run, none running); false
// where that is not kept.
func (p *Proc) cpuWaitNow() (time.Duration, bool) {
	if p.cg == nil {
		return 0, false
	}
	return p.cg.cpuWait(p.cpuBuf[:])
}

// cpuNow returns the bot's CPU time so far: from the cgroup's cpu.stat (all its processes,
// µs resolution) or else from the main process's CPU clock (its threads only, ns resolution).
func (p *Proc) cpuNow() time.Duration {
	if p.cg != nil {
		if d, ok := p.cg.cpuTime(p.cpuBuf[:]); ok {
			return d
		}
	}
	var ts unix.Timespec
	clock := int32((^p.pid)<<3 | 2) // MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)
	if unix.ClockGettime(clock, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// pidNamespace returns the inode number of this process's PID namespace, or 0 if it cannot be
// read.
func pidNamespace() uint64 {
	var st unix.Stat_t
	if unix.Stat("/proc/self/ns/pid", &st) != nil {
		return 0
	}
	return st.Ino
}

// Every bot is started from one goroutine locked to its own OS thread for the life of the
// arena process, the spawner. Pdeathsig follows the thread that forked, not the process: a
// bot started from an ordinary goroutine dies as soon as Go ends that thread, which it does
// when any goroutine locked to it exits (golang/go#27505). The spawner's thread never ends,
// so the bots die with the arena and only then. Being locked also lets it enter a bot's v1
// cgroups and take its CPU affinity just for the fork.
type startReq struct {
	cmd  *exec.Cmd
	v1   []v1Join
	cpus []int
	done chan error
}

var (
	spawnMu sync.Mutex
	spawnCh chan startReq
)

// startOnSpawner starts cmd from the spawner thread, in the v1 cgroups v1 and with CPU
// affinity cpus.
func startOnSpawner(cmd *exec.Cmd, v1 []v1Join, cpus []int) error {
	spawnMu.Lock()
	if spawnCh == nil {
		spawnCh = make(chan startReq)
		go spawnLoop(spawnCh)
	}
	ch := spawnCh
	spawnMu.Unlock()
	req := startReq{cmd: cmd, v1: v1, cpus: cpus, done: make(chan error, 1)}
	ch <- req
	return <-req.done
}

// spawnLoop is the spawner. It never unlocks its thread. If it cannot bring the thread back
// from a bot's cgroups, it retires: it blocks for good, so that the bots it started keep
// their Pdeathsig link to a live thread, and the next Start makes a new spawner.
func spawnLoop(ch chan startReq) {
	runtime.LockOSThread()
	for req := range ch {
		restored, err := placeAndStart(req.cmd, req.v1, req.cpus)
		req.done <- err
		if !restored {
			spawnMu.Lock()
			if spawnCh == ch {
				spawnCh = nil
			}
			spawnMu.Unlock()
			select {}
		}
	}
}

// placeAndStart starts cmd, first moving the calling (locked) thread into the v1 cgroups and
// onto the CPUs, since a clone copies the forking thread's cgroups and affinity, and moving
// it back after. It reports whether the thread is back as it was.
func placeAndStart(cmd *exec.Cmd, v1 []v1Join, cpus []int) (restored bool, err error) {
	tid := unix.Gettid()
	own, err := parseProcCgroup(fmt.Sprintf("/proc/self/task/%d/cgroup", tid))
	if err != nil {
		return true, arenaError{err}
	}
	var oldCPUs unix.CPUSet
	if len(cpus) > 0 {
		var set unix.CPUSet
		for _, c := range cpus {
			set.Set(c)
		}
		if err := unix.SchedGetaffinity(0, &oldCPUs); err != nil {
			return true, arenaError{fmt.Errorf("get CPU affinity: %w", err)}
		}
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			return true, fmt.Errorf("set CPU affinity %v: %w", cpus, err)
		}
	}
	var back []string // the v1 cgroups to return to
	restore := func() error {
		var errs []error
		for _, dir := range back {
			errs = append(errs, writeFile(dir, "tasks", fmt.Sprint(tid)))
		}
		if len(cpus) > 0 {
			errs = append(errs, unix.SchedSetaffinity(0, &oldCPUs))
		}
		return errors.Join(errs...)
	}
	for _, j := range v1 {
		path, ok := own[j.hier.ctrl]
		if !ok {
			rerr := restore()
			return rerr == nil, arenaError{fmt.Errorf("thread %d is in no %s cgroup", tid, j.hier.ctrl)}
		}
		home := j.hier.mount + path
		if err := writeFile(j.dir, "tasks", fmt.Sprint(tid)); err != nil {
			rerr := restore()
			return rerr == nil, arenaError{fmt.Errorf("enter cgroup %s: %w", j.dir, err)}
		}
		back = append(back, home)
	}
	startErr := cmd.Start()
	if err := restore(); err != nil {
		if startErr == nil {
			_ = unix.Kill(-cmd.Process.Pid, unix.SIGKILL)
			_ = cmd.Wait()
		}
		return false, arenaError{fmt.Errorf("return the forking thread to its cgroups: %w", err)}
	}
	return true, startErr
}

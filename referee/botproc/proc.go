package botproc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/rs/zerolog"
)

// Proc is one running bot program. Exchange must not be called concurrently with itself;
// Stop, StderrTail, Pid and ExitStatus may be called from any goroutine at any time. Stop
// must be called once the Proc is no longer needed, also after a fault or a failed Exchange.
type Proc struct {
	name string
	log  zerolog.Logger
	ctx  context.Context
	cmd  *exec.Cmd
	pid  int

	pipes    pipes        // our ends of the bot's stdin and stdout
	outR     stdoutReader // what meter reads
	stderr   *os.File     // read end of the bot's stderr
	meter    meter
	lr       *protocol.LineReader
	consumed uint64        // lines taken from lr (each ends at one newline, except a last one at EOF)
	fault    *Fault        // the first fault; sticky
	cpuBuf   [160]byte     // a reading of cpu.stat or cpu.pressure
	cpuMark  time.Duration // the bot's CPU time when it was last read
	cpuLater bool          // Exchange leaves the CPU time to CPUSinceMark (see Conn.MeterCPU)
	waitMark time.Duration // the time others had kept the bot from a CPU (cpuWaitNow) at that reading
	marked   bool          // CPUSinceMark has been called

	errBuf  *headTail
	errFile *os.File

	cg         *botCgroup
	turn       turnState // the turn priority (turn.go)
	tmpDir     string
	fifoDir    string // a sandboxed bot's stdin and stdout FIFOs
	ready      sandboxReady
	scratchDir string // a sandboxed bot's own directory in Sandbox.Scratch, kept after Stop
	// With Sandbox.ScratchSize: the image holding the bot's own scratch file system, kept
	// after Stop; scratchDir is then the empty host directory it is mounted at in the bot's
	// own mount namespace (ownMounts), removed by Stop.
	scratchImage string
	ownMounts    bool
	inLedger     bool       // counted in scratchImagesLedger: Stop or abandon says it stopped
	ledgerKey    scratchKey // its entry there
	memMax       int64

	pidfd      *os.File
	exited     chan struct{} // closed when the main process has exited (not yet reaped)
	exitedFlag atomic.Bool
	exitInfo   exitInfo // valid once exited is closed

	stopping  atomic.Bool
	stopOnce  sync.Once
	stopErr   error
	killMu    sync.Mutex
	reaped    bool
	drainDone chan struct{}  // closed when the stderr drain has ended
	spawned   sync.WaitGroup // the exit watcher and the stderr drain, until they have returned
}

// liveGoroutines counts the goroutines botproc has running, for tests. Each Proc runs two:
// the exit watcher (ends when the main process exits) and the stderr drain (ends at EOF or
// when Stop ends it); Stop waits until both have returned (the watcher only once the main
// process has exited).
var liveGoroutines atomic.Int64

// spawn runs f in a goroutine counted in liveGoroutines and p.spawned.
func (p *Proc) spawn(f func()) {
	liveGoroutines.Add(1)
	p.spawned.Add(1)
	go func() {
		defer p.spawned.Done()
		defer liveGoroutines.Add(-1)
		f()
	}()
}

// Start starts the bot program of spec in its own process group (and cgroup where the machine
// allows it; see Limits) with its stdin, stdout and stderr on pipes of its own. It returns as
// soon as the program runs (a sandboxed one: once its sandbox is built, which Start tries
// sandboxTries times); it does not wait for any output. A program that cannot be started
// gives a *Fault of kind StartFailed whose Err is the exec error (fs.ErrNotExist for a
// missing program, fs.ErrPermission for one that is not executable, syscall.ENOEXEC for one
// in an unknown format). Trouble on the arena's side (no pipes, no temporary directory, a
// stderr file or a cgroup that cannot be made, a sandbox that cannot be built) is returned
// as a plain error, not a *Fault: it is not the bot's fault, and a bot is never run without
// the limits its Spec asks for where the machine has them.
//
// If ctx (which must not be nil) is done before Stop, all the bot's processes are killed at
// once; the Proc must still be stopped. log receives a debug line at start and at stop, and
// warnings about limits that could not be applied; use zerolog.Nop() for none.
func Start(ctx context.Context, spec Spec, log zerolog.Logger) (*Proc, error) {
	for try := 1; ; try++ {
		p, err := startOnce(ctx, spec, log)
		var build *sandboxBuildError
		if !errors.As(err, &build) || try == sandboxTries || ctx.Err() != nil {
			return p, err
		}
		log.Debug().Str("bot", spec.Name).Int("try", try).Str("bwrap", build.stderr).Msg("botproc: the sandbox could not be built; trying again")
		time.Sleep(time.Duration(try) * 10 * time.Millisecond)
	}
}

// startOnce is one try of Start.
func startOnce(ctx context.Context, spec Spec, log zerolog.Logger) (*Proc, error) {
	p := &Proc{
		name:      spec.Name,
		log:       log.With().Str("bot", spec.Name).Logger(),
		ctx:       ctx,
		exited:    make(chan struct{}),
		drainDone: make(chan struct{}),
		errBuf:    newHeadTail(StderrHeadSize, StderrTailSize),
		memMax:    spec.MemoryMax,
	}
	p.pipes.in, p.pipes.out, p.pipes.wake, p.pipes.wakeW, p.pipes.dummyOut = -1, -1, -1, -1, -1
	if err := p.start(spec); err != nil {
		p.abandon()
		var arena arenaError
		if errors.As(err, &arena) {
			return nil, fmt.Errorf("botproc: start bot %q: %w", spec.Name, arena.err)
		}
		return nil, &Fault{Bot: spec.Name, Kind: referee.FaultStart, Detail: err.Error(), StderrTail: p.errBuf.String(), Err: err}
	}
	return p, nil
}

// sandboxTries is how often Start tries to build a bot's sandbox: bwrap fails to when
// another process replaces a file the sandbox shows while bwrap mounts it (see
// sandboxBuildError), and a new try lists the files again.
const sandboxTries = 4

// tempPrefix starts the names of the working directories Start makes: "botproc-OWNER-…".
const tempPrefix = "botproc-"

// owner is this arena process in the names of the directories and cgroups botproc makes:
// ownerOf(its pid).
var owner = ownerOf(os.Getpid())

// ownerOf is the arena process pid of this PID namespace in names: "PID.NS", NS being the
// namespace's inode number (just "PID" where there are no PID namespaces). An arena sweeps up
// what dead arenas left (sweepStale, sweepTempDirs) only when they ran in its own PID
// namespace: a pid of another one may name a live process it cannot see.
func ownerOf(pid int) string {
	if ownPIDNamespace != 0 {
		return fmt.Sprintf("%d.%d", pid, ownPIDNamespace)
	}
	return strconv.Itoa(pid)
}

var ownPIDNamespace = pidNamespace()

// arenaError marks a start failure that is the arena's trouble, not the bot's.
type arenaError struct{ err error }

func (e arenaError) Error() string { return e.err.Error() }

// start does the work of Start; on error, abandon undoes what was done.
func (p *Proc) start(spec Spec) error {
	if len(spec.Argv) == 0 || spec.Argv[0] == "" {
		return errors.New("no program given (empty argv)")
	}
	if err := Harden(); err != nil {
		p.log.Warn().Err(err).Msg("botproc: harden")
	}
	limits, err := botFileLimits(spec)
	if err != nil {
		return arenaError{err}
	}
	dir := spec.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", tempPrefix+owner+"-*")
		if err != nil {
			return arenaError{fmt.Errorf("make working directory: %w", err)}
		}
		p.tmpDir, dir = d, d
	}
	env := spec.Env
	if env == nil {
		env = DefaultEnv(dir)
	}

	var cmd *exec.Cmd
	if spec.Sandbox != nil {
		var files []*os.File
		var err error
		if cmd, files, err = p.sandboxCmd(spec, dir, env); err != nil {
			return err
		}
		defer func() {
			for _, f := range files {
				f.Close()
			}
		}()
	} else {
		cmd = exec.CommandContext(p.ctx, spec.Argv[0], spec.Argv[1:]...)
		if cmd.Err != nil {
			return cmd.Err
		}
		cmd.Dir, cmd.Env = dir, env
	}
	// Cancel may run as soon as the process exists, before p.pid is set: it takes the pid
	// from cmd (never 0, which would signal the arena's own process group).
	cmd.Cancel = func() error { p.killTree(cmd.Process.Pid); return nil }
	cmd.WaitDelay = time.Second

	var childEnds []*os.File
	defer func() {
		for _, f := range childEnds {
			f.Close()
		}
	}()
	var stdinR, stdoutW, stderrW *os.File
	if p.fifoDir == "" {
		if stdinR, stdoutW, err = p.pipes.open(); err != nil {
			return arenaError{err}
		}
		childEnds = append(childEnds, stdinR, stdoutW)
	} // else the FIFOs are open already, and the sandbox's stdin and stdout are /dev/null
	if p.stderr, stderrW, err = os.Pipe(); err != nil {
		return arenaError{err}
	}
	childEnds = append(childEnds, stderrW)
	cmd.Stderr = stderrW
	if stdinR != nil {
		cmd.Stdin, cmd.Stdout = stdinR, stdoutW
	}
	if spec.StderrFile != "" {
		if p.errFile, err = os.OpenFile(spec.StderrFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600); err != nil {
			return arenaError{fmt.Errorf("open stderr file: %w", err)}
		}
	}

	if err := p.launch(cmd, spec); err != nil {
		return err
	}
	p.killMu.Lock()
	p.cmd, p.pid = cmd, cmd.Process.Pid
	p.killMu.Unlock()
	for _, f := range childEnds {
		f.Close()
	}
	childEnds = nil
	p.outR.p = p
	p.meter.f = &p.outR
	p.lr = protocol.NewLineReader(&p.meter, protocol.MaxLineLength)
	p.watchExit()
	p.spawn(p.drainStderr)
	// Only now may a step fail: Stop (which abandon calls) waits for the watcher and the drain.
	if spec.Sandbox == nil {
		if err := limitFiles(p.pid, limits); err != nil {
			return err
		}
	}
	if p.cg != nil {
		if err := p.cg.afterStart(); err != nil {
			return arenaError{err}
		}
	}
	if err := p.awaitSandbox(); err != nil {
		return arenaError{err}
	}
	ev := p.log.Debug().Int("pid", p.pid).Strs("argv", spec.Argv).Str("dir", dir)
	if p.scratchImage != "" {
		ev = ev.Str("scratch", p.scratchImage)
	} else if p.scratchDir != "" {
		ev = ev.Str("scratch", p.scratchDir)
	}
	if p.cg != nil {
		ev = ev.Str("cgroup", p.cg.v2).Strs("limits", p.cg.applied)
	}
	ev.Msg("botproc: started")
	p.watchTurns()
	return nil
}

// abandon undoes a failed start.
func (p *Proc) abandon() {
	p.ready.close()
	if p.cmd != nil && p.cmd.Process != nil {
		p.stopping.Store(true)
		_ = p.stop(0)
		return
	}
	p.pipes.closeAll()
	for _, f := range []*os.File{p.stderr, p.errFile} {
		if f != nil {
			f.Close()
		}
	}
	if p.cg != nil {
		p.cg.kill()
		_ = p.cg.remove(time.Second)
		p.cg.close()
	}
	for _, d := range []string{p.tmpDir, p.fifoDir} {
		if d != "" {
			os.RemoveAll(d)
		}
	}
	for _, f := range []string{p.scratchDir, p.scratchImage} {
		if f != "" {
			os.Remove(f) // the bot never ran: it is empty
		}
	}
	_ = p.leaveLedger("")
}

// Pid returns the process id of the bot's main process (also its process group id).
func (p *Proc) Pid() int { return p.pid }

// StderrTail returns what the bot wrote to stderr: the first StderrHeadSize bytes and the
// last StderrTailSize bytes, with a marker for what was left out in between, and with control
// characters and invalid UTF-8 escaped. The capture is drained continuously, so stderr never
// blocks the bot, and takes constant memory however much the bot writes.
func (p *Proc) StderrTail() string { return p.errBuf.String() }

// ExitStatus says how the bot's main process ended ("exit status 3", "killed by signal 9
// (SIGKILL)"), or "" while it runs.
func (p *Proc) ExitStatus() string {
	if !p.exitedFlag.Load() {
		return ""
	}
	return p.exitInfo.String()
}

// drainStderr copies the bot's stderr into the capture (and the stderr file) until EOF or
// until Stop ends it.
func (p *Proc) drainStderr() {
	defer close(p.drainDone)
	buf := make([]byte, 32<<10)
	var inFile int64
	for {
		n, err := p.stderr.Read(buf)
		if n > 0 {
			p.errBuf.Write(buf[:n])
			if p.errFile != nil && inFile < StderrFileMax {
				k := int(min(int64(n), StderrFileMax-inFile))
				// Other runs of the bot (restarts, other rooms and tables) append to the
				// same file, now and before: the file's size bounds what this run may add.
				var size int64
				if fi, serr := p.errFile.Stat(); serr == nil {
					size = fi.Size()
				}
				if left := StderrFileTotalMax - size; left < int64(k) {
					k = int(max(left, 0))
				}
				if k == 0 {
					_, _ = fmt.Fprintf(p.errFile, "\n[botproc: the file has reached %d bytes; the rest of this run's stderr is dropped]\n", StderrFileTotalMax)
					inFile = StderrFileMax + 1
				} else if _, werr := p.errFile.Write(buf[:k]); werr != nil {
					p.log.Warn().Err(werr).Msg("botproc: stderr file write failed; file capture stopped")
					inFile = StderrFileMax + 1
				} else if inFile += int64(k); inFile == StderrFileMax {
					_, _ = fmt.Fprintf(p.errFile, "\n[botproc: %d bytes written; the rest of this run's stderr is dropped]\n", StderrFileMax)
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// CPUSinceMark returns the CPU time the bot used since the previous reading (by this method
// or by Exchange; the first since it started) and moves the mark. The reading also marks the
// time other programs have kept the bot from a CPU, which a timeout reports
// (cpuWaitSinceMark). It costs two system calls (preads of the cgroup's cpu.stat and
// cpu.pressure, about 2 and 3 µs: BENCHMARKS.md), so a caller that does not need the time of
// every answer reads it less often (Conn.MeterCPU).
func (p *Proc) CPUSinceMark() time.Duration {
	now := p.cpuNow()
	d := now - p.cpuMark
	p.cpuMark = now
	if w, ok := p.cpuWaitNow(); ok {
		p.waitMark = w
	}
	p.marked = true
	return max(d, 0)
}

// cpuWaitSinceMark describes, for a timeout's Detail, how long the bot was ready to run but
// kept from a CPU by other programs since CPUSinceMark last read its CPU time (at its previous
// answer, or with the referee's reading once a deal, at the end of an earlier deal): "" where
// that is not measured or under 10 ms. A tenth of timeout or more is called the machine's.
func (p *Proc) cpuWaitSinceMark(timeout time.Duration) string {
	now, ok := p.cpuWaitNow()
	if !ok {
		return ""
	}
	w := now - p.waitMark
	if w < 10*time.Millisecond {
		return ""
	}
	since := "since its previous answer"
	switch {
	case !p.marked:
		since = "since it started"
	case p.cpuLater:
		since = "since the end of an earlier deal"
	}
	s := fmt.Sprintf("; for %d ms %s it was ready to run but other programs had the CPU (cpu.pressure)", w.Milliseconds(), since)
	if w >= timeout/10 {
		s += ": " + referee.BusyMachine
	}
	return s
}

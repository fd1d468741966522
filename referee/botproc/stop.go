package botproc

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// Stop ends the bot and releases everything it holds. It asks nicely first: it closes the
// bot's stdin and waits up to grace for the main process to exit; then it sends SIGTERM to
// the process group and waits up to grace again; then, whatever happened so far, it sends
// SIGKILL to the process group and kills the bot's cgroup (cgroup.kill, which also catches
// descendants that left the group with setsid), reaps the main process, waits until no
// process of the bot is left, and removes the cgroup and the working directory Start made.
// So Stop takes at most about 2×grace plus a few milliseconds for a bot that ignores
// everything, and returns at once for one that has exited.
//
// Stop is idempotent and safe after a crash or a fault; a second call returns the first
// call's result. Its error reports only cleanup trouble (a process or cgroup that would not
// go away, a directory that could not be removed), never how the bot ended: see ExitStatus.
func (p *Proc) Stop(grace time.Duration) error {
	p.stopOnce.Do(func() {
		p.stopping.Store(true)
		p.stopErr = p.stop(grace)
	})
	return p.stopErr
}

func (p *Proc) stop(grace time.Duration) error {
	var errs []error
	p.unwatchTurns()
	p.pipes.signal() // a waiting Exchange returns
	p.pipes.closeIn()
	if !waitFor(p.exited, grace) {
		p.signalGroup(unix.SIGTERM)
		waitFor(p.exited, grace)
	}
	p.killAll()
	exited := waitFor(p.exited, killWait)
	if exited {
		_ = p.cmd.Wait() // reap; its error is the bot's exit status, reported by ExitStatus
	} else {
		// A process stuck in the kernel: leave it to the exit watcher, which falls back to a
		// blocking waitid once its pidfd is closed below, and ends when the process does.
		errs = append(errs, fmt.Errorf("bot %q: pid %d did not exit %v after SIGKILL; not reaped", p.name, p.pid, killWait))
	}
	p.killMu.Lock()
	p.reaped = true
	p.killMu.Unlock()

	if p.cg != nil {
		if err := p.cg.waitEmpty(killWait); err != nil {
			errs = append(errs, err)
		}
	} else if err := waitGroupEmpty(p.pid, time.Second); err != nil {
		errs = append(errs, fmt.Errorf("bot %q: %w", p.name, err))
	}

	// Every writer of stderr is dead (or, without a cgroup, a setsid'd descendant holds it):
	// let the drain read what is left, then end it.
	if !waitFor(p.drainDone, drainWait) {
		_ = p.stderr.SetReadDeadline(time.Now())
		<-p.drainDone // a read with a past deadline returns at once
	}
	if exited {
		p.spawned.Wait() // the watcher and the drain have returned, not just said they are done
	}

	p.pipes.closeAll()
	for _, f := range []*os.File{p.stderr, p.errFile, p.pidfd} {
		if f != nil {
			f.Close()
		}
	}
	if p.cg != nil {
		p.cg.close()
		if err := p.cg.remove(killWait); err != nil {
			errs = append(errs, err)
		}
	}
	if p.tmpDir != "" {
		if err := os.RemoveAll(p.tmpDir); err != nil {
			errs = append(errs, fmt.Errorf("bot %q: remove working directory: %w", p.name, err))
		}
	}
	if p.fifoDir != "" {
		if err := os.RemoveAll(p.fifoDir); err != nil {
			errs = append(errs, fmt.Errorf("bot %q: remove its FIFOs: %w", p.name, err))
		}
	}
	if p.scratchImage != "" {
		if err := os.Remove(p.scratchDir); err != nil {
			errs = append(errs, fmt.Errorf("bot %q: remove the mount point of its scratch file system: %w", p.name, err))
		}
	}
	if err := p.leaveLedger(p.scratchImage); err != nil {
		errs = append(errs, fmt.Errorf("bot %q: %w", p.name, err))
	}
	err := errors.Join(errs...)
	p.log.Debug().Int("pid", p.pid).Str("status", p.ExitStatus()).Int64("stderr_bytes", p.errBuf.Total()).
		AnErr("cleanup", err).Msg("botproc: stopped")
	return err
}

// signalGroup sends sig to the bot's process group, unless the main process has been reaped
// (its pid could then belong to someone else).
func (p *Proc) signalGroup(sig unix.Signal) {
	p.killMu.Lock()
	defer p.killMu.Unlock()
	if !p.reaped {
		_ = unix.Kill(-p.pid, sig)
	}
}

// killAll SIGKILLs the process group and kills the cgroup.
func (p *Proc) killAll() {
	p.killMu.Lock()
	pid := p.pid
	p.killMu.Unlock()
	p.killTree(pid)
}

// killTree SIGKILLs the process group pid (unless the main process has been reaped, or
// there is no pid yet) and kills the cgroup. It is also the exec.Cmd's Cancel, run when
// Start's context is done, maybe before Start has set p.pid.
func (p *Proc) killTree(pid int) {
	p.killMu.Lock()
	defer p.killMu.Unlock()
	if !p.reaped && pid > 0 {
		_ = unix.Kill(-pid, unix.SIGKILL)
	}
	if p.cg != nil {
		p.cg.kill()
	}
}

// waitGroupEmpty waits until no live process is in process group pgid, at most d. Without a
// cgroup, a descendant that called setsid is not in the group and is not found.
func waitGroupEmpty(pgid int, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		left := groupMembers(pgid)
		if len(left) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes %v still in group %d after SIGKILL", left, pgid)
		}
		for _, pid := range left {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitFor reports whether ch is closed within d.
func waitFor(ch <-chan struct{}, d time.Duration) bool {
	select {
	case <-ch:
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

package botproc

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// watchExit waits (in its own goroutine) for the bot's main process to exit, records how it
// ended, closes p.exited, and wakes an Exchange blocked on stdout. macOS has neither pidfds
// nor a dependable waitid(WNOWAIT), so the watcher reaps the process: from then on its pid,
// and so its process group id, could in principle be reused before Stop's group kill (the
// weaker isolation that Limits states).
func (p *Proc) watchExit() {
	p.spawn(func() {
		_ = p.cmd.Wait() // its error is the bot's exit status, reported by ExitStatus
		var info exitInfo
		if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
			switch {
			case ws.Exited():
				info = exitInfo{code: cldExited, status: int32(ws.ExitStatus())}
			case ws.Signaled() && ws.CoreDump():
				info = exitInfo{code: cldDumped, status: int32(ws.Signal())}
			case ws.Signaled():
				info = exitInfo{code: cldKilled, status: int32(ws.Signal())}
			}
		}
		p.exitInfo = info
		p.exitedFlag.Store(true)
		close(p.exited)
		p.pipes.signal() // an Exchange waiting for a line looks again
	})
}

// sZomb is a zombie's p_stat (sys/proc.h).
const sZomb = 5

// groupMembers returns the live (not zombie) processes whose process group is pgid, asked of
// the kernel with sysctl kern.proc.pgrp.
func groupMembers(pgid int) []int {
	procs, err := unix.SysctlKinfoProcSlice("kern.proc.pgrp", pgid)
	if err != nil {
		return nil
	}
	var out []int
	for _, kp := range procs {
		if kp.Proc.P_stat != sZomb {
			out = append(out, int(kp.Proc.P_pid))
		}
	}
	return out
}

package botproc

import (
	"os/exec"
	"syscall"
	"time"
)

// launch starts cmd in the bot's own process group: all the isolation macOS offers here (see
// Limits). The limits of spec that need Linux are logged as not enforced.
func (p *Proc) launch(cmd *exec.Cmd, spec Spec) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var missing []string
	if spec.MemoryMax > 0 {
		missing = append(missing, "memory.max")
	}
	if spec.PidsMax > 0 {
		missing = append(missing, "pids.max")
	}
	if len(spec.CPUs) > 0 {
		missing = append(missing, "cpu affinity")
	}
	if spec.OpenFiles > 0 {
		missing = append(missing, "open files")
	}
	if len(missing) > 0 {
		p.log.Warn().Strs("limits", missing).Msg("botproc: limits not enforced on macOS")
	}
	return cmd.Start()
}

// limitFiles does nothing: macOS cannot set another process's limits (see Limits).
func limitFiles(int, fileLimits) error { return nil }

// cpuNow returns the bot's CPU time so far: macOS gives no way to read another process's CPU
// clock here, so it is not measured (0; Reply.CPU says "where measurable").
func (p *Proc) cpuNow() time.Duration { return 0 }

// cpuWaitNow returns the time other programs kept the bot from a CPU: not measured on macOS.
func (p *Proc) cpuWaitNow() (time.Duration, bool) { return 0, false }

// pidNamespace is 0: macOS has no PID namespaces.
func pidNamespace() uint64 { return 0 }

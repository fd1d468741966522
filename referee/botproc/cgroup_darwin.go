package botproc

import "time"

// botCgroup would be a bot's cgroup: macOS has none, so a Proc's cg is always nil there and
// these methods, which the portable code names behind its nil checks, are never called.
type botCgroup struct {
	v2      string
	applied []string
}

func (c *botCgroup) afterStart() error                    { return nil }
func (c *botCgroup) kill()                                {}
func (c *botCgroup) freeze(bool) error                    { return errNoPause }
func (c *botCgroup) setTurn(bool) error                   { return nil }
func (c *botCgroup) turnable() bool                       { return false }
func (c *botCgroup) demote() error                        { return nil }
func (c *botCgroup) watchedCPU() (time.Duration, bool)    { return 0, false }
func (c *botCgroup) waitEmpty(time.Duration) error        { return nil }
func (c *botCgroup) oomKills() int64                      { return 0 }
func (c *botCgroup) cpuTime([]byte) (time.Duration, bool) { return 0, false }
func (c *botCgroup) close()                               {}
func (c *botCgroup) remove(time.Duration) error           { return nil }

// Limits returns one line saying what isolation botproc can put bots in on this machine, for
// the arena to print at start and store with a run. On macOS that is a process group only.
func Limits() string {
	return "WEAKER ISOLATION (macOS): process group only (Setpgid, killed as a group; no Pdeathsig, so a bot outlives an arena killed with kill -9); " +
		"no cgroups: no memory or pids limits, no CPU affinity, a bot's descendants that call setsid escape the group kill; " +
		"no CPU time measured; the arena is not protected from a debugger of the same user; " +
		"open files and file size not limited (macOS cannot set another process's limits); core dumps: none (RLIMIT_CORE 0)"
}

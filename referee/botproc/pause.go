package botproc

import (
	"errors"

	"golang.org/x/sys/unix"
)

// errNoPause says a bot's processes cannot all be stopped here: it is sandboxed (its
// processes are in a session of their own, which no signal to its group reaches) and has no
// cgroup to freeze.
var errNoPause = errors.New("no cgroup to freeze, and the sandboxed bot's processes are out of its process group's reach")

// Pause stops every process of the bot until Resume, so that a bot kept between matches (a
// league's keep_bots) uses no CPU while it waits, which the matches being played would
// lose: its cgroup v2 is frozen (cgroup.freeze), or, without one, its process group is sent
// SIGSTOP. A paused bot can still be stopped.
func (p *Proc) Pause() error { return p.setPaused(true) }

// Resume lets a paused bot run again.
func (p *Proc) Resume() error { return p.setPaused(false) }

// setPaused pauses (on) or resumes the bot's processes.
func (p *Proc) setPaused(on bool) error {
	switch {
	case p.cg != nil:
		return p.cg.freeze(on)
	case p.fifoDir != "":
		return errNoPause
	}
	sig := unix.SIGCONT
	if on {
		sig = unix.SIGSTOP
	}
	p.signalGroup(sig)
	return nil
}

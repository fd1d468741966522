package botproc

import (
	"errors"
	"os"
	"os/exec"
)

// sandboxSupport is what the machine offers for sandboxes: on macOS, nothing.
type sandboxSupport struct{ err error }

// errNoSandbox says why bots cannot be sandboxed on macOS.
var errNoSandbox = errors.New("no sandbox on macOS: the bots' sandbox is bubblewrap, which needs Linux namespaces; " +
	"run bots you trust without one (--sandbox off), or run the arena on Linux")

// sandboxes returns the machine's sandbox support: none on macOS.
func sandboxes() *sandboxSupport { return &sandboxSupport{err: errNoSandbox} }

// CheckSandbox reports, before any bot starts, what would keep the bot of spec from starting
// in its sandbox: on macOS, for any spec with a sandbox, that there is none. It does nothing
// for a spec without a sandbox.
func CheckSandbox(spec Spec) (note string, err error) {
	if spec.Sandbox == nil {
		return "", nil
	}
	return "", errNoSandbox
}

// SandboxDescription says what confines a sandboxed bot here, for the arena's start line.
func SandboxDescription() string { return "no sandbox: " + errNoSandbox.Error() }

// sandboxCmd fails: there is no sandbox on macOS.
func (p *Proc) sandboxCmd(Spec, string, []string) (*exec.Cmd, []*os.File, error) {
	return nil, nil, arenaError{errNoSandbox}
}

// sandboxReady is nothing on macOS: there is no sandbox to wait for.
type sandboxReady struct{}

func (*sandboxReady) close() {}

// awaitSandbox does nothing on macOS.
func (*Proc) awaitSandbox() error { return nil }

// leaveLedger does nothing: without a sandbox there are no scratch file systems.
func (p *Proc) leaveLedger(string) error { return nil }

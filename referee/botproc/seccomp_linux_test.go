package botproc

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// partnerScript answers requests that try the channels two processes of one bot (partners at
// the table) could use to tell each other their hands, each "ans <result>", where the result
// is "ok", or the errno's number:
//
//	lock: take an exclusive flock on the Python interpreter (a file both can read), without
//	waiting, and keep it
//	probe: try the same lock without waiting: EWOULDBLOCK if the other holds it
//	lockf: the same through fcntl (F_SETLK), without waiting
//	key: put a key in the user's keyring; search: look for it there
//	watch: start inotify
const partnerScript = pyReady + `
import ctypes, errno, fcntl, os
libc = ctypes.CDLL(None, use_errno=True)
held = open(sys.executable, 'rb')
def res(f):
    try:
        f()
        return 'ok'
    except OSError as e:
        return str(e.errno)
def call(r):
    if r < 0:
        raise OSError(ctypes.get_errno(), 'failed')
SYS_ADD_KEY, SYS_KEYCTL = int(sys.argv[2]), int(sys.argv[3])  # after the mark
for line in sys.stdin:
    req = line.split()[1]
    if req == 'lock':
        out = res(lambda: fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB))
    elif req == 'probe':
        out = res(lambda: fcntl.flock(open(sys.executable, 'rb'), fcntl.LOCK_EX | fcntl.LOCK_NB))
    elif req == 'lockf':
        out = res(lambda: fcntl.lockf(open(sys.executable, 'rb'), fcntl.LOCK_SH | fcntl.LOCK_NB))
    elif req == 'key':
        out = res(lambda: call(libc.syscall(SYS_ADD_KEY, b'user', b'hand', b'AS KS', 5, ctypes.c_int(-4))))
    elif req == 'search':
        out = res(lambda: call(libc.syscall(SYS_KEYCTL, 10, ctypes.c_int(-4), b'user', b'hand', 0)))
    elif req == 'watch':
        out = res(lambda: call(libc.inotify_init1(0)))
    print('ans ' + out)
`

// TestSandbox_PartnerChannels: two sandboxed processes of one bot cannot signal each other
// through a lock on a file both read (the lock is taken and does nothing), the user's keyring
// or file watches (ENOSYS). Unsandboxed, the same pair sees the other's lock, so the test can
// tell.
func TestSandbox_PartnerChannels(t *testing.T) {
	needSandbox(t)
	if !haveSeccomp {
		t.Skip("no system call filter on this architecture")
	}
	pair := func(sandbox bool) (a, b *Proc) {
		procs := make([]*Proc, 2)
		for i := range procs {
			bt := pyBot(t, partnerScript)
			bt.Argv = append(bt.Argv, fmt.Sprint(unix.SYS_ADD_KEY), fmt.Sprint(unix.SYS_KEYCTL))
			if sandbox {
				bt = sandboxed(bt, Sandbox{})
			}
			procs[i] = mustStart(t, bt)
			ready(t, procs[i])
		}
		return procs[0], procs[1]
	}
	ask := func(p *Proc, req string) string {
		return strings.TrimPrefix(exchange(t, p, "req "+req, 20*time.Second).Line, "ans ")
	}
	wouldBlock, noSys := fmt.Sprint(int(unix.EWOULDBLOCK)), fmt.Sprint(int(unix.ENOSYS))

	a, b := pair(false)
	if got := ask(a, "lock"); got != "ok" {
		t.Fatalf("unsandboxed: the lock: %s", got)
	}
	if got := ask(b, "probe"); got != wouldBlock {
		t.Errorf("unsandboxed control: the partner's probe of the lock gave %s, want %s (it sees the lock)", got, wouldBlock)
	}
	if got := ask(b, "lockf"); got != "ok" && got != fmt.Sprint(int(unix.EAGAIN)) && got != fmt.Sprint(int(unix.EACCES)) {
		t.Logf("unsandboxed: lockf gave %s", got)
	}

	for _, p := range []*Proc{a, b} {
		if err := p.Stop(time.Second); err != nil {
			t.Fatal(err)
		}
	}

	a, b = pair(true)
	for _, step := range []struct {
		p         *Proc
		req, want string
	}{
		{a, "lock", "ok"},
		{b, "probe", "ok"}, // the lock did nothing: nothing to see
		{b, "lockf", "ok"},
		{a, "key", noSys},
		{b, "search", noSys},
		{a, "watch", noSys},
	} {
		if got := ask(step.p, step.req); got != step.want {
			t.Errorf("sandboxed: %s gave %s, want %s", step.req, got, step.want)
		}
	}
}

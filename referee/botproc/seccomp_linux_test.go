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
//	cclear: drop the first page of a stdlib module both can read (this.py) from the page
//	cache (posix_fadvise POSIX_FADV_DONTNEED); cset: read it into the cache
//	cget: ask whether it is cached, without loading it: preadv2 with RWF_NOWAIT ("ok", or
//	EAGAIN when it is not cached)
//	uring: set up an io_uring; cstat: cachestat the page
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
SYS_IO_URING_SETUP, SYS_CACHESTAT = int(sys.argv[4]), int(sys.argv[5])
shared = os.open(os.path.join(os.path.dirname(os.__file__), 'this.py'), os.O_RDONLY)
os.posix_fadvise(shared, 0, 0, os.POSIX_FADV_RANDOM)
def cget():
    os.preadv(shared, [bytearray(4096)], 0, os.RWF_NOWAIT)
def cstat():
    rng, st = (ctypes.c_uint64 * 2)(0, 4096), (ctypes.c_uint64 * 5)()
    call(libc.syscall(SYS_CACHESTAT, shared, rng, st, 0))
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
    elif req == 'cclear':
        out = res(lambda: os.posix_fadvise(shared, 0, 4096, os.POSIX_FADV_DONTNEED))
    elif req == 'cset':
        out = res(lambda: os.pread(shared, 4096, 0))
    elif req == 'cget':
        out = res(cget)
    elif req == 'uring':
        out = res(lambda: call(libc.syscall(SYS_IO_URING_SETUP, 1, (ctypes.c_uint32 * 30)())))
    elif req == 'cstat':
        out = res(cstat)
    print('ans ' + out)
`

// TestSandbox_PartnerChannels: two sandboxed processes of one bot cannot signal each other
// through a lock on a file both read (the lock is taken and does nothing), the user's keyring
// or file watches (ENOSYS), nor through the page cache of a file both read (dropping a page
// does nothing; asking whether one is cached without loading it, with preadv2's RWF_NOWAIT,
// io_uring or cachestat, fails). Unsandboxed, the same pair sees the other's lock and the
// other's page drop and read, so the test can tell.
func TestSandbox_PartnerChannels(t *testing.T) {
	needSandbox(t)
	if !haveSeccomp {
		t.Skip("no system call filter on this architecture")
	}
	pair := func(sandbox bool) (a, b *Proc) {
		procs := make([]*Proc, 2)
		for i := range procs {
			bt := pyBot(t, partnerScript)
			bt.Argv = append(bt.Argv, fmt.Sprint(unix.SYS_ADD_KEY), fmt.Sprint(unix.SYS_KEYCTL),
				fmt.Sprint(unix.SYS_IO_URING_SETUP), fmt.Sprint(unix.SYS_CACHESTAT))
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
	notSup := fmt.Sprint(int(unix.EOPNOTSUPP))

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
	// The page cache: a drops the page, b sees it gone; a reads it, b sees it back.
	ask(a, "cclear")
	if got := ask(b, "cget"); got != wouldBlock {
		t.Errorf("unsandboxed control: the partner's look at the page dropped gave %s, want %s (not cached)", got, wouldBlock)
	}
	ask(a, "cset")
	if got := ask(b, "cget"); got != "ok" {
		t.Errorf("unsandboxed control: the partner's look at the page read gave %s, want ok (cached)", got)
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
		{a, "cset", "ok"},
		{b, "cclear", "ok"}, // done, and nothing dropped
		{a, "cget", notSup},
		{b, "uring", noSys},
		{a, "cstat", noSys},
	} {
		if got := ask(step.p, step.req); got != step.want {
			t.Errorf("sandboxed: %s gave %s, want %s", step.req, got, step.want)
		}
	}
}

// userNSScript answers each request with what unshare(CLONE_NEWUSER) gave ("ok" or the
// errno's number), and, if it worked, whether a tmpfs could then be mounted (which needs
// CAP_SYS_ADMIN, held in the new user namespace).
const userNSScript = pyReady + `
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
for line in sys.stdin:
    pid = os.fork()
    if pid == 0:
        if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
            os.write(1, ('ans %d\n' % ctypes.get_errno()).encode()); os._exit(0)
        if libc.unshare(0x00020000) != 0:  # CLONE_NEWNS
            os.write(1, b'ans userns-only\n'); os._exit(0)
        r = libc.mount(b'none', b'/tmp', b'tmpfs', 0, None)
        os.write(1, b'ans ok mount\n' if r == 0 else b'ans ok no-mount\n'); os._exit(0)
    os.waitpid(pid, 0)
`

// TestSandbox_NoUserNamespaces: a sandboxed bot cannot make a user namespace of its own,
// in which it would hold every capability (here: mount a file system). Unsandboxed as root,
// the control, it can.
func TestSandbox_NoUserNamespaces(t *testing.T) {
	needSandbox(t)
	if !haveSeccomp {
		t.Skip("no system call filter on this architecture")
	}
	for _, sandbox := range []bool{false, true} {
		bt := pyBot(t, userNSScript)
		if sandbox {
			bt = sandboxed(bt, Sandbox{})
		}
		p := mustStart(t, bt)
		ready(t, p)
		got := strings.TrimPrefix(exchange(t, p, "req try", 20*time.Second).Line, "ans ")
		if err := p.Stop(time.Second); err != nil {
			t.Fatal(err)
		}
		switch {
		case sandbox && got != fmt.Sprint(int(unix.EPERM)):
			t.Errorf("sandboxed: unshare(CLONE_NEWUSER) gave %q, want %d (EPERM)", got, int(unix.EPERM))
		case !sandbox:
			t.Logf("unsandboxed control: %s", got)
		}
	}
}

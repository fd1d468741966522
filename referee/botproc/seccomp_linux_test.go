package botproc

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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
//
// and those the namespaces close (see partnerProbes), each with an argument ARG after the
// request, never sending a real signal:
//
//	mkmsg, mkshm, mksem ARG: make a SysV message queue, shared memory segment or semaphore
//	set with the key ARG (IPC_CREAT, IPC_EXCL: a new one); msg, shm, sem ARG: look for the
//	one with key ARG, without IPC_CREAT (ENOENT when there is none)
//	listen ARG: listen on the abstract unix socket "\0ARG", and keep it; connect ARG: connect
//	to it (ECONNREFUSED when no one listens)
//	mkfile ARG: make the file ARG (O_EXCL) and write to it; stat ARG: stat it
//	kill0 ARG: signal 0 to each pid of the comma-separated list ARG: "ok" when one was
//	reached, else the last errno; killall0: kill(-1, 0)
const partnerScript = pyReady + `
import ctypes, errno, fcntl, os, socket
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
IPC_CREAT, IPC_EXCL = 0o1000, 0o2000
kept = []
def listen(name):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    kept.append(s)
    s.bind('\0' + name)
    s.listen(1)
def connect(name):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
        c.connect('\0' + name)
def mkfile(path):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    os.write(fd, b'AS KS')
    os.close(fd)
def kill0(pids):
    out = 'no pids'
    for pid in pids.split(','):
        try:
            os.kill(int(pid), 0)
            return 'ok'
        except OSError as e:
            out = str(e.errno)
    return out
for line in sys.stdin:
    req, arg = (line.split() + [''])[1:3]
    if req in ('mkmsg', 'mkshm', 'mksem', 'msg', 'shm', 'sem'):
        key, flags = ctypes.c_int(int(arg)), (IPC_CREAT | IPC_EXCL | 0o666 if req.startswith('mk') else 0)
        kind = req[2:] if req.startswith('mk') else req
        if kind == 'msg':
            out = res(lambda: call(libc.msgget(key, flags)))
        elif kind == 'shm':
            out = res(lambda: call(libc.shmget(key, ctypes.c_size_t(4096 if flags else 0), flags)))
        else:
            out = res(lambda: call(libc.semget(key, 1 if flags else 0, flags)))
    elif req == 'listen':
        out = res(lambda: listen(arg))
    elif req == 'connect':
        out = res(lambda: connect(arg))
    elif req == 'mkfile':
        out = res(lambda: mkfile(arg))
    elif req == 'stat':
        out = res(lambda: os.stat(arg))
    elif req == 'kill0':
        out = kill0(arg)
    elif req == 'killall0':
        out = res(lambda: os.kill(-1, 0))
    elif req == 'lock':
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
// other's page drop and read, so the test can tell. Nor can they meet where the namespaces
// keep them apart (partnerProbes: SysV IPC, abstract unix sockets, /dev/shm, signals), each
// probe tried first unsandboxed, where it must find the channel open.
func TestSandbox_PartnerChannels(t *testing.T) {
	needSandbox(t)
	if !haveSeccomp {
		t.Skip("no system call filter on this architecture")
	}
	// north and south are the two processes of a pair: a (north) opens a channel, b (south)
	// looks for it; northPids are a's host pids (bwrap's and the bot's in the sandbox).
	var northPids []int
	ask := func(p *Proc, req string) string {
		return strings.TrimPrefix(exchange(t, p, "req "+req, 20*time.Second).Line, "ans ")
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
			if i == 0 {
				if northPids = findMarked(bt.mark); len(northPids) == 0 {
					t.Fatal("north's processes not found")
				}
			}
		}
		return procs[0], procs[1]
	}
	// tryProbes runs every probe on the pair a, b and returns the probes and what south's
	// look gave. Each pair has probes of its own, so that no channel the control opened is
	// found by the sandboxed pair.
	tryProbes := func(a, b *Proc, sandbox bool) ([]partnerProbe, map[string]string) {
		probes := partnerProbes(t)
		pids := make([]string, len(northPids))
		for i, pid := range northPids {
			pids[i] = fmt.Sprint(pid)
		}
		got := map[string]string{}
		for _, pr := range probes {
			if pr.open != "" {
				set := ask(a, pr.open)
				if !sandbox && set != "ok" {
					t.Errorf("unsandboxed: %s: north's %q gave %s, want ok", pr.name, pr.open, set)
				} else if sandbox && set != "ok" {
					t.Logf("sandboxed: %s: north's %q gave %s", pr.name, pr.open, set)
				}
			}
			got[pr.name] = ask(b, strings.ReplaceAll(pr.look, "PIDS", strings.Join(pids, ",")))
		}
		return probes, got
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
	// The page cache: a drops the page, b sees it gone; a reads it, b sees it back. The
	// drop is advice, which the kernel may leave undone for a page busy at that moment (a
	// run under two CPU hogs saw it once), so a may try a few times.
	var dropped string
	for try := 0; try < 10 && dropped != wouldBlock; try++ {
		if try > 0 {
			time.Sleep(20 * time.Millisecond)
		}
		ask(a, "cclear")
		dropped = ask(b, "cget")
	}
	if dropped != wouldBlock {
		t.Errorf("unsandboxed control: the partner's look at the page dropped (ten tries) gave %s, want %s (not cached)", dropped, wouldBlock)
	}
	ask(a, "cset")
	if got := ask(b, "cget"); got != "ok" {
		t.Errorf("unsandboxed control: the partner's look at the page read gave %s, want ok (cached)", got)
	}
	probes, got := tryProbes(a, b, false)
	t.Logf("unsandboxed control (north's pids %v): %v", northPids, got)
	for _, pr := range probes {
		if got[pr.name] != "ok" {
			t.Errorf("unsandboxed control: %s: south's %q gave %s, want ok (the channel is open, so the probe can tell)",
				pr.name, pr.look, got[pr.name])
		}
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
	probes, got = tryProbes(a, b, true)
	t.Logf("sandboxed (north's host pids %v): %v", northPids, got)
	for _, pr := range probes {
		if !slices.Contains(pr.closed, got[pr.name]) {
			t.Errorf("sandboxed: %s: south's %q gave %s, want one of %v (%s)", pr.name, pr.look, got[pr.name], pr.closed, pr.why)
		}
	}
}

// A partnerProbe is a channel between two processes that the sandbox's namespaces close:
// north opens it with the request open (none when there is nothing to open), south looks
// for it with the request look (PIDS in it stands for north's host pids, comma-separated).
// Unsandboxed, the look answers "ok", which shows the probe can see the channel; sandboxed,
// it must answer one of closed, for the reason why. An error that would tell the channel is
// there (EACCES on a queue, EPERM on a pid) is not among them: that is one bit, which
// can be sent again and again.
type partnerProbe struct {
	name, open, look string
	closed           []string
	why              string
}

// partnerProbes returns the probes, with fresh names and keys, and removes whatever the
// unsandboxed control leaves on the host (SysV objects outlive their process) when t ends:
//
//   - SysV message queues, shared memory and semaphores are found by a key, which partners
//     can agree on in advance: north makes them with a key, south finds them by it; each sandbox
//     has an IPC namespace of its own (--unshare-ipc), so in it south finds nothing (ENOENT);
//   - abstract unix sockets ("\0name", no file, no permissions) live in the network
//     namespace: with one of its own each (--unshare-net) south's connect is refused;
//   - /dev/shm, the POSIX shared memory of shm_open, is one directory every process can
//     write: the sandbox's /dev is a read-only tmpfs without it, so north cannot make the
//     file and south does not find it (ENOENT); skipped where the host has no writable
//     /dev/shm, where the control cannot work;
//   - signals: south sends signal 0 (which checks, and delivers nothing) to north's host
//     pids, which are not in its own PID namespace (--unshare-pid): ESRCH; and kill(-1, 0),
//     every process it may signal, reaches none in a namespace that holds only bwrap's init
//     (never signalled by -1) and the bot itself (ESRCH), so not north.
func partnerProbes(t *testing.T) []partnerProbe {
	key := 1 + rand.Int32N(1<<30) // 0 is IPC_PRIVATE
	tag := fmt.Sprintf("klaverjas-probe-%d-%x", os.Getpid(), rand.Uint64())
	shmFile := filepath.Join("/dev/shm", tag)
	t.Cleanup(func() {
		_ = os.Remove(shmFile)
		if id, _, errno := unix.Syscall(unix.SYS_MSGGET, uintptr(key), 0, 0); errno == 0 {
			_, _, _ = unix.Syscall(unix.SYS_MSGCTL, id, unix.IPC_RMID, 0)
		}
		if id, err := unix.SysvShmGet(int(key), 0, 0); err == nil {
			_, _ = unix.SysvShmCtl(id, unix.IPC_RMID, nil)
		}
		if id, _, errno := unix.Syscall(unix.SYS_SEMGET, uintptr(key), 0, 0); errno == 0 {
			_, _, _ = unix.Syscall6(unix.SYS_SEMCTL, id, 0, unix.IPC_RMID, 0, 0, 0)
		}
	})
	e := func(errs ...unix.Errno) []string {
		s := make([]string, len(errs))
		for i, err := range errs {
			s[i] = fmt.Sprint(int(err))
		}
		return s
	}
	noIPC := "an IPC namespace of its own"
	probes := []partnerProbe{
		{"sysv-msg", fmt.Sprint("mkmsg ", key), fmt.Sprint("msg ", key), e(unix.ENOENT), noIPC},
		{"sysv-shm", fmt.Sprint("mkshm ", key), fmt.Sprint("shm ", key), e(unix.ENOENT), noIPC},
		{"sysv-sem", fmt.Sprint("mksem ", key), fmt.Sprint("sem ", key), e(unix.ENOENT), noIPC},
		{"abstract-socket", "listen " + tag, "connect " + tag, e(unix.ECONNREFUSED), "a network namespace of its own"},
		{"dev-shm", "mkfile " + shmFile, "stat " + shmFile, e(unix.ENOENT), "no /dev/shm"},
		{"signal-0", "", "kill0 PIDS", e(unix.ESRCH), "a PID namespace of its own"},
		{"signal-0-all", "", "killall0", e(unix.ESRCH), "no one else in its PID namespace"},
	}
	if fi, err := os.Stat("/dev/shm"); err != nil || !fi.IsDir() || unix.Access("/dev/shm", unix.W_OK) != nil {
		t.Logf("no writable /dev/shm on this machine: its probe is skipped")
		probes = slices.DeleteFunc(probes, func(p partnerProbe) bool { return p.name == "dev-shm" })
	}
	return probes
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

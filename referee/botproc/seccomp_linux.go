package botproc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"slices"

	"golang.org/x/sys/unix"
)

// The sandbox's system call filter (bwrap --seccomp) closes the channels that the namespaces
// leave between two bots, above all between the two processes of one bot that are partners
// at the table, which could otherwise tell each other their hands:
//
//   - file locks (flock, and fcntl's F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW) on files
//     both can read (their program, a library) are shared through the inode: they succeed
//     and do nothing, so no bot ever holds a lock another could see;
//   - leases and directory notifications (fcntl F_SETLEASE, F_NOTIFY), inotify and fanotify
//     would tell a bot when another opens or reads a shared file: EPERM and ENOSYS;
//   - the kernel's keyrings (add_key, request_key, keyctl) are per user, and every
//     sandboxed bot of a root arena is the same user: ENOSYS;
//   - the page cache of a file both can read is shared too: one process sets a bit by
//     reading a page of it and clears it with posix_fadvise(POSIX_FADV_DONTNEED), the other
//     reads the bit, without loading the page, with preadv2(RWF_NOWAIT) (EAGAIN: not
//     cached), an asynchronous read with the same flag (io_submit, io_uring) or cachestat.
//     So POSIX_FADV_DONTNEED succeeds and does nothing, preadv2 with RWF_NOWAIT fails with
//     EOPNOTSUPP (as on a file system without it), and io_setup, io_uring and cachestat with
//     ENOSYS. (mincore and MADV_PAGEOUT tell and evict only pages of files the caller may
//     write, none of which partners share.)
//
// It also keeps the bot from making user namespaces of its own (unshare and clone with
// CLONE_NEWUSER: EPERM; clone3, whose flags a filter cannot read: ENOSYS, on which the C
// library falls back to clone), in which it would hold every capability (CAP_SYS_ADMIN,
// CAP_NET_ADMIN), and with them the kernel's namespaced interfaces that no bot needs (mounts,
// netfilter). bwrap --disable-userns does the same where the sandbox has a user namespace of
// its own (an arena that is not root); a root arena's sandbox has none.
//
// Every other call is allowed. System calls of another ABI than the arena's own (x32, i386
// on x86-64) fail with ENOSYS, so the filter cannot be stepped around through them: a
// 32-bit bot program does not run in the sandbox.

// Classic BPF as seccomp runs it: the offsets in struct seccomp_data.
const (
	seccompNrOffset   = 0
	seccompArchOffset = 4
)

// seccompArgOffset is the offset of args[i], its low 32 bits on a little-endian machine.
func seccompArgOffset(i uint32) uint32 { return 16 + 8*i }

// Seccomp return values.
const (
	retAllow  = unix.SECCOMP_RET_ALLOW
	retNoop   = unix.SECCOMP_RET_ERRNO // errno 0: the call returns 0 without being made
	retEPERM  = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	retNoSys  = unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	retNotSup = unix.SECCOMP_RET_ERRNO | uint32(unix.EOPNOTSUPP)
)

// argRules are the calls the filter answers by one of their arguments (its low 32 bits):
// when it has a bit of mask set (set) or equals mask (not set), the call is answered with
// ret; otherwise it is made.
var argRules = []struct {
	nr, arg, mask uint32
	set           bool
	ret           uint32
}{
	{unix.SYS_PREADV2, 5, unix.RWF_NOWAIT, true, retNotSup},
	{unix.SYS_FADVISE64, 3, unix.FADV_DONTNEED, false, retNoop},
	{unix.SYS_UNSHARE, 0, unix.CLONE_NEWUSER, true, retEPERM},
	{unix.SYS_CLONE, 0, unix.CLONE_NEWUSER, true, retEPERM},
}

// fcntl commands and what the filter does with them.
var fcntlRules = []struct {
	cmd uint32
	ret uint32
}{
	{unix.F_SETLK, retNoop}, {unix.F_SETLKW, retNoop}, {unix.F_OFD_SETLK, retNoop}, {unix.F_OFD_SETLKW, retNoop},
	{unix.F_SETLEASE, retEPERM}, {unix.F_NOTIFY, retEPERM},
}

// seccompCalls are the system calls the filter answers itself, without making them.
func seccompCalls() map[uint32]uint32 {
	calls := map[uint32]uint32{
		unix.SYS_FLOCK:             retNoop,
		unix.SYS_INOTIFY_INIT1:     retNoSys,
		unix.SYS_INOTIFY_ADD_WATCH: retNoSys,
		unix.SYS_FANOTIFY_INIT:     retNoSys,
		unix.SYS_FANOTIFY_MARK:     retNoSys,
		unix.SYS_ADD_KEY:           retNoSys,
		unix.SYS_REQUEST_KEY:       retNoSys,
		unix.SYS_KEYCTL:            retNoSys,
		unix.SYS_IO_SETUP:          retNoSys,
		unix.SYS_IO_URING_SETUP:    retNoSys,
		unix.SYS_IO_URING_ENTER:    retNoSys,
		unix.SYS_IO_URING_REGISTER: retNoSys,
		unix.SYS_CACHESTAT:         retNoSys,
		unix.SYS_CLONE3:            retNoSys,
	}
	for _, nr := range archOnlyNoSys {
		calls[nr] = retNoSys
	}
	return calls
}

// seccompProgram assembles the filter: check the ABI, then the calls, then those answered
// by an argument, then fcntl's command. Every jump goes to the next instruction or over one
// (over the three of an argument rule), so no offset needs computing.
func seccompProgram() []unix.SockFilter {
	ld := func(off uint32) unix.SockFilter {
		return unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off}
	}
	ret := func(v uint32) unix.SockFilter { return unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: v} }
	// is: when the accumulator equals k, return v; otherwise go on after it.
	is := func(k, v uint32) []unix.SockFilter {
		return []unix.SockFilter{{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 1, K: k}, ret(v)}
	}
	prog := []unix.SockFilter{
		ld(seccompArchOffset),
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 1, Jf: 0, K: nativeAudit},
		ret(retNoSys),
		ld(seccompNrOffset),
	}
	if abiBit != 0 { // x32 calls are the native arch with a high bit set
		prog = append(prog, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, Jt: 0, Jf: 1, K: abiBit}, ret(retNoSys))
	}
	calls := seccompCalls()
	nrs := make([]uint32, 0, len(calls))
	for nr := range calls {
		nrs = append(nrs, nr)
	}
	slices.Sort(nrs)
	for _, nr := range nrs {
		prog = append(prog, is(nr, calls[nr])...)
	}
	for _, r := range argRules {
		test := unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 1, K: r.mask}
		if r.set {
			test.Code = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		}
		// Another call: over the rule to the reload of the call's number. This one: its
		// argument decides; when it does not match, the number is loaded again.
		prog = append(prog, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 3, K: r.nr},
			ld(seccompArgOffset(r.arg)), test, ret(r.ret), ld(seccompNrOffset))
	}
	// Not fcntl: allowed. fcntl: its command decides.
	prog = append(prog, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 1, Jf: 0, K: unix.SYS_FCNTL}, ret(retAllow), ld(seccompArgOffset(1)))
	for _, r := range fcntlRules {
		prog = append(prog, is(r.cmd, r.ret)...)
	}
	return append(prog, ret(retAllow))
}

// haveSeccomp reports whether the sandbox filters system calls on this architecture (amd64
// and arm64).
const haveSeccomp = nativeAudit != 0

// seccompFile returns a fresh memory file holding the filter, for bwrap's --seccomp (which
// reads it to its end: every sandbox needs a file of its own).
func seccompFile() (*os.File, error) {
	var b bytes.Buffer
	for _, ins := range seccompProgram() {
		_ = binary.Write(&b, binary.NativeEndian, ins)
	}
	f, err := memFile("bwrap-seccomp", b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("sandbox system call filter: %w", err)
	}
	return f, nil
}

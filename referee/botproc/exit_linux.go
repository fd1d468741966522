package botproc

import (
	"encoding/binary"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// siginfoPidOffset is where si_pid lies in a siginfo_t: after three ints, padded to 8 bytes on
// 64-bit platforms.
const siginfoPidOffset = 3*4 + (unsafe.Sizeof(uintptr(0))/8)*4

// waitidNoWait calls waitid(idtype, id, WEXITED|WNOWAIT|extra). It reports whether the
// process has exited (always true without WNOHANG unless there is an error).
func waitidNoWait(idtype int, id uintptr, extra int) (exitInfo, bool, error) {
	var si [128]byte
	for {
		_, _, e := unix.Syscall6(unix.SYS_WAITID, uintptr(idtype), id, uintptr(unsafe.Pointer(&si[0])),
			uintptr(unix.WEXITED|unix.WNOWAIT|extra), 0, 0)
		if e == unix.EINTR {
			continue
		}
		if e != 0 {
			return exitInfo{err: e}, false, e
		}
		break
	}
	pid := int32(binary.NativeEndian.Uint32(si[siginfoPidOffset:]))
	if pid == 0 {
		return exitInfo{}, false, nil // WNOHANG: still running
	}
	return exitInfo{
		code:   int32(binary.NativeEndian.Uint32(si[8:])),
		status: int32(binary.NativeEndian.Uint32(si[siginfoPidOffset+8:])),
	}, true, nil
}

// watchExit waits (in its own goroutine) for the bot's main process to exit without reaping
// it, records how it ended, closes p.exited, and wakes an Exchange blocked on stdout. It uses
// a pidfd in the netpoller when the kernel has pidfd_open (5.3+), so no OS thread is blocked,
// and a blocking waitid otherwise.
func (p *Proc) watchExit() {
	fd, err := unix.PidfdOpen(p.pid, unix.PIDFD_NONBLOCK)
	if err == nil {
		p.pidfd = os.NewFile(uintptr(fd), "pidfd")
	}
	p.spawn(func() {
		var info exitInfo
		ok := false
		if p.pidfd != nil {
			info, ok = waitPidfd(p.pidfd)
		}
		if !ok { // no pidfd, or the wait on it failed (closed by Stop): block in waitid
			info, _, _ = waitidNoWait(unix.P_PID, uintptr(p.pid), 0)
		}
		p.exitInfo = info
		p.exitedFlag.Store(true)
		close(p.exited)
		p.pipes.signal() // an Exchange waiting for a line looks again
	})
}

// waitPidfd waits in the netpoller until the process of pidfd has exited. It reports false if
// it could not tell.
func waitPidfd(pidfd *os.File) (exitInfo, bool) {
	rc, err := pidfd.SyscallConn()
	if err != nil {
		return exitInfo{}, false
	}
	var info exitInfo
	var done bool
	var werr error
	err = rc.Read(func(fd uintptr) bool {
		info, done, werr = waitidNoWait(unix.P_PIDFD, fd, unix.WNOHANG)
		return done || werr != nil
	})
	return info, err == nil && done
}

// groupMembers returns the live (not zombie) processes whose process group is pgid, found by
// scanning /proc. It is used when there is no cgroup to ask.
func groupMembers(pgid int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	var out []int
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + name + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may contain spaces and parentheses.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, err := strconv.Atoi(f[2]); err == nil && g == pgid {
			out = append(out, pid)
		}
	}
	return out
}

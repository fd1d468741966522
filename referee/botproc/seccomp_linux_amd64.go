package botproc

import "golang.org/x/sys/unix"

// nativeAudit is the audit architecture of the arena's own system calls; abiBit marks the
// x32 calls, which the filter refuses.
const (
	nativeAudit = unix.AUDIT_ARCH_X86_64
	abiBit      = 0x40000000 // __X32_SYSCALL_BIT
)

// archOnlyNoSys are the calls of the filter's list that only this architecture has.
var archOnlyNoSys = []uint32{unix.SYS_INOTIFY_INIT}

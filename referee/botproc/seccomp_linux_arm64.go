package botproc

import "golang.org/x/sys/unix"

// nativeAudit is the audit architecture of the arena's own system calls; arm64 has no second
// ABI inside its own (abiBit 0).
const (
	nativeAudit = unix.AUDIT_ARCH_AARCH64
	abiBit      = 0
)

// archOnlyNoSys are the calls of the filter's list that only this architecture has.
var archOnlyNoSys []uint32

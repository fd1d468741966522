//go:build linux && !amd64 && !arm64

package botproc

// On other architectures the sandbox has no system call filter (nativeAudit 0): its
// description says so.
const (
	nativeAudit = 0
	abiBit      = 0
)

// archOnlyNoSys are the calls of the filter's list that only this architecture has.
var archOnlyNoSys []uint32

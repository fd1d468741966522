//go:build linux && race

package botproc

// raceEnabled says whether the tests run with the race detector, which makes system call
// wrappers allocate.
const raceEnabled = true

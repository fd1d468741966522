package main

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// cpuAffinity says whether threads can be pinned to CPUs here.
const cpuAffinity = true

// pinReferee pins the calling goroutine's thread, which runs the referee, to the table's CPU
// in shared mode, and returns the function that undoes it.
func (p placement) pinReferee() func() {
	if p.mode != "shared" {
		return func() {}
	}
	runtime.LockOSThread()
	var old, set unix.CPUSet
	if unix.SchedGetaffinity(0, &old) != nil {
		runtime.UnlockOSThread()
		return func() {}
	}
	set.Set(p.cpu)
	if unix.SchedSetaffinity(0, &set) != nil {
		runtime.UnlockOSThread()
		return func() {}
	}
	return func() {
		_ = unix.SchedSetaffinity(0, &old)
		runtime.UnlockOSThread()
	}
}

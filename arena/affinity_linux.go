package main

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// cpuAffinity says whether threads can be pinned to CPUs here.
const cpuAffinity = true

// usableCPUs are the CPUs the arena may run on (its affinity when it started, which taskset,
// cgroups or Slurm may have narrowed), in order.
var usableCPUs = startCPUs()

// startCPUs returns the CPUs of the calling thread's affinity: at package initialisation, the
// main thread's, which nothing has pinned yet. Without an answer it assumes CPUs 0 to
// NumCPU-1.
func startCPUs() []int {
	var set unix.CPUSet
	var cpus []int
	if unix.SchedGetaffinity(0, &set) == nil {
		for i := range len(set) * 64 {
			if set.IsSet(i) {
				cpus = append(cpus, i)
			}
		}
	}
	if len(cpus) == 0 {
		for i := range runtime.NumCPU() {
			cpus = append(cpus, i)
		}
	}
	return cpus
}

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

package main

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// placement is where a match's processes run. The protocol is lock-step (one process works
// at a time), so putting the referee and the bots of a table on one CPU saves the cross-CPU
// wake-up on every line (BENCHMARKS.md measures both ways).
type placement struct {
	mode string
	cpu  int // the table's CPU in shared mode
}

func parsePlacement(mode string) (placement, error) {
	switch mode {
	case "shared", "spread", "none":
		return placement{mode: mode}, nil
	}
	return placement{}, fmt.Errorf("--affinity %q: want shared, spread or none", mode)
}

// bot returns the CPUs for the bot at seat, or nil for no restriction.
func (p placement) bot(seat int) []int {
	switch p.mode {
	case "shared":
		return []int{p.cpu}
	case "spread":
		return []int{seat % runtime.NumCPU()}
	}
	return nil
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

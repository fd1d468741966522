package main

import (
	"fmt"
	"runtime"
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
		if !cpuAffinity {
			return placement{mode: "none"}, nil // macOS: nothing to place (botproc.Limits says so)
		}
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

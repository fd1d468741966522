package main

import (
	"fmt"
	"sync"

	"github.com/klaverjas-arena/arena/arena/cpuclaim"
)

// placement is where a match's processes run. The protocol is lock-step (one process works
// at a time), so putting the referee and the bots of a table on one CPU saves the cross-CPU
// wake-up on every line (BENCHMARKS.md measures both ways); concurrent tables, in this arena
// process or another, each claim a CPU of their own (package cpuclaim), so that they spread
// over the CPUs the arena may use.
type placement struct {
	mode string
	cpu  int // the table's CPU in shared mode (see at)
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

// tableCPUs are the CPU claims of this process's tables.
var tableCPUs = sync.OnceValue(func() *cpuclaim.Claims { return cpuclaim.New(cpuclaim.DefaultDir(), usableCPUs) })

// at returns the placement of the table in slot (a league's worker slot, a part of a match
// played in parallel; 0 for a match alone): in shared mode, on the CPU the slot claims.
func (p placement) at(slot int) placement {
	if p.mode == "shared" {
		p.cpu = tableCPUs().CPU(slot)
	}
	return p
}

// bot returns the CPUs for the bot at seat, or nil for no restriction.
func (p placement) bot(seat int) []int {
	switch p.mode {
	case "shared":
		return []int{p.cpu}
	case "spread":
		return []int{usableCPUs[seat%len(usableCPUs)]}
	}
	return nil
}

package main

import "golang.org/x/sys/unix"

// pinProcess sets the CPU affinity of process pid to cpu, if it can.
func pinProcess(pid, cpu int) {
	var set unix.CPUSet
	set.Set(cpu)
	_ = unix.SchedSetaffinity(pid, &set)
}

package main

// pinProcess does nothing: macOS has no CPU affinity.
func pinProcess(pid, cpu int) {}

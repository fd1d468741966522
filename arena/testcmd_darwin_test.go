package main

import "os/exec"

// arenaCommand is exec.Command for an arena binary a test runs. macOS has no parent-death
// signal: an arena left by a test binary that panics on its timeout must be stopped by hand.
func arenaCommand(name string, args ...string) *exec.Cmd { return exec.Command(name, args...) }

package main

import (
	"os/exec"
	"syscall"
)

// arenaCommand is exec.Command for an arena binary a test runs, killed with the test process
// (Pdeathsig): a test binary that panics on its timeout runs no cleanup, and an arena match
// left behind would play on, and write its log, for hours. The test binary's threads live as
// long as it does (none exits locked), so the signal comes when the test process ends.
func arenaCommand(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd
}

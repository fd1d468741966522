// Command arena is the Klaverjas bot arena: it referees games between bots, enforcing the
// rules of the ruleset it is given.
package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

func main() {
	stop, err := profileCPU(os.Getenv("ARENA_CPUPROFILE"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "arena: ARENA_CPUPROFILE:", err)
		os.Exit(2)
	}
	code := run(os.Args, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// profileCPU starts a CPU profile of the whole command into the file path (none when path
// is ""), for `go tool pprof`; the function it returns ends it.
func profileCPU(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

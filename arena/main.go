// Command arena is the Klaverjas bot arena: it referees games between bots, enforcing the
// rules of the ruleset it is given.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
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

// refereeGC makes the garbage collector of a command that referees (match, league) run a
// quarter as often: the referee's live heap is a few megabytes and its garbage short-lived, so
// at Go's default the collector ran some fifty times in a league of fast bots that took 1.5 s,
// 3-5% of its CPU time, for a heap of 16 MB at most instead of 4. The commands that read a
// whole league's records (export, replay --verify) use it too: their live heap is a few
// chunks of decoded deals, and the records' garbage made the collector a quarter of replay
// --verify's CPU time (BENCHMARKS.md, "Reads at a million deals"). GOGC, if set, is obeyed.
func refereeGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

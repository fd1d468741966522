//go:build linux

package botproc

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/sys/unix"
)

// BenchmarkExchange measures one request/answer round trip with the test binary as an echo
// bot, through botproc (without and with the bot's sandbox, and demoted by the turn
// priority: two cgroup writes a turn) and through a bare pipe to the same program, with the
// bot and the arena free to use any CPU or all pinned to CPU 0.
//
//	go test -run '^$' -bench Exchange -benchtime 20000x ./referee/botproc/
func BenchmarkExchange(b *testing.B) {
	for _, pinned := range []bool{false, true} {
		suffix := "/anycpu"
		if pinned {
			suffix = "/samecpu"
		}
		b.Run("botproc"+suffix, func(b *testing.B) { benchBotproc(b, pinned, false, false) })
		b.Run("sandbox"+suffix, func(b *testing.B) { benchBotproc(b, pinned, true, false) })
		b.Run("demoted"+suffix, func(b *testing.B) { benchBotproc(b, pinned, false, true) })
		b.Run("rawpipe"+suffix, func(b *testing.B) { benchRawPipe(b, pinned) })
	}
}

func benchBotproc(b *testing.B, pinned, sandbox, demoted bool) {
	bot := goBot(b, "echo")
	if sandbox {
		needSandbox(b)
		bot.Sandbox = &Sandbox{}
	}
	if pinned {
		defer pinArena(b, 0)()
		bot.CPUs = []int{0}
	}
	p, err := Start(context.Background(), bot.Spec, zerolog.Nop())
	if err != nil {
		b.Fatal(err)
	}
	defer p.Stop(time.Second)
	if demoted {
		if p.cg == nil || !p.cg.turnable() {
			b.Skip("no cpu cgroup controller for the turn priority")
		}
		p.turn.mu.Lock()
		p.turn.demoted = true
		err := p.cg.demote()
		p.turn.mu.Unlock()
		if err != nil {
			b.Fatal(err)
		}
	}
	req := []byte("req x\n")
	if _, err := p.Exchange(req, true, 10*time.Second); err != nil {
		b.Fatal(err)
	}
	var cpu time.Duration
	b.ResetTimer()
	arena0 := arenaCPU()
	for b.Loop() {
		r, err := p.Exchange(req, true, 10*time.Second)
		if err != nil || r.Line != "ans x" {
			b.Fatalf("%q %v", r.Line, err)
		}
		cpu += r.CPU
	}
	b.ReportMetric(float64((arenaCPU()-arena0).Nanoseconds())/float64(b.N), "arena-cpu-ns/op")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "bot-cpu-ns/op")
}

// arenaCPU returns the CPU time of the test process, all threads.
func arenaCPU() time.Duration {
	var ru unix.Rusage
	_ = unix.Getrusage(unix.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchRawPipe(b *testing.B, pinned bool) {
	if pinned {
		defer pinArena(b, 0)()
	}
	bot := goBot(b, "echo")
	cmd := exec.Command(bot.Argv[0], bot.Argv[1:]...)
	cmd.Env = bot.Env
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	cmd.Stdin, cmd.Stdout = inR, outW
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	inR.Close()
	outW.Close()
	defer func() {
		inW.Close()
		cmd.Wait()
		outR.Close()
	}()
	br := bufio.NewReader(outR)
	req := []byte("req x\n")
	b.ResetTimer()
	arena0 := arenaCPU()
	for b.Loop() {
		if _, err := inW.Write(req); err != nil {
			b.Fatal(err)
		}
		line, err := br.ReadSlice('\n')
		if err != nil || string(line) != "ans x\n" {
			b.Fatalf("%q %v", line, err)
		}
	}
	b.ReportMetric(float64((arenaCPU()-arena0).Nanoseconds())/float64(b.N), "arena-cpu-ns/op")
}

// pinArena sets the CPU affinity of every thread of the test process to cpu (new threads
// inherit it) and returns a function that restores the previous affinity.
func pinArena(b *testing.B, cpu int) func() {
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		b.Fatal(err)
	}
	set.Set(cpu)
	apply := func(s *unix.CPUSet) {
		tasks, _ := os.ReadDir("/proc/self/task")
		for _, t := range tasks {
			if tid, err := strconv.Atoi(t.Name()); err == nil {
				_ = unix.SchedSetaffinity(tid, s)
			}
		}
	}
	apply(&set)
	return func() { apply(&old) }
}

// BenchmarkCPUTime measures the two ways Exchange reads a bot's CPU time (twice per answer),
// and the reading of its wait for a CPU that goes with each.
func BenchmarkCPUTime(b *testing.B) {
	bot := goBot(b, "echo")
	p, err := Start(context.Background(), bot.Spec, zerolog.Nop())
	if err != nil {
		b.Fatal(err)
	}
	defer p.Stop(time.Second)
	b.Run("cgroup-cpu.stat", func(b *testing.B) {
		if p.cg == nil {
			b.Skip("no cgroup")
		}
		for b.Loop() {
			if _, ok := p.cg.cpuTime(p.cpuBuf[:]); !ok {
				b.Fatal("no cpu.stat")
			}
		}
	})
	b.Run("process-clock", func(b *testing.B) {
		for b.Loop() {
			processCPUClock(p.Pid())
		}
	})
	b.Run("cgroup-cpu.pressure", func(b *testing.B) { // read with each CPUSinceMark
		if p.cg == nil || p.cg.psi < 0 {
			b.Skip("no cgroup cpu.pressure")
		}
		for b.Loop() {
			if _, ok := p.cg.cpuWait(p.cpuBuf[:]); !ok {
				b.Fatal("cpu.pressure unreadable")
			}
		}
	})
}

// BenchmarkStart measures what a bot's start costs the arena: Start, the first answer of a
// shell bot and Stop, without and with its sandbox (the same limits: memory and pids
// cgroups), and in the sandbox with a scratch directory on the host's file system and with a
// scratch file system of 64 MiB (as root). It reports the median and the 95th percentile of
// the whole cycle.
//
//	go test -run '^$' -bench Start -benchtime 200x ./referee/botproc/
func BenchmarkStart(b *testing.B) {
	for _, name := range []string{"plain", "sandbox", "scratch", "scratchfs"} {
		b.Run(name, func(b *testing.B) {
			bot := shBot(b, `read -r _; echo "ans ready"; read -r _`)
			bot.MemoryMax, bot.PidsMax = 1<<30, 256
			if name != "plain" {
				needSandbox(b)
				bot.Sandbox = &Sandbox{}
			}
			if name == "scratch" || name == "scratchfs" {
				bot.Sandbox.Scratch = b.TempDir()
			}
			if name == "scratchfs" {
				if os.Geteuid() != 0 {
					b.Skip("a scratch file system needs root")
				}
				bot.Sandbox.ScratchSize = 64 << 20
			}
			var took []time.Duration
			for b.Loop() {
				start := time.Now()
				p, err := Start(context.Background(), bot.Spec, zerolog.Nop())
				if err != nil {
					b.Fatal(err)
				}
				if r, err := p.Exchange([]byte("req ready\n"), true, 10*time.Second); err != nil || r.Line != "ans ready" {
					b.Fatalf("%q %v", r.Line, err)
				}
				if err := p.Stop(time.Second); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
				if p.scratchImage != "" {
					os.Remove(p.scratchImage) // 64 MiB allocated: not kept for the whole run
				}
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms-p50")
			b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "ms-p95")
		})
	}
}

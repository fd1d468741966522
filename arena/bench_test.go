package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/botdef"
	"github.com/klaverjas-arena/arena/arena/confine"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/botproc"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rs/zerolog"
)

// TestMain lets the test binary double as the benchmarks' child processes: a trivial bot
// (first legal bid, lowest legal card) or a line echo, chosen by ARENA_BENCH_CHILD; and as
// the commands of the CLI scripts (script_test.go): arena itself and that bot.
func TestMain(m *testing.M) {
	switch os.Getenv("ARENA_BENCH_CHILD") {
	case "bot":
		lowestBot()
	case "echo":
		in, out := bufio.NewReader(os.Stdin), bufio.NewWriter(os.Stdout)
		for {
			line, err := in.ReadSlice('\n')
			if err != nil {
				os.Exit(0)
			}
			out.Write(line)
			out.Flush()
		}
	}
	testscript.Main(m, scriptCommands)
}

// lowestBot plays the first legal bid and the lowest legal card, and exits.
func lowestBot() {
	_ = bot.Run(bot.Bot{Name: "lowest", Decide: func(_ *bot.State, d bot.Decision) bot.Answer {
		if d.Kind == bot.BidKind {
			return bot.Answer{Bid: d.LegalBids.All()[0]}
		}
		return bot.Answer{Card: d.LegalCards.Lowest()}
	}})
	os.Exit(0)
}

// childCommand returns a benchmark child: "echo" and "bot" are this test binary (Go), "cat"
// is /bin/cat and "c" the C bot of testdata/firstbot.c, built with the system's cc.
func childCommand(b *testing.B, kind string) botdef.Bot {
	switch kind {
	case "cat":
		return botdef.Bot{Name: kind, Cmd: []string{"/bin/cat"}}
	case "c":
		out := filepath.Join(b.TempDir(), "firstbot")
		if msg, err := exec.Command("cc", "-O2", "-o", out, "testdata/firstbot.c").CombinedOutput(); err != nil {
			b.Skipf("no C compiler to build the C bot (%v): %s", err, msg)
		}
		return botdef.Bot{Name: kind, Cmd: []string{out}}
	}
	exe, _ := os.Executable()
	return botdef.Bot{Name: kind, Cmd: []string{exe}, Env: map[string]string{"ARENA_BENCH_CHILD": kind}}
}

var placements = []string{"shared", "none"}

// BenchmarkRawPipe is the baseline: a 100-byte line to a child and back over plain pipes,
// with the same CPU placement as the match benchmark.
func BenchmarkRawPipe(b *testing.B) {
	for _, child := range []string{"cat", "echo"} {
		for _, mode := range placements {
			b.Run(child+"/"+mode, func(b *testing.B) { rawPipe(b, child, mode) })
		}
	}
}

func rawPipe(b *testing.B, child, mode string) {
	p, _ := parsePlacement(mode)
	p = p.at(0)
	defer p.pinReferee()()
	spec := childCommand(b, child)
	cmd := exec.Command(spec.Cmd[0])
	cmd.Env = os.Environ()
	for k, v := range spec.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cpu := cpuNow()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	if cpus := p.bot(0); cpus != nil {
		pinProcess(cmd.Process.Pid, cpus[0])
	}
	r := bufio.NewReader(stdout)
	line := []byte(fmt.Sprintf("%099d\n", 0))
	trips := 0
	for b.Loop() {
		if _, err := stdin.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := r.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
		trips++
	}
	stdin.Close()
	_ = cmd.Wait()
	b.ReportMetric(float64((cpuNow()-cpu).Nanoseconds())/float64(trips), "cpu-ns/op")
}

// cpuNow is the CPU time of this process and of its children that have ended: the arena's
// and the bots' work together, which other load on the machine does not inflate as it does
// wall time.
func cpuNow() time.Duration {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	d := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return d(self.Utime) + d(self.Stime) + d(children.Utime) + d(children.Stime)
}

// BenchmarkMatchProcesses plays whole duplicate games between four trivial bot processes:
// the arena's cost per decision, protocol and pipes included, and deals per second.
func BenchmarkMatchProcesses(b *testing.B) {
	for _, child := range []string{"c", "bot"} {
		for _, mode := range placements {
			b.Run(child+"/"+mode, func(b *testing.B) { matchProcesses(b, child, mode, "amsterdams", 4, unconfined) })
		}
	}
	// The same with every bot in its sandbox (the default of arena match and league).
	b.Run("c/shared/sandbox", func(b *testing.B) {
		if err := botproc.SandboxError(); err != nil {
			b.Skipf("no sandbox here: %v", err)
		}
		matchProcesses(b, "c", "shared", "amsterdams", 4, confine.Policy{})
	})
	// The three-player game at a table of three, C bots on one CPU with the referee.
	b.Run("c/shared/drie_spelers", func(b *testing.B) { matchProcesses(b, "c", "shared", "drie_spelers", 3, unconfined) })
	// Fifty games a match instead of five: the bots' start-up (eight processes a match, each
	// started, greeted and stopped) spread over ten times the decisions, near what a decision
	// costs in a match under way.
	b.Run("c/shared/long", func(b *testing.B) { matchProcessesGames(b, "c", "shared", "amsterdams", 4, unconfined, 50) })
}

// unconfined is the policy of the benchmarks without a sandbox.
var unconfined = confine.Policy{Off: true}

func matchProcesses(b *testing.B, child, mode, preset string, bots int, policy confine.Policy) {
	matchProcessesGames(b, child, mode, preset, bots, policy, 5)
}

// matchProcessesGames plays duplicate matches of the given games a set, one an op.
func matchProcessesGames(b *testing.B, child, mode, preset string, bots int, policy confine.Policy, games int) {
	rs, err := rules.Preset(preset)
	if err != nil {
		b.Fatal(err)
	}
	p, _ := parsePlacement(mode)
	p = p.at(0)
	defer p.pinReferee()()
	spec := childCommand(b, child)
	e := make([]referee.Entrant, bots)
	for i := range e {
		e[i] = referee.Entrant{Name: child, Start: procStarter(spec, p.bot(i), policy, zerolog.Nop())}
	}
	decisions, deals := 0, 0
	cpu := cpuNow()
	for b.Loop() {
		res, err := referee.Run(context.Background(), referee.Config{Rules: rs, Games: games, Duplicate: true, Seed: 1}, e)
		if err != nil {
			b.Fatal(err)
		}
		deals += res.Deals
		for _, bs := range res.Bots {
			decisions += bs.Decisions
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
	b.ReportMetric(float64((cpuNow()-cpu).Nanoseconds())/float64(decisions), "cpu-ns/decision")
	b.ReportMetric(float64(deals)/b.Elapsed().Seconds(), "deals/s")
}

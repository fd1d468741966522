package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The cost of serving a running league (make bench-serve; BENCHMARKS.md, "The cost of
// serving a running league"). One league of four copies of the C bot of testdata/firstbot.c
// (sandbox off: the figures are the arena's own), played whole by the arena binary in three
// ways, alternating, ROUNDS rounds:
//
//   - plain: without --serve;
//   - spectators: with --serve, while sseClients clients hold the league's event stream
//     open and pollClients clients each load the league page, a bot page, a match page, a
//     deal page and the league's JSON in turn, pollRate requests a second each;
//   - hammer: with --serve, the same event streams and one client loading those pages one
//     after the other as fast as it can.
//
// Each run reports deals/s (wall time of the whole process) and the arena process's own CPU
// time per deal (user+sys from /proc/PID/stat, read when it has exited and before it is
// reaped: the bots' CPU is not in it), and the ratios of the served runs to the plain ones.
// The spectators' cost must stay under 5% of the CPU per deal (the goal), compared
// by the medians of the rounds. With ARENA_BENCH_SERVE_PROFILES=DIR every run writes a CPU
// profile of the arena (ARENA_CPUPROFILE) to DIR/MODE-ROUND.pprof: the share of its samples
// under net/http.(*conn).serve is the server's part of the arena's CPU, without the noise of
// a shared machine (go tool pprof -top -cum ARENA DIR/spectators-1.pprof).
const (
	sseClients  = 4
	pollClients = 4
	pollRate    = 3 // requests a second, per polling client
)

// serveRun is one measured run.
type serveRun struct {
	mode     string
	wall     time.Duration
	cpu      time.Duration // the arena process's user+sys
	children time.Duration // its bots' (waited-for children's) user+sys
	requests int64         // page and API answers, status 200
	other    int64         // answers of another status (a match not yet stored)
	events   int64         // server-sent events received, all streams
	streams  int64         // event streams that received an event
}

func TestServeCost(t *testing.T) {
	if os.Getenv("ARENA_BENCH_SERVE") == "" {
		t.Skip("benchmark of a few minutes: make bench-serve runs it (ARENA_BENCH_SERVE=1)")
	}
	arena, bot := buildTools(t)
	if b := os.Getenv("ARENA_BENCH_SERVE_ARENA"); b != "" {
		arena = b // another build (an older one, to compare)
	}
	if filepath.Base(bot[0]) != "firstbot" {
		t.Skip("benchmark skipped: it needs the C bot of testdata/firstbot.c, and cc could not build it")
	}
	rounds, games := envInt(t, "ROUNDS", 3), envInt(t, "GAMES", 200)
	deals := 96 * games // 6 pairings, 16 deals a game
	dir := botDir(t)
	var lf strings.Builder
	fmt.Fprintf(&lf, "name = \"bench\"\ngames = %d\nseed = 1\nsandbox = \"off\"\nconcurrency = 2\n", games)
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&lf, "[[bot]]\nname = \"c%d\"\ncmd = [%q]\n", i, bot[0])
	}
	file := filepath.Join(dir, "bench.toml")
	if err := os.WriteFile(file, []byte(lf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cpuModel, _ := exec.Command("sh", "-c", "lscpu | grep 'Model name'").Output()
	t.Logf("arena %s; %d deals a run, %d rounds; %s", arena, deals, rounds, strings.TrimSpace(string(cpuModel)))
	modes := []string{"plain", "spectators", "hammer"}
	runs := map[string][]serveRun{}
	for round := range rounds {
		load, _ := os.ReadFile("/proc/loadavg")
		t.Logf("round %d, load %s", round+1, strings.Join(strings.Fields(string(load))[:3], " "))
		for k := range modes {
			mode := modes[(k+round)%len(modes)] // each mode in each place of the order
			profile := ""
			if d := os.Getenv("ARENA_BENCH_SERVE_PROFILES"); d != "" {
				profile = filepath.Join(d, fmt.Sprintf("%s-%d.pprof", mode, round+1))
			}
			r := serveOnce(t, arena, file, filepath.Join(dir, mode+".db"), mode, profile)
			runs[mode] = append(runs[mode], r)
			t.Logf("  %-10s %6.0f deals/s  %7.1f µs CPU/deal (arena; bots %5.1f µs)  %5d answers (%d other)  %4d events on %d streams",
				mode, float64(deals)/r.wall.Seconds(), perDeal(r.cpu, deals), perDeal(r.children, deals), r.requests, r.other, r.events, r.streams)
			if mode != "plain" && (r.streams < sseClients || r.requests == 0) {
				t.Errorf("%s run: %d of %d event streams received an event, %d pages answered: the load did not reach the server", mode, r.streams, sseClients, r.requests)
			}
		}
	}
	median := func(mode string, f func(serveRun) float64) float64 {
		var v []float64
		for _, r := range runs[mode] {
			v = append(v, f(r))
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	rate := func(r serveRun) float64 { return float64(deals) / r.wall.Seconds() }
	cpu := func(r serveRun) float64 { return perDeal(r.cpu, deals) }
	for _, mode := range modes[1:] {
		var reqs int64
		for _, r := range runs[mode] {
			reqs += r.requests
		}
		t.Logf("%s / plain (medians): deals/s %.3f, arena CPU per deal %.3f; %.0f requests/s served",
			mode, median(mode, rate)/median("plain", rate), median(mode, cpu)/median("plain", cpu),
			float64(reqs)/float64(len(runs[mode]))/(float64(deals)/median(mode, rate)))
	}
	if ratio := median("spectators", cpu) / median("plain", cpu); ratio > 1.05 {
		t.Errorf("serving spectators costs the league %.1f%% more CPU per deal: more than 5%%", 100*(ratio-1))
	}
}

// serveOnce plays the league once into a fresh database db, with the load of mode, writing
// a CPU profile of the arena to profile (none if "").
func serveOnce(t *testing.T, arena, file, db, mode, profile string) serveRun {
	t.Helper()
	_ = os.Remove(db)
	args := []string{"league", "--db", db, "--progress-every", "1h"}
	if mode != "plain" {
		args = append(args, "--serve", "127.0.0.1:0")
	}
	cmd := arenaCommand(arena, append(args, file)...)
	cmd.Env = append(os.Environ(), "ARENA_CPUPROFILE="+profile)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	run := serveRun{mode: mode}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	var clients sync.WaitGroup
	var out strings.Builder
	lines := make(chan struct{})
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			out.WriteString(sc.Text() + "\n")
			if addr, ok := strings.CutPrefix(sc.Text(), "viewer: "); ok {
				base := strings.TrimSuffix(strings.Fields(addr)[0], "/")
				spectate(ctx, &clients, base, mode, &run)
			}
		}
	}()
	// Wait for the exit without reaping the process, so that its own CPU time can be read.
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
		t.Fatal(err)
	}
	run.wall = time.Since(start)
	run.cpu, run.children, err = procCPU(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	<-lines
	stop()
	clients.Wait()
	if err != nil || !strings.Contains(out.String(), "league bench finished") {
		t.Fatalf("%s run: %v\n%s", mode, err, out.String())
	}
	return run
}

// spectate starts the clients of mode against the viewer at base; they stop with ctx.
func spectate(ctx context.Context, wg *sync.WaitGroup, base, mode string, run *serveRun) {
	pages := []string{"/league/bench", "/league/bench/bot/c1", "/league/bench/match/0", "/league/bench/match/0/deal/1", "/api/league/bench"}
	client := &http.Client{Timeout: time.Minute}
	get := func(path string) {
		resp, err := client.Get(base + path)
		if err != nil {
			return // the league ended and the server with it
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			atomic.AddInt64(&run.requests, 1)
		} else {
			atomic.AddInt64(&run.other, 1)
		}
	}
	for range sseClients {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/league/bench/events", nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(nil, 1<<20)
			seen := false
			for sc.Scan() {
				if sc.Text() == "event: progress" {
					atomic.AddInt64(&run.events, 1)
					if !seen {
						seen = true
						atomic.AddInt64(&run.streams, 1)
					}
				}
			}
		})
	}
	if mode == "hammer" {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				get(pages[i%len(pages)])
			}
		})
		return
	}
	for c := range pollClients {
		wg.Go(func() {
			tick := time.NewTicker(time.Second / pollRate)
			defer tick.Stop()
			for i := c; ; i++ {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
					get(pages[i%len(pages)])
				}
			}
		})
	}
}

// procCPU reads an exited, not yet reaped process's user+sys time, and its waited-for
// children's, from /proc/PID/stat.
func procCPU(pid int) (own, children time.Duration, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	// The fields after the command name (which is in parentheses and may hold spaces):
	// utime, stime, cutime and cstime are fields 14-17 of the line, f[11:15].
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(f) < 16 {
		return 0, 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f))
	}
	var ticks [4]int64
	for i := range ticks {
		if ticks[i], err = strconv.ParseInt(f[11+i], 10, 64); err != nil {
			return 0, 0, fmt.Errorf("/proc/%d/stat: %v", pid, err)
		}
	}
	const hz = 100 // USER_HZ, the unit of /proc's times on Linux
	tick := time.Second / hz
	return time.Duration(ticks[0]+ticks[1]) * tick, time.Duration(ticks[2]+ticks[3]) * tick, nil
}

func perDeal(d time.Duration, deals int) float64 { return float64(d.Microseconds()) / float64(deals) }

// envInt reads a positive number from the environment, or def.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive number", name, v)
	}
	return n
}

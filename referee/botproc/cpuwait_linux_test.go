package botproc

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee"
	"golang.org/x/sys/unix"
)

// TestTimeoutCPUWait: a bot that computes past its deadline on a CPU it shares with a
// busy process was kept from that CPU about half the time, and its timeout says so, from its
// cgroup's cpu.pressure; a bot that sleeps past its deadline waited for nothing, and its
// timeout does not blame the machine; one that keeps two processes busy on its one CPU waits
// for itself, which is not counted: at most what other programs took of the CPU is. The bots
// and the busy process are pinned to CPU 0 (sched_setaffinity through Spec.CPUs), so other
// load on the machine only adds to the first bot's wait.
func TestTimeoutCPUWait(t *testing.T) {
	s := cgroups()
	if s.v2Parent == "" {
		t.Skip("no cgroup v2 for the bots: cpu.pressure is per cgroup")
	}
	if _, err := os.Stat(filepath.Join(s.v2Parent, "cpu.pressure")); err != nil {
		t.Skip("the kernel keeps no CPU pressure (PSI) here:", err)
	}
	// Not a bot: the turn watchdog would demote a bot that computes while it is not to move.
	hog := exec.Command("/bin/sh", "-c", "while :; do :; done")
	if err := hog.Start(); err != nil {
		t.Fatal(err)
	}
	stopHog := func() { _ = hog.Process.Kill(); _ = hog.Wait() }
	t.Cleanup(stopHog)
	var cpu0 unix.CPUSet
	cpu0.Set(0)
	if err := unix.SchedSetaffinity(hog.Process.Pid, &cpu0); err != nil {
		t.Fatal(err)
	}

	// As arena check runs a bot (its CPU time read with every answer), and as the referee
	// does (Conn.MeterCPU: read once a deal, here just before the request).
	for _, metered := range []bool{false, true} {
		busy := pyBot(t, pyReady+`sys.stdin.readline()
while True:
    pass`)
		busy.CPUs = []int{0}
		p := mustStart(t, busy)
		ready(t, p)
		since := "since its previous answer"
		if metered {
			Conn{Proc: p}.MeterCPU()
			p.CPUSinceMark()
			since = "since the end of an earlier deal"
		}
		_, err := p.Exchange([]byte("req x\n"), true, time.Second)
		f := wantFault(t, err, referee.FaultTimeout, "the machine was busy, not only the bot slow")
		t.Logf("busy bot: %s", f.Detail)
		if m := regexp.MustCompile(`for (\d+) ms ` + since + ` it was ready to run but other programs had the CPU`).FindStringSubmatch(f.Detail); m == nil {
			t.Errorf("the timeout of a bot sharing its CPU does not give its wait %s: %s", since, f.Detail)
		} else if ms, _ := strconv.Atoi(m[1]); ms < 200 {
			t.Errorf("waited %d ms of a 1 s decision on a CPU shared with a busy process, want about half", ms)
		}
		_ = p.Stop(100 * time.Millisecond) // so that the next bot shares CPU 0 with the busy process only
	}

	sleeper := pyBot(t, pyReady+`sys.stdin.readline()
time.sleep(30)`)
	sleeper.CPUs = []int{0}
	p := mustStart(t, sleeper)
	ready(t, p)
	_, err := p.Exchange([]byte("req x\n"), true, time.Second)
	f := wantFault(t, err, referee.FaultTimeout, "no answer within 1s")
	t.Logf("sleeping bot: %s", f.Detail)
	if regexp.MustCompile(`machine was busy`).MatchString(f.Detail) {
		t.Errorf("a sleeping bot's timeout blames the machine: %s", f.Detail)
	}
	_ = p.Stop(100 * time.Millisecond)

	// The busy process is stopped: the bot's two processes wait mostly for each other, which
	// is not counted. They are always ready to run, so the time none of them ran is what
	// other programs took of CPU 0 (other load on the machine), the second and the CPU time
	// they had apart; counting their waits for each other would give about the whole second.
	stopHog()
	twice := shBot(t, `read x; echo ans ready; read x; (while :; do :; done) & while :; do :; done`)
	twice.CPUs = []int{0}
	p = mustStart(t, twice)
	ready(t, p)
	before := p.cpuNow()
	_, err = p.Exchange([]byte("req x\n"), true, time.Second)
	cpu := p.cpuNow() - before
	f = wantFault(t, err, referee.FaultTimeout, "no answer within 1s")
	t.Logf("bot with two busy processes, %v of CPU: %s", cpu, f.Detail)
	reported := 0
	if m := regexp.MustCompile(`for (\d+) ms since its previous answer`).FindStringSubmatch(f.Detail); m != nil {
		reported, _ = strconv.Atoi(m[1])
	}
	switch others := time.Second - cpu; {
	case cpu < 200*time.Millisecond:
		t.Logf("the bot had only %v of CPU 0 in its second: the machine is too busy to tell its own waits from the machine's", cpu)
	case time.Duration(reported)*time.Millisecond > others+100*time.Millisecond:
		t.Errorf("the timeout reports %d ms kept from the CPU, but others had at most %v of it: the bot's waits for its own processes are counted", reported, others)
	}
}

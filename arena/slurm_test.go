package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
)

// exampleLeague writes a league of example bots (the Go heuristic and two random bots with
// fixed seeds, all deterministic and stateless: a match resumed after a requeue goes on as
// the uninterrupted one) with the given games per pairing. It starts fresh bot processes for
// every match (keep_bots = false), which makes a shard last long enough for TestSlurm to catch
// it running and requeue it; kept processes are tested with shards by TestShardKill9Merge.
func exampleLeague(t *testing.T, dir string, games int) string {
	t.Helper()
	buildTools(t)
	heuristic := filepath.Join(buildDir, "heuristic")
	if _, err := os.Stat(heuristic); err != nil {
		if out, err := exec.Command("go", "build", "-o", heuristic, "../examplebots/go/heuristic").CombinedOutput(); err != nil {
			t.Fatalf("go build heuristic: %v: %s", err, out)
		}
	}
	text := fmt.Sprintf(`name = "t"
games = %d
seed = 3
concurrency = 1
keep_bots = false
[[bot]]
name = "heuristic"
cmd = [%q]
[[bot]]
name = "random-1"
cmd = [%q, "-seed", "1", "-stateless"]
[[bot]]
name = "random-2"
cmd = [%q, "-seed", "2", "-stateless"]
`, games, heuristic, randomBot, randomBot)
	path := filepath.Join(dir, "league.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sameAsWhole checks a merged database against the league played whole: every check of a
// league's store, the same totals, deals (but for the bots' times) and ratings.
func sameAsWhole(t *testing.T, merged, whole, file string) {
	t.Helper()
	got, want := checkStore(t, merged, file), checkStore(t, whole, file)
	for i := range want.Bots {
		if fmt.Sprint(got.Bots[i]) != fmt.Sprint(want.Bots[i]) {
			t.Errorf("bot %d merged: %+v\nwhole: %+v", i, got.Bots[i], want.Bots[i])
		}
	}
	if untimedDeals(t, merged) != untimedDeals(t, whole) {
		t.Error("the merged deals differ from the whole league's")
	}
	ea, eb := standingsElo(t, merged), standingsElo(t, whole)
	for bot, e := range eb {
		if math.Abs(ea[bot]-e) > 1e-6 {
			t.Errorf("%s: merged elo %v, whole %v", bot, ea[bot], e)
		}
	}
}

// TestSlurmScripts runs the scripts arena slurm writes the way Slurm would, without Slurm:
// each array task with its SLURM_ARRAY_TASK_ID, then the merge. The merged database must
// equal the league played whole with the key arena slurm made in DIR.
func TestSlurmScripts(t *testing.T) {
	arena, _ := buildTools(t)
	dir := botDir(t)
	file := exampleLeague(t, dir, 2)
	jobs, out := filepath.Join(dir, "jobs"), filepath.Join(dir, "merged.db")
	text, err := arenaCommand(arena, "slurm", file, "--shards", "2", "--db", out, "--dir", jobs, "--time", "10:00", "--cpus-per-task", "3", "--sbatch", "--account=klaverjas").CombinedOutput()
	if err != nil {
		t.Fatalf("arena slurm: %v\n%s", err, text)
	}
	for _, want := range []string{"jid=$(sbatch --parsable " + jobs + "/array.sbatch)", "sbatch --dependency=afterok:${jid%%;*} " + jobs + "/merge.sbatch"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("arena slurm output lacks %q:\n%s", want, text)
		}
	}
	array, _ := os.ReadFile(filepath.Join(jobs, "array.sbatch"))
	for _, want := range []string{"#SBATCH --array=1-2\n", "#SBATCH --requeue\n", "#SBATCH --time=10:00\n", "#SBATCH --cpus-per-task=3\n", "#SBATCH --account=klaverjas\n", "--concurrency 2 ", `--shard "$i/2"`} {
		if !bytes.Contains(array, []byte(want)) {
			t.Errorf("array.sbatch lacks %q:\n%s", want, array)
		}
	}
	key := filepath.Join(jobs, "league.key")
	if st, err := os.Stat(key); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("league key: %v %v", st, err)
	}
	// The scripts exec the arena, so that it is the process arenaCommand starts, with its
	// parent-death signal.
	if _, err := arenaCommand("bash", filepath.Join(jobs, "array.sbatch")).CombinedOutput(); err == nil {
		t.Error("array.sbatch ran without SLURM_ARRAY_TASK_ID")
	}
	for i := 1; i <= 2; i++ {
		cmd := arenaCommand("bash", filepath.Join(jobs, "array.sbatch"))
		cmd.Env = append(os.Environ(), fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i))
		if text, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("task %d: %v\n%s", i, err, text)
		}
	}
	if text, err := arenaCommand("bash", filepath.Join(jobs, "merge.sbatch")).CombinedOutput(); err != nil {
		t.Fatalf("merge.sbatch: %v\n%s", err, text)
	}
	whole := filepath.Join(dir, "whole.db")
	if text, err := arenaCommand(arena, "league", "--key", key, "--db", whole, file).CombinedOutput(); err != nil {
		t.Fatalf("whole league: %v\n%s", err, text)
	}
	sameAsWhole(t, out, whole, file)
	// Running arena slurm again keeps DIR's key; a knockout is refused.
	before, _ := os.ReadFile(key)
	if text, err := arenaCommand(arena, "slurm", file, "--shards", "2", "--db", out, "--dir", jobs).CombinedOutput(); err != nil {
		t.Fatalf("again: %v\n%s", err, text)
	}
	if after, _ := os.ReadFile(key); !bytes.Equal(before, after) {
		t.Error("arena slurm replaced DIR's key")
	}
	ko := exampleLeague(t, t.TempDir(), 2)
	data, _ := os.ReadFile(ko)
	if err := os.WriteFile(ko, append([]byte("format = \"knockout\"\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	if text, err := arenaCommand(arena, "slurm", ko, "--shards", "2", "--db", out, "--dir", t.TempDir()).CombinedOutput(); err == nil || !bytes.Contains(text, []byte("cannot be sharded")) {
		t.Errorf("a knockout in shards: %v\n%s", err, text)
	}
}

// TestSlurm submits a league of example bots to a real Slurm cluster (make test-slurm starts
// a single-node one) as a 4-task array and the merge job, and checks the merged database
// against the league played whole; then again, requeueing one array task in the middle of
// its shard (scontrol requeue): the merge must still be exact.
func TestSlurm(t *testing.T) {
	if os.Getenv("ARENA_SLURM") == "" {
		t.Skip("needs a running Slurm cluster: make test-slurm starts one and sets ARENA_SLURM=1")
	}
	arena, _ := buildTools(t)
	dir := botDir(t)
	file := exampleLeague(t, dir, 24)
	key := filepath.Join(dir, "deal.key")
	if err := writeKeyFile(key); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole.db")
	start := time.Now()
	if text, err := arenaCommand(arena, "league", "--key", key, "--db", whole, "--concurrency", "2", file).CombinedOutput(); err != nil {
		t.Fatalf("whole league: %v\n%s", err, text)
	}
	t.Logf("whole league on this machine: %v", time.Since(start).Round(time.Millisecond))
	for _, requeue := range []bool{false, true} {
		t.Run(fmt.Sprintf("requeue=%v", requeue), func(t *testing.T) {
			jobs := filepath.Join(dir, fmt.Sprintf("jobs-%v", requeue))
			out := filepath.Join(dir, fmt.Sprintf("merged-%v.db", requeue))
			start := time.Now()
			text, err := arenaCommand(arena, "slurm", file, "--shards", "4", "--db", out, "--dir", jobs, "--key", key, "--submit").CombinedOutput()
			if err != nil {
				t.Fatalf("arena slurm --submit: %v\n%s", err, text)
			}
			var arrayID, mergeID string
			for _, line := range strings.Split(string(text), "\n") {
				if id, ok := strings.CutPrefix(line, "array job "); ok {
					arrayID = id
				}
				if id, ok := strings.CutPrefix(line, "merge job "); ok {
					mergeID = id
				}
			}
			if arrayID == "" || mergeID == "" {
				t.Fatalf("no job ids in:\n%s", text)
			}
			if requeue {
				task := arrayID + "_2"
				copyFile := store.CopyPath(filepath.Join(jobs, "shard-2.db"))
				waitFor(t, 5*time.Minute, "task 2 running with a match finished", func() bool {
					_, err := os.Stat(copyFile)
					return err == nil && strings.HasPrefix(squeueState(task), "RUNNING")
				})
				if text, err := exec.Command("scontrol", "requeue", task).CombinedOutput(); err != nil {
					t.Fatalf("scontrol requeue %s: %v\n%s", task, err, text)
				}
				t.Logf("requeued %s after %v", task, time.Since(start).Round(time.Millisecond))
				// Slurm holds a requeued job back (its begin time is set some two minutes
				// ahead): make it eligible at once.
				waitFor(t, time.Minute, "task 2 pending again", func() bool { return strings.HasPrefix(squeueState(task), "PENDING") })
				if text, err := exec.Command("scontrol", "update", "JobId="+task, "StartTime=now").CombinedOutput(); err != nil {
					t.Fatalf("scontrol update: %v\n%s", err, text)
				}
			}
			waitFor(t, 10*time.Minute, "the jobs to end", func() bool {
				if strings.Contains(squeueState(mergeID), "DependencyNeverSatisfied") {
					t.Fatalf("an array task failed, so the merge job never runs:\n%s", jobLogs(jobs))
				}
				return squeueState(arrayID) == "" && squeueState(mergeID) == ""
			})
			t.Logf("array and merge jobs: %v", time.Since(start).Round(time.Millisecond))
			mergeLog, _ := os.ReadFile(filepath.Join(jobs, "merge.log"))
			if !bytes.Contains(mergeLog, []byte("league t is complete")) {
				t.Fatalf("the merge job did not complete the league:\n%s", jobLogs(jobs))
			}
			if requeue {
				log, _ := os.ReadFile(filepath.Join(jobs, "shard-2.log"))
				if n := bytes.Count(log, []byte("league t (shard 2/4)")); n < 2 || !bytes.Contains(log, []byte("resumed: ")) {
					t.Errorf("task 2 ran %d times, or did not resume:\n%s", n, log)
				}
			}
			sameAsWhole(t, out, whole, file)
		})
	}
}

// jobLogs returns the logs of the jobs in DIR.
func jobLogs(dir string) string {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	var all strings.Builder
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		fmt.Fprintf(&all, "== %s\n%s", l, b)
	}
	return all.String()
}

// squeueState returns a job's state as squeue shows it, with the reason of a pending job
// ("PENDING:Dependency"), or "" once it has left the queue (several array tasks' states are
// joined with commas).
func squeueState(id string) string {
	out, err := exec.Command("squeue", "-h", "-j", id, "-o", "%T:%r").Output()
	if err != nil {
		return "" // an id the controller no longer knows
	}
	return strings.Join(strings.Fields(string(out)), ",")
}

// waitFor polls cond every half second until it holds, failing after timeout.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(timeout); !cond(); time.Sleep(500 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
	}
}

// TestSlurmFlagProblems: a flag value that does not parse is reported as such (not as a
// missing flag, nor as an unknown command named by the league file), and every other
// problem of the command line is listed with the league file's, before anything is written.
func TestSlurmFlagProblems(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "league.toml")
	bad := "games = 3\n[[bot]]\nname = \"a\"\ncmd = [\"/no/bot\"]\n[[bot]]\nname = \"b\"\ncmd = [\"/no/bot\"]\n"
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	jobs := filepath.Join(dir, "jobs")
	for _, c := range []struct {
		args   []string
		status int
		want   []string
	}{
		{[]string{"--shards", "abc", "--db", "x.db", "--dir", jobs, file}, exitUsage,
			[]string{"arena slurm: --shards abc: want a whole number (arena slurm --help)"}},
		{[]string{file}, 1, []string{"league file " + file + ": games = 3", "--shards N is required", "--dir DIR is required", "--db OUT.db is required"}},
		{[]string{"--shards", "0", "--db", "/no/dir/x.db", "--dir", notDir, "--cpus-per-task", "-1", "--key", "/no/key",
			"--partition", "a\nrm -rf /", "--sbatch", "account=x", file}, 1, []string{
			"league file " + file + ": games = 3", `bot "a": program /no/bot`, "--shards 0: want at least 1",
			"--dir " + notDir + ": is not a directory", "--db /no/dir/x.db: no directory /no/dir to write it in",
			"--cpus-per-task -1: want at least 1", `--partition "a\nrm -rf /": no line breaks`,
			`--sbatch "account=x": want an sbatch option`, "key file: open /no/key"}},
	} {
		cliMu.Lock()
		var out, errOut strings.Builder
		status := run(append([]string{"arena", "slurm"}, c.args...), &out, &errOut)
		cliMu.Unlock()
		for _, w := range c.want {
			if !strings.Contains(errOut.String(), w) {
				t.Errorf("%q: stderr lacks %q:\n%s", c.args, w, errOut.String())
			}
		}
		if status != c.status || strings.Contains(errOut.String(), "no command") || strings.Contains(errOut.String(), "Required flag") {
			t.Errorf("%q: status %d (want %d), stderr\n%s", c.args, status, c.status, errOut.String())
		}
		if _, err := os.Stat(jobs); err == nil {
			t.Errorf("%q: wrote %s", c.args, jobs)
		}
	}
}

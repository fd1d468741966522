package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/urfave/cli/v2"
)

func slurmCommand() *cli.Command {
	return &cli.Command{
		Name:      "slurm",
		Usage:     "write (and with --submit, submit) Slurm jobs that play a league in shards and merge them",
		ArgsUsage: "FILE",
		Description: "Writes DIR/array.sbatch, a job array whose task I plays shard I/N of the league into\n" +
			"DIR/shard-I.db (requeue-safe: a requeued task resumes its database), and DIR/merge.sbatch,\n" +
			"which merges the shards into the --db database once every task succeeded\n" +
			"(--dependency=afterok). Every shard deals with one key: --key, or DIR/league.key, made if\n" +
			"missing. The arena, the league file, the bots and DIR must be at the same paths on every\n" +
			"node (a shared filesystem).",
		Flags: []cli.Flag{
			// --shards, --db and --dir are required, checked by runSlurm with the other problems:
			// urfave/cli's own check would come before the refused flag values are reported.
			&cli.IntFlag{Name: "shards", Usage: "`N` array tasks, one shard each (required)"},
			&cli.StringFlag{Name: "db", Usage: "the merged database `OUT.db` (required)"},
			&cli.StringFlag{Name: "dir", Usage: "`DIR` for the job scripts, the shard databases and their logs (shared by the nodes; required)"},
			&cli.StringFlag{Name: "key", Usage: "deal key `FILE` for every shard (default: DIR/league.key, made if missing)"},
			&cli.BoolFlag{Name: "submit", Usage: "submit both jobs with sbatch and print their ids (default: print the sbatch commands)"},
			&cli.StringFlag{Name: "partition", Usage: "Slurm `PARTITION`"},
			&cli.StringFlag{Name: "time", Usage: "Slurm time limit per task (`TIME`, as sbatch --time)"},
			&cli.IntFlag{Name: "cpus-per-task", Usage: "`C` CPUs per task; the shard plays C-1 matches at once (at least 1)"},
			&cli.StringSliceFlag{Name: "sbatch", Usage: "another `OPTION` for both scripts' #SBATCH lines, such as --account=X (repeatable)"},
		},
		Action: runSlurm,
	}
}

func runSlurm(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageError{"arena slurm: want one league FILE (arena slurm --help)"}
	}
	n := c.Int("shards")
	file, err := filepath.Abs(c.Args().First())
	if err != nil {
		return err
	}
	// Every problem of the command line and the league file, together, before anything is
	// written.
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	f, ferr := league.Load(file)
	if ferr != nil {
		errs = append(errs, ferr)
	}
	switch {
	case !c.IsSet("shards"):
		fail("--shards N is required: the number of array tasks, one shard each")
	case n < 1:
		fail("--shards %d: want at least 1", n)
	case ferr == nil:
		if _, err := f.Shards(n); err != nil {
			errs = append(errs, err)
		} else if m := f.Pairing.Matches(); n > m {
			fail("--shards %d: league %s has only %d matches", n, f.Name, m)
		}
	}
	var dir, out string
	if !c.IsSet("dir") || c.String("dir") == "" {
		fail("--dir DIR is required: the directory of the job scripts, the shard databases and their logs")
	} else if dir, err = filepath.Abs(c.String("dir")); err != nil {
		return err
	} else if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		fail("--dir %s: is not a directory", c.String("dir"))
	}
	if !c.IsSet("db") || c.String("db") == "" {
		fail("--db OUT.db is required: the database the merge job writes")
	} else if out, err = filepath.Abs(c.String("db")); err != nil {
		return err
	} else if err := checkOutputFile("db", out); err != nil {
		errs = append(errs, err)
	}
	if c.IsSet("cpus-per-task") && c.Int("cpus-per-task") < 1 {
		fail("--cpus-per-task %d: want at least 1", c.Int("cpus-per-task"))
	}
	// A value is written into an #SBATCH line of a shell script: a line break (or another
	// control character) would end the line and put the rest of the value into the script
	// as a command.
	for _, o := range []struct{ flag, value string }{{"partition", c.String("partition")}, {"time", c.String("time")}} {
		if strings.ContainsFunc(o.value, unicode.IsControl) {
			fail("--%s %q: no line breaks or other control characters (it goes into an #SBATCH line)", o.flag, o.value)
		}
	}
	for _, o := range c.StringSlice("sbatch") {
		if strings.ContainsFunc(o, unicode.IsControl) {
			fail("--sbatch %q: no line breaks or other control characters (it goes into an #SBATCH line)", o)
		} else if !strings.HasPrefix(o, "-") {
			fail("--sbatch %q: want an sbatch option, such as --account=X", o)
		}
	}
	if path := c.String("key"); path != "" {
		if _, err := readKeyFile(path); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	key, err := slurmKey(c, dir)
	if err != nil {
		return err
	}
	arena, err := os.Executable()
	if err != nil {
		return err
	}
	opts := c.StringSlice("sbatch")
	if p := c.String("partition"); p != "" {
		opts = append(opts, "--partition="+p)
	}
	if t := c.String("time"); t != "" {
		opts = append(opts, "--time="+t)
	}
	conc := ""
	if cpus := c.Int("cpus-per-task"); cpus > 0 {
		opts = append(opts, fmt.Sprintf("--cpus-per-task=%d", cpus))
		conc = fmt.Sprintf(" --concurrency %d", max(1, cpus-1))
	}
	var head strings.Builder
	for _, o := range opts {
		fmt.Fprintf(&head, "#SBATCH %s\n", o)
	}
	array := fmt.Sprintf(`#!/bin/bash
# Written by arena slurm: league %[1]s (%[2]s) in %[3]d shards, task I playing shard I/%[3]d into
# %[4]s/shard-I.db. Requeue-safe: a task killed or requeued resumes its shard's database.
#SBATCH --job-name=arena-%[1]s
#SBATCH --array=1-%[3]d
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=%[4]s/shard-%%a.log
%[5]sset -euo pipefail
i=${SLURM_ARRAY_TASK_ID:?submit this with sbatch: it is a job array}
exec %[6]s league --shard "$i/%[3]d" --key %[7]s --db %[8]s/"shard-$i.db" --affinity none%[9]s %[10]s
`, f.Name, file, n, dir, head.String(), shellQuote(arena), shellQuote(key), shellQuote(dir), conc, shellQuote(file))
	var dbs []string
	for i := 1; i <= n; i++ {
		dbs = append(dbs, shellQuote(filepath.Join(dir, shardDBName(i))))
	}
	merge := fmt.Sprintf(`#!/bin/bash
# Written by arena slurm: merges the %[2]d shards of league %[1]s into %[3]s once every array task
# succeeded (submitted with --dependency=afterok on the array).
#SBATCH --job-name=arena-%[1]s-merge
#SBATCH --open-mode=append
#SBATCH --output=%[4]s/merge.log
%[5]sset -euo pipefail
exec %[6]s merge --complete %[7]s %[8]s
`, f.Name, n, out, dir, head.String(), shellQuote(arena), shellQuote(out), strings.Join(dbs, " "))
	arrayPath, mergePath := filepath.Join(dir, "array.sbatch"), filepath.Join(dir, "merge.sbatch")
	for path, text := range map[string]string{arrayPath: array, mergePath: merge} {
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			return err
		}
	}
	w := c.App.Writer
	fmt.Fprintf(w, "wrote %s (%d tasks) and %s; deal key %s\n", arrayPath, n, mergePath, key)
	if !c.Bool("submit") {
		fmt.Fprintf(w, "submit them with:\n  jid=$(sbatch --parsable %s)\n  sbatch --dependency=afterok:${jid%%%%;*} %s\n", shellQuote(arrayPath), shellQuote(mergePath))
		return nil
	}
	arrayID, err := sbatch(arrayPath)
	if err != nil {
		return err
	}
	mergeID, err := sbatch("--dependency=afterok:"+arrayID, mergePath)
	if err != nil {
		return fmt.Errorf("array job %s submitted, but the merge job not: %w", arrayID, err)
	}
	fmt.Fprintf(w, "array job %s\nmerge job %s\n", arrayID, mergeID)
	return nil
}

// slurmKey returns the key file every shard uses: --key, checked, or DIR/league.key, made
// if missing.
func slurmKey(c *cli.Context, dir string) (string, error) {
	path := c.String("key")
	if path == "" {
		path = filepath.Join(dir, "league.key")
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			if err := writeKeyFile(path); err != nil {
				return "", err
			}
		}
	}
	if _, err := readKeyFile(path); err != nil {
		return "", err
	}
	return filepath.Abs(path)
}

// sbatch submits a job and returns its id.
func sbatch(args ...string) (string, error) {
	out, err := exec.Command("sbatch", append([]string{"--parsable"}, args...)...).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return "", fmt.Errorf("sbatch %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(exit.Stderr)))
		}
		return "", fmt.Errorf("sbatch: %w (is Slurm installed here?)", err)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	return id, nil
}

// shardDBName is the name arena slurm gives shard i's database in its directory (the array
// script spells it "shard-$i.db" in shell).
func shardDBName(i int) string { return fmt.Sprintf("shard-%d.db", i) }

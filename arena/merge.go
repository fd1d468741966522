package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/urfave/cli/v2"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join the shard databases of a league (arena league FILE --shard I/N) into one league database",
		ArgsUsage: "OUT.db SHARD.db ...",
		Description: "Adds every match finished in the shards and not yet in OUT.db, in match order, with its\n" +
			"deals as stored and its totals summed from them: merging all shards of a league gives the\n" +
			"database one machine would have made (same deals, totals and ratings). Shards of another\n" +
			"league file, seed, split or key are refused; matches no shard has finished yet are listed,\n" +
			"and so are matches finished in two shards. A shard still running is read from the copy it\n" +
			"keeps beside its database (written at most every 10 s), so merge can run while shards run,\n" +
			"and again later.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "complete", Usage: "fail unless every match of the league is merged"},
		},
		Action: runMerge,
	}
}

func runMerge(c *cli.Context) error {
	if c.NArg() < 2 {
		return usageError{"arena merge: want OUT.db and at least one SHARD.db (arena merge --help)"}
	}
	outPath, paths := c.Args().First(), c.Args().Tail()
	w := c.App.Writer
	var sources []league.Source
	var errs []error // every shard that cannot be read, together, before OUT.db is opened
	for _, p := range paths {
		if same(p, outPath) {
			errs = append(errs, fmt.Errorf("arena merge: %s is both the output and a shard", p))
			continue
		}
		db, name, err := openShard(p)
		if errors.Is(err, errRunningNoCopy) {
			fmt.Fprintf(w, "note: %v\n", err)
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		defer db.Close()
		if name != p {
			fmt.Fprintf(w, "note: %s is held by a running shard: merging its copy %s\n", p, name)
		}
		sources = append(sources, league.Source{Name: p, DB: db})
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if len(sources) == 0 {
		return errors.New("arena merge: no shard database could be read yet")
	}
	out, err := store.Open(outPath, store.Options{Command: "arena merge " + outPath})
	if err != nil {
		return err
	}
	defer out.Close()
	rep, err := league.Merge(out, sources)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "merged %d matches into %s: it holds %d of the %d matches of league %s\n",
		len(rep.Merged), outPath, rep.Had+len(rep.Merged), rep.Matches, rep.League)
	for _, d := range rep.Duplicates {
		fmt.Fprintf(w, "duplicate: match %s/%d is finished in %v with the same deals: merged once\n", rep.League, d.Match, d.Shards)
	}
	if len(rep.Missing) > 0 {
		fmt.Fprintf(w, "missing: %d matches no shard has finished yet (merge again later): %s\n", len(rep.Missing), league.Indices(rep.League, rep.Missing))
	}
	if rep.Complete() {
		fmt.Fprintf(w, "league %s is complete\n", rep.League)
	} else if c.Bool("complete") {
		return fmt.Errorf("league %s is not complete: %d of %d matches merged (--complete)", rep.League, rep.Had+len(rep.Merged), rep.Matches)
	}
	return nil
}

// errRunningNoCopy is a shard that is running and has written no copy yet.
var errRunningNoCopy = errors.New("not readable yet")

// openShard opens a shard database for reading, after checking it, or the copy a running
// shard keeps of it; it returns the path it opened.
func openShard(path string) (*store.DB, string, error) {
	name := path
	db, err := store.Open(path, store.Options{ReadOnly: true})
	var held *store.HeldError
	if errors.As(err, &held) {
		name = store.CopyPath(path)
		if _, serr := os.Stat(name); serr != nil {
			return nil, "", fmt.Errorf("%w: %s is held by a running shard that has not finished a match yet: merged later", errRunningNoCopy, path)
		}
		db, err = store.Open(name, store.Options{ReadOnly: true})
	}
	if err != nil {
		return nil, "", err
	}
	if err := db.Verify(); err != nil {
		db.Close()
		return nil, "", err
	}
	return db, name, nil
}

// same reports whether two paths name the same file (or the same place, for a new one).
func same(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	x, _ := filepath.Abs(a)
	y, _ := filepath.Abs(b)
	return x == y
}

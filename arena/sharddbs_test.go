package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/league"
)

// TestShardDBs checks which databases a league hides from its bots: its own, and for a
// shard of arena slurm's naming every shard's in the same directory.
func TestShardDBs(t *testing.T) {
	for _, c := range []struct {
		db    string
		shard *league.Shard
		want  []string
	}{
		{"/d/x.db", nil, []string{"/d/x.db"}},
		{"/d/shard-2.db", nil, []string{"/d/shard-2.db"}},
		{"/d/x.db", &league.Shard{I: 2, N: 3}, []string{"/d/x.db"}},
		{"/d/shard-1.db", &league.Shard{I: 2, N: 3}, []string{"/d/shard-1.db"}},
		{"/d/shard-2.db", &league.Shard{I: 2, N: 3}, []string{"/d/shard-2.db", "/d/shard-1.db", "/d/shard-3.db"}},
	} {
		if got := shardDBs(c.db, c.shard); !slices.Equal(got, c.want) {
			t.Errorf("shardDBs(%q, %v) = %q, want %q", c.db, c.shard, got, c.want)
		}
	}
}

// TestMergeListsEveryBadShard: arena merge reports every shard it cannot read (missing,
// garbage, empty, the output itself) together, and does not make OUT.db.
func TestMergeListsEveryBadShard(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, bytes.Repeat([]byte("klaverjas"), 2000), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.db")
	missing := filepath.Join(dir, "missing.db")
	_, _, err := runArena(t, "merge", out, missing, garbage, out)
	for _, want := range []string{"no database at " + missing, garbage + ": invalid database", out + " is both the output and a shard"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("no %q in %v", want, err)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("OUT.db was made")
	}
}

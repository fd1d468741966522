package main

import (
	"slices"
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

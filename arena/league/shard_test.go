package league

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/rs/zerolog"
)

// TestShardsPartition: every match in exactly one shard, in index order; equal work spread
// evenly; a bot with a more generous decision time weighs its matches; Swiss and knockout
// are refused.
func TestShardsPartition(t *testing.T) {
	var bots strings.Builder
	for i := range 7 {
		fmt.Fprintf(&bots, "[[bot]]\nname = \"b%d\"\ncmd = [\"/bin/cat\"]\n", i)
		if i == 0 {
			bots.WriteString("decision = \"5s\"\n")
		}
	}
	f, err := Parse([]byte("games = 6\n[time]\ndecision = \"1s\"\n"+bots.String()), "/tmp/p.toml")
	if err != nil {
		t.Fatal(err)
	}
	all := schedule(t, f)
	for n := 1; n <= 9; n++ {
		parts, err := f.Shards(n)
		if err != nil || len(parts) != n {
			t.Fatalf("%d shards: %v", n, err)
		}
		seen := map[int]int{}
		var loads []time.Duration
		for _, p := range parts {
			var load time.Duration
			for i, s := range p {
				seen[s.Index]++
				if i > 0 && p[i-1].Index >= s.Index {
					t.Errorf("%d shards: shard not in index order", n)
				}
				if !slices.Equal(s.Bots, all[s.Index].Bots) || s.Seed != all[s.Index].Seed {
					t.Errorf("%d shards: match %d changed", n, s.Index)
				}
				load += f.TimeControl(s.Bots...).Decision
			}
			loads = append(loads, load)
		}
		if len(seen) != len(all) {
			t.Errorf("%d shards: %d of %d matches", n, len(seen), len(all))
		}
		for idx, k := range seen {
			if k != 1 {
				t.Errorf("%d shards: match %d in %d shards", n, idx, k)
			}
		}
		// Balance: no shard has more work than another plus the heaviest match (5 s).
		if spread := slices.Max(loads) - slices.Min(loads); spread > 5*time.Second {
			t.Errorf("%d shards: loads %v", n, loads)
		}
	}
	// Equal work: match i goes to shard i mod n.
	g, _ := Parse([]byte("games = 4\n"+twoBots), "/tmp/q.toml")
	parts, _ := g.Shards(4)
	for i, p := range parts {
		for _, s := range p {
			if s.Index%4 != i {
				t.Errorf("equal work: match %d in shard %d", s.Index, i+1)
			}
		}
	}
	for _, format := range []string{"swiss", "knockout"} {
		h, err := Parse([]byte("format = \""+format+"\"\n"+twoBots+"[[bot]]\nname = \"d\"\ncmd = [\"/bin/cat\"]\n"), "/tmp/s.toml")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Shards(2); err == nil || !strings.Contains(err.Error(), "cannot be sharded") {
			t.Errorf("%s: %v", format, err)
		}
	}
}

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("2/4"); err != nil || s != (Shard{2, 4}) || s.String() != "2/4" {
		t.Errorf("2/4: %v %v", s, err)
	}
	for _, bad := range []string{"0/4", "5/4", "2", "a/b", "1/0", "-1/2", ""} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// shardLeague is a league of two bots, one with an author line.
var shardLeague = "name = \"sh\"\ngames = 4\nseed = 11\nconcurrency = 2\n" +
	strings.Replace(twoBots, "name = \"a\"\n", "name = \"a\"\nauthor = \"<b>A</b> & co\"\n", 1)

// shardRunner returns an in-process runner of the league text into db, for shard (nil: whole).
func shardRunner(t *testing.T, text string, db *store.DB, key []byte, shard *Shard) *Runner {
	t.Helper()
	f, err := Parse([]byte(text), filepath.Join(t.TempDir(), "sh.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return &Runner{File: f, DB: db, Key: key, Shard: shard, Logger: zerolog.Nop(),
		Entrants: func(_ int, seats []int) []referee.Entrant {
			es := make([]referee.Entrant, len(seats))
			for i, b := range seats {
				es[i] = referee.Entrant{Name: f.Bots[b].Name, Start: referee.NewInProcess(lowest)}
			}
			return es
		}}
}

func play(t *testing.T, r *Runner) {
	t.Helper()
	_, todo, err := r.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(t.Context(), todo); err != nil {
		t.Fatal(err)
	}
}

// dealsOf returns a league's deals as JSON without the bots' times, by match.
func dealsOf(t *testing.T, db *store.DB, name string) map[int]string {
	t.Helper()
	out := map[int]string{}
	err := db.Deals(name, -1, func(m *store.Match, rec *referee.DealRecord) error {
		data, err := json.Marshal(untimed([]referee.DealRecord{*rec}))
		out[m.Index] += string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMergeEqualsWholeLeague: three shards merged (in two steps, one shard given twice) hold
// the same matches, deals, totals and ratings as the league played whole with the same key.
func TestMergeEqualsWholeLeague(t *testing.T) {
	key := bytes.Repeat([]byte{7}, referee.KeySize)
	whole := openDB(t)
	play(t, shardRunner(t, shardLeague, whole, key, nil))
	var shards []Source
	for i := 1; i <= 3; i++ {
		db := openDB(t)
		r := shardRunner(t, shardLeague, db, key, &Shard{i, 3})
		play(t, r)
		if l, _ := db.League("sh"); l.Shard != fmt.Sprintf("%d/3", i) || l.Matches != 2 || l.Author(0) != "<b>A</b> & co" {
			t.Errorf("shard %d record: %+v", i, l)
		}
		shards = append(shards, Source{Name: fmt.Sprintf("shard-%d.db", i), DB: db})
	}
	out := openDB(t)
	rep, err := Merge(out, shards[:2])
	if err != nil || len(rep.Merged) != 4 || !slices.Equal(rep.Missing, []int{2, 5}) || rep.Complete() {
		t.Fatalf("first merge: %+v %v", rep, err)
	}
	if got := Indices("sh", rep.Missing); got != "sh/2, sh/5" {
		t.Errorf("missing as %q", got)
	}
	rep, err = Merge(out, []Source{shards[0], shards[1], shards[2], shards[2]})
	if err != nil || len(rep.Merged) != 2 || rep.Had != 4 || len(rep.Missing) != 0 || !rep.Complete() || len(rep.Duplicates) != 2 {
		t.Fatalf("second merge: %+v %v", rep, err)
	}
	if d := rep.Duplicates[0]; d.Match != 2 || !slices.Equal(d.Shards, []string{"shard-3.db", "shard-3.db"}) {
		t.Errorf("duplicate %+v", d)
	}
	a, b := dealsOf(t, out, "sh"), dealsOf(t, whole, "sh")
	if len(a) != 6 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("merged deals differ from the whole league's (%d and %d matches)", len(a), len(b))
	}
	ta, _ := out.Totals("sh")
	tb, _ := whole.Totals("sh")
	if err := Compare(ta, tb); err != nil {
		t.Errorf("totals: %v", err)
	}
	recomputed, err := Recompute(out, "sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := Compare(ta, recomputed); err != nil {
		t.Errorf("merged totals against its deals: %v", err)
	}
	ma, _ := out.Matches("sh")
	mb, _ := whole.Matches("sh")
	for i := range mb {
		if fmt.Sprint(ma[i].Seats, ma[i].Seed, ma[i].Games, ma[i].Done) != fmt.Sprint(mb[i].Seats, mb[i].Seed, mb[i].Games, mb[i].Done) {
			t.Errorf("match %d: merged %+v, whole %+v", i, ma[i], mb[i])
		}
	}
	l, _ := out.League("sh")
	if l.Shard != "" || l.Matches != 6 || l.Finished.IsZero() || !l.Keyed || !slices.Equal(l.Authors, []string{"<b>A</b> & co", "", ""}) {
		t.Errorf("merged league record %+v", l)
	}
	if again, err := Merge(out, shards); err != nil || len(again.Merged) != 0 || again.Had != 6 {
		t.Errorf("merging again: %+v %v", again, err)
	}
}

// TestMergeRefuses: shards of another league file, seed, split or key, a whole league, a
// shard's database given for another shard, and an output holding another league.
func TestMergeRefuses(t *testing.T) {
	key := bytes.Repeat([]byte{7}, referee.KeySize)
	other := bytes.Repeat([]byte{8}, referee.KeySize)
	shard := func(text string, k []byte, s Shard) Source {
		db := openDB(t)
		play(t, shardRunner(t, text, db, k, &s))
		return Source{Name: "shard " + s.String(), DB: db}
	}
	base := shard(shardLeague, key, Shard{1, 2})
	wholeDB := openDB(t)
	play(t, shardRunner(t, shardLeague, wholeDB, key, nil))
	for name, c := range map[string]struct {
		src  Source
		want string
	}{
		"seed":  {shard(strings.Replace(shardLeague, "seed = 11", "seed = 12", 1), key, Shard{2, 2}), "seed 12, not 11"},
		"file":  {shard(strings.Replace(shardLeague, "concurrency = 2", "concurrency = 1", 1), key, Shard{2, 2}), "another league file"},
		"split": {shard(shardLeague, key, Shard{2, 3}), "another schedule split (3 shards, not 2)"},
		"key":   {shard(shardLeague, other, Shard{2, 2}), "another key"},
		"whole": {Source{Name: "whole.db", DB: wholeDB}, "played whole, not a shard"},
	} {
		out := openDB(t)
		_, err := Merge(out, []Source{base, c.src})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
		if ls, _ := out.Leagues(); len(ls) != 0 {
			t.Errorf("%s: the output was written: %v", name, ls)
		}
	}
	// A shard's database passed off as another shard: its matches are not that shard's.
	moved := openDB(t)
	r := shardRunner(t, shardLeague, moved, key, &Shard{1, 2})
	play(t, r)
	l, _ := moved.League("sh")
	l.Shard = "2/2"
	if err := moved.PutLeague(l); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(openDB(t), []Source{base, {Name: "moved.db", DB: moved}}); err == nil || !strings.Contains(err.Error(), "moved.db (shard 2/2) holds match sh/0, which is not one of its shard's") {
		t.Errorf("foreign matches: %v", err)
	}
	// An output holding the league from another key.
	out := openDB(t)
	if _, err := Merge(out, []Source{shard(shardLeague, other, Shard{1, 2})}); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(out, []Source{base}); err == nil || !strings.Contains(err.Error(), "another league file or key") {
		t.Errorf("output of another key: %v", err)
	}
}

// TestShardRunner: a shard plays only its matches, resumes only with its own --shard, and
// needs a key.
func TestShardRunner(t *testing.T) {
	key := bytes.Repeat([]byte{7}, referee.KeySize)
	db := openDB(t)
	if _, _, err := shardRunner(t, shardLeague, db, nil, &Shard{1, 2}).Prepare(); err == nil || !strings.Contains(err.Error(), "--shard needs --key") {
		t.Errorf("no key: %v", err)
	}
	r := shardRunner(t, shardLeague, db, key, &Shard{2, 2})
	play(t, r)
	ms, _ := db.Matches("sh")
	var idx []int
	for _, m := range ms {
		idx = append(idx, m.Index)
	}
	if !slices.Equal(idx, []int{1, 3, 5}) {
		t.Errorf("shard 2/2 played %v", idx)
	}
	if _, _, err := shardRunner(t, shardLeague, db, key, &Shard{2, 2}).Prepare(); err != ErrFinished {
		t.Errorf("finished shard: %v", err)
	}
	for _, s := range []*Shard{{1, 2}, nil} {
		_, _, err := shardRunner(t, shardLeague, db, key, s).Prepare()
		if err == nil || !strings.Contains(err.Error(), "this database plays shard 2/2 of it") {
			t.Errorf("resumed as %v: %v", s, err)
		}
	}
}

package league

import (
	"bytes"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
)

// Source is one shard database given to Merge.
type Source struct {
	Name string // how to name it in messages: its path
	DB   *store.DB
}

// MergeReport is what Merge did.
type MergeReport struct {
	League     string
	Matches    int   // the league's matches
	Merged     []int // matches added now, by index
	Had        int   // matches the output held already
	Missing    []int // matches no shard has finished
	Duplicates []Duplicate
}

// Duplicate is a match finished in more than one shard with the same deals (a shard given
// twice, copied, or played again elsewhere by deterministic bots).
type Duplicate struct {
	Match  int
	Shards []string
}

// Complete reports whether the output holds every match of the league.
func (r *MergeReport) Complete() bool { return r.Had+len(r.Merged) == r.Matches }

// shardInfo is one source's league.
type shardInfo struct {
	src   Source
	l     *store.League
	key   []byte
	shard Shard
	done  map[int]*store.Match
}

// Merge adds the finished matches of shard databases of one league to out, in match order,
// each match's deals as stored and its totals summed from them as a league run on one
// machine sums them: merging every shard gives the same deals, totals and ratings. It
// refuses shards of another league file, seed, schedule (another number of shards) or key,
// a shard holding matches that are not its own, and an output holding another league; it
// reports matches no shard has finished (merge again later: what is merged stays) and
// matches finished in two shards (with the same deals; different deals are refused).
func Merge(out *store.DB, sources []Source) (*MergeReport, error) {
	if len(sources) == 0 {
		return nil, errors.New("no shard databases to merge")
	}
	var shards []*shardInfo
	for _, src := range sources {
		s, err := readShard(src)
		if err != nil {
			return nil, err
		}
		shards = append(shards, s)
	}
	ref := shards[0]
	f, err := Stored(ref.l)
	if err != nil {
		return nil, fmt.Errorf("%s: its league file: %w", ref.src.Name, err)
	}
	parts, err := f.Shards(ref.shard.N)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, s := range shards[1:] {
		if err := sameLeague(ref, s); err != nil {
			errs = append(errs, err)
		}
	}
	for _, s := range shards {
		mine := map[int]bool{}
		for _, m := range parts[s.shard.I-1] {
			mine[m.Index] = true
		}
		for idx, m := range s.done {
			if !mine[idx] {
				errs = append(errs, fmt.Errorf("%s (shard %v) holds match %s, which is not one of its shard's", s.src.Name, s.shard, m.ID))
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := prepareOutput(out, ref); err != nil {
		return nil, err
	}
	have, err := out.Matches(ref.l.Name)
	if err != nil {
		return nil, err
	}
	merged := map[int]bool{}
	for _, m := range have {
		merged[m.Index] = m.Done
	}
	all, _ := f.Plan(nil)
	rep := &MergeReport{League: ref.l.Name, Matches: len(all.Todo)}
	for _, s := range all.Todo {
		if merged[s.Index] {
			rep.Had++
			continue
		}
		var from []*shardInfo
		for _, sh := range shards {
			if sh.done[s.Index] != nil {
				from = append(from, sh)
			}
		}
		if len(from) == 0 {
			rep.Missing = append(rep.Missing, s.Index)
			continue
		}
		deals, err := matchDeals(from[0], s.Index)
		if err != nil {
			return rep, err
		}
		if len(from) > 1 {
			d := Duplicate{Match: s.Index}
			for _, sh := range from {
				d.Shards = append(d.Shards, sh.src.Name)
				other, err := matchDeals(sh, s.Index)
				if err != nil {
					return rep, err
				}
				if !sameDeals(deals, other) {
					return rep, fmt.Errorf("match %s is finished in %s and in %s with different deals: the shards were not played with the same bots and key; merge only one of them", s.ID, from[0].src.Name, sh.src.Name)
				}
			}
			rep.Duplicates = append(rep.Duplicates, d)
		}
		rec := s.Record(ref.l.Hash)
		if err := out.StartMatch(ref.l.Name, &rec); err != nil {
			return rep, err
		}
		if err := out.PutDeals(ref.l.Name, s.Index, deals); err != nil {
			return rep, err
		}
		if _, err := out.FinishMatch(ref.l.Name, s.Index, Summarize); err != nil {
			return rep, fmt.Errorf("match %s: %w", s.ID, err)
		}
		rep.Merged = append(rep.Merged, s.Index)
	}
	if rep.Complete() {
		l, err := out.League(ref.l.Name)
		if err != nil {
			return rep, err
		}
		if l.Finished.IsZero() {
			l.Finished = time.Now().UTC()
			if err := out.PutLeague(l); err != nil {
				return rep, err
			}
		}
	}
	return rep, nil
}

// readShard reads a source's one league, which must be a shard.
func readShard(src Source) (*shardInfo, error) {
	ls, err := src.DB.Leagues()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	if len(ls) != 1 {
		return nil, fmt.Errorf("%s holds %d leagues: a shard database holds one (arena league FILE --shard I/N)", src.Name, len(ls))
	}
	l := &ls[0]
	if l.Shard == "" {
		return nil, fmt.Errorf("%s holds league %s played whole, not a shard of it (arena league FILE --shard I/N)", src.Name, l.Name)
	}
	sh, err := ParseShard(l.Shard)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	key, err := src.DB.DealKey(l.Name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	matches, err := src.DB.Matches(l.Name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	s := &shardInfo{src: src, l: l, key: key, shard: sh, done: map[int]*store.Match{}}
	for i := range matches {
		if matches[i].Done {
			s.done[matches[i].Index] = &matches[i]
		}
	}
	return s, nil
}

// sameLeague says how shard s differs from ref, if it does.
func sameLeague(ref, s *shardInfo) error {
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("%s is not a shard of the same league as %s: "+format, append([]any{s.src.Name, ref.src.Name}, args...)...)
	}
	switch {
	case s.l.Name != ref.l.Name:
		return refuse("league %s, not %s", s.l.Name, ref.l.Name)
	case s.l.Hash != ref.l.Hash:
		a, errA := Stored(ref.l)
		b, errB := Stored(s.l)
		if errA == nil && errB == nil && a.Seed != b.Seed {
			return refuse("seed %d, not %d", b.Seed, a.Seed)
		}
		return refuse("another league file (sha256 %.12s…, not %.12s…)", s.l.Hash, ref.l.Hash)
	case s.shard.N != ref.shard.N:
		return refuse("shard %v of another schedule split (%d shards, not %d)", s.shard, s.shard.N, ref.shard.N)
	case !hmac.Equal(s.key, ref.key):
		return refuse("its deals were dealt with another key")
	}
	return nil
}

// prepareOutput creates the merged league in out, or checks that out holds it.
func prepareOutput(out *store.DB, ref *shardInfo) error {
	l, err := out.League(ref.l.Name)
	if errors.Is(err, store.ErrNotFound) {
		f, err := Stored(ref.l)
		if err != nil {
			return err
		}
		for _, b := range f.Bots {
			if err := out.PutBot(b.Name, b); err != nil {
				return err
			}
		}
		rec := *ref.l
		rec.Shard, rec.Matches, rec.Finished, rec.Forced = "", f.Pairing.Matches(), time.Time{}, nil
		return out.CreateLeague(&rec, ref.key)
	}
	if err != nil {
		return err
	}
	key, err := out.DealKey(l.Name)
	switch {
	case err != nil:
		return err
	case l.Shard != "":
		return fmt.Errorf("%s holds shard %s of league %s: merge into a new database, or into one merged before", out.Path(), l.Shard, l.Name)
	case l.Hash != ref.l.Hash || !hmac.Equal(key, ref.key):
		return fmt.Errorf("%s holds league %s from another league file or key than the shards (%s): merge into a new database", out.Path(), l.Name, ref.src.Name)
	}
	return nil
}

// matchDeals returns a shard's stored deals of a match.
func matchDeals(s *shardInfo, index int) ([]referee.DealRecord, error) {
	var deals []referee.DealRecord
	err := s.src.DB.Deals(s.l.Name, index, func(_ *store.Match, rec *referee.DealRecord) error {
		deals = append(deals, *rec)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.src.Name, err)
	}
	return deals, nil
}

// sameDeals reports whether two lists of deal records are equal but for the time the bots
// took (a match played twice by deterministic bots deals and plays the same cards).
func sameDeals(a, b []referee.DealRecord) bool {
	x, err1 := json.Marshal(untimed(a))
	y, err2 := json.Marshal(untimed(b))
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// untimed returns the deals without the bots' times.
func untimed(deals []referee.DealRecord) []referee.DealRecord {
	out := slices.Clone(deals)
	for i := range out {
		out[i].Actions = slices.Clone(out[i].Actions)
		for j := range out[i].Actions {
			out[i].Actions[j].MS, out[i].Actions[j].CPUMS = 0, 0
		}
	}
	return out
}

// Indices writes match numbers of a league as IDs: "t/3, t/7".
func Indices(league string, idx []int) string {
	ids := make([]string, len(idx))
	for i, n := range slices.Sorted(slices.Values(idx)) {
		ids[i] = fmt.Sprintf("%s/%d", league, n)
	}
	return strings.Join(ids, ", ")
}

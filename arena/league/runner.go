package league

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/rs/zerolog"
	"golang.org/x/sync/errgroup"
)

// Observer is told how a run goes, for a progress display (view.Progress and the
// terminal's and web's displays of it). Its methods are called from the run's goroutines.
type Observer interface {
	// Started is called once before any match: total matches in the schedule, done of
	// them before this run, and the totals over those.
	Started(total, done int, t *store.Totals)
	// DealStored is called for every deal stored.
	DealStored()
	// MatchDone is called for every finished match, with the league totals after it.
	MatchDone(t *store.Totals)
	// Stopped is called once when the run ends, whatever the reason.
	Stopped()
}

// ErrFinished is returned by Prepare for a league whose every match is done.
var ErrFinished = errors.New("league is finished")

// ErrInterrupted is returned by Run when its context was cancelled (Ctrl-C): what was
// done is stored, and running the league again resumes it.
var ErrInterrupted = errors.New("league interrupted")

// ErrKeyMismatch is returned by Prepare when the key given is not the one the league was
// started with (or the league was started without one).
var ErrKeyMismatch = errors.New("not the league's deal key")

// ChangedError reports a league file that changed since the league started.
type ChangedError struct {
	Name, File       string
	OldHash, NewHash string
	BotsChanged      bool
	OldBots, NewBots []string // with BotsChanged: the bots the league started with, and the file's
}

func (e *ChangedError) Error() string {
	if e.BotsChanged {
		return fmt.Sprintf("league %q: the bots in %s are not those the league started with (%s; the file has %s, in this order); "+
			"a league's bots and their order cannot change (put the entries back, or give the league a new name)",
			e.Name, e.File, strings.Join(e.OldBots, ", "), strings.Join(e.NewBots, ", "))
	}
	return fmt.Sprintf("league %q: %s changed since the league started (sha256 %.12s…, now %.12s…); run with --force to continue with the new file anyway (recorded), or give the league a new name",
		e.Name, e.File, e.OldHash, e.NewHash)
}

// Runner runs a league's matches concurrently, storing every deal as it finishes.
type Runner struct {
	File  *File
	DB    *store.DB
	Force bool // continue although the league file changed
	// Key is the deal key to start the league with (KeySize bytes), for a league that must be
	// reproducible or is run in shards; nil makes a fresh one from crypto/rand. On resume it
	// must be the stored key, or nil.
	Key []byte
	// Entrants returns the bots of a match for the worker slot (0 … concurrency−1).
	Entrants func(slot int, seats []int) []referee.Entrant
	// Pin, if set, is called in the goroutine that referees a match on slot; it returns
	// the function that undoes it.
	Pin      func(slot int) func()
	Progress Observer // may be nil
	// Snapshot, if set, is a file the totals are written to (atomically) after every
	// finished match, so that standings can be shown while the league holds the database.
	Snapshot string
	Logger   zerolog.Logger
	Forced   bool // set by Prepare: the league file changed and Force let it continue (or BeforeDeals)
	// BeforeDeals, set by Prepare with Forced, says the file changed before the league had a
	// deal stored, which needs no Force.
	BeforeDeals bool
	// Unkeyed is set by Prepare for a league started before deal keys: it keeps dealing
	// from the seed alone, so that a league is keyed for all of its matches or for none.
	Unkeyed bool
	// Shard, if set, plays only that shard's matches (File.Shards) into this database.
	Shard *Shard
	// Copy, if set, is a file a consistent copy of the database is written to after a
	// finished match (at most every CopyEvery), so that arena merge can read a running shard.
	Copy      string
	CopyEvery time.Duration
	// Done is set by Prepare: the matches already done.
	Done int

	dealKey []byte

	league     *store.League
	mine       map[int]bool // a shard's matches, by index
	proven     provenBots
	unfinished map[int]bool // matches stored as started and not done, by index (plan)
	total      int          // the matches this database plays
	snap       snapshotWriter
	copyMu     sync.Mutex
	copied     time.Time
}

// Prepare creates the league in the store, with its deal key, or checks that the stored one
// is the same league, and returns it with the matches of the current round still to play
// (the whole league for a format whose matches do not depend on results).
func (r *Runner) Prepare() (*store.League, []Scheduled, error) {
	f := r.File
	if r.Key != nil && len(r.Key) != referee.KeySize {
		return nil, nil, fmt.Errorf("a deal key of %d bytes: it must have %d", len(r.Key), referee.KeySize)
	}
	r.total = f.Pairing.Matches()
	if r.Shard != nil {
		if r.Key == nil {
			return nil, nil, fmt.Errorf("league %s: --shard needs --key KEYFILE (arena keygen): every shard must deal with the same key", f.Name)
		}
		shards, err := f.Shards(r.Shard.N)
		if err != nil {
			return nil, nil, err
		}
		r.mine = map[int]bool{}
		for _, s := range shards[r.Shard.I-1] {
			r.mine[s.Index] = true
		}
		r.total = len(r.mine)
	}
	l, err := r.DB.League(f.Name)
	switch {
	case errors.Is(err, store.ErrNotFound):
		l, err = r.create()
	case err == nil:
		err = r.resume(l)
	}
	if err != nil {
		return nil, nil, err
	}
	r.league = l
	plan, err := r.plan()
	if err != nil {
		return nil, nil, err
	}
	if r.Forced {
		// Only now: a run refused for another reason (its seeds, its shard) leaves the
		// stored league as it was.
		if err := r.DB.PutLeague(l); err != nil {
			return nil, nil, err
		}
	}
	r.Done = plan.Done
	if len(plan.Todo) == 0 {
		return l, nil, ErrFinished
	}
	return l, plan.Todo, nil
}

// plan decides the league's matches from the ones stored.
func (r *Runner) plan() (*Plan, error) {
	stored, err := r.DB.Matches(r.File.Name)
	if err != nil {
		return nil, err
	}
	r.unfinished = map[int]bool{}
	for _, m := range stored {
		if !m.Done {
			r.unfinished[m.Index] = true
		}
	}
	p, err := r.File.Plan(stored)
	if err != nil || r.mine == nil {
		return p, err
	}
	p.Todo = slices.DeleteFunc(p.Todo, func(s Scheduled) bool { return !r.mine[s.Index] })
	for _, m := range stored {
		if !r.mine[m.Index] {
			return nil, fmt.Errorf("league %s: match %s is stored in this database of shard %v, but belongs to another shard", r.File.Name, m.ID, r.Shard)
		}
	}
	return p, nil
}

// shardName is what the league record says of the shard this database plays.
func (r *Runner) shardName() string {
	if r.Shard == nil {
		return ""
	}
	return r.Shard.String()
}

// create stores a new league with its bots and its deal key: the one given, or a fresh one.
func (r *Runner) create() (*store.League, error) {
	f := r.File
	l := &store.League{Name: f.Name, File: f.Path, Hash: f.Hash, Config: f.Text, Rules: f.Rules, Bots: f.BotNames(),
		Authors: f.BotAuthors(), Matches: r.total, Shard: r.shardName(), Created: time.Now().UTC()}
	for _, b := range f.Bots {
		if err := r.DB.PutBot(b.Name, b); err != nil {
			return nil, err
		}
	}
	r.dealKey = r.Key
	if r.dealKey == nil {
		r.dealKey = make([]byte, referee.KeySize)
		rand.Read(r.dealKey)
	}
	return l, r.DB.CreateLeague(l, r.dealKey)
}

// resume takes the stored deal key of a league being resumed, checking the one given, and
// checks that the league file is the one the league started with (or that Force allows it).
func (r *Runner) resume(l *store.League) error {
	f := r.File
	stored, err := r.DB.DealKey(f.Name)
	switch {
	case err != nil:
		return err
	case stored == nil && r.Key != nil:
		return fmt.Errorf("league %q was started without a deal key and keeps dealing from its seed alone: --key is %w (run it without --key, or start a new league)", f.Name, ErrKeyMismatch)
	case stored == nil:
		r.Unkeyed = true
	case r.Key != nil && !hmac.Equal(stored, r.Key):
		return fmt.Errorf("league %q was started with another key: the --key file is %w (run it without --key to use the stored one)", f.Name, ErrKeyMismatch)
	}
	r.dealKey = stored
	if l.Shard != r.shardName() {
		what := "the whole league"
		if l.Shard != "" {
			what = "shard " + l.Shard
		}
		want := "without --shard"
		if r.Shard != nil {
			want = "with --shard " + r.Shard.String()
		}
		return fmt.Errorf("league %q: this database plays %s of it, and this run is %s (use the database of that shard)", f.Name, what, want)
	}
	if l.Hash == f.Hash {
		return nil
	}
	if !slices.Equal(l.Bots, f.BotNames()) {
		return &ChangedError{Name: f.Name, File: f.Path, OldHash: l.Hash, NewHash: f.Hash, BotsChanged: true, OldBots: l.Bots, NewBots: f.BotNames()}
	}
	deals, err := r.DB.DealCount(f.Name)
	switch {
	case err != nil:
		return err
	case deals == 0:
		// Nothing played to keep apart: a run that stopped before its first deal (a bot that
		// did not start) goes on with the mended file, without --force.
		r.BeforeDeals = true
	case !r.Force:
		return &ChangedError{Name: f.Name, File: f.Path, OldHash: l.Hash, NewHash: f.Hash}
	case !l.Rules.Equal(f.Rules):
		return fmt.Errorf("league %q: %s changes the rules (%s), and the league holds %d deals played under the old ones; "+
			"a league keeps one ruleset for all its deals, so not even --force changes it (put the old rules back, or give the league a new name)",
			f.Name, f.Path, rulesDiff(l.Rules, f.Rules), deals)
	}
	// The change is stored once Prepare has found nothing else wrong (see there).
	l.Forced = append(l.Forced, store.Forced{At: time.Now().UTC(), OldHash: l.Hash, NewHash: f.Hash})
	l.Hash, l.Config, l.File, l.Rules, l.Matches, l.Authors = f.Hash, f.Text, f.Path, f.Rules, r.total, f.BotAuthors()
	l.Finished = time.Time{}
	r.Forced = true
	return nil
}

// rulesDiff lists the options in which b differs from a, as "name a → b".
func rulesDiff(a, b rules.Ruleset) string {
	var diff []string
	bo := b.Options()
	for i, o := range a.Options() {
		if o[1] != bo[i][1] {
			diff = append(diff, fmt.Sprintf("%s %s → %s", o[0], o[1], bo[i][1]))
		}
	}
	return strings.Join(diff, ", ")
}

// Run plays the matches Prepare returned and then every later round: when a round is done,
// the format decides the next from the stored results. It returns ErrInterrupted (wrapped)
// if ctx was cancelled; whatever finished is stored either way.
func (r *Runner) Run(ctx context.Context, todo []Scheduled) error {
	f := r.File
	totals, err := r.DB.Totals(f.Name)
	if err != nil {
		return err
	}
	if totals != nil {
		for _, b := range totals.Bots {
			if b.Matches > 0 { // finished a match before this run
				r.proven.add(b.Name)
			}
		}
	}
	p := r.Progress
	if p != nil {
		p.Started(r.total, r.Done, totals)
		defer p.Stopped()
	}
	defer r.snap.close(r)
	for len(todo) > 0 {
		if err := r.playRound(ctx, todo); err != nil {
			return err
		}
		plan, err := r.plan()
		if err != nil {
			return err
		}
		todo = plan.Todo
	}
	r.league.Finished = time.Now().UTC()
	return r.DB.PutLeague(r.league)
}

// playRound plays the given matches, several at once.
func (r *Runner) playRound(ctx context.Context, todo []Scheduled) error {
	conc := max(1, min(r.File.Concurrency, len(todo)))
	slots := make(chan int, conc)
	for i := range conc {
		slots <- i
	}
	var stored func(int)
	if p := r.Progress; p != nil {
		stored = func(n int) {
			for range n {
				p.DealStored()
			}
		}
	}
	w := r.DB.NewDealWriter(r.File.Name, stored)
	keepers := make([]keeper, conc)
	for i := range keepers {
		keepers[i].ctx, keepers[i].off = ctx, !r.File.Keep()
	}
	defer func() {
		for i := range keepers {
			keepers[i].stopAll()
		}
	}()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(conc)
	for _, s := range todo {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			slot := <-slots
			defer func() { slots <- slot }()
			return r.play(gctx, slot, s, w, &keepers[slot])
		})
	}
	err := g.Wait()
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
	}
	return err
}

// play referees one match and queues it for the round's deal writer: its start, its deals as
// they finish, and its end, which is committed after its last deal. A match an interrupted
// run left with deals stored goes on after them (resumed).
func (r *Runner) play(ctx context.Context, slot int, s Scheduled, w *store.DealWriter, k *keeper) error {
	if r.Pin != nil {
		defer r.Pin(slot)()
	}
	resumed, err := r.resumed(s)
	if err != nil {
		return err
	}
	if resumed == nil {
		if err := w.Start(s.Record(r.File.Hash)); err != nil {
			return err
		}
	}
	deals := &dealStore{ctx: ctx, w: w, match: s.Index, records: resumed}
	log := r.Logger.With().Str("match", s.ID).Logger()
	if resumed != nil {
		last := &resumed[len(resumed)-1]
		log.Info().Int("stored", len(resumed)).Int("game", last.Game).Int("deal", last.Deal).Msg("match resumed after its last stored deal")
	}
	cfg := referee.Config{ID: s.ID, Rules: r.File.Rules, Games: 1, Duplicate: true, Seed: s.Seed, Key: r.dealKey,
		Time: r.File.TimeControl(s.Bots...), MaxFaults: r.File.MaxFaults, Records: deals, Resume: resumed,
		Logger: log.Hook(quietWhenDone{ctx})}
	entrants := k.entrants(r.Entrants(slot, s.Seats()), s.Seats())
	for i, b := range s.Seats() {
		entrants[i].Proven = r.proven.has(r.File.Bots[b].Name)
	}
	if _, err := referee.Run(ctx, cfg, entrants); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("match %s: %w", s.ID, err)
	}
	// Every bot of a match played to its end had started (or was proven already).
	for _, b := range s.Seats() {
		r.proven.add(r.File.Bots[b].Name)
	}
	return w.Finish(s.Index, deals.records, Summarize, r.matchDone)
}

// resumed returns the deals an interrupted run stored for match s, which the match goes on
// after, or nil to play it from its start: a match never started, or one started under
// another league file (changed since with --force: this run is Forced, or an earlier one was
// and was interrupted before it came to the match), which is played afresh under this file.
func (r *Runner) resumed(s Scheduled) ([]referee.DealRecord, error) {
	if r.Forced || !r.unfinished[s.Index] {
		return nil, nil // no transaction (and fsync) for the matches that start afresh
	}
	m := s.Record(r.File.Hash)
	return r.DB.ResumeMatch(r.File.Name, &m)
}

// provenBots are the bots that have finished a match of the league (referee.Entrant.Proven):
// one that then cannot start in a later match forfeits its deals there instead of stopping
// the league. It is safe for the run's concurrent matches.
type provenBots struct {
	mu    sync.Mutex
	names map[string]bool
}

func (p *provenBots) add(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.names == nil {
		p.names = map[string]bool{}
	}
	p.names[name] = true
}

func (p *provenBots) has(name string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.names[name]
}

// matchDone tells the progress display, the snapshot and the copy for arena merge of a
// match's end, once committed.
func (r *Runner) matchDone(totals *store.Totals) {
	if r.Progress != nil {
		r.Progress.MatchDone(totals)
	}
	if r.Snapshot != "" {
		r.snap.write(r, totals)
	}
	if r.Copy != "" {
		r.writeCopy() // in the writer's goroutine: the next commit waits for the copy
	}
}

// writeCopy replaces the copy of the database, unless one was written less than CopyEvery
// ago; it is best effort (a failure only means arena merge sees fewer matches of a running
// shard).
func (r *Runner) writeCopy() {
	if !r.copyMu.TryLock() {
		return // another match is writing it
	}
	defer r.copyMu.Unlock()
	if time.Since(r.copied) < r.CopyEvery {
		return
	}
	if err := r.DB.CopyTo(r.Copy); err != nil {
		r.Logger.Warn().Err(err).Msg("copy for arena merge not written")
		return
	}
	r.copied = time.Now()
}

// dealStore is the referee's consumer of a league match's deals: each is queued for the
// league's next group commit, and kept for the match's summary.
type dealStore struct {
	ctx     context.Context
	w       *store.DealWriter
	match   int
	records []referee.DealRecord // those stored by an interrupted run first
}

// Deal queues the record.
func (d *dealStore) Deal(rec *referee.DealRecord) error {
	if err := d.ctx.Err(); err != nil {
		return err // a deal cut short by the stop: it is played on resume
	}
	if err := d.w.Put(d.match, rec); err != nil {
		return err
	}
	d.records = append(d.records, *rec)
	return nil
}

// quietWhenDone drops the referee's warnings about bots killed because the league stops.
type quietWhenDone struct{ ctx context.Context }

func (q quietWhenDone) Run(e *zerolog.Event, _ zerolog.Level, _ string) {
	if q.ctx.Err() != nil {
		e.Discard()
	}
}

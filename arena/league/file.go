// Package league runs leagues: the league file, the plan of its matches (decided round by
// round by its pairing format, every match one duplicate set with its own seed), the
// concurrent runner that stores every deal as it finishes, and progress reports.
package league

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/klaverjas-arena/arena/arena/botdef"
	"github.com/klaverjas-arena/arena/arena/confine"
	"github.com/klaverjas-arena/arena/arena/league/pairing"
	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Bot is one entrant of a league: a [[bot]] entry, as in a bots file. Its dir is relative to
// the league file.
type Bot = botdef.Bot

// Time is the league's time control.
type Time struct {
	Decision  time.Duration `toml:"decision"`
	Grace     time.Duration `toml:"grace"`
	Startup   time.Duration `toml:"startup"`
	Bank      time.Duration `toml:"bank"`
	Increment time.Duration `toml:"increment"`
}

// check returns every problem of the time control, after the defaults are filled in.
func (t Time) check() []error {
	var errs []error
	for _, d := range []struct {
		key    string
		v      time.Duration
		zeroOK bool
	}{{"decision =", t.Decision, false}, {"grace =", t.Grace, true}, {"startup =", t.Startup, false},
		{"bank =", t.Bank, true}, {"increment =", t.Increment, true}} {
		if err := botdef.CheckTime(d.key, d.v, d.zeroOK); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// File is a league file:
//
//	name = "demo"                 # default: the file's name without .toml
//	format = "round_robin"        # or "gauntlet" (with gauntlet = "BOT"), "swiss" (rounds = N), "knockout"
//	games = 4                     # games per pairing (and round); even: each duplicate pair is two games
//	seed = 1
//	concurrency = 2               # default: one less than the CPUs, at least 1
//	[rules]                       # a ruleset: preset and options (arena rules --list)
//	preset = "amsterdams"
//	[time]
//	decision = "1s"
//	[[bot]]
//	name = "random"
//	author = "The arena's authors"  # optional: shown beside the name
//	cmd = ["bin/random"]
type File struct {
	Name        string         `toml:"name"`
	Format      string         `toml:"format"`
	Gauntlet    string         `toml:"gauntlet"`
	Rounds      int            `toml:"rounds"`
	Games       int            `toml:"games"`
	Seed        uint64         `toml:"seed"`
	Concurrency int            `toml:"concurrency"`
	MaxFaults   int            `toml:"max_faults"`
	RulesMap    map[string]any `toml:"rules"`
	Time        Time           `toml:"time"`
	Bots        []Bot          `toml:"bot"`
	Sandbox     string         `toml:"sandbox"` // "on" (default) or "off"
	// KeepBots (default true, as cutechess and fastchess keep engines between games) lets a
	// bot's process play several matches in a row on one worker, greeted once, instead of a
	// fresh process for every match: a bot that keeps state across games then plays a match
	// differently from a fresh start, so its results depend on the order the matches ran in
	// (README, "Leagues"); false starts every match's processes afresh. Read it with Keep.
	KeepBots *bool `toml:"keep_bots"`

	SandboxOff bool           `toml:"-"` // sandbox = "off": bots run unconfined
	Pairing    pairing.Format `toml:"-"` // the format, which decides the matches

	Path  string        `toml:"-"` // where it was read from
	Hash  string        `toml:"-"` // SHA-256 of its bytes
	Text  string        `toml:"-"`
	Rules rules.Ruleset `toml:"-"`
}

// Load reads and checks a league file, reporting every problem together.
func Load(path string) (*File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("league file: %w", err)
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("league file %s: %d bytes, at most %d", path, st.Size(), MaxFileSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("league file: %w", err)
	}
	return Parse(data, path)
}

// Bounds of a league file, checked before anything is made from its numbers.
const (
	MaxFileSize = 1 << 20   // bytes
	MaxBots     = 1000      // bots in a league
	MaxGames    = 100_000   // games per pairing
	MaxMatches  = 1_000_000 // matches in the schedule
)

// Parse reads and checks a league file's text; path places relative bot directories.
func Parse(data []byte, path string) (*File, error) { return parse(data, path, true) }

// Stored returns the league file a stored league was started with (or last continued with
// --force), without checking that its bots can run here: for reading the league anywhere.
func Stored(l *store.League) (*File, error) { return parse([]byte(l.Config), l.File, false) }

// parse reads a league file's text; runnable checks that its bots can run here.
func parse(data []byte, path string, runnable bool) (*File, error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("league file %s: %d bytes, at most %d", path, len(data), MaxFileSize)
	}
	var f File
	md, unknown, problems, err := botdef.DecodeTOML(string(data), &f)
	if err != nil {
		return nil, fmt.Errorf("league file %s: %w", path, err)
	}
	// TOML integers are signed: read the seed again as one, since the uint64 field takes -1
	// as 18446744073709551615.
	var signed struct {
		Seed int64 `toml:"seed"`
	}
	_, _ = toml.Decode(string(data), &signed)
	sum := sha256.Sum256(data)
	f.Path, f.Hash, f.Text = path, hex.EncodeToString(sum[:]), string(data)
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("league file %s: "+format, append([]any{path}, args...)...))
	}
	for _, err := range problems {
		if de, ok := err.(*botdef.DecodeError); ok && de.Key == "rules" {
			continue // reported below, with what a [rules] table holds
		}
		fail("%v", err)
	}
	for _, k := range unknown {
		if len(k) > 0 && k[0] == "rules" {
			continue // ruleset options are checked by the rules package
		}
		fail("unknown key %q", k.String())
	}
	if md.IsDefined("rules") && md.Type("rules") != "Hash" {
		fail("rules: want a table ([rules] with preset = \"...\" and options), not a %s", strings.ToLower(md.Type("rules")))
	}
	if signed.Seed < 0 {
		fail("seed = %d: want 0 or more", signed.Seed)
	}
	if f.Name == "" {
		f.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if err := botdef.CheckName(f.Name); err != nil {
		fail("%v", err)
	}
	if f.Format == "" {
		f.Format = pairing.Formats[0]
	}
	if f.RulesMap == nil {
		f.RulesMap = map[string]any{}
	}
	if f.Rules, err = rules.FromMap(f.RulesMap); err != nil {
		fail("[rules]: %v", err)
	}
	set := f.SetGames()
	if f.Games == 0 {
		f.Games = set
	}
	if f.Concurrency == 0 {
		f.Concurrency = DefaultConcurrency()
	}
	if f.MaxFaults == 0 {
		f.MaxFaults = 3
	}
	tc := &f.Time
	defaults := referee.DefaultTimeControl
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&tc.Decision, defaults.Decision}, {&tc.Grace, defaults.Grace}, {&tc.Startup, defaults.Startup}} {
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	if f.Games < 0 || f.Games%set != 0 || f.Games > MaxGames {
		fail("games = %d: want a positive multiple of %d (every duplicate set is %d games), at most %d", f.Games, set, set, MaxGames)
	}
	// The pairing is made only from numbers within bounds: a schedule is as long as they say.
	bounded := f.Games <= MaxGames && len(f.Bots) <= MaxBots
	if len(f.Bots) > MaxBots {
		fail("%d bots: at most %d", len(f.Bots), MaxBots)
	} else if n := f.scheduleSize(); f.Games > 0 && f.Games <= MaxGames && n > MaxMatches {
		fail("games = %d with %d bots makes %.0f matches: at most %d", f.Games, len(f.Bots), n, MaxMatches)
		bounded = false
	}
	if f.Concurrency < 0 {
		fail("concurrency = %d: want at least 1", f.Concurrency)
	}
	if f.MaxFaults < 0 {
		fail("max_faults = %d: want at least 1", f.MaxFaults)
	}
	for _, err := range tc.check() {
		fail("[time]: %v", err)
	}
	names := map[string]bool{}
	for i, b := range f.Bots {
		if b.Name == "" {
			fail("bot %d has no name", i+1)
			continue
		}
		if names[b.Name] {
			fail("two bots are named %.40q", b.Name)
		}
		names[b.Name] = true
		if !runnable {
			if err := botdef.CheckAuthor(b.Author); err != nil {
				fail("bot %.40q: %v", b.Name, err)
			}
			if !filepath.IsAbs(b.Dir) {
				f.Bots[i].Dir = filepath.Join(filepath.Dir(path), b.Dir)
			}
			continue
		}
		for _, err := range f.Bots[i].Check(filepath.Dir(path)) {
			fail("%v", err)
		}
	}
	if f.SandboxOff, err = confine.ParseMode(f.Sandbox); err != nil {
		fail("%v", err)
	}
	sets := max(1, f.Games/set)
	if !bounded {
		sets = 1 // for the format's own checks only: the file is refused anyway
	}
	if len(f.Bots) > MaxBots {
		return &f, errors.Join(errs...)
	}
	if f.Pairing, err = pairing.New(f.Format, pairing.Config{Names: f.BotNames(), Size: f.matchBots(), Sets: sets,
		Gauntlet: f.Gauntlet, Rounds: f.Rounds}); err != nil {
		for _, e := range split(err) {
			fail("%v", e)
		}
	}
	return &f, errors.Join(errs...)
}

// scheduleSize bounds how many matches the schedule of a round robin or a gauntlet has,
// computed without making it: the pairings (every set of matchBots bots; a gauntlet's only
// those with the gauntlet bot) times the duplicate sets per pairing. Swiss and knockout play
// fewer pairings than a round robin, so its count bounds theirs too.
func (f *File) scheduleSize() float64 {
	n, k := float64(len(f.Bots)), f.matchBots()
	pairings := 1.0
	for i := range k {
		pairings *= (n - float64(i)) / float64(i+1)
	}
	if f.Format == "gauntlet" && n > 0 {
		pairings = pairings * float64(k) / n // the share of k-subsets holding one given bot
	}
	return max(pairings, 0) * float64(f.Games/f.SetGames())
}

// split returns the errors an errors.Join holds, or err alone.
func split(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// DefaultConcurrency is the number of matches run at once when the file does not say: one
// less than the CPUs (the referee needs some too), at least one, so that bots are not
// starved into false timeouts.
func DefaultConcurrency() int { return max(1, runtime.NumCPU()-1) }

// TimeControl returns the time control of a match between the given bots: the league's,
// with the most generous per-bot decision time among them.
func (f *File) TimeControl(bots ...int) referee.TimeControl {
	tc := referee.TimeControl{Startup: f.Time.Startup, Decision: f.Time.Decision, Grace: f.Time.Grace,
		Bank: f.Time.Bank, Increment: f.Time.Increment}
	for _, b := range bots {
		tc.Decision = max(tc.Decision, f.Bots[b].Decision)
	}
	return tc
}

// BotAuthors returns the bots' author lines in file order, or nil when no bot has one.
func (f *File) BotAuthors() []string {
	var authors []string
	for i, b := range f.Bots {
		if b.Author != "" && authors == nil {
			authors = make([]string, len(f.Bots))
		}
		if authors != nil {
			authors[i] = b.Author
		}
	}
	return authors
}

// Keep says whether bot processes are kept across matches: keep_bots, true unless the file
// says false.
func (f *File) Keep() bool { return f.KeepBots == nil || *f.KeepBots }

// BotNames returns the bots' names, in file order (their rating indices).
func (f *File) BotNames() []string {
	names := make([]string, len(f.Bots))
	for i, b := range f.Bots {
		names[i] = b.Name
	}
	return names
}

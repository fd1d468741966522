package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sync"

	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/arena/view/textview"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/urfave/cli/v2"
)

func matchCommand() *cli.Command {
	return &cli.Command{
		Name:      "match",
		Usage:     "play a match between two bots (each team is two copies of one bot), or three or four in the three-player game",
		ArgsUsage: "A B | A B C [D]",
		Description: "A and B are bot commands, split into words the way a shell would\n" +
			"('python3 bots/x.py --level 2'), or names from --bots. Team NS is two copies of A,\n" +
			"team EW two copies of B; --seat N=BOT (repeatable) seats any bot anywhere.\n" +
			"Every deal is played twice by default (duplicate): the second time with the hands\n" +
			"moved one seat on, so each team plays the cards the other team held.\n" +
			"The three-player game (--preset drie_spelers) takes three bots for N, E and S, or\n" +
			"four, the dealer sitting out each deal; duplicate plays every deal once per seat.\n" +
			"Bot faults are part of the result; the exit status is non-zero only for arena errors.",
		Flags: append(append(rulesetFlags(),
			botsFlag(),
			&cli.StringSliceFlag{Name: "seat", Usage: "seat a bot: `SEAT=BOT`, e.g. --seat E=random (repeatable)"},
			&cli.IntFlag{Name: "games", Value: 2, Usage: "games (deal sets); with duplicate each is played twice (three-player game: once per seat)"},
			&cli.BoolFlag{Name: "duplicate", Value: true, Usage: "replay every game with the hands moved one seat on, until every seat has held every hand (--duplicate=false to turn off)"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed for the cards; without --key a bot that knows it knows every hand", DefaultText: "a random one, printed"},
			&cli.StringFlag{Name: "key", Usage: "secret deal key `FILE` (arena keygen): the cards then depend on it too, and the seed alone reveals no hand"},
			&cli.StringFlag{Name: "deals", Usage: "`FILE` of predefined deals to play instead of shuffled ones (spec.md §13)"},
			&cli.DurationFlag{Name: "time", Value: referee.DefaultTimeControl.Decision, Usage: "time per decision"},
			graceFlag(),
			startupFlag(),
			&cli.DurationFlag{Name: "bank", Usage: "game clock per seat", DefaultText: "none"},
			&cli.DurationFlag{Name: "increment", Usage: "added to the game clock after each decision", DefaultText: "none"},
			&cli.IntFlag{Name: "concurrency", Value: 1, Usage: "duplicate pairs played at once, each by its own bot processes (the result, the log and --sprt are those of one pair after another)"},
			&cli.IntFlag{Name: "max-faults", Value: 3, Usage: "faults after which a bot is not restarted in this match"},
			&cli.StringFlag{Name: "log", Usage: "append every deal to this JSON-lines `FILE` (spec.md §12)"},
			&cli.StringFlag{Name: "trace", Usage: "write every protocol line to and from every bot to `FILE` (replacing what it held)"},
			&cli.StringFlag{Name: traceDirFlag, Usage: "write each seat's protocol lines, to and from its bot, to `DIR`/SEAT-BOT.trace: a bot's own transcript"},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON"},
			&cli.StringFlag{Name: "sprt", Usage: "stop as soon as a sequential test decides: `elo0=X,elo1=Y[,alpha=A,beta=B,normalized]`; --games is then the most pairs to play"},
			&cli.StringFlag{Name: "affinity", Value: "shared", Usage: "CPU placement: shared (the referee and the bots on one CPU, which no other table holds while there are free ones: fastest, see BENCHMARKS.md), spread (bots over the CPUs) or none"},
			sandboxFlag(),
		), verbosityFlags()...),
		Action: runMatch,
	}
}

// runMatch is arena match: the command line is read, then checked whole (every problem is
// reported together, before any bot starts), then the match is run.
func runMatch(c *cli.Context) error {
	refereeGC()
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	plan, err := matchConfigFromFlags(c).validate(cwd)
	if err != nil && len(flagProblems(c)) > 0 {
		return usageError{err.Error()} // a refused flag value is a usage error
	} else if err != nil {
		return err
	}
	return plan.run(c.Context, c.App.Writer, c.App.ErrWriter)
}

// run plays the match, writing the result to out and notes and logs to errOut.
func (p *matchPlan) run(ctx context.Context, out, errOut io.Writer) error {
	cfg := p.cfg
	cfg.Logger = logger(errOut, p.verbosity.level)
	notes := p.verbosity.notes(errOut)
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	if p.logFile != "" {
		f, err := openLog(p.logFile)
		if err != nil {
			return err
		}
		files = append(files, f)
		cfg.Records = referee.NewLogWriter(f)
	}
	if p.traceFile != "" {
		f, err := os.OpenFile(p.traceFile, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			return err
		}
		files = append(files, f)
		cfg.Trace = f
	}
	if p.traceDir != "" {
		traces, closeTraces, err := openSeatTraces(p.traceDir, botNames(p.bots), referee.Rooms(&cfg, len(p.bots)))
		if err != nil {
			return err
		}
		defer closeTraces()
		cfg.SeatTraces = traces
	}
	p.cpus = p.cpus.at(0)
	entrants := p.entrants(p.cpus, cfg)
	for _, note := range p.notes {
		fmt.Fprintln(notes, note)
	}
	fmt.Fprintf(notes, "arena: match %s, seed %d%s, isolation: %s\n", cfg.ID, cfg.Seed, keyedNote(cfg), p.policy.Describe())
	if p.parallel == 1 {
		defer p.cpus.pinReferee()()
	}
	games := cfg.Games
	if cfg.Duplicate {
		games *= referee.DuplicateGames(&cfg.Rules, len(p.bots))
	}
	progress := newMatchProgress(notes, games, p.sprt, referee.Sides(&cfg.Rules, len(p.bots)))
	var res *referee.Result
	var err error
	if p.parallel > 1 {
		res, err = p.runParallel(ctx, cfg, progress)
	} else {
		cfg.Stop = progress.stop
		cfg.Records = bothConsumers(cfg.Records, progress)
		res, err = referee.Run(ctx, cfg, entrants)
	}
	progress.end()
	var refused *referee.RefusedError
	var notStarted *referee.StartError
	if errors.As(err, &refused) || errors.As(err, &notStarted) {
		return fmt.Errorf("no match played: %w", err)
	}
	if ctx.Err() != nil {
		// Interrupted: the deal in play is not recorded and nobody is at fault; what was
		// finished is shown and, with --log, kept.
		err = fmt.Errorf("interrupted after %d finished deals; the deal in play was not recorded", res.Deals)
	}
	if res != nil {
		if p.json {
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			if err := enc.Encode(res); err != nil {
				return err
			}
		} else {
			printMatch(out, cfg, res)
			if p.sprt != nil {
				progress.report(out, res.Bots[0].Name, res.Bots[1].Name)
			}
		}
	}
	return err
}

// bothConsumers gives each deal to first (if any), then to second.
func bothConsumers(first, second referee.DealConsumer) referee.DealConsumer {
	if first == nil {
		return second
	}
	return referee.DealFunc(func(rec *referee.DealRecord) error {
		if err := first.Deal(rec); err != nil {
			return err
		}
		return second.Deal(rec)
	})
}

// entrants are the seated bots as the referee starts them, on the CPUs of cpus.
func (p *matchPlan) entrants(cpus placement, cfg referee.Config) []referee.Entrant {
	entrants := make([]referee.Entrant, len(p.bots))
	for i, b := range p.bots {
		entrants[i] = referee.Entrant{Name: b.Name, HelloName: b.Unnamed, Start: procStarter(b, cpus.bot(i), p.policy, cfg.Logger)}
	}
	return entrants
}

// runParallel plays the match's duplicate pairs p.parallel at a time, each pair a part of
// the match (referee.Config.FirstPair) with its own bot processes, on CPUs in turn. The
// parts' results are merged as they finish, for the progress lines and the test; a decided
// test, an error or an interruption stops the parts still playing.
func (p *matchPlan) runParallel(ctx context.Context, cfg referee.Config, progress *matchProgress) (*referee.Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu      sync.Mutex
		total   *referee.Result
		next    int
		first   error
		stopped bool
		log     = pairLog{out: cfg.Records, done: map[int][]*referee.DealRecord{}}
	)
	g := sync.WaitGroup{}
	for w := range p.parallel {
		g.Go(func() {
			cpus := p.cpus.at(w)
			defer cpus.pinReferee()()
			for {
				mu.Lock()
				pair := next
				next++
				mu.Unlock()
				if pair >= cfg.Games || ctx.Err() != nil {
					return
				}
				var recs []*referee.DealRecord
				part := cfg
				part.Games, part.FirstPair, part.Stop = 1, pair, nil
				part.Records = referee.DealFunc(func(rec *referee.DealRecord) error {
					recs = append(recs, rec)
					return progress.Deal(rec)
				})
				res, err := referee.Run(ctx, part, p.entrants(cpus, cfg))
				mu.Lock()
				if err == nil {
					if werr := log.add(pair, recs); werr != nil {
						err = werr
					}
				}
				switch {
				case err != nil && ctx.Err() != nil:
					// a part stopped by the others: its unfinished pair counts for nothing
				case err != nil:
					first = cmp.Or(first, err)
					cancel()
				case total == nil:
					total = res
				default:
					total.Merge(res)
				}
				if err == nil && !stopped && progress.stop(total) {
					stopped = true
					total.Stopped = true
					cancel()
				}
				mu.Unlock()
			}
		})
	}
	g.Wait()
	if err := log.flushAll(); err != nil {
		first = cmp.Or(first, err)
	}
	if total == nil {
		total = &referee.Result{ID: cfg.ID, Sides: make([]referee.SideStats, referee.Sides(&cfg.Rules, len(p.bots))), Bots: make([]referee.BotStats, len(p.bots))}
	}
	total.SortGames()
	return total, first // an interruption of the caller's context is the caller's to see
}

// pairLog passes the deals of the pairs played side by side to the match's consumer in
// playing order: a finished pair waits until every pair before it has been passed on, or
// until the match ends (the pairs that did not finish leave a gap). An unfinished pair is
// not recorded.
type pairLog struct {
	out  referee.DealConsumer // nil: no log
	done map[int][]*referee.DealRecord
	next int // the next pair to pass on
}

// add takes a finished pair's deals and passes on what is in order.
func (l *pairLog) add(pair int, recs []*referee.DealRecord) error {
	l.done[pair] = recs
	for {
		recs, ok := l.done[l.next]
		if !ok {
			return nil
		}
		delete(l.done, l.next)
		l.next++
		if err := l.write(recs); err != nil {
			return err
		}
	}
}

// flushAll passes on the finished pairs still waiting, in order.
func (l *pairLog) flushAll() error {
	pairs := slices.Sorted(maps.Keys(l.done))
	for _, p := range pairs {
		if err := l.write(l.done[p]); err != nil {
			return err
		}
		delete(l.done, p)
	}
	return nil
}

func (l *pairLog) write(recs []*referee.DealRecord) error {
	if l.out == nil {
		return nil
	}
	for _, r := range recs {
		if err := l.out.Deal(r); err != nil {
			return err
		}
	}
	return nil
}

func printMatch(w io.Writer, cfg referee.Config, res *referee.Result) {
	fmt.Fprintf(w, "match %s: %d games, %d deals, ruleset %s, seed %d%s\n\n", res.ID, len(res.Games), res.Deals, presetOrCustom(cfg), cfg.Seed, keyedNote(cfg))
	textview.Match(w, view.SummarizeMatch(res, cfg.Rules.Players))
}

// keyedNote says, after the seed, that the cards also depend on a secret key.
func keyedNote(cfg referee.Config) string {
	if cfg.Key != nil {
		return " (keyed)"
	}
	return ""
}

func presetOrCustom(cfg referee.Config) string {
	for _, name := range rules.AllPresetNames() {
		if p, err := rules.Preset(name); err == nil && p == cfg.Rules {
			return name
		}
	}
	return "custom"
}

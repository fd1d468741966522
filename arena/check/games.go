package check

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/rs/zerolog"
)

// gameConn is the bot's connection in a game played through the referee: it counts the bot's
// stderr and notes, when the referee stops the bot (after a fault, or at the end), the last
// request and answer, and every line the bot was sent since its last answer.
type gameConn struct {
	referee.Conn
	g         *gameWatch
	seat      string
	sent, got string // the last request and the answer to it
	since     []byte // the lines written since the last answer, up to a fault
	answered  bool   // the last exchange was an answer: the next write starts since afresh
	failed    bool   // an exchange failed: what the referee writes after it (the fault line) is not kept
}

// gameWatch collects what the bot's connections in a game saw when they were stopped.
type gameWatch struct {
	c     *checker
	mu    sync.Mutex
	stops []stopRecord
}

type stopRecord struct{ seat, sent, got, since string }

func (gc *gameConn) Exchange(out []byte, wantReply bool, timeout time.Duration) (referee.Reply, error) {
	if gc.failed {
		return gc.Conn.Exchange(out, wantReply, timeout)
	}
	if gc.answered {
		gc.since, gc.answered = gc.since[:0], false
	}
	gc.since = append(gc.since, out...)
	if wantReply {
		gc.sent, gc.got = lastLine(out), ""
	}
	r, err := gc.Conn.Exchange(out, wantReply, timeout)
	switch {
	case err != nil:
		gc.failed = true
	case wantReply:
		gc.got, gc.answered = r.Line, true
	}
	return r, err
}

func (gc *gameConn) Stop(grace time.Duration) error {
	err := gc.Conn.Stop(grace)
	gc.g.mu.Lock()
	gc.g.stops = append(gc.g.stops, stopRecord{seat: gc.seat, sent: gc.sent, got: gc.got, since: string(gc.since)})
	gc.g.mu.Unlock()
	if gc.g.c.opts.StderrFile == "" {
		gc.g.c.mu.Lock()
		gc.g.c.stderr += len(gc.Conn.StderrTail())
		gc.g.c.mu.Unlock()
	}
	return err
}

// entrant returns the checked bot as an entrant at the table seat, its connections watched.
func (g *gameWatch) entrant(seat string) referee.Entrant {
	return referee.Entrant{Name: "bot", Start: func(ctx context.Context) (referee.Conn, error) {
		conn, err := g.c.opts.Start(ctx)
		if err != nil {
			return nil, err
		}
		return &gameConn{Conn: conn, g: g, seat: seat}, nil
	}}
}

// lastExchange returns the first stop of a connection at seat: after its first fault, the
// one that caused it.
func (g *gameWatch) lastExchange(seat string) stopRecord {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, st := range g.stops {
		if st.seat == seat {
			return st
		}
	}
	return stopRecord{}
}

// crashLines is how many of the lines a bot was sent before it crashed a failed item shows:
// the first, where a bot that cannot read one of them usually stops, and the last few.
const crashLines, crashTail = 40, 8

// sentBeforeCrash returns the lines written since the bot's last answer, as a failed item
// shows them: a bot that exits may have failed on any of them, not only the request. A long
// run has its middle left out.
func sentBeforeCrash(since string) string {
	lines := strings.Split(strings.TrimRight(since, "\n"), "\n")
	if len(lines) > crashLines+crashTail {
		skipped := len(lines) - crashLines - crashTail
		lines = append(append(lines[:crashLines:crashLines], fmt.Sprintf("... (%d more lines)", skipped)), lines[len(lines)-crashTail:]...)
	}
	return strings.Join(lines, "\n")
}

// faultItem reads the records of a game the bot played at the given table seats, with at most
// maxFaults faults before it is not restarted: it records the bot's response times and
// timeouts, and returns a failed item for its faults, with the first fault's request and
// answer, or nil when it made none.
func (c *checker) faultItem(name string, watch *gameWatch, deals []*referee.DealRecord, maxFaults int, seats ...string) *Item {
	kinds := map[referee.FaultKind]int{}
	var order []referee.FaultKind
	var firstFault *referee.FaultRecord
	var first *referee.DealRecord
	forfeited := 0
	for _, rec := range deals {
		for _, a := range rec.Actions {
			if !slices.Contains(seats, a.Seat) {
				continue
			}
			kind := "play"
			switch {
			case a.Bid != "":
				kind = "bid"
			case a.Claim != nil:
				kind = "claim"
			case a.Discard != "":
				kind = "discard"
			}
			c.record(kind, time.Duration(a.MS*float64(time.Millisecond)))
		}
		for i, f := range rec.Faults {
			if !slices.Contains(seats, f.Seat) {
				continue
			}
			forfeited++
			if kinds[f.Kind] == 0 {
				order = append(order, f.Kind)
			}
			kinds[f.Kind]++
			if f.Kind == referee.FaultTimeout {
				c.timedOut("game")
			}
			if firstFault == nil && f.Kind != referee.FaultDisabled {
				firstFault, first = &rec.Faults[i], rec
			}
		}
	}
	if forfeited == 0 {
		return nil
	}
	var counts []string
	for _, k := range order {
		counts = append(counts, fmt.Sprintf("%s %d", k, kinds[k]))
	}
	it := Item{Name: name, Status: Fail, Want: "a legal answer in time",
		Detail: fmt.Sprintf("the bot forfeited %d of %d deals (%s)", forfeited, len(deals), strings.Join(counts, ", "))}
	if kinds[referee.FaultDisabled] > 0 {
		plural := "s"
		if maxFaults == 1 {
			plural = ""
		}
		it.Detail += fmt.Sprintf("; after %d fault%s the bot is not restarted", maxFaults, plural)
	}
	if firstFault != nil {
		it.Detail += fmt.Sprintf("; the first fault, in game %d deal %d at %s: %s: %s", first.Game, first.Deal, firstFault.Seat, firstFault.Kind, firstFault.Detail)
		it.Stderr = stderrExcerpt(firstFault.Stderr)
		st := watch.lastExchange(firstFault.Seat)
		it.Sent, it.Got, it.Want = st.sent, st.got, wantFor(st.sent)
		if st.got == "" {
			it.Fault = string(firstFault.Kind)
		}
		if firstFault.Kind == referee.FaultCrash && strings.Count(strings.TrimRight(st.since, "\n"), "\n") > 0 {
			it.Sent = sentBeforeCrash(st.since)
			it.Detail += "; the bot exited reading the lines the arena sent since its last answer (below)"
		}
	}
	return &it
}

// wantFor says what answer the request line asks for, and by when: its time field, the
// decision time or what is left of the game clock (spec.md §7).
func wantFor(request string) string {
	fields := strings.Fields(request)
	if len(fields) < 2 {
		return "a legal answer in time"
	}
	in := fmt.Sprintf(", within the %s ms the request gives (the decision time, or what is left of the game clock)", fields[1])
	switch fields[0] {
	case "bid":
		return "one of the legal bids, listed after the hand" + in
	case "play":
		return "one of the legal cards, listed after the hand" + in
	case "claim":
		return "the roem in the trick, a whole number (0 claims nothing)" + in
	case "discard":
		return "two different cards of the hand (the last list), separated by a space, e.g. 7S 8D" + in
	}
	return "a legal answer in time"
}

// gameItem plays a full game under the default ruleset (or the bot's first preset, c.home())
// through the referee, the bot at North and South against the check's own opponent (see
// opponent), and requires every deal to finish without a fault of the bot.
func (c *checker) gameItem() Item {
	name := "full game: 16 deals under the default ruleset, no faults"
	if c.homeName != rules.PresetNames()[0] {
		name = "full game: a whole game under " + c.homeName + " (the bot refuses the default ruleset), no faults"
	}
	opp := referee.Entrant{Name: opponentName, Start: referee.NewInProcess(opponent())}
	cfg := referee.Config{ID: "check", Rules: c.home(), Games: 1, MaxFaults: 3}
	res, deals, watch, err := c.playWatched(cfg, func(bot func(string) referee.Entrant) []referee.Entrant {
		return []referee.Entrant{bot("N"), opp, bot("S"), opp}
	})
	if err != nil {
		var refused *referee.RefusedError
		if errors.As(err, &refused) {
			it := c.homeRefused(name, refused.Reason)
			it.Got, it.Want = "refuse "+refused.Reason, "ok"
			return it
		}
		return Item{Name: name, Status: Fail, Detail: "the game could not be played: " + err.Error()}
	}
	if it := c.faultItem(name, watch, deals, cfg.MaxFaults, "N", "S"); it != nil {
		return *it
	}
	t := res.Sides
	return Item{Name: name, Status: Pass, Detail: fmt.Sprintf("%d deals at N and S against the check's opponent %s: %d to %d points, no faults", len(deals), opponentName, t[0].Points, t[1].Points)}
}

// nextGameItem plays a short duplicate match of two deal sets, as arena match does by default
// (spec.md §4): each process of the bot plays two games in a row, gameover followed by the
// game of the next deal set without a new handshake (games 1 and 3 in the first room, 2 and 4
// in the second, where the first game a process is sent is game 2). The full game, a single
// game, never sends a game after a gameover: a bot that exits at gameover, or cannot start a
// second game, faults here as it would in every match of more than one game.
func (c *checker) nextGameItem() Item {
	const name = "games in a row: plays on after gameover, as in a match of several games"
	if full := c.report.Item("full game"); full != nil && full.Status == Fail {
		return Item{Name: name, Status: Skip, Detail: "not run: the bot already faults in the full game"}
	}
	rs := c.home()
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 2}
	opp := referee.Entrant{Name: opponentName, Start: referee.NewInProcess(opponent())}
	cfg := referee.Config{ID: "check-games", Rules: rs, Games: 2, Duplicate: true, MaxFaults: 3}
	res, deals, watch, err := c.playWatched(cfg, func(bot func(string) referee.Entrant) []referee.Entrant {
		return []referee.Entrant{bot("N"), opp, bot("S"), opp}
	})
	var refused *referee.RefusedError
	switch {
	case errors.As(err, &refused):
		return Item{Name: name, Status: Info, Detail: "not checked: the bot declines " + c.homeName + " with game_end=deals:2: " + refused.Reason}
	case err != nil:
		return Item{Name: name, Status: Fail, Detail: "the games could not be played: " + err.Error()}
	}
	if it := c.faultItem(name, watch, deals, cfg.MaxFaults, "N", "S"); it != nil {
		if laterGameFault(deals, referee.Rooms(&cfg, 4)) {
			it.Detail += "; spec.md §4: a process plays until quit, and after a gameover comes the next game (game 3, or game 4 in the second room of a duplicate match)"
		}
		return *it
	}
	return Item{Name: name, Status: Pass, Detail: fmt.Sprintf("%d games of 2 deals at N and S, each process of the bot playing two in a row (games 1 and 3, 2 and 4): no faults", len(res.Games))}
}

// laterGameFault says whether the bot's first fault (at N or S) is in a game after the first
// of its room's processes: one of games rooms+1, rooms+2, ...
func laterGameFault(deals []*referee.DealRecord, rooms int) bool {
	for _, rec := range deals {
		for _, f := range rec.Faults {
			if (f.Seat == "N" || f.Seat == "S") && f.Kind != referee.FaultDisabled {
				return rec.Game > rooms
			}
		}
	}
	return false
}

// threePlayerItem offers the three-player game (spec.md §14). A bot may decline it with a
// refuse at the handshake (noted); one that accepts plays a game at N against two bots that
// play their first legal choice, and must finish every deal without a fault.
func (c *checker) threePlayerItem() Item {
	const name = "three-player game: plays it without faults, or refuses it at the handshake"
	rs := threePlayerRules()
	first := firstLegal()
	cfg := referee.Config{ID: "check3", Rules: rs, Games: 1, Duplicate: true, MaxFaults: 1}
	res, deals, watch, err := c.playWatched(cfg, func(bot func(string) referee.Entrant) []referee.Entrant {
		return []referee.Entrant{bot("N"), {Name: "first", Start: referee.NewInProcess(first)}, {Name: "first", Start: referee.NewInProcess(first)}}
	})
	if it := threePlayerNotPlayed(name, err); it != nil {
		return *it
	}
	if it := c.faultItem(name, watch, deals, cfg.MaxFaults, "N"); it != nil {
		return *it
	}
	detail := fmt.Sprintf("%d games of 6 deals at a table of three (every hand once): %d points to the bot, no faults", len(res.Games), res.Sides[0].Points)
	n := discards(deals, "N")
	if n == 0 {
		// Its answer to a discard request, the one request the three-player game adds, was
		// never tried: the others bid first or it passed.
		return Item{Name: name, Status: Warn, Want: "two cards of the hand, e.g. 7S 8D (spec.md §14)",
			Detail: detail + "; but it never became the Player, so it was never asked to discard: that answer is untested"}
	}
	return Item{Name: name, Status: Pass, Detail: detail + fmt.Sprintf("; it discarded in %d deals", n)}
}

// discards counts the deals in which seat discarded.
func discards(deals []*referee.DealRecord, seat string) int {
	n := 0
	for _, d := range deals {
		for _, a := range d.Actions {
			if a.Seat == seat && a.Discard != "" {
				n++
			}
		}
	}
	return n
}

// threePlayerNotPlayed is the item of a three-player game that err kept from being played:
// a note when the bot declined the game at the handshake, else a failure; nil for no error.
func threePlayerNotPlayed(name string, err error) *Item {
	var refused *referee.RefusedError
	switch {
	case errors.As(err, &refused):
		return &Item{Name: name, Status: Info, Detail: "declines the three-player game: " + refused.Reason}
	case err != nil:
		return &Item{Name: name, Status: Fail, Detail: "the game could not be played: " + err.Error()}
	}
	return nil
}

// threePlayerRules is the three-player game of the check: preset drie_spelers, 6 deals a game.
func threePlayerRules() rules.Ruleset {
	rs, _ := rules.Preset("drie_spelers")
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 6}
	return rs
}

// firstLegal is the three-player game's other players: each makes its first legal choice.
func firstLegal() bot.Bot {
	return bot.Bot{Name: "first", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.BidKind:
			return bot.Answer{Bid: d.LegalBids.All()[0]}
		case bot.DiscardKind:
			return bot.Answer{Discard: bot.LowestDiscard(s.Hand, s.Trump)}
		}
		return bot.Answer{Card: d.LegalCards.Nth(0)}
	}}
}

// fourTableItem plays the three-player game with four at the table (spec.md §14), as
// arena match does with four bots and a three-player ruleset: the dealer sits out each deal,
// is dealt "-" and told every public event, and every seat is told who plays by an active
// line after dealt. The table of three sends neither; a bot that chokes on them faults in
// every deal it deals, or at once. The bot sits at N with three bots that make their first
// legal choice, and the dealer moves round the table, so it sits out at least once.
func (c *checker) fourTableItem() Item {
	const name = "three-player game at a table of four: sits out as dealer (dealt -), reads active"
	switch three := c.report.Item("three-player game:"); {
	case three == nil:
	case three.Status == Fail:
		return Item{Name: name, Status: Skip, Detail: "not run: the bot already faults in the three-player game at a table of three"}
	case three.Status == Info:
		return Item{Name: name, Status: Info, Detail: "not run: " + three.Detail}
	}
	cfg := referee.Config{ID: "check4", Rules: threePlayerRules(), Games: 1, MaxFaults: 1}
	others := referee.Entrant{Name: "first", Start: referee.NewInProcess(firstLegal())}
	res, deals, watch, err := c.playWatched(cfg, func(bot func(string) referee.Entrant) []referee.Entrant {
		return []referee.Entrant{bot("N"), others, others, others}
	})
	if it := threePlayerNotPlayed(name, err); it != nil {
		return *it
	}
	if it := c.faultItem(name, watch, deals, cfg.MaxFaults, "N"); it != nil {
		it.Detail += "; spec.md §14: at a table of four the dealer sits out, is dealt \"-\" and told the deal's events, and every seat is sent an active line after dealt"
		return *it
	}
	out := 0
	for _, rec := range deals {
		if rec.Dealer == "N" {
			out++
		}
	}
	return Item{Name: name, Status: Pass, Detail: fmt.Sprintf("%d deals at N, %d of them sitting out as dealer: %d points to the bot, no faults", len(deals), out, res.Sides[0].Points)}
}

// playWatched plays cfg through the referee under the check's seed and time control, and
// returns the result, every deal's record and the bot's watched connections. table gives the
// entrants in seat order, the checked bot's by calling bot with its table seat.
func (c *checker) playWatched(cfg referee.Config, table func(bot func(seat string) referee.Entrant) []referee.Entrant) (*referee.Result, []*referee.DealRecord, *gameWatch, error) {
	watch := &gameWatch{c: c}
	var deals []*referee.DealRecord
	cfg.Seed, cfg.Time, cfg.Records, cfg.Logger = c.opts.Seed, c.opts.Time, collect(&deals), zerolog.Nop()
	res, err := referee.Run(c.ctx, cfg, table(watch.entrant))
	return res, deals, watch, err
}

// collect returns a consumer that appends each deal's record to *deals.
func collect(deals *[]*referee.DealRecord) referee.DealConsumer {
	return referee.DealFunc(func(rec *referee.DealRecord) error {
		*deals = append(*deals, rec)
		return nil
	})
}

package league

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// keeper manages the bot processes of one worker slot across its matches. By default every
// match has fresh processes, each playing that match only, and the keeper takes their start
// and stop off the match's path: it starts the processes of the slot's next match while the
// current one plays (prestart), and a process that finished its match is told to quit and
// stopped in the background. With keep_bots = true (keep) a bot that finished a match
// without a fault is handed back instead (referee.KeptConn) and plays a later match of the
// slot that seats the same bot, greeted once; the keeper keeps at most maxKept processes,
// stopping the one idle longest beyond that. Everything is stopped, and waited for, at the
// end of the round (stopAll).
type keeper struct {
	keep bool
	// ctx is the run's context, which the processes live in: not a match's or a round's,
	// which end while the processes may play on.
	ctx   context.Context
	mu    sync.Mutex
	idle  []*keptConn        // keep: the longest idle first
	ahead map[int][]*started // by match index, per table seat: processes started ahead
	// stopping counts the processes being stopped in the background.
	stopping sync.WaitGroup
}

// started is a process started and greeted ahead of its match, for one table seat.
type started struct {
	bot   int
	ready chan struct{} // closed when conn or err is set
	conn  referee.Conn
	hello *protocol.Hello
	err   error
}

// maxKept is how many idle bot processes a worker slot keeps: two seats of four bots, every
// process of a small league.
const maxKept = 8

// entrants wraps the entrants of match index, seats[i] being the bot index of entrant i, so
// that they start from the slot's kept processes, or from those started ahead for the match.
func (k *keeper) entrants(index int, es []referee.Entrant, seats []int) []referee.Entrant {
	if !k.keep {
		return k.fresh(index, es, seats)
	}
	out := make([]referee.Entrant, len(es))
	for i, e := range es {
		bot, start := seats[i], e.Start
		e.Start = func(context.Context) (referee.Conn, error) {
			if c := k.take(bot); c != nil {
				return c, nil
			}
			conn, err := start(k.ctx)
			if err != nil {
				return nil, err
			}
			return &keptConn{Conn: conn, k: k, bot: bot}, nil
		}
		out[i] = e
	}
	return out
}

// fresh wraps the entrants of match index so that each takes the process started ahead for
// its seat (Prestart), if there is one, and is stopped in the background at the match's end.
func (k *keeper) fresh(index int, es []referee.Entrant, seats []int) []referee.Entrant {
	out := make([]referee.Entrant, len(es))
	for i, e := range es {
		seat, bot, start := i, seats[i], e.Start
		e.Start = func(ctx context.Context) (referee.Conn, error) {
			if p := k.takeAhead(index, seat, bot); p != nil {
				return &freshConn{Conn: p.conn, k: k, hello: p.hello}, nil
			}
			conn, err := start(ctx)
			if err != nil {
				return nil, err
			}
			return &freshConn{Conn: conn, k: k}, nil
		}
		out[i] = e
	}
	return out
}

// prestart starts the processes of match index (its entrants es, seats[i] the bot of
// entrant i) in the background and greets them under the ruleset (referee.Greet, each reply
// within startup), for the match to take when it starts (fresh processes only: with keep
// the match takes kept ones). A process that fails to start or to greet ahead is stopped:
// the match starts that bot itself, and reports what goes wrong then.
func (k *keeper) prestart(index int, es []referee.Entrant, seats []int, rs *rules.Ruleset, startup time.Duration) {
	if k.keep {
		return
	}
	procs := make([]*started, len(es))
	for i, e := range es {
		p := &started{bot: seats[i], ready: make(chan struct{})}
		procs[i] = p
		go func() {
			defer close(p.ready)
			if p.conn, p.err = e.Start(k.ctx); p.err != nil {
				return
			}
			if p.hello, p.err = referee.Greet(p.conn, rs, startup); p.err != nil {
				quit(p.conn)
			}
		}()
	}
	k.mu.Lock()
	if k.ahead == nil {
		k.ahead = map[int][]*started{}
	}
	k.ahead[index] = procs
	k.mu.Unlock()
}

// takeAhead returns the process started and greeted ahead for the seat of match index,
// waiting for it, or nil if there is none (not started ahead, failed ahead, or taken
// already: a restart after a fault starts a new one).
func (k *keeper) takeAhead(index, seat, bot int) *started {
	k.mu.Lock()
	procs := k.ahead[index]
	var p *started
	if seat < len(procs) && procs[seat] != nil && procs[seat].bot == bot {
		p, procs[seat] = procs[seat], nil
	}
	k.mu.Unlock()
	if p == nil {
		return nil
	}
	if <-p.ready; p.err != nil {
		return nil
	}
	return p
}

// done stops, in the background, what was started ahead for match index and not taken (a
// bot disabled before a resume, a match cut short).
func (k *keeper) done(index int) {
	k.mu.Lock()
	procs := k.ahead[index]
	delete(k.ahead, index)
	k.mu.Unlock()
	for _, p := range procs {
		if p != nil {
			k.stopLater(func() {
				if <-p.ready; p.err == nil {
					quit(p.conn)
				}
			})
		}
	}
}

// stopLater runs stop in the background; stopAll waits for it.
func (k *keeper) stopLater(stop func()) {
	k.stopping.Add(1)
	go func() {
		defer k.stopping.Done()
		stop()
	}()
}

// take returns a kept process of bot, or nil.
func (k *keeper) take(bot int) *keptConn {
	k.mu.Lock()
	defer k.mu.Unlock()
	for i := len(k.idle) - 1; i >= 0; i-- {
		if c := k.idle[i]; c.bot == bot {
			k.idle = slices.Delete(k.idle, i, i+1)
			return c
		}
	}
	return nil
}

// put keeps c for a later match, stopping the longest idle process beyond maxKept.
func (k *keeper) put(c *keptConn) {
	k.mu.Lock()
	k.idle = append(k.idle, c)
	var stop *keptConn
	if len(k.idle) > maxKept {
		stop, k.idle = k.idle[0], k.idle[1:]
	}
	k.mu.Unlock()
	if stop != nil {
		stop.quit()
	}
}

// stopAll stops every kept process and every one started ahead, and waits for those being
// stopped in the background.
func (k *keeper) stopAll() {
	k.mu.Lock()
	stop := k.idle
	k.idle = nil
	var ahead []int
	for index := range k.ahead {
		ahead = append(ahead, index)
	}
	k.mu.Unlock()
	for _, c := range stop {
		k.stopLater(c.quit)
	}
	for _, index := range ahead {
		k.done(index)
	}
	k.stopping.Wait()
}

// keptConn is a bot process the keeper may hand to a later match.
type keptConn struct {
	referee.Conn
	k     *keeper
	bot   int
	hello *protocol.Hello
}

var _ referee.KeptConn = (*keptConn)(nil)

// Greeted returns the bot's hello, once it has passed a handshake.
func (c *keptConn) Greeted() *protocol.Hello { return c.hello }

// SetGreeted records the bot's hello.
func (c *keptConn) SetGreeted(hello *protocol.Hello) { c.hello = hello }

// Release keeps the process for the slot's next match.
func (c *keptConn) Release() { c.k.put(c) }

// quit tells the bot to quit and stops it.
func (c *keptConn) quit() { quit(c.Conn) }

// quit tells a bot to quit and stops it.
func quit(c referee.Conn) {
	_, _ = c.Exchange(append((&protocol.Quit{}).AppendLine(nil), '\n'), false, time.Second)
	_ = c.Stop(time.Second)
}

// freshConn is a process that plays one match only: at the match's end (Release) it is told
// to quit and stopped in the background, so that the slot's next match need not wait for it.
// One started ahead was greeted then (hello); any other is greeted in its match.
type freshConn struct {
	referee.Conn
	k     *keeper
	hello *protocol.Hello
}

var _ referee.KeptConn = (*freshConn)(nil)

// Greeted returns the hello of the greeting ahead, or nil: the match greets the process.
func (c *freshConn) Greeted() *protocol.Hello { return c.hello }

// SetGreeted does nothing: the process plays no other match.
func (c *freshConn) SetGreeted(*protocol.Hello) {}

// Release stops the process in the background.
func (c *freshConn) Release() { c.k.stopLater(func() { quit(c.Conn) }) }

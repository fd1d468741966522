package league

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
)

// keeper keeps the bot processes of one worker slot across its matches (league files:
// keep_bots = true): a bot that finished a match without a fault is handed back
// (referee.KeptConn) and plays a later match of the slot that seats the same bot, greeted
// once, so that a league does not start and stop eight processes for every match (four seats in
// each of the two rooms). It keeps at
// most maxKept processes, stopping the one idle longest beyond that; all are stopped at the
// end of the round. A keeper that is off leaves the entrants as they are: a fresh process for
// every match.
type keeper struct {
	off bool
	// ctx is the run's context, which the kept processes live in: not a match's or a
	// round's, which end while the processes may play on.
	ctx  context.Context
	mu   sync.Mutex
	idle []*keptConn // the longest idle first
}

// maxKept is how many idle bot processes a worker slot keeps: two seats in each of the two
// rooms of a match (referee.Rooms) of four bots, every process of a small league.
const maxKept = 16

// entrants wraps the entrants of a match, seats[i] being the bot index of entrant i, so that
// they start from the slot's kept processes when there are some.
func (k *keeper) entrants(es []referee.Entrant, seats []int) []referee.Entrant {
	if k.off {
		return es
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

// take returns a kept process of bot, or nil. A kept process that has exited while it waited
// (a bot that ends after its last game instead of at quit) is stopped, not handed out: the
// next match starts a fresh one, as it would without keep_bots.
func (k *keeper) take(bot int) *keptConn {
	k.mu.Lock()
	var found *keptConn
	var gone []*keptConn
	for i := len(k.idle) - 1; i >= 0 && found == nil; i-- {
		if c := k.idle[i]; c.bot == bot {
			k.idle = slices.Delete(k.idle, i, i+1)
			if woke := c.wake(); c.exited() || woke != nil {
				gone = append(gone, c)
			} else {
				found = c
			}
		}
	}
	k.mu.Unlock()
	for _, c := range gone {
		_ = c.Stop(0)
	}
	return found
}

// put keeps c for a later match (paused once it has waited pauseAfter), stopping the
// longest idle process beyond maxKept.
func (k *keeper) put(c *keptConn) {
	c.sleep()
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

// stopAll stops every kept process.
func (k *keeper) stopAll() {
	k.mu.Lock()
	stop := k.idle
	k.idle = nil
	k.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range stop {
		wg.Go(c.quit)
	}
	wg.Wait()
}

// keptConn is a bot process the keeper may hand to a later match.
type keptConn struct {
	referee.Conn
	k     *keeper
	bot   int
	hello *protocol.Hello

	mu     sync.Mutex  // guards what follows: the pause of a waiting process
	naps   int         // counts sleeps and wakes: a pause is due only if none came since
	timer  *time.Timer // pauses the process when it has waited pauseAfter
	paused bool
}

var (
	_ referee.KeptConn = (*keptConn)(nil)
	_ referee.CPUMeter = (*keptConn)(nil)
	_ referee.Pauser   = (*keptConn)(nil)
)

// MeterCPU passes the referee's request on to a connection that measures CPU time on
// request; any other goes on reporting it with each answer.
func (c *keptConn) MeterCPU() {
	if m, ok := c.Conn.(referee.CPUMeter); ok {
		m.MeterCPU()
	}
}

// CPUSinceMark reads the CPU time of a connection that measures it on request; for any other
// it is zero, as its answers carry it.
func (c *keptConn) CPUSinceMark() time.Duration {
	if m, ok := c.Conn.(referee.CPUMeter); ok {
		return m.CPUSinceMark()
	}
	return 0
}

// Pause pauses the bot of a connection that can be, for the referee, while the match plays
// another room (referee.Pauser); for any other it does nothing.
func (c *keptConn) Pause() error {
	if p, ok := c.Conn.(pauser); ok {
		return p.Pause()
	}
	return nil
}

// Resume lets a bot that Pause paused run again.
func (c *keptConn) Resume() error {
	if p, ok := c.Conn.(pauser); ok {
		return p.Resume()
	}
	return nil
}

// pauser is a connection whose bot can be paused while it waits (botproc.Proc).
type pauser interface {
	Pause() error
	Resume() error
}

// pauseAfter is how long a kept process waits running before it is paused: most are taken
// again sooner by a league of fast bots, which then pays nothing for pausing (a pause and a
// resume cost about 12 µs).
const pauseAfter = 20 * time.Millisecond

// sleep has the bot paused once it has waited pauseAfter, so that a kept process takes no
// CPU time from the matches being played (best effort: where it cannot be paused, it waits
// running, as any bot between two requests).
func (c *keptConn) sleep() {
	p, ok := c.Conn.(pauser)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.naps++
	nap := c.naps
	c.timer = time.AfterFunc(pauseAfter, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.naps == nap && !c.paused { // not woken meanwhile
			c.paused = p.Pause() == nil
		}
	})
}

// wake lets the bot run again: the pause is called off, or undone.
func (c *keptConn) wake() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.naps++
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	if !c.paused {
		return nil
	}
	c.paused = false
	return c.Conn.(pauser).Resume()
}

// exited says whether the bot's process is known to have exited.
func (c *keptConn) exited() bool {
	p, ok := c.Conn.(interface{ ExitStatus() string })
	return ok && p.ExitStatus() != ""
}

// Greeted returns the bot's hello, once it has passed a handshake.
func (c *keptConn) Greeted() *protocol.Hello { return c.hello }

// SetGreeted records the bot's hello.
func (c *keptConn) SetGreeted(hello *protocol.Hello) { c.hello = hello }

// Release keeps the process for the slot's next match.
func (c *keptConn) Release() { c.k.put(c) }

// quit tells the bot to quit and stops it.
func (c *keptConn) quit() {
	_ = c.wake()
	_, _ = c.Exchange(append((&protocol.Quit{}).AppendLine(nil), '\n'), false, time.Second)
	_ = c.Stop(time.Second)
}

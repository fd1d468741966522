package botproc

import (
	"sync"
	"time"
)

// The turn priority. A bot that computes while it is not to move (it ponders, or it is a CPU
// thief with busy loops) must not slow the bot that is, at its table or another. A watchdog
// reads, every watchTick, the CPU time of each bot that is not to move; a bot found using
// more than an eighth of a CPU between two readings with no turn of its own in between is
// demoted: from then on its cgroup has the least CPU share there is while it is not to move,
// and an ordinary process's share during its turns (botCgroup.setTurn). What it computes
// between its turns then runs only on CPU that the bots to move and the arena leave free.
//
// Only demoted bots pay for it, two writes of a cgroup file a turn (about 2 µs each): a bot
// that waits in read between its turns, as most do, is never demoted and costs nothing. A
// thief runs at an ordinary share until the watchdog finds it, within two ticks of its first
// answer.

// watchTick is how often the watchdog reads the CPU time of the bots that are not to move.
const watchTick = 10 * time.Millisecond

// turnState is a Proc's part in the turn priority.
type turnState struct {
	watched bool // set before the bot is handed out, never changed: the bot is under the watchdog
	mu      sync.Mutex
	epoch   uint64 // one more at each turn's start and end: odd while the bot is to move
	demoted bool
	closed  bool // the bot is stopping: the watchdog no longer reads its files
	failed  bool // the bot could not be demoted or a share set (logged): it is left as it is
	// The watchdog's previous reading, and the epoch it was taken in.
	seen      bool
	seenAt    time.Time
	seenCPU   time.Duration
	seenEpoch uint64
}

// watchdog is the set of bots whose turns are watched, and whether its loop runs.
var watchdog struct {
	mu      sync.Mutex
	procs   map[*Proc]struct{}
	running bool
}

// turnEdge marks the start (on) or the end of a turn: an answer is due from the bot. A
// demoted bot gets an ordinary share for the turn and the least share after it.
func (p *Proc) turnEdge(on bool) {
	t := &p.turn
	if !t.watched {
		return
	}
	t.mu.Lock()
	t.epoch++
	if t.demoted && !t.failed && !t.closed {
		if err := p.cg.setTurn(on); err != nil {
			t.failed = true
			p.turnPriorityFailed(err)
		}
	}
	t.mu.Unlock()
}

// turnPriorityFailed logs that the turn priority could not be set: a warning, unless the
// bot is being stopped (as every bot is at Ctrl-C), when its processes are leaving the
// cgroups as they are moved.
func (p *Proc) turnPriorityFailed(err error) {
	ev := p.log.Warn()
	if p.stopping.Load() || p.ctx.Err() != nil {
		ev = p.log.Debug()
	}
	ev.Err(err).Msg("botproc: turn priority not set")
}

// watchTurns puts the started bot under the watchdog, where the machine has a cpu controller.
func (p *Proc) watchTurns() {
	if p.cg == nil || !p.cg.turnable() {
		return
	}
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	if watchdog.procs == nil {
		watchdog.procs = map[*Proc]struct{}{}
	}
	watchdog.procs[p] = struct{}{}
	p.turn.watched = true
	if !watchdog.running {
		watchdog.running = true
		go watchLoop()
	}
}

// Quitting tells p that the bot was sent quit and is to exit: from now on it is no longer
// watched between turns, and a demoted bot has an ordinary CPU share again, as for Stop, so
// that on a busy machine it is not kept from exiting. (arena check times that exit.)
func (p *Proc) Quitting() { p.unwatchTurns() }

// unwatchTurns takes the stopping bot from the watchdog and gives a demoted one an ordinary
// share again: its processes need a CPU to exit on, and with the least share on a busy
// machine they waited seconds for one after they were killed. After it, neither the
// watchdog nor a turn's start or end (an Exchange that runs while the bot is stopped)
// touches the bot's cgroup files, which may then be closed.
func (p *Proc) unwatchTurns() {
	watchdog.mu.Lock()
	delete(watchdog.procs, p)
	watchdog.mu.Unlock()
	t := &p.turn
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.demoted && !t.failed && !t.closed {
		if err := p.cg.setTurn(true); err != nil {
			p.turnPriorityFailed(err)
		}
	}
	t.closed = true
}

// watchLoop is the watchdog. It ends once no bot is left to watch.
func watchLoop() {
	tick := time.NewTicker(watchTick)
	defer tick.Stop()
	var procs []*Proc
	for range tick.C {
		watchdog.mu.Lock()
		if len(watchdog.procs) == 0 {
			watchdog.running = false
			watchdog.mu.Unlock()
			return
		}
		procs = procs[:0]
		for p := range watchdog.procs {
			procs = append(procs, p)
		}
		watchdog.mu.Unlock()
		for _, p := range procs {
			p.checkOffTurn()
		}
	}
}

// checkOffTurn reads the CPU time of the bot if it is not to move, and demotes it if it used
// more than an eighth of the time since the previous reading, with no turn in between.
func (p *Proc) checkOffTurn() {
	t := &p.turn
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.demoted {
		return
	}
	prev := t.seen
	t.seen = false
	if t.epoch%2 == 1 {
		return
	}
	cpu, ok := p.cg.watchedCPU()
	if !ok {
		return
	}
	now := time.Now()
	if wall := now.Sub(t.seenAt); prev && t.seenEpoch == t.epoch && cpu-t.seenCPU > wall/8 {
		t.demoted = true
		if err := p.cg.demote(); err != nil {
			t.failed = true
			p.turnPriorityFailed(err)
			return
		}
		p.log.Info().Dur("cpu", cpu-t.seenCPU).Dur("wall", wall).
			Msg("botproc: the bot computes while it is not to move; from now on it has the least CPU share between its turns")
		return
	}
	t.seen, t.seenAt, t.seenCPU, t.seenEpoch = true, now, cpu, t.epoch
}

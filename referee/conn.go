package referee

import (
	"bytes"
	"context"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
)

// Conn is a line connection to one running bot.
type Conn interface {
	// Exchange writes out (newline-terminated lines) and, if wantReply, returns the bot's
	// next line that is not an info line, within timeout. Failures are *Fault errors.
	Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error)
	// Stop ends the bot and releases everything it holds.
	Stop(grace time.Duration) error
	// StderrTail returns the last of what the bot wrote to stderr.
	StderrTail() string
}

// KeptConn is a Conn that may play on in later matches with the same ruleset: a league keeps
// its bots' processes across the matches of a pairing. The referee greets it once: Greeted
// returns the hello of that handshake, which a later match takes instead of greeting the bot
// again. At the end of a match played to its end the referee calls Release instead of sending
// quit and stopping it; after a fault, or when the match is cut short, it is stopped as any
// Conn.
type KeptConn interface {
	Conn
	// Greeted returns the bot's hello from its handshake, or nil before one.
	Greeted() *protocol.Hello
	// SetGreeted records the hello of a handshake the bot passed (the ruleset accepted).
	SetGreeted(hello *protocol.Hello)
	// Release hands the connection back, between two games, for a later match.
	Release()
}

// Pauser is a Conn whose bot can be stopped in its tracks and let go on (botproc's, by its
// cgroup's freezer or SIGSTOP). The referee pauses the processes of the rooms not in play
// (see enterRoom): a process of the first room has seen every card of the deal set that the
// second room is replaying, and must not be running, able to signal through the machine's
// load what it saw, while the second room plays it.
type Pauser interface {
	Pause() error
	Resume() error
}

// CPUMeter is a Conn whose bot's CPU time can be read on request instead of with every
// answer (a reading costs the arena a system call). The referee calls MeterCPU when it starts
// the bot, and then reads CPUSinceMark at the end of each deal (and before it stops the bot
// for a fault), counting the time on the bot's last decision of the deal. Neither is called
// concurrently with Exchange.
type CPUMeter interface {
	// MeterCPU leaves the bot's CPU time out of every later Reply (CPU zero).
	MeterCPU()
	// CPUSinceMark returns the CPU time the bot used since the previous reading (or since it
	// started) and moves the mark.
	CPUSinceMark() time.Duration
}

// Reply is a bot's answer with its cost.
type Reply struct {
	Line  string
	Infos []string      // info lines sent before the answer
	Wall  time.Duration // from the end of the write to the answer
	CPU   time.Duration // the bot's CPU time since its previous answer, where measurable (zero after CPUMeter.MeterCPU)
}

// Starter starts a fresh connection to a bot.
type Starter func(ctx context.Context) (Conn, error)

// Entrant is a bot taking a seat: its name and how to start it.
type Entrant struct {
	Name  string
	Start Starter
	// HelloName shows the bot by the name it gives in hello, Name naming it only until then
	// (or for good, if it never says hello): for a bot the organiser has not named.
	HelloName bool
	// Proven marks a bot known to start (it played in an earlier match of a league): if it
	// cannot start, fails its handshake or refuses the ruleset before the first deal, that is
	// its own fault, as later in a match (its deals are forfeited while it cannot start), not
	// a *StartError ending the match. A bot that has been seen to start and then does not is not a mistake
	// of the organiser's to be told at once, and must not stop a league for everyone.
	Proven bool
}

// inProcess is a Conn to a Go bot running in this process through the SDK's session, so
// it sees exactly the lines a bot program would.
type inProcess struct {
	session *bot.Session
}

// NewInProcess returns a Starter for a Go bot run in this process: no process, no time limit
// (its time is measured all the same), the same lines as a bot program.
func NewInProcess(b bot.Bot) Starter {
	return func(context.Context) (Conn, error) { return &inProcess{session: bot.NewSession(b)}, nil }
}

func (c *inProcess) Exchange(out []byte, wantReply bool, _ time.Duration) (Reply, error) {
	start := time.Now()
	var reply Reply
	got := false
	for len(out) > 0 {
		line := out
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			line, out = out[:i], out[i+1:]
		} else {
			out = nil
		}
		r, isRequest, err := c.session.Handle(string(line))
		if err != nil {
			return Reply{}, &Fault{Kind: FaultCrash, Detail: "in-process bot failed: " + err.Error()}
		}
		if isRequest {
			reply.Line, got = r, true
		}
	}
	if wantReply && !got {
		return Reply{}, &Fault{Kind: FaultTimeout, Detail: "in-process bot was not asked anything"}
	}
	reply.Wall = time.Since(start)
	return reply, nil
}

func (c *inProcess) Stop(time.Duration) error { return nil }

func (c *inProcess) StderrTail() string { return "" }

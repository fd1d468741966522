package referee

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// pausingConns is the state shared by the pausingConn of a match: every process started,
// with the room its games say it plays in, and the problems seen.
type pausingConns struct {
	mu       sync.Mutex
	conns    []*pausingConn
	problems []string
	pauses   int
}

// pausingConn is a Pauser that remembers whether it is paused and, at every exchange, checks
// that it is not and that every running process of another room is.
type pausingConn struct {
	Conn
	all     *pausingConns
	room    int // from its first game line: (game-1) mod rooms; -1 before one
	paused  bool
	stopped bool
}

func (c *pausingConn) Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error) {
	a := c.all
	a.mu.Lock()
	for line := range bytes.Lines(out) {
		var game int
		var seat string
		if _, err := fmt.Sscanf(string(line), "game %d %s", &game, &seat); err == nil && c.room < 0 {
			c.room = (game - 1) % 2
		}
	}
	if c.paused {
		a.problems = append(a.problems, "a paused process was sent lines: "+strconv.Quote(string(out)))
	}
	for _, o := range a.conns {
		if o != c && !o.stopped && o.room >= 0 && c.room >= 0 && o.room != c.room && !o.paused {
			a.problems = append(a.problems, fmt.Sprintf("a process of room %d runs while room %d plays", o.room, c.room))
		}
	}
	a.mu.Unlock()
	return c.Conn.Exchange(out, wantReply, timeout)
}

func (c *pausingConn) Pause() error {
	c.all.mu.Lock()
	defer c.all.mu.Unlock()
	c.paused = true
	c.all.pauses++
	return nil
}

func (c *pausingConn) Resume() error {
	c.all.mu.Lock()
	defer c.all.mu.Unlock()
	c.paused = false
	return nil
}

func (c *pausingConn) Stop(grace time.Duration) error {
	c.all.mu.Lock()
	if c.paused {
		c.all.problems = append(c.all.problems, "a paused process was stopped without being resumed")
	}
	c.stopped = true
	c.all.mu.Unlock()
	return c.Conn.Stop(grace)
}

func (a *pausingConns) starter(start Starter) Starter {
	return func(ctx context.Context) (Conn, error) {
		c, err := start(ctx)
		if err != nil {
			return nil, err
		}
		pc := &pausingConn{Conn: c, all: a, room: -1}
		a.mu.Lock()
		a.conns = append(a.conns, pc)
		a.mu.Unlock()
		return pc, nil
	}
}

// TestOtherRoomsPaused: while one room of a duplicate match plays, the processes of the other
// room, which have seen (or will see) the same deals with the hands moved on, are paused, so
// that they cannot tell the room in play what they know through the machine's load; they run
// again when their room plays, and before they are told to quit.
func TestOtherRoomsPaused(t *testing.T) {
	all := &pausingConns{}
	var entrants []Entrant
	for i := range 4 {
		name := fmt.Sprint("bot", i%2)
		entrants = append(entrants, Entrant{Name: name, Start: all.starter(NewInProcess(randomBot(name, uint64(i+1))))})
	}
	rs, err := rules.Preset("amsterdams")
	if err != nil {
		t.Fatal(err)
	}
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 2}
	res, err := Run(context.Background(), Config{ID: "t", Rules: rs, Games: 3, Duplicate: true, Seed: 7}, entrants)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Games) != 6 {
		t.Fatalf("%d games, want 6", len(res.Games))
	}
	all.mu.Lock()
	defer all.mu.Unlock()
	if len(all.conns) != 8 {
		t.Errorf("%d processes, want 8 (4 seats, 2 rooms)", len(all.conns))
	}
	if all.pauses == 0 {
		t.Error("no process was ever paused")
	}
	for _, p := range all.problems[:min(len(all.problems), 5)] {
		t.Error(p)
	}
}

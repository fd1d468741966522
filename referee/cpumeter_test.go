package referee

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// meteredConn is an in-process bot whose every answer costs one "millisecond of CPU": with
// each reply until MeterCPU, after it only through CPUSinceMark. Its n-th answer (counted
// over all its connections; 0: none) is garbage.
type meteredConn struct {
	Conn
	metered bool
	unread  time.Duration
	answers *int
	spoilAt int
}

func (c *meteredConn) Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error) {
	r, err := c.Conn.Exchange(out, wantReply, timeout)
	if err != nil || !wantReply {
		return r, err
	}
	*c.answers++
	if *c.answers == c.spoilAt {
		r.Line = "garbage"
	}
	if c.metered {
		c.unread += time.Millisecond
	} else {
		r.CPU = time.Millisecond
	}
	return r, nil
}

func (c *meteredConn) MeterCPU() { c.metered = true }

func (c *meteredConn) CPUSinceMark() time.Duration {
	d := c.unread
	c.unread = 0
	return d
}

// TestCPUMeter: a CPUMeter bot's CPU time is read once a deal (and before it is stopped for
// a fault) and carried by its last decision of the deal, so that none is lost: over the match
// it adds up to what every answer cost. A bot whose connection is not a CPUMeter
// has the CPU time of each answer on that decision.
func TestCPUMeter(t *testing.T) {
	rs, err := rules.Preset("amsterdams")
	if err != nil {
		t.Fatal(err)
	}
	const metered, plain, spoiled = 0, 1, 2 // seats: metered, plain, metered with a fault
	e := make([]Entrant, 4)
	answers := make([]int, 4)
	for i := range e {
		inner := NewInProcess(randomBot(fmt.Sprint("bot", i), uint64(i+1)))
		e[i] = Entrant{Name: fmt.Sprint("bot", i), Start: func(ctx context.Context) (Conn, error) {
			c, err := inner(ctx)
			if err != nil || i == plain {
				return &plainConn{meteredConn{Conn: c, answers: &answers[i]}}, err
			}
			spoil := 0
			if i == spoiled {
				spoil = 20 // its 18th decision (after two handshake answers)
			}
			return &meteredConn{Conn: c, answers: &answers[i], spoilAt: spoil}, nil
		}}
	}
	var recs []*DealRecord
	cfg := Config{Rules: rs, Games: 1, Seed: 3, Records: DealFunc(func(r *DealRecord) error { recs = append(recs, r); return nil })}
	res, err := Run(context.Background(), cfg, e)
	if err != nil {
		t.Fatal(err)
	}
	logged := make([]float64, 4) // ms
	faulted, faultUnlogged := false, false
	for _, rec := range recs {
		if len(rec.Faults) > 0 {
			faulted = true
			// The garbage answer's CPU goes on the bot's last decision before it in the deal,
			// if it made one; else into its match total only.
			faultUnlogged = lastOf(rec.Actions, "S") < 0
		}
		for seat, name := range [4]string{"N", "E", "S", "W"} {
			last := lastOf(rec.Actions, name)
			for j, a := range rec.Actions {
				if a.Seat != name {
					continue
				}
				logged[seat] += a.CPUMS
				switch {
				case seat == plain && a.CPUMS != 1:
					t.Errorf("deal %d: the plain bot's decision %d carries CPU %v, want its answer's 1 ms", rec.Deal, j, a.CPUMS)
				case seat != plain && j == last && a.CPUMS < 1:
					t.Errorf("deal %d seat %s: its last decision %d carries CPU %v, want the deal's", rec.Deal, name, j, a.CPUMS)
				case seat != plain && j != last && a.CPUMS != 0:
					t.Errorf("deal %d seat %s: decision %d, not its last, carries CPU %v", rec.Deal, name, j, a.CPUMS)
				}
			}
		}
	}
	if !faulted {
		t.Fatalf("the spoiled bot never faulted (%d answers)", answers[spoiled])
	}
	for seat, b := range res.Bots {
		// A metered bot's every answer counts: the handshake's, and the garbage one before its
		// fault, which no decision in the records carries. (The referee does not charge the
		// plain bot's handshake answers.)
		want, inRecords := time.Duration(answers[seat])*time.Millisecond, float64(answers[seat])
		switch seat {
		case plain:
			want, inRecords = time.Duration(b.Decisions)*time.Millisecond, float64(b.Decisions)
		case spoiled:
			if faultUnlogged {
				inRecords--
			}
		}
		if b.CPU != want || logged[seat] != inRecords {
			t.Errorf("seat %d: match CPU %v, in the records %v ms, over %d answers and %d decisions: want %v and %v ms", seat, b.CPU, logged[seat], answers[seat], b.Decisions, want, inRecords)
		}
	}
}

// plainConn is a meteredConn that is not a CPUMeter.
type plainConn struct{ c meteredConn }

func (p *plainConn) Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error) {
	return p.c.Exchange(out, wantReply, timeout)
}
func (p *plainConn) Stop(grace time.Duration) error { return p.c.Stop(grace) }
func (p *plainConn) StderrTail() string             { return p.c.StderrTail() }

func lastOf(actions []Action, seat string) int {
	for j := len(actions) - 1; j >= 0; j-- {
		if actions[j].Seat == seat {
			return j
		}
	}
	return -1
}

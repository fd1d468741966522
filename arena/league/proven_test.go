package league

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/rs/zerolog"
)

// failingHello answers the handshake with garbage.
type failingHello struct{ referee.Conn }

func (c failingHello) Exchange(out []byte, wantReply bool, timeout time.Duration) (referee.Reply, error) {
	r, err := c.Conn.Exchange(out, wantReply, timeout)
	if err == nil && len(out) > 9 && string(out[:9]) == "klaverjas" {
		r.Line = "hullo"
	}
	return r, err
}

// TestLeagueBotThatStopsStarting: a bot that played its first match and then fails every
// handshake forfeits its later deals; the league is played to its end (the bot does not stop
// it for everyone, as a bot that never started would, before anything is played).
func TestLeagueBotThatStopsStarting(t *testing.T) {
	db := openDB(t)
	f, err := Parse([]byte("name = \"p\"\ngames = 2\nseed = 5\nconcurrency = 1\nkeep_bots = false\n"+twoBots), filepath.Join(t.TempDir(), "p.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var starts atomic.Int64
	r := &Runner{File: f, DB: db, Logger: zerolog.Nop(),
		Entrants: func(_ int, seats []int) []referee.Entrant {
			es := make([]referee.Entrant, len(seats))
			for i, b := range seats {
				inner := referee.NewInProcess(lowest)
				start := inner
				if f.Bots[b].Name == "c" {
					start = func(ctx context.Context) (referee.Conn, error) {
						c, err := inner(ctx)
						if starts.Add(1) > 4 { // its first match: two seats in two rooms
							return failingHello{c}, err
						}
						return c, err
					}
				}
				es[i] = referee.Entrant{Name: f.Bots[b].Name, Start: start}
			}
			return es
		}}
	_, todo, err := r.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), todo); err != nil {
		t.Fatalf("the league stopped: %v", err)
	}
	totals, err := db.Totals("p")
	if err != nil {
		t.Fatal(err)
	}
	if totals.Matches != 3 {
		t.Errorf("%d matches played, want 3", totals.Matches)
	}
	var faults int
	err = db.Deals("p", -1, func(_ *store.Match, rec *referee.DealRecord) error {
		for _, fr := range rec.Faults {
			if fr.Bot != "c" {
				t.Errorf("match %s deal %d: a fault of %s", rec.Match, rec.Deal, fr.Bot)
			}
			faults++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if faults == 0 {
		t.Error("no faults of c recorded")
	}
}

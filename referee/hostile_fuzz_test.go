package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// FuzzHostileAnswers: whatever one bot answers in place of its own answers (any lines, the
// script's "." keeping the bot's own; with the preset's high bit, the handshake's answers
// too), the match ends (or the bot declined the ruleset or failed its first handshakes), every deal it logs is consistent with
// the rules (Verify re-referees it from its line alone), and every fault and forfeit is that
// bot's: the others are never charged. Four rulesets at four and the three-player game. The seeds are legal answers, the wrong ones
// the hostile-bot catalogue lists, and noise.
func FuzzHostileAnswers(f *testing.F) {
	for _, seed := range []string{
		".\n.\n.\n",
		"C\n7C\nAC\n8D\n",
		"pass\npass\nplay\n\n \n7c\nXX\n",
		"claim 20\nclaim -1\nclaim 99999999999999999999\n",
		"\x00\x01\xff\n7C 8C\nAC,\n.\n.\nJD\n",
		"discard 7C 8C\nroem 20\n" + strings.Repeat("A", 5000) + "\n",
		"info hello\n.\nbye\nquit\nhello 1 x y\nok\n",
	} {
		for preset := range uint8(5) {
			f.Add(preset, []byte(seed))
			f.Add(preset|0x80, []byte("hello 1 bad x\nok\n"+seed))
		}
	}
	var rulesets []rules.Ruleset
	for _, options := range []map[string]any{{}, {"roem_claiming": "claim_required"}, {"play_rule": "rotterdams"},
		{"fault_policy": "retry"}, {"preset": "drie_spelers"}} {
		rs, err := rules.FromMap(options)
		if err != nil {
			f.Fatal(err)
		}
		rulesets = append(rulesets, rs)
	}
	f.Fuzz(func(t *testing.T, preset uint8, script []byte) {
		lines := strings.Split(string(script), "\n")
		rs := rulesets[int(preset&0x7f)%len(rulesets)]
		rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 3}
		n := 0
		spoil := func(r Reply, err error) (Reply, error) {
			if n++; err == nil && n <= len(lines) && lines[n-1] != "." {
				r.Line = lines[n-1]
			}
			return r, err
		}
		inner := NewInProcess(randomBot("bad", 9))
		bad := Entrant{Name: "bad", Start: func(ctx context.Context) (Conn, error) {
			c, err := inner(ctx)
			if preset&0x80 != 0 { // the handshake's answers too
				return spoilingConn{Conn: c, spoil: spoil}, err
			}
			return misbehaving{Conn: c, count: new(int), spoil: func(_ int, r Reply) (Reply, error) { return spoil(r, nil) }}, err
		}}
		e := randomEntrants()[:rs.Players] // the three-player game at a table of three
		e[1] = bad
		var log bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		_, err := Run(ctx, Config{Rules: rs, Games: 1, Seed: 1, Records: NewLogWriter(&log)}, e)
		var refused *RefusedError
		var unstarted *StartError
		if errors.As(err, &refused) && refused.Bot == "bad" || errors.As(err, &unstarted) && unstarted.Bot == "bad" {
			return // it declined the ruleset, or failed its handshake twice, before the first deal
		}
		if err != nil {
			t.Fatalf("the match did not end: %v", err)
		}
		n = 0
		for line := range strings.SplitSeq(strings.TrimSpace(log.String()), "\n") {
			n++
			var rec DealRecord
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("deal line %d: %v", n, err)
			}
			if err := rec.Verify(); err != nil {
				t.Fatalf("game %d deal %d: %v\n%s", rec.Game, rec.Deal, err, line)
			}
			for _, fr := range rec.Faults {
				if fr.Bot != "bad" {
					t.Fatalf("game %d deal %d: a fault charged to %s (seat %s): %+v", rec.Game, rec.Deal, fr.Bot, fr.Seat, fr)
				}
			}
			if off := rec.Result.Offender; off != "" && rec.Seats[seatIndex(t, off)] != "bad" {
				t.Fatalf("game %d deal %d: forfeited by %s at seat %s", rec.Game, rec.Deal, rec.Seats[seatIndex(t, off)], off)
			}
		}
		if n == 0 {
			t.Fatal("no deal logged")
		}
	})
}

// spoilingConn hands every reply, the handshake's too, to spoil.
type spoilingConn struct {
	Conn
	spoil func(r Reply, err error) (Reply, error)
}

func (c spoilingConn) Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error) {
	r, err := c.Conn.Exchange(out, wantReply, timeout)
	if !wantReply {
		return r, err
	}
	return c.spoil(r, err)
}

// seatIndex is the index of a table seat's letter in a record's seats.
func seatIndex(t *testing.T, seat string) int {
	t.Helper()
	i := strings.Index("NESW", seat)
	if len(seat) != 1 || i < 0 {
		t.Fatalf("seat %q", seat)
	}
	return i
}

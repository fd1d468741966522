package ask

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// lowest plays the first legal bid and the lowest legal card; at the play request whose
// hand is changeAt (when set) it plays the highest legal card instead.
func lowest(changeAt protocol.CardSet) bot.Bot {
	return bot.Bot{Name: "lowest", ThreePlayer: true, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.BidKind:
			return bot.Answer{Bid: d.LegalBids.All()[0]}
		case bot.DiscardKind:
			return bot.Answer{Discard: bot.LowestDiscard(s.Hand, s.Trump)}
		case bot.ClaimKind:
			return bot.Answer{}
		}
		if changeAt != 0 && s.Hand == changeAt {
			return bot.Answer{Card: d.LegalCards.Nth(d.LegalCards.Len() - 1)}
		}
		return bot.Answer{Card: d.LegalCards.Lowest()}
	}}
}

// loggedMatch plays a short match of lowest bots and returns its deal records.
func loggedMatch(t *testing.T, preset string, table int) []referee.DealRecord {
	t.Helper()
	rs, _ := rules.Preset(preset)
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 2}
	entrants := make([]referee.Entrant, table)
	for i := range entrants {
		entrants[i] = referee.Entrant{Name: "lowest", Start: referee.NewInProcess(lowest(0))}
	}
	var log bytes.Buffer
	if _, err := referee.Run(context.Background(), referee.Config{ID: "t", Rules: rs, Games: 1, Seed: 3, Records: referee.NewLogWriter(&log)}, entrants); err != nil {
		t.Fatal(err)
	}
	var recs []referee.DealRecord
	for line := range strings.SplitSeq(strings.TrimSpace(log.String()), "\n") {
		var r referee.DealRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs
}

// TestDealSameAndChanged asks every seat of every logged deal: the same bot gives the logged
// answer everywhere; a bot changed in one position differs there, and only there.
func TestDealSameAndChanged(t *testing.T) {
	for _, c := range []struct {
		preset string
		table  int
	}{{"amsterdams", 4}, {"drie_spelers", 3}, {"drie_spelers", 4}} {
		recs := loggedMatch(t, c.preset, c.table)
		// The position to change: the second play of the first deal's first player with a choice.
		var at Decision
		var changed protocol.CardSet
		for seat := range protocol.Seat(c.table) {
			ds, err := Deal(context.Background(), referee.NewInProcess(lowest(0)), &recs[0], seat, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				if d.Outcome != Same {
					t.Fatalf("%s at %d, seat %s: the same bot answered %+v", c.preset, c.table, seat, d)
				}
				if f := strings.Fields(d.Line); changed == 0 && d.Request == "play" && len(f) > 7 {
					changed = handOf(t, f[5])
					at = d
				}
			}
		}
		if changed == 0 {
			t.Fatalf("%s: no play with a choice in the first deal", c.preset)
		}
		seat, _ := protocol.ParseSeat(at.Seat)
		ds, err := Deal(context.Background(), referee.NewInProcess(lowest(changed)), &recs[0], seat, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := Summarize(ds)
		if s.Different != 1 || s.Same != s.Asked-1 {
			t.Fatalf("%s: changed bot: %+v", c.preset, s)
		}
		for _, d := range ds {
			if d.Outcome == Different && (d.N != at.N || d.Index != at.Index || d.Answer == d.Logged) {
				t.Fatalf("%s: the difference is at %+v, want decision %d (%d in the deal)", c.preset, d, at.N, at.Index)
			}
		}
		only, err := Deal(context.Background(), referee.NewInProcess(lowest(changed)), &recs[0], seat, Options{Only: at.N})
		if err != nil || len(only) != 1 || only[0].Outcome != Different || only[0].Index != at.Index {
			t.Fatalf("%s: decision %d alone: %+v %v", c.preset, at.N, only, err)
		}
	}
}

// TestJudgeIllegalAndGarbage: an answer against the rules, or not an answer, is a fault.
func TestJudgeIllegalAndGarbage(t *testing.T) {
	recs := loggedMatch(t, "amsterdams", 4)
	ts, err := referee.Transcript(&recs[0], referee.TimeControl{})
	if err != nil {
		t.Fatal(err)
	}
	for _, exs := range ts {
		for _, ex := range exs {
			if ex.Request != "play" {
				continue
			}
			var notHeld protocol.Card
			hand := handOf(t, strings.Fields(lastLine(ex.Lines))[5])
			for c := range (protocol.FullDeck &^ hand).All() {
				notHeld = c
				break
			}
			for answer, kind := range map[string]string{notHeld.String(): "illegal", "nonsense": "garbage"} {
				d := Decision{Seat: recs[0].Actions[ex.Decision-1].Seat}
				judge(&recs[0], &ex, answer, &d)
				if d.Outcome != Faulted || !strings.HasPrefix(d.Fault, kind+":") {
					t.Fatalf("answer %q: %+v, want a %s fault", answer, d, kind)
				}
			}
			return
		}
	}
	t.Fatal("no play request in the deal")
}

// handOf reads a request's hand, cards separated by commas.
func handOf(t *testing.T, text string) protocol.CardSet {
	t.Helper()
	h, err := protocol.ParseCardSet(strings.ReplaceAll(text, ",", " "))
	if err != nil || h == 0 {
		t.Fatalf("hand %q: %v", text, err)
	}
	return h
}

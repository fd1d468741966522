package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// positionalBot decides from the position alone, never from its history, so that a bot
// started afresh in the middle of a match plays as the one it replaces: the lowest legal
// card, and the last legal bid (pass, where allowed) for three hands in four, the first for
// the others.
func positionalBot(name string) bot.Bot {
	return bot.Bot{Name: name, Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		switch d.Kind {
		case bot.BidKind:
			bids := d.LegalBids.All()
			if uint32(s.Hand)*2654435761>>30 != 0 {
				return bot.Answer{Bid: bids[len(bids)-1]}
			}
			return bot.Answer{Bid: bids[0]}
		case bot.ClaimKind:
			return bot.Answer{Claim: 0}
		}
		return bot.Answer{Card: d.LegalCards.Lowest()}
	}}
}

// resumeEntrants are four positional bots; with reneger, East answers every play request
// with an illegal card (three faults, then disabled). starts counts the bots' starts, and
// lines gets every seat's protocol lines.
func resumeEntrants(reneger bool, starts *atomic.Int64, lines *[4][]string) []Entrant {
	e := make([]Entrant, 4)
	for i := range e {
		name := []string{"p1", "p2", "p1", "p2"}[i]
		start := recorded(NewInProcess(positionalBot(name)), &lines[i])
		if reneger && i == 1 {
			inner := start
			start = func(ctx context.Context) (Conn, error) {
				c, err := inner(ctx)
				return illegalConn{c}, err
			}
		}
		e[i] = Entrant{Name: name, Start: func(ctx context.Context) (Conn, error) {
			starts.Add(1)
			return start(ctx)
		}}
	}
	return e
}

// resumeRun plays the match of cfg, resumed after the given records, and returns its result
// and the records it passed on.
func resumeRun(t *testing.T, cfg Config, reneger bool, resume []DealRecord) (*Result, []DealRecord, int, [4][]string) {
	t.Helper()
	var log bytes.Buffer
	cfg.Records, cfg.Resume = NewLogWriter(&log), resume
	var starts atomic.Int64
	var lines [4][]string
	res, err := Run(context.Background(), cfg, resumeEntrants(reneger, &starts, &lines))
	if err != nil {
		t.Fatalf("resumed after %d deals: %v", len(resume), err)
	}
	if log.Len() == 0 {
		return res, nil, int(starts.Load()), lines
	}
	return res, records(t, &log), int(starts.Load()), lines
}

// recordLines are the records as log lines without their times, which differ from run to run.
func recordLines(t *testing.T, recs []DealRecord) []string {
	t.Helper()
	out := make([]string, len(recs))
	for i := range recs {
		data, err := json.Marshal(recs[i])
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(data)
	}
	return stripTimes(out)
}

// resultSummary is what a result says of the match's outcome (not of the bots' times).
func resultSummary(r *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "deals %d\n", r.Deals)
	for _, g := range r.Games {
		fmt.Fprintf(&b, "game %+v\n", g)
	}
	for _, s := range r.Sides {
		fmt.Fprintf(&b, "side %+v\n", s)
	}
	for _, bs := range r.Bots {
		fmt.Fprintf(&b, "bot %s faults %v\n", bs.Name, bs.Faults)
	}
	return b.String()
}

// TestResumeGoesOnAsUninterrupted resumes a match after every prefix of its deals: the
// resumed run records exactly the deals the uninterrupted one recorded after that prefix,
// none of the prefix again, and its result is the uninterrupted one's. Redeals and a bot
// disabled by its faults are resumed too.
func TestResumeGoesOnAsUninterrupted(t *testing.T) {
	redeals := rules.Default()
	if err := redeals.Set("bidding", "draaikaart_opnieuw_schudden"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		rules   rules.Ruleset
		reneger bool
	}{
		{"default", rules.Default(), false},
		{"redeals", redeals, false},
		{"faults", rules.Default(), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.rules.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 5}
			cfg := Config{ID: "r", Rules: tc.rules, Games: 2, Duplicate: true, Seed: 11, Key: bytes.Repeat([]byte{7}, KeySize), MaxFaults: 3}
			want, full, _, _ := resumeRun(t, cfg, tc.reneger, nil)
			if n := len(full); n < 20 {
				t.Fatalf("%d deals in the match, want at least 20", n)
			}
			if tc.name == "redeals" && !slices.ContainsFunc(full, func(r DealRecord) bool { return r.Attempt > 0 }) {
				t.Fatal("no redeal in the match: the case tests nothing")
			}
			for k := range len(full) + 1 {
				got, rest, _, _ := resumeRun(t, cfg, tc.reneger, full[:k])
				if a, b := recordLines(t, rest), recordLines(t, full[k:]); !slices.Equal(a, b) {
					t.Fatalf("resumed after %d deals: recorded %d deals, the uninterrupted match %d after them\n%s\n%s", k, len(a), len(b), strings.Join(a, "\n"), strings.Join(b, "\n"))
				}
				if a, b := resultSummary(got), resultSummary(want); a != b {
					t.Fatalf("resumed after %d deals, the result:\n%s\nuninterrupted:\n%s", k, a, b)
				}
			}
		})
	}
}

// TestResumeTellsTheGame: bots started for a resumed match are greeted and told the game they
// are in before its next deal, as after a fault; a game the records finish is not played
// again, and a bot the records disabled is not started.
func TestResumeTellsTheGame(t *testing.T) {
	rs := rules.Default()
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 4}
	cfg := Config{ID: "r", Rules: rs, Games: 1, Duplicate: true, Seed: 3}
	_, full, _, _ := resumeRun(t, cfg, false, nil)
	first := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			if strings.HasPrefix(l, "< game") || strings.HasPrefix(l, "< dealt") || strings.HasPrefix(l, "< gameover") {
				out = append(out, strings.Join(strings.Fields(l)[:3], " "))
			}
		}
		return out[:2]
	}
	_, _, _, lines := resumeRun(t, cfg, false, full[:2])
	if got := first(lines[0]); !slices.Equal(got, []string{"< game 1", "< dealt 3"}) {
		t.Errorf("resumed in game 1 after 2 deals, North was told %q first", got)
	}
	_, _, _, lines = resumeRun(t, cfg, false, full[:4])
	if got := first(lines[2]); !slices.Equal(got, []string{"< game 2", "< dealt 1"}) {
		t.Errorf("resumed after game 1, South was told %q first", got)
	}
	// East renegues: after three faults it is disabled, and a resume does not start it, in
	// either room: the three others start in the room of game 1 and again in that of game 2.
	_, faulted, _, _ := resumeRun(t, cfg, true, nil)
	_, _, starts, lines := resumeRun(t, cfg, true, faulted[:3])
	if starts != 6 || len(lines[1]) != 0 {
		t.Errorf("resumed after East's third fault: %d starts (want 3 in each of the two rooms), East was sent %d lines (want none)", starts, len(lines[1]))
	}
}

// TestResumeRejectsForeignDeals: records that are not the match's next deals are an error,
// before anything is played.
func TestResumeRejectsForeignDeals(t *testing.T) {
	rs := rules.Default()
	rs.GameEnd = rules.GameEnd{Kind: rules.EndAfterDeals, N: 4}
	cfg := Config{ID: "r", Rules: rs, Games: 1, Duplicate: true, Seed: 3}
	_, full, _, _ := resumeRun(t, cfg, false, nil)
	other := cfg
	other.Seed = 4
	_, foreign, _, _ := resumeRun(t, other, false, nil)
	hands := slices.Clone(full[:2])
	hands[1].Hands[0], hands[1].Hands[1] = hands[1].Hands[1], hands[1].Hands[0]
	for name, resume := range map[string][]DealRecord{
		"a gap":            {full[0], full[2]},
		"another seed":     foreign[:2],
		"swapped hands":    hands,
		"repeated":         {full[0], full[0]},
		"beyond the match": append(slices.Clone(full), full[0]),
	} {
		var log bytes.Buffer
		cfg := cfg
		cfg.Records, cfg.Resume = NewLogWriter(&log), resume
		var starts atomic.Int64
		var lines [4][]string
		if _, err := Run(context.Background(), cfg, resumeEntrants(false, &starts, &lines)); err == nil || !strings.Contains(err.Error(), "resume") {
			t.Errorf("%s: error %v, want one about the resume", name, err)
		}
		if log.Len() > 0 {
			t.Errorf("%s: deals were played:\n%s", name, log.String())
		}
	}
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// TestPlaysEveryPreset plays the random bot against itself under every preset (the
// three-player one at a table of three and of four) and checks that it never faults;
// nku_rotterdams_tournament also exercises its roem claims.
func TestPlaysEveryPreset(t *testing.T) {
	type table struct {
		preset string
		bots   int
	}
	var tables []table
	for _, p := range rules.PresetNames() {
		tables = append(tables, table{p, 4})
	}
	for _, p := range rules.ThreePlayerPresetNames() {
		tables = append(tables, table{p, 3}, table{p, 4})
	}
	for _, tc := range tables {
		t.Run(fmt.Sprintf("%s/%d", tc.preset, tc.bots), func(t *testing.T) {
			rs, err := rules.Preset(tc.preset)
			if err != nil {
				t.Fatal(err)
			}
			e := make([]referee.Entrant, tc.bots)
			for i := range e {
				e[i] = referee.Entrant{Name: "random", Start: referee.NewInProcess(newBot(uint64(i + 1)))}
			}
			res, err := referee.Run(context.Background(), referee.Config{Rules: rs, Games: 1, Duplicate: true, Seed: 9}, e)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range res.Bots {
				if len(b.Faults) > 0 || b.Decisions == 0 {
					t.Errorf("faulted: %v, %d decisions", b.Faults, b.Decisions)
				}
			}
		})
	}
}

// TestClaimsHonestly checks the claim: all the roem in the trick, as the rules count it.
func TestClaimsHonestly(t *testing.T) {
	rs, _ := rules.Preset("nku_rotterdams_tournament")
	opts := map[string]string{}
	for _, kv := range rs.Options() {
		opts[kv[0]] = kv[1]
	}
	var trick []protocol.Card
	for _, text := range []string{"QD", "KD", "AD", "7C"} {
		c, err := protocol.ParseCard(text)
		if err != nil {
			t.Fatal(err)
		}
		trick = append(trick, c)
	}
	b := newBot(1)
	s := &bot.State{Options: opts, Trump: protocol.Diamonds}
	if got := b.Decide(s, bot.Decision{Kind: bot.ClaimKind, Trick: trick}).Claim; got != 40 {
		t.Errorf("claim for %v with diamonds trumps: %d, want 40 (a run of three and the stuk)", trick, got)
	}
}

// TestStatelessPlaysOnAfterARestart: a match of stateless random bots resumed in the middle
// (the bots started afresh) records the deals the uninterrupted match recorded; bots drawing
// from one generator per process do not (the test can tell).
func TestStatelessPlaysOnAfterARestart(t *testing.T) {
	play := func(newBot func(uint64) bot.Bot, resume []referee.DealRecord) []string {
		var log strings.Builder
		e := make([]referee.Entrant, 4)
		for i := range e {
			e[i] = referee.Entrant{Name: fmt.Sprint("r", i%2), Start: referee.NewInProcess(newBot(uint64(i + 1)))}
		}
		cfg := referee.Config{ID: "s", Rules: rules.Default(), Games: 1, Duplicate: true, Seed: 9, Records: referee.NewLogWriter(&log), Resume: resume}
		if _, err := referee.Run(context.Background(), cfg, e); err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(log.String()), "\n")
	}
	timeless := func(lines []string) []string { // the times differ from run to run
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = regexp.MustCompile(`"(ms|cpu)":[0-9.e-]+,?`).ReplaceAllString(l, "")
		}
		return out
	}
	records := func(lines []string) []referee.DealRecord {
		recs := make([]referee.DealRecord, len(lines))
		for i, l := range lines {
			if err := json.Unmarshal([]byte(l), &recs[i]); err != nil {
				t.Fatal(err)
			}
		}
		return recs
	}
	for _, tc := range []struct {
		name      string
		newBot    func(uint64) bot.Bot
		stateless bool
	}{{"stateless", newStatelessBot, true}, {"one generator", newBot, false}} {
		full := play(tc.newBot, nil)
		k := len(full)/2 + 3 // in the second game
		rest := play(tc.newBot, records(full[:k]))
		if same := slices.Equal(timeless(rest), timeless(full[k:])); same != tc.stateless {
			t.Errorf("%s: resumed after %d of %d deals, the same deals after: %v", tc.name, k, len(full), same)
		}
	}
}

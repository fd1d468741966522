// Command seedbot is a test bot that tries to cheat: it knows the seed (from the league file,
// or given with -seed) and replays the arena's own shuffle without a key (referee.DealRand)
// to learn every hand. For each deal it appends to the -report file a line
//
//	GAME DEAL SEAT HAND N|E|S|W
//
// (cards separated by commas) with the four hands it predicts, or "-" when no derivation from the seed gives it its own
// hand. It passes when it may and plays its lowest legal card; when it knows every hand it
// cheats, naming the suit its team holds most of. With -honest it never looks.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/klaverjas-arena/arena/arena/league"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

func main() {
	leagueFile := flag.String("league", "", "the league `FILE`: every match seed of its first round is tried")
	seed := flag.Uint64("seed", 0, "the match seed (instead of -league)")
	pairs := flag.Int("pairs", 1, "deal sets per match to try")
	report := flag.String("report", "", "append the predictions to this `FILE`")
	honest := flag.Bool("honest", false, "do not look")
	flag.Parse()
	seeds := []uint64{*seed}
	if *leagueFile != "" {
		f, err := league.Load(*leagueFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "seedbot:", err)
			os.Exit(1)
		}
		plan, err := f.Plan(nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, "seedbot:", err)
			os.Exit(1)
		}
		seeds = nil
		for _, m := range plan.Todo {
			seeds = append(seeds, m.Seed)
		}
	}
	out := io.Discard
	if *report != "" {
		f, err := os.OpenFile(*report, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "seedbot:", err)
			os.Exit(1)
		}
		defer f.Close()
		out = f
	}
	var deal [2]int
	var known []protocol.CardSet // every hand of this deal, when the cheat worked
	b := bot.Bot{Name: "seedbot", Author: "arena tests", Decide: func(s *bot.State, d bot.Decision) bot.Answer {
		if deal != [2]int{s.Game, s.Deal} && !*honest {
			deal = [2]int{s.Game, s.Deal}
			known = predict(s, seeds, *pairs)
			line := "-"
			if known != nil {
				var hs []string
				for _, h := range known {
					hs = append(hs, cards(h))
				}
				line = strings.Join(hs, "|")
			}
			fmt.Fprintf(out, "%d %d %s %s %s\n", s.Game, s.Deal, s.Seat, cards(s.Hand), line)
		}
		switch d.Kind {
		case bot.BidKind:
			return bot.Answer{Bid: bid(s, d, known)}
		case bot.ClaimKind:
			rs := ruleset(s)
			return bot.Answer{Claim: rules.TrickRoem(&rs, protocol.SetOf(d.Trick...), s.Trump).Total()}
		}
		return bot.Answer{Card: d.LegalCards.Lowest()}
	}}
	if err := bot.Run(b); err != nil {
		fmt.Fprintln(os.Stderr, "seedbot:", err)
		os.Exit(1)
	}
}

// predict returns the four hands of the unkeyed derivation from one of the seeds that gives
// the bot its own hand, or nil.
func predict(s *bot.State, seeds []uint64, pairs int) []protocol.CardSet {
	rs := ruleset(s)
	for _, seed := range seeds {
		for pair := range pairs {
			for attempt := range 3 {
				deck := rules.Shuffle(referee.DealRand(nil, seed, pair, s.Deal, attempt))
				hands, _ := rules.DealHands(&rs, &deck, s.Dealer)
				if hands[s.Seat] == s.Hand {
					return hands[:4]
				}
			}
		}
	}
	return nil
}

// bid passes when it may, else names the first suit; knowing every hand, it names the suit
// its team holds most of, if that is at least five cards.
func bid(s *bot.State, d bot.Decision, known []protocol.CardSet) protocol.Bid {
	legal := d.LegalBids.All()
	choice := legal[0]
	if d.LegalBids.Has(protocol.BidPass) {
		choice = protocol.BidPass
	}
	if known == nil {
		return choice
	}
	best := 4
	for _, b := range legal {
		if b == protocol.BidPass {
			continue
		}
		team := known[s.Seat] | known[s.Partner()]
		if n := team.Suit(b.Suit()).Len(); n > best {
			best, choice = n, b
		}
	}
	return choice
}

// cards writes a hand as its cards separated by commas.
func cards(h protocol.CardSet) string { return strings.ReplaceAll(h.String(), " ", ",") }

func ruleset(s *bot.State) rules.Ruleset {
	rs := rules.Default()
	for name, value := range s.Options {
		_ = rs.Set(name, value)
	}
	return rs
}

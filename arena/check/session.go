package check

import (
	"fmt"
	"strings"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
)

// sessionGame is one game a process of the bot is sent in a sessionItem: its number, the
// bot's seat, and the deals played, numbered from firstDeal.
type sessionGame struct {
	number    int
	seat      protocol.Seat
	firstDeal int
	deals     int
}

// restartItem starts the bot as the arena does after a fault, or when a league resumes
// (spec.md §4): a fresh process is told game 2 and then the dealt of its deal 5, never having
// seen deals 1 to 4 or game 1. A bot that expects deal 1 first, or keeps the deal number
// itself, faults at every restart.
func (c *checker) restartItem() Item {
	return c.sessionItem("restarted mid-game: a fresh process told game 2 at deal 5 plays on",
		[]sessionGame{{number: 2, seat: protocol.East, firstDeal: 5, deals: 2}},
		"spec.md §4: a bot restarted after a fault, or when a league resumes, is sent the handshake, then game and the dealt of the next deal, which may be deal 5 of game 2")
}

// nextMatchItem plays two matches on one process, as a league does (keep_bots, spec.md §4):
// after the last gameover of a match comes the game of the next, numbered within that match
// (game 1 again), at another seat, without a new handshake.
func (c *checker) nextMatchItem() Item {
	return c.sessionItem("next match on the same process: game 1 again after gameover, at another seat",
		[]sessionGame{{number: 1, seat: protocol.North, firstDeal: 1, deals: 1}, {number: 1, seat: protocol.West, firstDeal: 1, deals: 1}},
		"spec.md §4: in a league one process plays several matches in a row (unless keep_bots = false): after the last gameover of a match comes the game of the next, numbered within that match, without a new handshake")
}

// sessionItem plays the games on one process of the bot under c.home(): the handshake, then
// each game's game line, its deals and its gameover. Every deal is played to its end, the
// others passing when they may, so the bot also bids. why is the rule a failure breaks: the
// item is run only for a bot that played the full game without a fault, so a failure here
// comes from the order of the lines, not from the bot's play.
func (c *checker) sessionItem(name string, games []sessionGame, why string) Item {
	if full := c.report.Item("full game"); full != nil && full.Status == Fail {
		return Item{Name: name, Status: Skip, Detail: "not run: the bot already faults in the full game"}
	}
	s, f := c.start()
	if f != nil {
		return f.item(name)
	}
	home := c.home()
	_, refused, f := s.handshake(home.Options())
	switch {
	case f != nil:
		return f.item(name)
	case refused != "":
		return c.homeRefused(name, refused)
	}
	defer s.quit()
	decisions := 0
	var played []string
	for gi, g := range games {
		s.queue(&protocol.Game{Number: g.number, Seat: g.seat, DecisionMS: int(c.opts.Time.Decision / time.Millisecond)})
		var totals [2]int
		for k := g.firstDeal; k < g.firstDeal+g.deals; k++ {
			dealer := protocol.North.Plus(gi+k, 4)
			sc := scenario{item: name, rules: home, setup: setupFor(&home, uint64(100*gi+k), dealer, false), seat: g.seat}
			run, _, f := c.playDeal(s, &sc, k)
			decisions += run.decisions
			if f != nil {
				f.detail = fmt.Sprintf("game %d deal %d (the bot at %s), decision %d of the deal: %s; %s", g.number, k, g.seat, run.decisions+1, f.detail, why)
				return f.item(name)
			}
			totals[0], totals[1] = totals[0]+run.score[0], totals[1]+run.score[1]
		}
		s.queue(&protocol.GameOver{Totals: totals[:]})
		deals := fmt.Sprintf("deal %d", g.firstDeal)
		if g.deals > 1 {
			deals = fmt.Sprintf("deals %d-%d", g.firstDeal, g.firstDeal+g.deals-1)
		}
		played = append(played, fmt.Sprintf("game %d at %s (%s)", g.number, g.seat, deals))
	}
	return Item{Name: name, Status: Pass, Detail: fmt.Sprintf("one process played %s: %d decisions, all legal", strings.Join(played, ", then "), decisions)}
}

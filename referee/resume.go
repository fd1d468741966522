package referee

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// A match resumed (Config.Resume) takes the deals an interrupted run recorded as played: the
// state they leave (the game totals and dealer, the faults of each bot and the bots disabled,
// the game clocks) is rebuilt from the records, and the match goes on with the next deal.

// resumeSeats counts the recorded faults of each seat's bot over the whole of Resume, so that
// a bot disabled before the interruption stays disabled (and is not started), and one with
// faults is disabled after as many more as in the uninterrupted match.
func (m *match) resumeSeats() error {
	if len(m.cfg.Resume) > 0 && len(m.cfg.Deals) > 0 {
		return errors.New("a match with predefined deals cannot be resumed")
	}
	for i := range m.cfg.Resume {
		rec := &m.cfg.Resume[i]
		for _, f := range rec.Faults {
			s, err := m.resumedSeat(f.Seat)
			if err != nil {
				return fmt.Errorf("resume: game %d deal %d: fault: %w", rec.Game, rec.Deal, err)
			}
			if f.Kind == FaultDisabled {
				continue
			}
			if s.faults++; s.faults >= m.cfg.MaxFaults {
				s.disabled = true
			}
		}
	}
	return nil
}

// firstRoom returns the room whose bots startAll starts: that of the game a resumed match
// was interrupted in, room 0 for a match from its start.
func (m *match) firstRoom() int {
	if n := len(m.cfg.Resume); n > 0 {
		return min(recordRotation(&m.cfg.Resume[n-1]), m.rooms-1)
	}
	return 0
}

// resumedSeat returns the seat of a recorded table seat.
func (m *match) resumedSeat(name string) (*seat, error) {
	pos, err := protocol.ParseSeat(name)
	if err != nil || int(pos) >= len(m.seats) {
		return nil, fmt.Errorf("seat %q is not at this table", name)
	}
	return m.seats[pos], nil
}

// resumeGame adds the records of Resume that belong to game number (of deal set pair, in its
// rotation) to the game g and its result gr, and returns the deal and the attempt the game
// goes on with: 1 and 0 when none does.
func (m *match) resumeGame(pair, rotation, number int, g *rules.Game, gr *GameResult) (dealNo, attempt int, err error) {
	dealNo = 1
	for ; m.resumed < len(m.cfg.Resume) && m.cfg.Resume[m.resumed].Game == number; m.resumed++ {
		rec := &m.cfg.Resume[m.resumed]
		redeal, err := m.resumeDeal(rec, pair, rotation, dealNo, attempt, g, gr)
		if err != nil {
			return 0, 0, fmt.Errorf("resume: game %d deal %d attempt %d: %w", rec.Game, rec.Deal, rec.Attempt, err)
		}
		if redeal {
			attempt++
		} else {
			dealNo, attempt = dealNo+1, 0
		}
	}
	return dealNo, attempt, nil
}

// resumeDeal checks that rec is the deal the match deals next, deal dealNo (attempt) of the
// game g, re-referees it and adds it to g, gr, the result and the game clocks. It reports
// whether the deal was a redeal.
func (m *match) resumeDeal(rec *DealRecord, pair, rotation, dealNo, attempt int, g *rules.Game, gr *GameResult) (redeal bool, err error) {
	if g.Over() {
		return false, errors.New("the game was over before this deal")
	}
	m.seating = g.Seating()
	switch {
	case rec.Deal != dealNo || rec.Attempt != attempt:
		return false, fmt.Errorf("the match deals deal %d attempt %d next", dealNo, attempt)
	case rec.Pair != pair || recordRotation(rec) != rotation:
		return false, fmt.Errorf("recorded for deal set %d rotation %d, the game is of set %d rotation %d", rec.Pair, recordRotation(rec), pair, rotation)
	case rec.Seed != m.cfg.Seed || rec.Keyed != (m.cfg.Key != nil):
		return false, errors.New("dealt with another seed or key than this match")
	case !rec.Rules.Equal(m.cfg.Rules):
		return false, errors.New("played under another ruleset than this match")
	case rec.Dealer != m.seating.Dealer.String():
		return false, fmt.Errorf("dealt by %s, but %s deals it in this match", rec.Dealer, m.seating.Dealer)
	}
	got, err := rec.Setup()
	if err != nil {
		return false, err
	}
	want := m.dealSetup(pair, dealNo, attempt, g)
	if got.Hands != want.Hands || got.Skart != want.Skart || !slices.Equal(got.Pile, want.Pile) || got.FirstOfMatch != want.FirstOfMatch {
		return false, errors.New("not the cards this match deals")
	}
	d, _, err := rec.replay()
	if err != nil {
		return false, err
	}
	res := d.Result()
	g.Add(res)
	gr.add(res, m.sideOf)
	m.result.addDeal(rec)
	for _, f := range rec.Faults {
		s, _ := m.resumedSeat(f.Seat) // checked by resumeSeats
		m.result.addFault(s.pos, m.sideOf(m.seating.DealSeat(s.pos)), &Fault{Kind: f.Kind, Detail: f.Detail})
	}
	if m.cfg.Time.Bank > 0 {
		for _, a := range rec.Actions {
			s, _ := m.resumedSeat(a.Seat) // checked by replay
			s.bank += m.cfg.Time.Increment - time.Duration(a.MS*float64(time.Millisecond))
		}
	}
	return res.Outcome == rules.Redeal, nil
}

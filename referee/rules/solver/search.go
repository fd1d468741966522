package solver

import (
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Solver searches positions. It keeps a transposition table between calls (each call is
// its own generation, so entries of earlier positions are never used); it is not safe for
// concurrent use.
type Solver struct {
	tt    []entry
	gen   uint32
	nodes int64

	// The context of the current search.
	rs        *rules.Ruleset
	trump     protocol.Suit
	makerSide int
	side      int
	players   int
	discard   protocol.CardSet
	useTT     bool
	stopAt    int // tricks left at which the search stops and estimates (0: to the end)

	// Horizon, when positive, makes the search heuristic: it looks that many tricks ahead
	// (the trick in progress counts as one) and then estimates the rest (see estimate).
	Horizon int
	// Deadline, when set, aborts a search that runs past it; Aborted then reports true and
	// the values returned are meaningless.
	Deadline time.Time
	aborted  bool
	// NatNoise, when positive, makes the estimate at the horizon (at a table of four, under
	// the majority nat rule) value a deal as the expectation of its score when the predicted
	// difference of the points to come is off by a normal error of NatNoise times the
	// estimate's typical error for the tricks left (natSigma), rather than the score of the
	// prediction itself: a contract the prediction makes by a little is then worth less than
	// its margin, as it goes nat in a good share of the layouts, and one it loses by a little
	// more than the loss of all the points. 0 scores the prediction (a step at the nat line).
	NatNoise float64

	// Policy, when set, is asked at every node where the seat to move has more than one
	// legal card (but not for the cards that Moves and Best value at the root): a legal
	// card it returns is then the only move searched there; protocol.NoCard (or any card
	// not legal) searches them all. A policy may depend on the line that led to the node
	// (PolicyNode.Line), so that a node's value no longer follows from the cards that
	// remain: with a Policy set the search uses neither the transposition table nor the
	// equivalent-card pruning, which both assume it does.
	Policy func(n *PolicyNode) protocol.Card
	node   PolicyNode
	line   []rules.Trick // the tricks finished since the root, by depth (with a Policy)
	root   int           // tricks left at the root
}

// PolicyNode is a node of the search as Solver.Policy sees it. Its fields are valid only
// during the call.
type PolicyNode struct {
	Seat  protocol.Seat    // the seat to move
	Hand  protocol.CardSet // its cards
	Legal protocol.CardSet // the legal ones
	Trick *rules.Trick     // the trick in progress
	// Line is the tricks finished since the position searched (the first one holds the
	// cards of that position's trick in progress), in order.
	Line []rules.Trick
	// TricksLeft counts the tricks still to finish, the one in progress included.
	TricksLeft int
}

// MoveValue is the value of one card for the seat to move.
type MoveValue struct {
	Card  protocol.Card
	Value int
}

// New returns a solver whose transposition table has 2^ttBits entries (24 bytes each).
func New(ttBits int) *Solver {
	return &Solver{tt: make([]entry, 1<<ttBits)}
}

// Nodes returns the positions searched so far, over every call.
func (s *Solver) Nodes() int64 { return s.nodes }

// Value returns the value of p for side (rules.Ruleset.SideOf) under perfect play.
func (s *Solver) Value(p *Position, side int) int {
	st := s.begin(p, side)
	return s.search(st, -infinity, infinity)
}

// Moves returns the exact value, for side, of every legal card of the seat to move, in card
// order.
func (s *Solver) Moves(p *Position, side int) []MoveValue {
	st := s.begin(p, side)
	mover := st.toMove(s.players)
	legal := rules.Legal(s.rs, s.trump, st.hands[mover], &st.trick)
	out := make([]MoveValue, 0, legal.Len())
	for c := range legal.All() {
		child := st
		s.play(&child, mover, c)
		out = append(out, MoveValue{c, s.search(child, -infinity, infinity)})
	}
	return out
}

// Best returns a card of the seat to move with the best value for that seat's side, and the
// value. It is faster than Moves: it proves only that no other card is better.
func (s *Solver) Best(p *Position) (protocol.Card, int) {
	side := p.Rules.SideOf(p.ToMove())
	st := s.begin(p, side)
	mover := st.toMove(s.players)
	legal := rules.Legal(s.rs, s.trump, st.hands[mover], &st.trick)
	best, bestValue := legal.Lowest(), -infinity
	var moves moveList
	s.ordered(&moves, &st, mover, legal, protocol.NoCard)
	for _, c := range moves.cards[:moves.n] {
		child := st
		s.play(&child, mover, c)
		if v := s.search(child, bestValue, infinity); v > bestValue {
			best, bestValue = c, v
		}
	}
	return best, bestValue
}

const infinity = 1 << 20

// state is a position during the search, copied for each move.
type state struct {
	hands      [protocol.MaxSeats]protocol.CardSet
	trick      rules.Trick
	best       int // index of the card winning the trick
	cards      [protocol.MaxSeats]int
	roem       [protocol.MaxSeats]int
	won        [protocol.MaxSeats]int
	tricksLeft int
	stukSeat   protocol.Seat
}

func (st *state) toMove(n int) protocol.Seat { return st.trick.Seat(st.trick.N, n) }

func (s *Solver) begin(p *Position, side int) state {
	s.gen++
	s.rs, s.trump, s.side, s.players, s.discard = p.Rules, p.Trump, side, p.Rules.Players, p.Discard
	s.makerSide = p.Rules.SideOf(p.Maker)
	st := state{hands: p.Hands, trick: p.Trick, cards: p.Cards, roem: p.Roem, won: p.Won, tricksLeft: p.TricksLeft(), stukSeat: p.StukSeat}
	st.best = max(0, st.trick.WinningIndex(p.Trump))
	s.useTT, s.aborted, s.stopAt = s.Policy == nil, false, 0
	s.root = st.tricksLeft
	if s.Policy != nil && len(s.line) < s.root {
		s.line = make([]rules.Trick, s.root)
	}
	if s.Horizon > 0 {
		s.stopAt = max(0, st.tricksLeft-s.Horizon)
	}
	for i := range s.players {
		// The key packs the score so far in fixed fields; a score too large for them (an
		// unusual ruleset) searches without the table rather than risk a false match.
		if p.Cards[i]+maxFuturePoints >= 1<<cardBits || p.Roem[i]+maxFutureRoem >= 1<<roemBits {
			s.useTT = false
		}
	}
	if p.Rules.LastTrickBonus > 100 {
		s.useTT = false
	}
	return st
}

// play plays card c of seat mover in st, finishing the trick when it is complete.
func (s *Solver) play(st *state, mover protocol.Seat, c protocol.Card) {
	st.hands[mover] = st.hands[mover].Remove(c)
	t := &st.trick
	i := t.N
	t.Add(c)
	if i == 0 || rules.Beats(c, t.Cards[st.best], t.Cards[0].Suit(), s.trump) {
		st.best = i
	}
	if mover == st.stukSeat && c.Suit() == s.trump && st.hands[mover]&stukOf(s.trump) == 0 {
		if r := c.Rank(); r == protocol.King || r == protocol.Queen {
			st.roem[s.rs.SideOf(mover)] += 20
			st.stukSeat = protocol.NoSeat
		}
	}
	if t.N < s.players {
		return
	}
	winner := t.Seat(st.best, s.players)
	side := s.rs.SideOf(winner)
	points := rules.SetPoints(t.Played, s.trump)
	st.tricksLeft--
	if s.Policy != nil {
		s.line[s.root-st.tricksLeft-1] = *t
	}
	if st.tricksLeft == 0 {
		points += s.rs.LastTrickBonus + rules.SetPoints(s.discard, s.trump)
	}
	st.cards[side] += points
	st.roem[side] += rules.TrickRoem(s.rs, t.Played, s.trump).Total()
	st.won[side]++
	st.trick = rules.Trick{Leader: winner}
	st.best = 0
}

// leaf returns the value of a finished deal.
func (s *Solver) leaf(st *state) int {
	res := rules.ScoreDeal(s.rs, s.makerSide, st.cards, st.roem, st.won)
	return s.valueOf(&res.Score)
}

// Aborted reports whether the last search ran past the Deadline.
func (s *Solver) Aborted() bool { return s.aborted }

func (s *Solver) valueOf(score *[protocol.MaxSeats]int) int {
	if s.players == 4 {
		return score[s.side] - score[1-s.side]
	}
	v := 0
	for o := range 3 {
		if o == s.side {
			v += 2 * score[o]
		} else {
			v -= score[o]
		}
	}
	return v
}

func (s *Solver) search(pos state, alpha, beta int) int {
	st := &pos
	s.nodes++
	if s.nodes&4095 == 0 && !s.Deadline.IsZero() && time.Now().After(s.Deadline) {
		s.aborted = true
	}
	if s.aborted {
		return 0
	}
	var e *entry
	var k key
	ttMove := protocol.NoCard
	if st.trick.N == 0 {
		if st.tricksLeft == 0 {
			return s.leaf(st)
		}
		if st.tricksLeft == s.stopAt {
			return s.estimate(st)
		}
		if s.useTT {
			k = s.keyOf(st)
			e = &s.tt[k.index(len(s.tt))]
			if e.gen == s.gen && e.k == k {
				lo, hi := int(e.lo), int(e.hi)
				if lo >= beta || lo == hi {
					return lo
				}
				if hi <= alpha {
					return hi
				}
				alpha, beta = max(alpha, lo), min(beta, hi)
				ttMove = e.move
			}
		}
	}
	mover := st.toMove(s.players)
	legal := rules.Legal(s.rs, s.trump, st.hands[mover], &st.trick)
	if legal.Len() > 1 {
		if s.Policy != nil {
			s.node = PolicyNode{Seat: mover, Hand: st.hands[mover], Legal: legal, Trick: &st.trick, Line: s.line[:s.root-st.tricksLeft], TricksLeft: st.tricksLeft}
			if c := s.Policy(&s.node); c.Valid() && legal.Has(c) {
				legal = protocol.SetOf(c)
			}
		} else {
			legal = s.prune(st, mover, legal)
		}
	}
	maximizing := s.rs.SideOf(mover) == s.side
	alpha0, beta0 := alpha, beta
	best := -infinity
	if !maximizing {
		best = infinity
	}
	bestMove := protocol.NoCard
	var moves moveList
	s.ordered(&moves, st, mover, legal, ttMove)
	for _, c := range moves.cards[:moves.n] {
		child := *st
		s.play(&child, mover, c)
		v := s.search(child, alpha, beta)
		if maximizing {
			if v > best {
				best, bestMove = v, c
			}
			alpha = max(alpha, v)
		} else {
			if v < best {
				best, bestMove = v, c
			}
			beta = min(beta, v)
		}
		if alpha >= beta {
			break
		}
	}
	if e != nil {
		// best is exact inside the window it was searched with, a bound outside it.
		if e.gen != s.gen || e.k != k {
			*e = entry{k: k, gen: s.gen, lo: -infinity, hi: infinity}
		}
		switch {
		case best <= alpha0:
			e.hi = int32(min(int(e.hi), best))
		case best >= beta0:
			e.lo = int32(max(int(e.lo), best))
		default:
			e.lo, e.hi = int32(best), int32(best)
		}
		e.move = bestMove
	}
	return best
}

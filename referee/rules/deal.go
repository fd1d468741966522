package rules

import (
	"errors"
	"fmt"

	"github.com/klaverjas-arena/arena/protocol"
)

// MaxTricks is the most tricks a deal can have (ten at a table of three).
const MaxTricks = 10

// Phase is the stage of a deal. Its String is the lower-case name: "bidding", "play".
type Phase uint8

//go:generate go tool stringer -type=Phase -linecomment

// The phases of a deal, in order.
const (
	// PhaseBidding is choosing trumps: LegalBids, Bid (then PhaseSkart at a table of three).
	PhaseBidding Phase = iota // bidding
	// PhasePlay is playing cards: Legal, Play.
	PhasePlay // play
	// PhaseClaim is a claim of roem by the trick's winner, under roem_claiming = claim_required.
	PhaseClaim // claim
	// PhaseDone is a finished deal: Result.
	PhaseDone // done
	// PhaseSkart comes between bidding and play at a table of three (RULES.md §11): the Player
	// has taken the skart into his hand and discards two cards (Discard). It is numbered
	// last so that the four-player phases keep their values.
	PhaseSkart // skart
)

// Errors returned by the actions of a Deal.
var (
	ErrWrongPhase = errors.New("not allowed in this phase of the deal")
	ErrBadSetup   = errors.New("bad deal setup")
)

// IllegalBidError reports a bid that the player to move may not make.
type IllegalBidError struct {
	Seat  Seat
	Bid   Bid
	Legal Bids
}

func (e *IllegalBidError) Error() string {
	return fmt.Sprintf("%s may not bid %s (legal: %s)", e.Seat, e.Bid, e.Legal)
}

// IllegalCardError reports a card that the player to move may not play: not in his hand, or
// against the rules of play (a renege).
type IllegalCardError struct {
	Seat   Seat
	Card   Card
	InHand bool
	Legal  CardSet
}

func (e *IllegalCardError) Error() string {
	if !e.InHand {
		return fmt.Sprintf("%s does not hold %s (legal: %s)", e.Seat, e.Card, e.Legal)
	}
	return fmt.Sprintf("%s may not play %s here (legal: %s)", e.Seat, e.Card, e.Legal)
}

// IllegalDiscardError reports a discard that the Player may not make: two cards that are
// not two different cards of his hand (skart phase, RULES.md §11).
type IllegalDiscardError struct {
	Seat  Seat
	Cards [2]Card
	Hand  CardSet
}

func (e *IllegalDiscardError) Error() string {
	if e.Cards[0] == e.Cards[1] {
		return fmt.Sprintf("%s must discard two different cards, not %s twice", e.Seat, e.Cards[0])
	}
	return fmt.Sprintf("%s cannot discard %s and %s: both must be in his hand %s", e.Seat, e.Cards[0], e.Cards[1], e.Hand)
}

// Setup is what a deal starts from: everything random is decided by the caller.
type Setup struct {
	Dealer       Seat
	Hands        [protocol.MaxSeats]CardSet
	Skart        CardSet             // at a table of three, the two cards not dealt (DealHands' rest); empty at four
	Pile         []protocol.PileCard // turn order of the pile of 2-6s, for pile procedures
	FirstOfMatch bool                // the first deal of a match (draaikaart_first_deal_clubs)
}

// SeatBid is a bid made by a seat.
type SeatBid struct {
	Seat Seat
	Bid  Bid
}

// TrickRecord is a finished trick.
type TrickRecord struct {
	Trick
	Winner Seat
	Points int  // card points, with the last-trick bonus
	Roem   Roem // the roem in the trick
	Scored int  // the roem scored for it: Roem.Total(), or what was claimed
}

// Deal is one deal from trump choosing to scoring, enforcing every rule of the ruleset. It is
// pure and deterministic: the same setup and actions give the same result. Use NewDeal or
// Start; the zero value is not ready.
type Deal struct {
	rules   Ruleset
	dealer  Seat
	dealt   [protocol.MaxSeats]CardSet
	hands   [protocol.MaxSeats]CardSet
	pile    []protocol.PileCard
	phase   Phase
	bid     bidding
	bids    []SeatBid
	trump   Suit
	maker   Seat
	skart   CardSet // at a table of three: the two undealt cards, taken by the Player
	discard CardSet // at a table of three: the Player's two discards, scored with the last trick

	players   int // rules.Players, cached for the hot path
	numTricks int // tricks in the deal
	toMove    Seat
	trick     Trick
	best      int // index of the card winning the trick so far
	tricks    [MaxTricks]TrickRecord
	nTricks   int
	stukSeat  Seat // announced_by_holder: the seat holding K and Q of trumps, else NoSeat

	cards, roem, won [protocol.MaxSeats]int // per side
	result           Result
}

// NewDeal validates the setup and starts a deal.
func NewDeal(r *Ruleset, s Setup) (*Deal, error) {
	d := new(Deal)
	if err := d.Start(r, s); err != nil {
		return nil, err
	}
	return d, nil
}

// Start validates the setup and (re)starts d as a new deal, reusing its memory.
func (d *Deal) Start(r *Ruleset, s Setup) error {
	if int(s.Dealer) >= r.Players {
		return fmt.Errorf("%w: dealer %s is not at a table of %d", ErrBadSetup, s.Dealer, r.Players)
	}
	if err := checkHands(r, &s.Hands, s.Skart); err != nil {
		return fmt.Errorf("%w: %v", ErrBadSetup, err)
	}
	if r.Bidding.UsesPile() {
		if err := checkPile(r, s.Pile); err != nil {
			return fmt.Errorf("%w: %v", ErrBadSetup, err)
		}
	}
	// Reset field by field: the trick records are overwritten as tricks finish, so the
	// (large) array is not cleared.
	d.rules, d.dealer, d.dealt, d.hands, d.pile = *r, s.Dealer, s.Hands, s.Hands, s.Pile
	d.players, d.numTricks = r.Players, r.HandSize()
	d.phase, d.bids, d.trump, d.maker = PhaseBidding, d.bids[:0], noSuit, noSeat
	d.skart, d.discard = s.Skart, 0
	d.toMove, d.trick, d.nTricks, d.stukSeat = noSeat, Trick{}, 0, noSeat
	d.cards, d.roem, d.won, d.result = [protocol.MaxSeats]int{}, [protocol.MaxSeats]int{}, [protocol.MaxSeats]int{}, Result{}
	d.startBidding(s.FirstOfMatch)
	return nil
}

func checkPile(r *Ruleset, pile []protocol.PileCard) error {
	want := 20
	if r.DraaikaartJokers {
		want = 22
	}
	if len(pile) != want {
		return fmt.Errorf("trump pile has %d cards, want %d: the 2-6 of each suit, plus two jokers when draaikaart_jokers is on", len(pile), want)
	}
	var seen [256]uint8
	for _, c := range pile {
		seen[c]++
		if !c.Valid() || (c == protocol.Joker && !r.DraaikaartJokers) || (c != protocol.Joker && seen[c] > 1) || seen[c] > 2 {
			return fmt.Errorf("trump pile: unexpected or repeated card %s", c)
		}
	}
	return nil
}

// Rules returns the deal's ruleset.
func (d *Deal) Rules() *Ruleset { return &d.rules }

// Phase returns the current phase.
func (d *Deal) Phase() Phase { return d.phase }

// Dealer returns the dealer.
func (d *Deal) Dealer() Seat { return d.dealer }

// ToMove returns the seat whose decision is awaited, or NoSeat when the deal is done.
func (d *Deal) ToMove() Seat {
	switch d.phase {
	case PhaseBidding:
		return d.bid.toMove
	case PhaseDone:
		return noSeat
	}
	return d.toMove
}

// Hand returns the cards seat s holds now.
func (d *Deal) Hand(s Seat) CardSet { return d.hands[s] }

// Dealt returns the cards seat s was dealt (at a table of three, without the skart).
func (d *Deal) Dealt(s Seat) CardSet { return d.dealt[s] }

// Trump returns the trump suit, or NoSuit while trumps are being chosen.
func (d *Deal) Trump() Suit { return d.trump }

// Maker returns the seat that chose trumps, or NoSeat.
func (d *Deal) Maker() Seat { return d.maker }

// Offered returns the suit on offer in a draaikaart round, or NoSuit when the player to move
// names any suit (or outside the bidding).
func (d *Deal) Offered() Suit {
	if d.phase != PhaseBidding {
		return noSuit
	}
	return d.bid.offer
}

// Turned returns the pile cards turned so far, in order.
func (d *Deal) Turned() []protocol.PileCard { return d.pile[:d.bid.turned:d.bid.turned] }

// Skart returns the two cards not dealt at a table of three (empty at four). The Player takes
// them into his hand when the bidding ends.
func (d *Deal) Skart() CardSet { return d.skart }

// Discarded returns the Player's two discards at a table of three, once made (else empty).
// Their card points count for the winner of the last trick.
func (d *Deal) Discarded() CardSet { return d.discard }

// Discard is the Player's discard of two different cards of his hand (which holds the skart),
// at a table of three (RULES.md §11). Any two cards may be discarded. An illegal discard is
// refused with an *IllegalDiscardError and changes nothing.
func (d *Deal) Discard(a, b Card) error {
	if d.phase != PhaseSkart {
		return ErrWrongPhase
	}
	hand := d.hands[d.toMove]
	if a == b || !hand.Has(a) || !hand.Has(b) {
		return &IllegalDiscardError{Seat: d.toMove, Cards: [2]Card{a, b}, Hand: hand}
	}
	d.discard = protocol.SetOf(a, b)
	d.hands[d.toMove] = hand &^ d.discard
	d.startPlay()
	return nil
}

// Bids returns the bids made so far, in order.
func (d *Deal) Bids() []SeatBid { return d.bids }

// Trick returns the trick in progress (or, in the claim phase, the trick just finished).
func (d *Deal) Trick() *Trick { return &d.trick }

// Tricks returns the finished tricks.
func (d *Deal) Tricks() []TrickRecord { return d.tricks[:d.nTricks] }

// NumTricks returns the number of tricks in a deal under the deal's ruleset.
func (d *Deal) NumTricks() int { return d.numTricks }

func (d *Deal) startPlay() {
	d.phase = PhasePlay
	d.toMove = d.dealer.Next(d.rules.Players)
	if d.rules.FirstLead == MakerLeads {
		d.toMove = d.maker
	}
	d.trick = Trick{Leader: d.toMove}
	if d.rules.StukScoring == StukAnnouncedByHolder {
		stuk := stukOf(d.trump)
		for s := range d.rules.Players {
			if d.hands[s]&stuk == stuk {
				d.stukSeat = Seat(s)
			}
		}
	}
}

// Legal returns the cards the player to move may play; empty outside the play.
func (d *Deal) Legal() CardSet {
	if d.phase != PhasePlay {
		return 0
	}
	hand := d.hands[d.toMove]
	if d.trick.N == 0 {
		return hand
	}
	if led := d.trick.Cards[0].Suit(); led != d.trump {
		if follow := hand & protocol.SuitMask(led); follow != 0 {
			return follow // following a plain suit is never restricted further
		}
	}
	return legalAt(&d.rules, d.trump, d.hands[d.toMove], &d.trick, d.best)
}

// Play plays card c for the player to move. An illegal card is refused with an
// *IllegalCardError and changes nothing; the caller decides whether it is a renege (Forfeit).
func (d *Deal) Play(c Card) error {
	if d.phase != PhasePlay {
		return ErrWrongPhase
	}
	legal := d.Legal()
	if !legal.Has(c) {
		return &IllegalCardError{Seat: d.toMove, Card: c, InHand: d.hands[d.toMove].Has(c), Legal: legal}
	}
	d.play(c)
	return nil
}

// PlayUnchecked plays c for the player to move without checking it. It is for search and
// simulation code that picks c from Legal; anything else must call Play.
func (d *Deal) PlayUnchecked(c Card) { d.play(c) }

func (d *Deal) play(c Card) {
	s := d.toMove
	d.hands[s] = d.hands[s].Remove(c)
	d.trick.Add(c)
	if n := d.trick.N - 1; n == 0 || Beats(c, d.trick.Cards[d.best], d.trick.Cards[0].Suit(), d.trump) {
		d.best = n
	}
	if s == d.stukSeat {
		d.announceStuk(s, c)
	}
	if d.trick.N < d.players {
		d.toMove = s.Next(d.players)
		return
	}
	d.finishTrick()
}

// announceStuk scores stuk for the holder s of K and Q of trumps (stuk_scoring =
// announced_by_holder) when c, just played, is the second of them.
func (d *Deal) announceStuk(s Seat, c Card) {
	if c.Suit() == d.trump && (c.Rank() == protocol.King || c.Rank() == protocol.Queen) &&
		d.hands[s]&stukOf(d.trump) == 0 {
		d.roem[d.rules.SideOf(s)] += 20 // the holder announces stuk with the second of K and Q
	}
}

func (d *Deal) finishTrick() {
	rec := &d.tricks[d.nTricks]
	d.nTricks++
	rec.Trick = d.trick
	rec.Winner = d.trick.Seat(d.best, d.players)
	rec.Points = SetPoints(d.trick.Played, d.trump)
	if d.nTricks == d.numTricks {
		// The discards (three players) count as card points of the last trick; never roem.
		rec.Points += d.rules.LastTrickBonus + SetPoints(d.discard, d.trump)
	}
	rec.Roem = Roem{}
	rec.Roem.fill(&d.rules, d.trick.Played, d.trump)
	side := d.rules.SideOf(rec.Winner)
	d.cards[side] += rec.Points
	d.won[side]++
	d.toMove = rec.Winner
	if d.rules.RoemClaiming == RoemClaimRequired {
		rec.Scored = 0 // until the claim: the record may hold a trick of an earlier deal
		d.phase = PhaseClaim
		return
	}
	rec.Scored = rec.Roem.Total()
	d.roem[side] += rec.Scored
	d.nextTrick()
}

func (d *Deal) nextTrick() {
	if d.nTricks == d.numTricks {
		d.finishPlayed()
		return
	}
	d.phase = PhasePlay
	d.trick = Trick{Leader: d.toMove}
}

// Claim is the trick winner's roem claim under roem_claiming = claim_required. Claiming no
// more than the trick holds scores the claim (so an unclaimed roem is lost); claiming more is
// a false claim: nothing is scored for the trick (its Scored is 0) and the opponents receive
// false_claim_penalty as roem.
func (d *Deal) Claim(points int) error {
	if d.phase != PhaseClaim {
		return ErrWrongPhase
	}
	if points < 0 {
		return fmt.Errorf("claim of %d roem: a claim cannot be negative", points)
	}
	rec := &d.tricks[d.nTricks-1]
	side := d.rules.SideOf(rec.Winner)
	if points <= rec.Roem.Total() {
		rec.Scored = points
		d.roem[side] += points
	} else {
		for o := range d.rules.Sides() {
			if o != side {
				d.roem[o] += d.rules.FalseClaimPenalty
			}
		}
	}
	d.nextTrick()
	return nil
}

// Forfeit ends the deal as forfeited by seat's side (a renege, timeout, crash or bad reply;
// RULES.md §7.4). It may be called in any phase before the deal is done. At a table of
// three see ScoreForfeit for the arena convention.
func (d *Deal) Forfeit(offender Seat) {
	if d.phase == PhaseDone {
		return
	}
	d.phase = PhaseDone
	d.result = ScoreForfeit(&d.rules, d.rules.SideOf(offender), d.roem)
	d.result.Offender = offender
	d.fillResult()
}

func (d *Deal) finishRedeal() {
	d.phase = PhaseDone
	d.result = Result{Outcome: Redeal, Offender: noSeat, PitSide: -1}
	d.fillResult()
}

func (d *Deal) finishPlayed() {
	d.phase = PhaseDone
	d.result = ScoreDeal(&d.rules, d.rules.SideOf(d.maker), d.cards, d.roem, d.won)
	d.result.Offender = noSeat
	d.fillResult()
}

func (d *Deal) fillResult() {
	d.result.Maker, d.result.Trump = d.maker, d.trump
	d.result.CardPoints, d.result.Roem, d.result.TricksWon = d.cards, d.roem, d.won
}

// Result returns the deal's result; it is meaningful once the phase is PhaseDone.
func (d *Deal) Result() Result { return d.result }

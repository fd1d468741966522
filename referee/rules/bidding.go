package rules

import "github.com/klaverjas-arena/arena/protocol"

// PlaySuit returns the bid that plays on suit s.
func PlaySuit(s Suit) Bid { return protocol.PlaySuit(s) }

// bidding is the state of a trump-choosing procedure (RULES.md §4).
type bidding struct {
	toMove  Seat
	spoken  int  // players who have spoken in this round
	round   int  // rounds completed
	offer   Suit // the suit on offer, or NoSuit when the player names any suit
	canPass bool
	offered uint8 // suits offered so far, as bits
	turned  int   // pile cards turned so far
}

// startBidding sets up the procedure; it may finish at once (bga_draw without a joker).
func (d *Deal) startBidding(firstOfMatch bool) {
	b := &d.bid
	left := d.dealer.Next(d.rules.Players)
	*b = bidding{toMove: left, offer: noSuit, canPass: true}
	switch p := d.rules.Bidding; {
	case p == DirectKiezenVerplicht:
		b.canPass = false
	case p == NKUDealerFirst:
		b.toMove = d.dealer
	case p == BGADraw:
		b.canPass = false
		d.turnNewSuit()
		if b.offer.Valid() {
			d.makeTrump(left, b.offer)
		}
	case p.IsDraaikaart():
		if firstOfMatch && d.rules.DraaikaartFirstDealClubs {
			b.offer = protocol.Clubs
			b.offered = 1 << protocol.Clubs
		} else {
			d.turnNewSuit()
		}
	}
}

// turnNewSuit turns pile cards until a joker or a suit not yet offered appears. On a suit, it
// is put on offer; on a joker, the player left of the dealer must name any suit.
func (d *Deal) turnNewSuit() {
	b := &d.bid
	for b.turned < len(d.pile) {
		c := d.pile[b.turned]
		b.turned++
		if c == protocol.Joker {
			b.toMove, b.offer, b.canPass = d.dealer.Next(d.rules.Players), noSuit, false
			return
		}
		if s := c.Suit(); b.offered&(1<<s) == 0 {
			b.offer = s
			b.offered |= 1 << s
			return
		}
	}
	panic("rules: pile exhausted") // Start checks that the pile is complete, so this cannot happen
}

// LegalBids returns the bids the player to move may make; empty outside the bidding.
func (d *Deal) LegalBids() Bids {
	if d.phase != PhaseBidding {
		return 0
	}
	b := &d.bid
	set := protocol.AllSuits
	if b.offer.Valid() {
		set = Bids(0).Add(PlaySuit(b.offer))
	}
	if b.canPass {
		set = set.Add(BidPass)
	}
	return set
}

// Bid makes the trump-choosing action of the player to move.
func (d *Deal) Bid(bid Bid) error {
	if d.phase != PhaseBidding {
		return ErrWrongPhase
	}
	if !d.LegalBids().Has(bid) {
		return &IllegalBidError{Seat: d.bid.toMove, Bid: bid, Legal: d.LegalBids()}
	}
	d.bids = append(d.bids, SeatBid{Seat: d.bid.toMove, Bid: bid})
	if bid != BidPass {
		d.makeTrump(d.bid.toMove, bid.Suit())
		return nil
	}
	d.pass()
	return nil
}

func (d *Deal) pass() {
	b := &d.bid
	n := d.rules.Players
	b.spoken++
	b.toMove = b.toMove.Next(n)
	if d.rules.Bidding == DirectKiezenDealerVerplicht && b.toMove == d.dealer {
		b.canPass = false
	}
	if b.spoken < n {
		return
	}
	// Everybody passed in this round.
	if n == 3 {
		// RULES.md §11: the hand is thrown in (and Game moves the deal to the next dealer).
		d.finishRedeal()
		return
	}
	b.spoken = 0
	b.round++
	left := d.dealer.Next(n)
	switch p := d.rules.Bidding; {
	case p == DirectKiezen:
		b.toMove, b.canPass = left, false
	case p == NKUDealerFirst:
		b.toMove, b.canPass = d.dealer, false
	case p == DraaikaartDanVerplichtKiezen:
		b.toMove, b.offer, b.canPass = left, noSuit, false
	case p.IsDraaikaart() && b.round == 1:
		b.toMove = left
		d.turnNewSuit()
	case p == Draaikaart:
		// The next new suit is compulsory for the first player: no decision to ask for,
		// unless a joker lets him choose.
		b.toMove = left
		d.turnNewSuit()
		if b.offer.Valid() {
			d.makeTrump(left, b.offer)
		}
	case p == DraaikaartVrijKiezen:
		b.toMove, b.offer, b.canPass = left, noSuit, false
	case p == DraaikaartOpnieuwSchudden:
		d.finishRedeal()
	}
}

// makeTrump ends the bidding: seat becomes the maker with suit s as trumps. At a table of
// three he then takes the skart and must discard two cards before play starts.
func (d *Deal) makeTrump(seat Seat, s Suit) {
	d.maker, d.trump = seat, s
	if d.players == 3 {
		d.phase, d.toMove = PhaseSkart, seat
		d.hands[seat] |= d.skart
		return
	}
	d.startPlay()
}

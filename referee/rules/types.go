package rules

import "github.com/klaverjas-arena/arena/protocol"

// The card and table types are defined in package protocol, which bots import too; these
// aliases let the engine read naturally.
type (
	Card    = protocol.Card
	CardSet = protocol.CardSet
	Suit    = protocol.Suit
	Rank    = protocol.Rank
	Seat    = protocol.Seat
	Bid     = protocol.Bid
	Bids    = protocol.Bids
)

// BidPass is the pass.
const BidPass = protocol.BidPass

const (
	noSuit = protocol.NoSuit
	noSeat = protocol.NoSeat
	noCard = protocol.NoCard
)

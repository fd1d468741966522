package rules

// The enumerated option types of a Ruleset. Each value's String is its name in RULES.md §9,
// which is also its spelling in ruleset files and on the wire.

// PlayRule selects the trumping obligations of RULES.md §5.3.
type PlayRule uint8

// Play rules.
const (
	Amsterdams PlayRule = iota
	Rotterdams
)

// Undertrump says what a player who is void in the led suit and cannot overtrump must do.
type Undertrump uint8

// Undertrump rules.
const (
	// UndertrumpForbiddenUnlessOnlyTrumps: discard a non-trump; undertrump only with nothing else.
	UndertrumpForbiddenUnlessOnlyTrumps Undertrump = iota
	// UndertrumpMandatory: still play a trump, any trump.
	UndertrumpMandatory
)

// PartnerUndertrump says whether, in Amsterdams, a player may play a trump lower than the
// trump with which his partner is winning.
type PartnerUndertrump uint8

// Partner-undertrump rules.
const (
	PartnerUndertrumpForbiddenUnlessOnlyTrumps PartnerUndertrump = iota
	PartnerUndertrumpAllowed
)

// Bidding is a trump-choosing procedure of RULES.md §4.
type Bidding uint8

// The nine trump-choosing procedures.
const (
	DirectKiezen Bidding = iota
	DirectKiezenVerplicht
	DirectKiezenDealerVerplicht
	NKUDealerFirst
	Draaikaart
	DraaikaartOpnieuwSchudden
	DraaikaartVrijKiezen
	DraaikaartDanVerplichtKiezen
	BGADraw
)

// UsesPile reports whether the procedure turns cards from the pile of 2-6s.
func (b Bidding) UsesPile() bool { return b >= Draaikaart }

// IsDraaikaart reports whether the procedure is one of the draaikaart family.
func (b Bidding) IsDraaikaart() bool { return b >= Draaikaart && b <= DraaikaartDanVerplichtKiezen }

// FirstLead says who leads to the first trick.
type FirstLead uint8

// First-lead rules.
const (
	LeftOfDealer FirstLead = iota
	MakerLeads
)

// FourOfAKind says what four cards of one rank in a trick are worth (RULES.md §6).
type FourOfAKind uint8

// Four-of-a-kind rules.
const (
	FourAll100 FourOfAKind = iota
	FourJacks200High100
	FourJacks200All100
)

// StukScoring says how king and queen of trumps score (RULES.md §6).
type StukScoring uint8

// Stuk rules.
const (
	// StukInTrick: K and Q of trumps in one trick, for the trick's winner.
	StukInTrick StukScoring = iota
	// StukAnnouncedByHolder: the holder of both scores 20 when he plays the second of them.
	StukAnnouncedByHolder
)

// RoemClaiming says whether roem is scored automatically or must be claimed.
type RoemClaiming uint8

// Roem-claiming rules.
const (
	RoemAutomatic RoemClaiming = iota
	RoemClaimRequired
)

// NatRule is the test that decides whether the makers made their contract.
type NatRule uint8

// Nat rules.
const (
	// NatStrictlyMoreInclRoem: made iff cards+roem of the makers > cards+roem of the defenders.
	NatStrictlyMoreInclRoem NatRule = iota
	// NatCardPointsAtLeast82: made iff the makers took at least 82 card points (roem ignored).
	NatCardPointsAtLeast82
)

// FaultPolicy is the arena's reaction to a bot's illegal move, bad reply, timeout or crash.
type FaultPolicy uint8

// Fault policies.
const (
	FaultForfeitDeal FaultPolicy = iota
	FaultRetry
)

// GameEndKind says whether a game lasts a number of deals or until a target score.
type GameEndKind uint8

// Game-end kinds.
const (
	EndAfterDeals GameEndKind = iota
	EndAtTarget
)

// GameEnd is when a game ends: after N deals, or after the first deal that brings a side to
// at least N points.
type GameEnd struct {
	Kind GameEndKind
	N    int
}

var (
	playRuleNames          = []string{"amsterdams", "rotterdams"}
	undertrumpNames        = []string{"forbidden_unless_only_trumps", "mandatory"}
	partnerUndertrumpNames = []string{"forbidden_unless_only_trumps", "allowed"}
	biddingNames           = []string{"direct_kiezen", "direct_kiezen_verplicht", "direct_kiezen_dealer_verplicht", "nku_dealer_first", "draaikaart", "draaikaart_opnieuw_schudden", "draaikaart_vrij_kiezen", "draaikaart_dan_verplicht_kiezen", "bga_draw"}
	firstLeadNames         = []string{"left_of_dealer", "maker"}
	fourOfAKindNames       = []string{"all_100", "jacks_200_high_100", "jacks_200_all_100"}
	stukScoringNames       = []string{"in_trick", "announced_by_holder"}
	roemClaimingNames      = []string{"automatic", "claim_required"}
	natRuleNames           = []string{"strictly_more_incl_roem", "card_points_at_least_82"}
	faultPolicyNames       = []string{"forfeit_deal", "retry"}
)

func enumName(names []string, i uint8) string {
	if int(i) < len(names) {
		return names[i]
	}
	return "invalid"
}

func (v PlayRule) String() string          { return enumName(playRuleNames, uint8(v)) }
func (v Undertrump) String() string        { return enumName(undertrumpNames, uint8(v)) }
func (v PartnerUndertrump) String() string { return enumName(partnerUndertrumpNames, uint8(v)) }
func (v Bidding) String() string           { return enumName(biddingNames, uint8(v)) }
func (v FirstLead) String() string         { return enumName(firstLeadNames, uint8(v)) }
func (v FourOfAKind) String() string       { return enumName(fourOfAKindNames, uint8(v)) }
func (v StukScoring) String() string       { return enumName(stukScoringNames, uint8(v)) }
func (v RoemClaiming) String() string      { return enumName(roemClaimingNames, uint8(v)) }
func (v NatRule) String() string           { return enumName(natRuleNames, uint8(v)) }
func (v FaultPolicy) String() string       { return enumName(faultPolicyNames, uint8(v)) }

package rules

import (
	"fmt"
	"slices"
	"strings"
)

// Ruleset is a complete set of rule options (RULES.md §9). The zero value is not valid; start
// from Default or a Preset. A Ruleset is a plain value: copy it freely.
type Ruleset struct {
	Players                  int // seats that take part in a deal: 4, or 3 (RULES.md §11)
	PlayRule                 PlayRule
	Undertrump               Undertrump
	PartnerTrumpUndertrump   PartnerUndertrump
	Bidding                  Bidding
	DraaikaartFirstDealClubs bool // the first deal of a match offers clubs instead of a turned card
	DraaikaartJokers         bool // the pile of 2-6s also holds two jokers
	FirstLead                FirstLead
	DealPackets              Packets
	FourOfAKind              FourOfAKind
	StukScoring              StukScoring
	RoemClaiming             RoemClaiming
	FalseClaimPenalty        int // roem to the opponents for a claim of roem that is not there
	LastTrickBonus           int
	NatRule                  NatRule
	PitBonus                 int
	PitForDefenders          bool
	FaultPolicy              FaultPolicy
	RenegeExtraRoem          int
	GameEnd                  GameEnd
}

// Packets is the sizes of the packets in which each player receives his cards, in order;
// unused entries are zero.
type Packets [4]uint8

// String returns the packets in ruleset notation, e.g. "[3,2,3]".
func (p Packets) String() string {
	var parts []string
	for _, n := range p {
		if n > 0 {
			parts = append(parts, fmt.Sprint(n))
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// Default returns the default ruleset: the amsterdams preset.
func Default() Ruleset {
	return Ruleset{
		Players:                  4,
		PlayRule:                 Amsterdams,
		Undertrump:               UndertrumpForbiddenUnlessOnlyTrumps,
		PartnerTrumpUndertrump:   PartnerUndertrumpForbiddenUnlessOnlyTrumps,
		Bidding:                  DirectKiezen,
		DraaikaartFirstDealClubs: true,
		DraaikaartJokers:         false,
		FirstLead:                LeftOfDealer,
		DealPackets:              Packets{3, 2, 3},
		FourOfAKind:              FourAll100,
		StukScoring:              StukInTrick,
		RoemClaiming:             RoemAutomatic,
		FalseClaimPenalty:        0,
		LastTrickBonus:           10,
		NatRule:                  NatStrictlyMoreInclRoem,
		PitBonus:                 100,
		PitForDefenders:          true,
		FaultPolicy:              FaultForfeitDeal,
		RenegeExtraRoem:          100,
		GameEnd:                  GameEnd{Kind: EndAfterDeals, N: 16},
	}
}

type preset struct {
	name  string
	about string
	apply func(*Ruleset)
}

func rotterdams(r *Ruleset) {
	r.PlayRule = Rotterdams
	r.Undertrump = UndertrumpMandatory
}

func bga(r *Ruleset) {
	r.Bidding = BGADraw
	r.DraaikaartJokers = true
	r.FourOfAKind = FourJacks200High100
	r.PitForDefenders = true
	r.GameEnd = GameEnd{Kind: EndAtTarget, N: 1500}
}

var presets = []preset{
	{"amsterdams", "Amsterdams play, no undertrumping; the default", func(*Ruleset) {}},
	{"rotterdams", "Rotterdams play: always (over)trump when void, undertrump if you must", rotterdams},
	{"nku_rotterdams_tournament", "NKU tournament: Rotterdams, dealer speaks first, roem must be claimed", func(r *Ruleset) {
		rotterdams(r)
		r.Bidding = NKUDealerFirst
		r.FourOfAKind = FourAll100
		r.RoemClaiming = RoemClaimRequired
	}},
	{"bga_rotterdams", "BoardGameArena classic: trump drawn from the pile (jokers in), four jacks 200, to 1500", func(r *Ruleset) {
		rotterdams(r)
		bga(r)
	}},
	{"bga_amsterdams", "BoardGameArena 'City': as bga_rotterdams with Amsterdams play", bga},
	{"klaver_live", "klaver.live: Amsterdams with the draaikaart, four of a kind 100, renege +100", func(r *Ruleset) {
		r.Bidding = Draaikaart
		r.FourOfAKind = FourAll100
		r.RenegeExtraRoem = 100
	}},
}

// threePlayerPresets are the presets with players = 3 (RULES.md §11), listed apart
// from the four-player presets of §9 (PresetNames) because a table of four bots cannot play
// them the same way.
var threePlayerPresets = []preset{
	{"drie_spelers", "three players, each for himself: skart, compulsory undertrumping, rounded scores (RULES.md §11)", threePlayer},
}

// threePlayer sets the options of RULES.md §11. Options that do not apply at a table of three
// keep their defaults (see checkThreePlayer).
func threePlayer(r *Ruleset) {
	r.Players = 3
	r.PlayRule = Rotterdams
	r.Undertrump = UndertrumpMandatory
	r.Bidding = DirectKiezen // at a table of three: one round, all pass = redeal by the next dealer
	r.DealPackets = Packets{3, 4, 3}
	r.PitBonus = 100
	r.PitForDefenders = true
	r.GameEnd = GameEnd{Kind: EndAfterDeals, N: 15} // §8's boompje at three: each deals five times
}

// ThreePlayerPresetNames returns the names of the three-player presets (RULES.md §11).
func ThreePlayerPresetNames() []string {
	names := make([]string, len(threePlayerPresets))
	for i, p := range threePlayerPresets {
		names[i] = p.name
	}
	return names
}

// PresetNames returns the names of the four-player presets, the default first. The
// three-player presets are listed by ThreePlayerPresetNames.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.name
	}
	return names
}

// AllPresetNames returns the names of every preset: the four-player ones, then the
// three-player ones.
func AllPresetNames() []string { return append(PresetNames(), ThreePlayerPresetNames()...) }

// PresetAbout returns a one-line description of the named preset, or "" if there is none.
func PresetAbout(name string) string {
	for _, p := range allPresets() {
		if p.name == name {
			return p.about
		}
	}
	return ""
}

// Preset returns the named preset ruleset.
func Preset(name string) (Ruleset, error) {
	for _, p := range allPresets() {
		if p.name == name {
			r := Default()
			p.apply(&r)
			return r, nil
		}
	}
	return Ruleset{}, &OptionError{Option: "preset", Value: name, Allowed: strings.Join(AllPresetNames(), ", ")}
}

func allPresets() []preset { return slices.Concat(presets, threePlayerPresets) }

// HandSize returns the number of cards each player holds at the start of play.
func (r *Ruleset) HandSize() int { return NumCardsInPlay(r.Players) / r.Players }

// NumCardsInPlay returns how many of the 32 cards are dealt to the players at a table of n.
func NumCardsInPlay(n int) int { return 32 / n * n }

// Sides returns the number of scoring sides: two partnerships at a table of four, each
// player for himself at a table of three.
func (r *Ruleset) Sides() int {
	if r.Players == 4 {
		return 2
	}
	return r.Players
}

// Validate reports every problem with r: values out of range and options that contradict
// each other. The error lists all problems (errors.Join of *OptionError).
func (r *Ruleset) Validate() error {
	var errs optionErrors
	for _, o := range options {
		if err := o.set(&Ruleset{}, o.get(r)); err != nil {
			errs.add(err)
		}
	}
	r.checkConsistency(&errs)
	return errs.err()
}

func (r *Ruleset) checkConsistency(errs *optionErrors) {
	if r.PartnerTrumpUndertrump == PartnerUndertrumpAllowed && r.PlayRule != Amsterdams {
		errs.add(&OptionError{Option: "partner_trump_undertrump", Value: "allowed", Allowed: "forbidden_unless_only_trumps", Why: "it applies only with play_rule = amsterdams"})
	}
	if r.FalseClaimPenalty != 0 && r.RoemClaiming != RoemClaimRequired {
		errs.add(&OptionError{Option: "false_claim_penalty", Value: fmt.Sprint(r.FalseClaimPenalty), Allowed: "0", Why: "it applies only with roem_claiming = claim_required"})
	}
	if r.DraaikaartJokers && !r.Bidding.UsesPile() {
		errs.add(&OptionError{Option: "draaikaart_jokers", Value: "true", Allowed: "false", Why: "bidding " + r.Bidding.String() + " turns no cards"})
	}
	want := 8 // cards per hand
	if r.Players == 3 {
		want = 10
		r.checkThreePlayer(errs)
	}
	sum := 0
	for _, n := range r.DealPackets {
		sum += int(n)
	}
	if sum != want {
		allowed := "[3,2,3], [4,4]"
		if r.Players == 3 {
			allowed = "[3,4,3]"
		}
		errs.add(&OptionError{Option: "deal_packets", Value: r.DealPackets.String(), Allowed: allowed,
			Why: fmt.Sprintf("with players = %d each player receives %d cards, and the packets add up to %d", r.Players, want, sum)})
	}
}

// checkThreePlayer checks the options at a table of three (RULES.md §11). The rules of
// play, bidding, nat and the roem values are fixed by RULES.md §11, so the options that
// choose between four-player variants must keep the value that matches it (or their default
// where they do not apply). Options that still apply: draaikaart_first_deal_clubs (unused:
// no cards are turned), deal_packets (must add up to 10), roem_claiming,
// false_claim_penalty (paid to each of the two others), last_trick_bonus (the Player still
// needs 82), pit_bonus, fault_policy, renege_extra_roem and game_end.
func (r *Ruleset) checkThreePlayer(errs *optionErrors) {
	const why = "with players = 3 (the preset drie_spelers sets them all) "
	fixed := func(name, value, want, reason string) {
		if value != want {
			errs.add(&OptionError{Option: name, Value: value, Allowed: want, Why: why + reason})
		}
	}
	fixed("play_rule", r.PlayRule.String(), Rotterdams.String(), "a void player must always (over)trump (RULES.md §11)")
	fixed("undertrump", r.Undertrump.String(), UndertrumpMandatory.String(), "undertrumping is compulsory (RULES.md §11)")
	fixed("partner_trump_undertrump", r.PartnerTrumpUndertrump.String(), PartnerUndertrumpForbiddenUnlessOnlyTrumps.String(), "there are no partners")
	fixed("bidding", r.Bidding.String(), DirectKiezen.String(), "each in turn plays on a suit of his choice or passes, and if all three pass the next dealer deals (RULES.md §11); no cards are turned")
	fixed("first_lead", r.FirstLead.String(), LeftOfDealer.String(), "voorhand leads the first trick (RULES.md §11)")
	fixed("four_of_a_kind", r.FourOfAKind.String(), FourAll100.String(), "there is no four of a kind in a trick of three; three of a kind is 80, three jacks 120 (RULES.md §11)")
	fixed("stuk_scoring", r.StukScoring.String(), StukInTrick.String(), "stuk counts when king and queen of trumps fall in one trick (RULES.md §11)")
	fixed("nat_rule", r.NatRule.String(), NatStrictlyMoreInclRoem.String(), "the Player's test is fixed: his card points + roem at least 82 (RULES.md §11); leave nat_rule at its default")
	fixed("pit_for_defenders", fmt.Sprint(r.PitForDefenders), "true", "whoever wins all ten tricks scores the pit bonus (RULES.md §11)")
}

// Equal reports whether two rulesets are the same in every option.
func (r Ruleset) Equal(o Ruleset) bool { return r == o }

// Options returns every option as (name, value) pairs in ruleset notation, in the order of RULES.md §9.
func (r *Ruleset) Options() [][2]string {
	out := make([][2]string, len(options))
	for i, o := range options {
		out[i] = [2]string{o.name, o.get(r)}
	}
	return out
}

// Get returns the value of the named option in ruleset notation.
func (r *Ruleset) Get(name string) (string, error) {
	o := findOption(name)
	if o == nil {
		return "", unknownOption(name)
	}
	return o.get(r), nil
}

// Set sets the named option from its ruleset notation (e.g. "bidding", "draaikaart").
// It checks the value but not its consistency with other options: call Validate after the
// last Set.
func (r *Ruleset) Set(name, value string) error {
	o := findOption(name)
	if o == nil {
		return unknownOption(name)
	}
	return o.set(r, value)
}

// OptionNames returns the names of every option, in the order of RULES.md §9.
func OptionNames() []string {
	names := make([]string, len(options))
	for i, o := range options {
		names[i] = o.name
	}
	return names
}

// OptionAllowed describes the allowed values of the named option, or "" if there is none.
func OptionAllowed(name string) string {
	if o := findOption(name); o != nil {
		return o.allowed
	}
	return ""
}

func findOption(name string) *option {
	i := slices.IndexFunc(options, func(o option) bool { return o.name == name })
	if i < 0 {
		return nil
	}
	return &options[i]
}

func unknownOption(name string) error {
	return &OptionError{Option: name, Unknown: true, Allowed: "preset, " + strings.Join(OptionNames(), ", ")}
}

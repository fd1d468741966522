package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

const gameEndAllowed = "deals:N (N from 1 to 1000) or target:N (N from 1 to 100000), e.g. deals:16, target:1500"

// valueKind is how an option's value is typed in JSON and TOML.
type valueKind uint8

const (
	kindString valueKind = iota
	kindBool
	kindInt
	kindIntList
)

// option describes one ruleset option: its name, what values it allows, and how to read and
// write it in ruleset notation.
type option struct {
	name    string
	allowed string // for error messages and documentation
	kind    valueKind
	get     func(*Ruleset) string
	set     func(*Ruleset, string) error
}

// options lists every option in the order of RULES.md §9.
var options = []option{
	intOption("players", 3, 4, func(r *Ruleset) *int { return &r.Players }),
	enumOption("play_rule", playRuleNames, func(r *Ruleset) *PlayRule { return &r.PlayRule }),
	enumOption("undertrump", undertrumpNames, func(r *Ruleset) *Undertrump { return &r.Undertrump }),
	enumOption("partner_trump_undertrump", partnerUndertrumpNames, func(r *Ruleset) *PartnerUndertrump { return &r.PartnerTrumpUndertrump }),
	enumOption("bidding", biddingNames, func(r *Ruleset) *Bidding { return &r.Bidding }),
	boolOption("draaikaart_first_deal_clubs", func(r *Ruleset) *bool { return &r.DraaikaartFirstDealClubs }),
	boolOption("draaikaart_jokers", func(r *Ruleset) *bool { return &r.DraaikaartJokers }),
	enumOption("first_lead", firstLeadNames, func(r *Ruleset) *FirstLead { return &r.FirstLead }),
	{
		name:    "deal_packets",
		allowed: "[3,2,3], [4,4] (four players), [3,4,3] (three players)",
		kind:    kindIntList,
		get:     func(r *Ruleset) string { return r.DealPackets.String() },
		set: func(r *Ruleset, v string) error {
			switch strings.ReplaceAll(v, " ", "") {
			case "[3,2,3]":
				r.DealPackets = Packets{3, 2, 3}
			case "[4,4]":
				r.DealPackets = Packets{4, 4}
			case "[3,4,3]":
				r.DealPackets = Packets{3, 4, 3}
			default:
				return &OptionError{Option: "deal_packets", Value: v, Allowed: "[3,2,3], [4,4] (four players), [3,4,3] (three players)"}
			}
			return nil
		},
	},
	enumOption("four_of_a_kind", fourOfAKindNames, func(r *Ruleset) *FourOfAKind { return &r.FourOfAKind }),
	enumOption("stuk_scoring", stukScoringNames, func(r *Ruleset) *StukScoring { return &r.StukScoring }),
	enumOption("roem_claiming", roemClaimingNames, func(r *Ruleset) *RoemClaiming { return &r.RoemClaiming }),
	intOption("false_claim_penalty", 0, 1000, func(r *Ruleset) *int { return &r.FalseClaimPenalty }),
	intOption("last_trick_bonus", 0, 1000, func(r *Ruleset) *int { return &r.LastTrickBonus }),
	enumOption("nat_rule", natRuleNames, func(r *Ruleset) *NatRule { return &r.NatRule }),
	intOption("pit_bonus", 0, 1000, func(r *Ruleset) *int { return &r.PitBonus }),
	boolOption("pit_for_defenders", func(r *Ruleset) *bool { return &r.PitForDefenders }),
	enumOption("fault_policy", faultPolicyNames, func(r *Ruleset) *FaultPolicy { return &r.FaultPolicy }),
	intOption("renege_extra_roem", 0, 1000, func(r *Ruleset) *int { return &r.RenegeExtraRoem }),
	{
		name:    "game_end",
		allowed: gameEndAllowed,
		get:     func(r *Ruleset) string { return r.GameEnd.String() },
		set: func(r *Ruleset, v string) error {
			g, err := ParseGameEnd(v)
			if err != nil {
				return err
			}
			r.GameEnd = g
			return nil
		},
	},
}

func enumOption[T ~uint8](name string, names []string, field func(*Ruleset) *T) option {
	allowed := strings.Join(names, ", ")
	return option{
		name:    name,
		allowed: allowed,
		get:     func(r *Ruleset) string { return enumName(names, uint8(*field(r))) },
		set: func(r *Ruleset, v string) error {
			for i, n := range names {
				if n == v {
					*field(r) = T(i)
					return nil
				}
			}
			return &OptionError{Option: name, Value: v, Allowed: allowed}
		},
	}
}

func boolOption(name string, field func(*Ruleset) *bool) option {
	return option{
		name:    name,
		allowed: "true, false",
		kind:    kindBool,
		get:     func(r *Ruleset) string { return strconv.FormatBool(*field(r)) },
		set: func(r *Ruleset, v string) error {
			switch v {
			case "true":
				*field(r) = true
			case "false":
				*field(r) = false
			default:
				return &OptionError{Option: name, Value: v, Allowed: "true, false"}
			}
			return nil
		},
	}
}

func intOption(name string, lo, hi int, field func(*Ruleset) *int) option {
	allowed := fmt.Sprintf("a whole number from %d to %d", lo, hi)
	if lo == hi {
		allowed = strconv.Itoa(lo)
	}
	return option{
		name:    name,
		allowed: allowed,
		kind:    kindInt,
		get:     func(r *Ruleset) string { return strconv.Itoa(*field(r)) },
		set: func(r *Ruleset, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < lo || n > hi {
				return &OptionError{Option: name, Value: v, Allowed: allowed}
			}
			*field(r) = n
			return nil
		},
	}
}

// String returns the game end in ruleset notation: "deals:16" or "target:1500".
func (g GameEnd) String() string {
	if g.Kind == EndAtTarget {
		return "target:" + strconv.Itoa(g.N)
	}
	return "deals:" + strconv.Itoa(g.N)
}

// ParseGameEnd parses "deals:N" or "target:N".
func ParseGameEnd(text string) (GameEnd, error) {
	kind, num, _ := strings.Cut(text, ":")
	n, err := strconv.Atoi(num)
	switch {
	case kind == "deals" && err == nil && n >= 1 && n <= 1000:
		return GameEnd{Kind: EndAfterDeals, N: n}, nil
	case kind == "target" && err == nil && n >= 1 && n <= 100000:
		return GameEnd{Kind: EndAtTarget, N: n}, nil
	}
	return GameEnd{}, &OptionError{Option: "game_end", Value: text, Allowed: gameEndAllowed}
}

// ErrOption is the sentinel wrapped by every OptionError.
var ErrOption = errors.New("bad ruleset option")

// OptionError reports an unknown option, a bad value, or a value that contradicts another
// option. Its message names the option and lists the allowed values.
type OptionError struct {
	Option  string
	Value   string
	Unknown bool   // the option does not exist; Allowed lists the known ones
	Allowed string // the allowed values (or option names)
	Why     string // for a contradiction: why the value is not allowed here
}

func (e *OptionError) Error() string {
	if e.Unknown {
		return fmt.Sprintf("unknown ruleset option %q (known options: %s)", e.Option, e.Allowed)
	}
	if e.Why != "" {
		return fmt.Sprintf("ruleset option %s = %q is not allowed: %s (allowed here: %s)", e.Option, e.Value, e.Why, e.Allowed)
	}
	return fmt.Sprintf("ruleset option %s: bad value %q (allowed: %s)", e.Option, e.Value, e.Allowed)
}

// Unwrap returns ErrOption.
func (e *OptionError) Unwrap() error { return ErrOption }

// optionErrors collects problems so that all of them are reported together.
type optionErrors []error

func (e *optionErrors) add(err error) { *e = append(*e, err) }

func (e optionErrors) err() error { return errors.Join(e...) }

// Package rules is the Klaverjas rules engine: the ruleset (every option of RULES.md §9 and
// its presets), dealing, bidding (every trump-choosing procedure), legal cards under each
// play rule, tricks, roem, scoring, and a game of deals to its end. A Deal is driven one
// decision at a time (Bid, Play, Claim, Discard) and refuses anything illegal; it knows no
// bots, clocks or files.
//
// The engine reads no file format: a ruleset is built from a Preset, Set with option
// notation, or FromMap with the values a decoder produced. Package rulesfile, below it,
// reads and writes rulesets as TOML and JSON.
package rules

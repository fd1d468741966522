// Package referee runs matches between Klaverjas bots: it deals, drives each seat's bot
// through the protocol of spec.md, enforces the rules with package rules, applies the time
// control, turns every bot failure into a fault that costs only the bot's own team the deal,
// and writes one self-contained log record per deal.
//
// It knows bots only through the small Conn interface: package botproc provides connections
// to external programs, and NewInProcess one to a Go bot running in this process.
package referee

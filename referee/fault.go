package referee

import (
	"fmt"
	"strings"
)

// FaultKind classifies what a bot did wrong (RULES.md §7.4, spec.md §7). It is the one fault
// type of the arena: referee/botproc reports a program's faults with these kinds, and the deal
// log, the store and the reports write them by their string, the wire name.
type FaultKind string

// Fault kinds.
const (
	FaultIllegal  FaultKind = "illegal"       // a card or bid against the rules (a renege)
	FaultGarbage  FaultKind = "garbage"       // a line that is not a valid reply
	FaultTimeout  FaultKind = "timeout"       // no answer in time
	FaultCrash    FaultKind = "crash"         // the bot exited or closed its output
	FaultFlood    FaultKind = "flood"         // too many info lines, or output when none was asked for
	FaultBlocked  FaultKind = "write_blocked" // the bot stopped reading its input
	FaultMemory   FaultKind = "memory_limit"  // killed on reaching its memory limit
	FaultStart    FaultKind = "start"         // the bot could not be started or failed the handshake
	FaultDisabled FaultKind = "disabled"      // too many faults in this match: the bot is not restarted
)

// Fault is a bot failure. It forfeits the deal for the bot's team.
type Fault struct {
	Kind       FaultKind
	Detail     string // what happened, with any offending text escaped
	StderrTail string
}

func (f *Fault) Error() string { return fmt.Sprintf("%s: %s", f.Kind, f.Detail) }

// BusyMachine ends the Detail of a timeout whose bot other programs kept from a CPU for a
// tenth of its time or more (referee/botproc, from the bot's cgroup cpu.pressure): the
// machine, not only the bot, made it late.
const BusyMachine = "the machine was busy, not only the bot slow"

// OnBusyMachine says whether the fault is a timeout on a busy machine (BusyMachine).
func (f *Fault) OnBusyMachine() bool { return onBusyMachine(f.Kind, f.Detail) }

// OnBusyMachine says whether the recorded fault is a timeout on a busy machine (BusyMachine).
func (f *FaultRecord) OnBusyMachine() bool { return onBusyMachine(f.Kind, f.Detail) }

func onBusyMachine(kind FaultKind, detail string) bool {
	return kind == FaultTimeout && strings.HasSuffix(detail, BusyMachine)
}

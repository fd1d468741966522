package referee

import "testing"

// TestBusyTimeouts: a timeout whose detail ends in BusyMachine is counted apart, other
// faults are not, and Merge adds the counts.
func TestBusyTimeouts(t *testing.T) {
	newResult := func() *Result { return &Result{Sides: make([]SideStats, 2), Bots: make([]BotStats, 4)} }
	r := newResult()
	r.addFault(0, 0, &Fault{Kind: FaultTimeout, Detail: "no answer within 1.05s; for 500 ms since its previous answer it was ready to run but other programs had the CPU (cpu.pressure): " + BusyMachine})
	r.addFault(0, 0, &Fault{Kind: FaultTimeout, Detail: "no answer within 1.05s"})
	r.addFault(0, 0, &Fault{Kind: FaultCrash, Detail: "closed its stdout; " + BusyMachine})
	if got := r.Bots[0].BusyTimeouts; got != 1 {
		t.Errorf("%d timeouts on a busy machine, want 1 (faults %v)", got, r.Bots[0].Faults)
	}
	o := newResult()
	o.addFault(0, 0, &Fault{Kind: FaultTimeout, Detail: "no answer within 1.05s; " + BusyMachine})
	r.Merge(o)
	if got := r.Bots[0].BusyTimeouts; got != 2 {
		t.Errorf("merged: %d timeouts on a busy machine, want 2", got)
	}
}

package main

// cpuAffinity says whether threads can be pinned to CPUs here: macOS has no CPU affinity, so
// every placement is "none".
const cpuAffinity = false

// pinReferee does nothing: on macOS every placement is "none".
func (p placement) pinReferee() func() { return func() {} }

// usableCPUs is empty: nothing is placed on macOS.
var usableCPUs []int

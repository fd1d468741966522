// Package cpuclaim gives each table of an arena (a referee and its bots, which take turns) a
// CPU of its own: among the CPUs the arena may use, one that no other table holds, in this
// arena process or in another one of the same user. A table claims its CPU by holding an
// exclusive lock (flock) on that CPU's file in a shared directory; the kernel lets go of it
// when the process ends, however it ends, so a killed arena leaves no claim behind. When
// every CPU is held, tables share them in turn.
package cpuclaim

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
)

// Claims hands out the CPUs of one arena process's tables, numbered by slot (a league's worker
// slot, a match's part). The zero value is not usable: make one with New.
type Claims struct {
	dir  string
	cpus []int

	mu    sync.Mutex
	slots map[int]int      // slot -> its CPU
	held  map[int]*os.File // CPU -> the locked file of a CPU this process claimed
}

// New returns the claims on cpus (the CPUs the arena may use, in order), with the lock files
// in dir, which is made (mode 0700) if missing.
func New(dir string, cpus []int) *Claims {
	return &Claims{dir: dir, cpus: cpus, slots: map[int]int{}, held: map[int]*os.File{}}
}

// DefaultDir is the directory of the lock files every arena process of this user shares.
func DefaultDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("arena-cpus-%d", os.Getuid()))
}

// CPU returns the CPU of the table in slot: the same for the slot every time. The first time,
// it claims the first CPU no table holds, looking from the slot's own turn (slot modulo the
// number of CPUs) on, and keeps the claim until Close or the end of the process. When every
// CPU is held (or the lock files cannot be made), the slot takes its turn's CPU unclaimed.
func (c *Claims) CPU(slot int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cpu, ok := c.slots[slot]; ok {
		return cpu
	}
	n := len(c.cpus)
	cpu := c.cpus[slot%n]
	if err := os.MkdirAll(c.dir, 0o700); err == nil {
		for i := range n {
			if cand := c.cpus[(slot+i)%n]; c.claim(cand) {
				cpu = cand
				break
			}
		}
	}
	c.slots[slot] = cpu
	return cpu
}

// claim takes the lock of cpu, unless this process or another holds it.
func (c *Claims) claim(cpu int) bool {
	if _, ok := c.held[cpu]; ok {
		return false
	}
	f, err := os.OpenFile(filepath.Join(c.dir, fmt.Sprintf("cpu%d", cpu)), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return false
	}
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		f.Close()
		return false
	}
	c.held[cpu] = f
	return true
}

// Close gives up every claim; the slots start afresh.
func (c *Claims) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for cpu, f := range c.held {
		f.Close()
		delete(c.held, cpu)
	}
	clear(c.slots)
}

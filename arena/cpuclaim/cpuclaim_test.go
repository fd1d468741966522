package cpuclaim

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestMain lets the test binary be the other arena process of TestOtherProcess: with
// CPUCLAIM_CHILD set to a directory, it claims slot 0 there, prints the CPU and holds the
// claim until its stdin closes.
func TestMain(m *testing.M) {
	if dir := os.Getenv("CPUCLAIM_CHILD"); dir != "" {
		c := New(dir, []int{3, 5})
		fmt.Println(c.CPU(0))
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestTablesSpread(t *testing.T) {
	dir := t.TempDir()
	cpus := []int{3, 5}
	a, b := New(dir, cpus), New(dir, cpus)
	defer a.Close()
	defer b.Close()
	if got := a.CPU(0); got != 3 {
		t.Errorf("first table of a: CPU %d, want 3", got)
	}
	if got := b.CPU(0); got != 5 {
		t.Errorf("first table of b, CPU 3 taken: CPU %d, want 5", got)
	}
	if got := a.CPU(0); got != 3 {
		t.Errorf("a slot asked again moved to CPU %d", got)
	}
	// Every CPU held: slot 1 takes its turn's CPU, shared.
	if got := a.CPU(1); got != 5 {
		t.Errorf("slot 1 with every CPU held: CPU %d, want its turn's 5", got)
	}
	// One process's slots spread too, and a released CPU is free again.
	b.Close()
	a.Close()
	if got0, got1 := a.CPU(0), a.CPU(1); got0 != 3 || got1 != 5 {
		t.Errorf("after Close, slots 0 and 1: CPUs %d and %d, want 3 and 5", got0, got1)
	}
}

func TestSlotStartsAtItsTurn(t *testing.T) {
	c := New(t.TempDir(), []int{0, 1, 2})
	defer c.Close()
	if got := c.CPU(4); got != 1 {
		t.Errorf("slot 4 of 3 CPUs: CPU %d, want 1", got)
	}
	if got := c.CPU(1); got != 2 {
		t.Errorf("slot 1, its CPU taken by slot 4: CPU %d, want the next, 2", got)
	}
}

func TestNoLockDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c := New(filepath.Join(file, "dir"), []int{0, 1}) // below a file: cannot be made
	if got0, got1, again := c.CPU(0), c.CPU(1), c.CPU(2); got0 != 0 || got1 != 1 || again != 0 {
		t.Errorf("without lock files, slots 0, 1, 2: CPUs %d, %d, %d, want their turns 0, 1, 0", got0, got1, again)
	}
}

// TestOtherProcess: a CPU another process claims is not taken, and a process killed with
// SIGKILL leaves no claim behind.
func TestOtherProcess(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "CPUCLAIM_CHILD="+dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the other process: %v", err)
	}
	if got, _ := strconv.Atoi(strings.TrimSpace(line)); got != 3 {
		t.Fatalf("the other process claimed CPU %q, want 3", line)
	}
	c := New(dir, []int{3, 5})
	if got := c.CPU(0); got != 5 {
		t.Errorf("with CPU 3 held by another process: CPU %d, want 5", got)
	}
	c.Close()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if got := c.CPU(0); got != 3 {
		t.Errorf("after the other process was killed: CPU %d, want 3", got)
	}
	c.Close()
}

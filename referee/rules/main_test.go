package rules

import (
	"flag"
	"os"
	"testing"
)

// TestMain raises rapid's default number of cases (100) so the property tests explore more
// random deals; -rapid.checks on the command line still wins.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set {
		_ = flag.Set("rapid.checks", "3000")
	}
	os.Exit(m.Run())
}

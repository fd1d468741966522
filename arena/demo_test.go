package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/klaverjas-arena/arena/referee/rules"
)

// TestDemoGolden: arena demo prints a seeded game exactly as the .golden files say. They were
// first the output of the demo before the view layer existed, and were made again when the
// engine's random playout changed how it draws its cards (a faster draw, other games).
func TestDemoGolden(t *testing.T) {
	for _, c := range []struct {
		preset string
		seed   uint64
		brief  bool
		golden string
	}{
		{"amsterdams", 1, false, "demo-seed1.golden"},
		{"amsterdams", 2, true, "demo-brief-seed2.golden"},
		{"bga_rotterdams", 4, false, "demo-bga-seed4.golden"},
	} {
		rs, err := rules.Preset(c.preset)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := playDemo(&out, &rs, c.seed, c.brief); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", c.golden))
		if err != nil {
			t.Fatal(err)
		}
		if out.String() != string(want) {
			t.Errorf("%s differs:\n%s", c.golden, out.String())
		}
	}
}

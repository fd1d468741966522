package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSpecBotsPassCheck extracts the two whole bots of spec.md §1 and runs arena check on
// each: they must pass every item, the three-player game included.
func TestSpecBotsPassCheck(t *testing.T) {
	data, err := os.ReadFile("../spec.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start, end := strings.Index(text, "\n## 1. "), strings.Index(text, "\n## 2. ")
	if start < 0 || end < start {
		t.Fatal("spec.md has no section 1")
	}
	section, dir := text[start:end], t.TempDir()
	for _, b := range []struct{ lang, file, cmd string }{{"sh", "bot.sh", "bash"}, {"python", "bot.py", "python3"}} {
		t.Run(b.lang, func(t *testing.T) {
			m := regexp.MustCompile("(?s)```" + b.lang + "\n(.*?)```").FindStringSubmatch(section)
			if m == nil {
				t.Fatalf("spec.md §1 has no %s bot", b.lang)
			}
			path := filepath.Join(dir, b.file)
			if err := os.WriteFile(path, []byte(m[1]), 0o644); err != nil {
				t.Fatal(err)
			}
			out, errOut, err := runArena(t, "check", b.cmd+" "+path)
			if err != nil || !strings.Contains(out, "PASS: all") {
				t.Fatalf("arena check of the spec's %s bot: %v\n%s%s", b.lang, err, out, errOut)
			}
		})
	}
}

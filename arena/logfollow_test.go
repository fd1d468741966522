package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogFollowerReads: the follower of arena serve --log takes each complete line appended
// once, waits for a line being written, reports a torn last line once, names the line of an
// altered deal, and stops at a log replaced or cut short.
func TestLogFollowerReads(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("web", "testdata", "league.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	log := filepath.Join(t.TempDir(), "log.jsonl")
	write := func(flag int, text string) {
		t.Helper()
		f, err := os.OpenFile(log, flag|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	write(os.O_CREATE|os.O_TRUNC, strings.Join(lines[:20], ""))
	var warn bytes.Buffer
	f, err := logSource(log, &warn)
	if err != nil || f.deals != 20 || warn.Len() > 0 {
		t.Fatalf("first read: %v, %d deals, %q", err, f.deals, warn.String())
	}
	read := func(want int) {
		t.Helper()
		recs, err := f.read()
		if err != nil || len(recs) != want {
			t.Fatalf("read: %v, %d deals, want %d", err, len(recs), want)
		}
		f.deals += len(recs)
	}
	half := len(lines[30]) / 2
	write(os.O_APPEND, strings.Join(lines[20:30], "")+lines[30][:half])
	read(10)
	read(0)
	if got := strings.Count(warn.String(), "log.jsonl:31: torn last line"); got != 1 {
		t.Errorf("the torn line 31 reported %d times:\n%s", got, warn.String())
	}
	write(os.O_APPEND, lines[30][half:])
	read(1)
	if recs, _ := f.src.Matches("log"); len(recs) != 1 {
		t.Fatalf("%d matches", len(recs))
	}

	var rec map[string]any
	if err := json.Unmarshal([]byte(lines[31]), &rec); err != nil {
		t.Fatal(err)
	}
	score := rec["result"].(map[string]any)["score"].([]any)
	score[0] = score[0].(float64) + 10
	altered, _ := json.Marshal(rec)
	write(os.O_APPEND, string(altered)+"\n")
	if _, err := f.read(); err == nil || !strings.Contains(err.Error(), "log.jsonl:32: match w/0 game") || !strings.Contains(err.Error(), "inconsistent with the rules") {
		t.Errorf("an altered deal appended: %v", err)
	}

	write(os.O_TRUNC, strings.Join(lines[:5], ""))
	if _, err := f.read(); !errors.Is(err, errLogReplaced) {
		t.Errorf("a log cut short: %v", err)
	}
	other := log + ".new"
	if err := os.WriteFile(other, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, log); err != nil {
		t.Fatal(err)
	}
	if _, err := f.read(); !errors.Is(err, errLogReplaced) {
		t.Errorf("a log replaced: %v", err)
	}
}

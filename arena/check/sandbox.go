package check

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// denial matches the messages with which programs report what the sandbox refused them:
// the C library's error strings and the names of the errors (Python, Node, Go and shells
// print one or the other).
var denial = regexp.MustCompile(`(?i)permission denied|read-only file system|operation not permitted|network is unreachable|` +
	`resource temporarily unavailable|cannot allocate memory|\b(EACCES|EPERM|EROFS|ENETUNREACH|EAGAIN|ENOMEM)\b|PermissionError`)

// maxDenialScan bounds how much of the bot's stderr the sandbox item reads.
const maxDenialScan = 8 << 20

// sandboxItem lists what the bot tried that its sandbox denied, as far as its stderr tells:
// the lines of its stderr over the check that report a refused operation.
func (c *checker) sandboxItem(start int64) Item {
	const name = "sandbox"
	if !c.opts.Sandboxed {
		return Item{Name: name, Status: Info, Detail: "the bot ran without a sandbox (--sandbox=off)"}
	}
	if start < 0 || c.opts.StderrFile == "" {
		return Item{Name: name, Status: Info, Detail: "no stderr file to read: denials not looked for"}
	}
	lines, err := denials(c.opts.StderrFile, start)
	if err != nil {
		return Item{Name: name, Status: Warn, Detail: "stderr file not read: " + err.Error()}
	}
	if len(lines) == 0 {
		return Item{Name: name, Status: Pass, Detail: "ran in its sandbox; its stderr reports nothing the sandbox refused"}
	}
	shown := lines[:min(len(lines), 5)]
	return Item{Name: name, Status: Warn,
		Detail: fmt.Sprintf("%d lines of its stderr report an operation the sandbox may have refused", len(lines)),
		Got:    strings.Join(shown, "\n"),
		Want:   "a bot reads only its own directory and the paths it is granted, writes only /tmp and its scratch directory, and uses no network (spec.md §2.1)"}
}

// denials returns the lines of file from offset start that report a refused operation.
func denials(file string, start int64) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		return nil, err
	}
	var out []string
	sc := bufio.NewScanner(io.LimitReader(f, maxDenialScan))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if line := sc.Text(); denial.MatchString(line) {
			out = append(out, sanitize(line))
		}
	}
	return out, sc.Err()
}

// sanitize keeps a stderr line printable and short for the report.
func sanitize(line string) string {
	line = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, line)
	if len(line) > 200 {
		line = line[:200] + "..."
	}
	return line
}

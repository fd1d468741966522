package check

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// timingItem summarises the response times; the worst over half the limit is a warning, a
// timeout a failure.
func (c *checker) timingItem() Item {
	const name = "response times"
	c.mu.Lock()
	defer c.mu.Unlock()
	var slow []string
	for _, kind := range []string{"hello", "rules", "bid", "play", "claim", "discard"} {
		ts := c.times[kind]
		if len(ts) == 0 {
			continue
		}
		slices.Sort(ts)
		limit := c.opts.Time.Decision
		if kind == "hello" || kind == "rules" {
			limit = c.opts.Time.Startup
		}
		t := Timing{Kind: kind, Count: len(ts), MedianMS: msOf(ts[len(ts)/2]), WorstMS: msOf(ts[len(ts)-1]), LimitMS: msOf(limit)}
		if len(ts)%2 == 0 {
			t.MedianMS = (msOf(ts[len(ts)/2-1]) + msOf(ts[len(ts)/2])) / 2
		}
		c.report.Timings = append(c.report.Timings, t)
		if ts[len(ts)-1] > limit/2 {
			slow = append(slow, fmt.Sprintf("%s %.0f ms of %.0f", kind, t.WorstMS, t.LimitMS))
		}
	}
	switch {
	case len(c.timeouts) == 0 && len(c.report.Timings) == 0:
		return Item{Name: name, Status: Info, Detail: "not measured: the bot answered no request"}
	case len(c.timeouts) > 0:
		return Item{Name: name, Status: Fail, Detail: fmt.Sprintf("%d timeouts (%s)", len(c.timeouts), strings.Join(c.timeouts, ", ")), Want: "every answer within the time limit"}
	case len(slow) > 0:
		return Item{Name: name, Status: Warn, Detail: "worst over half the time limit: " + strings.Join(slow, ", "), Want: "the worst answer well within the limit, so a busy machine does not make it a timeout"}
	}
	return Item{Name: name, Status: Pass, Detail: "every worst time is under half its limit (table below)"}
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// stderrItem reports how much the bot wrote to stderr: allowed, so informational.
func (c *checker) stderrItem(start int64) Item {
	const name = "stderr output"
	var n int64
	how := ""
	if start >= 0 {
		n = fileSize(c.opts.StderrFile) - start
	} else {
		c.mu.Lock()
		n = int64(c.stderr)
		c.mu.Unlock()
		how = "at least "
	}
	if n <= 0 {
		return Item{Name: name, Status: Info, Detail: "nothing written to stderr"}
	}
	return Item{Name: name, Status: Info, Detail: fmt.Sprintf("%s%d bytes written to stderr over the whole check (allowed: the arena keeps only the first and last KiB with a fault)", how, n)}
}

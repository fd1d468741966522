package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/klaverjas-arena/arena/arena/view"
	"github.com/klaverjas-arena/arena/arena/web"
)

// logFollower serves a match log to the viewer (arena serve --log) and follows it as it
// grows: each line appended is parsed and re-refereed once, when it is complete, and the
// viewer is given the log's records anew. While a match writes the log (logBeingWritten)
// the duplicate set in play is withheld (web.NewLogSource).
type logFollower struct {
	path   string
	warn   io.Writer
	src    *web.LogSource
	deals  int         // deals read
	offset int64       // the end of the last complete line read
	lines  int         // lines up to offset
	inPlay bool        // a match wrote the log at the last read
	file   os.FileInfo // the file read: another one at path is a log replaced
	torn   bool        // a torn last line after offset was reported
}

// errLogReplaced says that the file at a log's path is no longer the one followed, or
// shorter than what was read of it.
var errLogReplaced = errors.New("the log was replaced or cut short since it was read")

// logSource reads a whole log for the viewer; an inconsistent deal in it (a damaged or
// altered log) is an error, listing the first ten.
func logSource(path string, warn io.Writer) (*logFollower, error) {
	f := &logFollower{path: path, warn: warn}
	recs, err := f.read()
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	ls, skipped, err := web.NewLogSource(name, path, recs, f.inPlay)
	if err != nil {
		return nil, err
	}
	f.src, f.deals = ls, len(recs)
	if f.inPlay {
		fmt.Fprintf(warn, "%s: a match is writing it now: followed as it grows, the deals of its duplicate set in play withheld until the set is finished\n", path)
	}
	if skipped > 0 && !f.inPlay {
		fmt.Fprintf(warn, "%s: %d duplicate sets do not add up (a log cut short?): left out of the standings\n", path, skipped)
	}
	return f, nil
}

// follow reads the log every interval until ctx is done, and gives the viewer what was
// appended and whether a match still writes it. The viewer's league is made anew from all
// the log's deals each time (BENCHMARKS.md: under a microsecond a deal): the interval grows
// to ten times that, so that following a long log takes at most a tenth of a CPU from the
// match that writes it. A
// log replaced, cut short or damaged is reported on warn and no longer followed: what was
// read before is still served.
func (f *logFollower) follow(ctx context.Context, every time.Duration) {
	wait := every
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wasInPlay := f.inPlay
		recs, err := f.read()
		if err != nil {
			fmt.Fprintf(f.warn, "%s: %v: no longer followed; serving the %d deals read before\n", f.path, err, f.deals)
			return
		}
		if len(recs) > 0 || f.inPlay != wasInPlay {
			start := time.Now()
			f.src.Append(recs, f.inPlay)
			f.deals += len(recs)
			wait = max(every, 10*time.Since(start))
		}
	}
}

// read returns the deals of the complete lines after those read before, each re-refereed,
// and notes whether a match writes the log now. A torn last line of a log no match writes
// (the arena stopped while writing it) is reported once and skipped.
func (f *logFollower) read() ([]view.Located, error) {
	inPlay, err := logBeingWritten(f.path)
	if err != nil {
		return nil, err
	}
	file, err := os.Open(f.path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil, err
	}
	if f.file != nil && (!os.SameFile(f.file, fi) || fi.Size() < f.offset) {
		return nil, errLogReplaced
	}
	f.file = fi
	end, err := afterLastNewline(file, f.offset, fi.Size())
	if err != nil {
		return nil, err
	}
	count := &newlineCounter{r: io.NewSectionReader(file, f.offset, end-f.offset)}
	entries, _, err := readLogFrom(count, f.path, f.lines+1, io.Discard)
	if err != nil {
		return nil, err
	}
	recs, err := verifiedEntries(f.path, entries)
	if err != nil {
		return nil, err
	}
	if end > f.offset {
		f.torn = false
	}
	if end < fi.Size() && !inPlay && !f.torn {
		fmt.Fprintf(f.warn, "%s:%d: torn last line (the log ends in the middle of a deal): skipped\n", f.path, f.lines+count.n+1)
		f.torn = true
	}
	f.offset = end
	f.lines += count.n
	f.inPlay = inPlay
	return recs, nil
}

// afterLastNewline returns the offset just after the last newline of file in [from, size),
// or from when there is none: the end of its complete lines, found reading backwards.
func afterLastNewline(file io.ReaderAt, from, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for end := size; end > from; {
		start := max(from, end-int64(len(buf)))
		chunk := buf[:end-start]
		if _, err := file.ReadAt(chunk, start); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return from, nil
}

// newlineCounter passes a reader through and counts the newlines read.
type newlineCounter struct {
	r io.Reader
	n int
}

func (c *newlineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += bytes.Count(p[:n], []byte{'\n'})
	return n, err
}

// verifiedEntries re-referees the entries of a log and returns them located (FILE:LINE): a
// deal edited by hand, or damaged, would be served, and counted in the standings, as if it
// had been played.
func verifiedEntries(path string, entries []logEntry) ([]view.Located, error) {
	recs := make([]view.Located, len(entries))
	var bad strings.Builder
	n := 0
	for i, e := range entries {
		recs[i] = view.Located{Where: fmt.Sprintf("%s:%d", path, e.line), Rec: e.rec}
		if err := e.rec.Verify(); err != nil {
			if n++; n <= 10 {
				fmt.Fprintf(&bad, "\n%s: match %s game %d deal %d attempt %d: %v", recs[i].Where, e.rec.Match, e.rec.Game, e.rec.Deal, e.rec.Attempt, err)
			}
		}
	}
	if n > 0 {
		more := ""
		if n > 10 {
			more = fmt.Sprintf("\n(and %d more)", n-10)
		}
		return nil, fmt.Errorf("%s: %d of %d deals are inconsistent with the rules (a damaged or altered log): not served; arena replay --verify --log %s lists every problem%s%s",
			path, n, len(entries), path, bad.String(), more)
	}
	return recs, nil
}

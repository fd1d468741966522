package referee

import (
	"encoding/json"
	"fmt"
	"io"
)

// DealConsumer takes each finished deal of a match, in the order played: a log file, the
// league store, a live view, a checker. The record is the consumer's to keep (the referee does
// not touch it after the call); an error ends the match with that error.
type DealConsumer interface {
	Deal(rec *DealRecord) error
}

// DealFunc is a function as a DealConsumer.
type DealFunc func(rec *DealRecord) error

// Deal calls f.
func (f DealFunc) Deal(rec *DealRecord) error { return f(rec) }

// LogWriter is the deal log at the edge: it writes each record as one JSON line (spec.md
// §12, "Deal logs").
type LogWriter struct {
	w    io.Writer
	line []byte
}

// NewLogWriter returns a LogWriter writing to w.
func NewLogWriter(w io.Writer) *LogWriter { return &LogWriter{w: w} }

// Deal writes the record's line.
func (l *LogWriter) Deal(rec *DealRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("deal record: %w", err)
	}
	l.line = append(append(l.line[:0], b...), '\n')
	if _, err := l.w.Write(l.line); err != nil {
		return fmt.Errorf("write deal log: %w", err)
	}
	return nil
}

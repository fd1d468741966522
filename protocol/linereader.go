package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxLineLength is the longest line, in bytes without the newline, that a bot may send.
const MaxLineLength = 4096

// ErrLineTooLong is returned by LineReader for a line longer than its limit.
var ErrLineTooLong = errors.New("line too long")

// ErrNotASCII is returned by LineReader for a line with a byte outside printable ASCII
// (tab allowed).
var ErrNotASCII = errors.New("line has a byte that is not printable ASCII")

// LineReader reads lines of at most a fixed length from an untrusted writer, with constant
// memory: an over-long line is reported (and skipped up to its newline) without being kept.
type LineReader struct {
	r   *bufio.Reader
	max int
}

// NewLineReader returns a reader of lines of at most max bytes (without "\n" or "\r\n").
func NewLineReader(r io.Reader, max int) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, max+2), max: max}
}

// ReadLine returns the next line without its line ending ("\n" or "\r\n"). The returned slice
// is valid until the next call. A last line without a newline is returned as a line, and the
// call after it returns io.EOF. Errors: ErrLineTooLong (the rest of the line is discarded), ErrNotASCII
// (the line is returned too), or the underlying reader's error.
func (l *LineReader) ReadLine() ([]byte, error) {
	line, err := l.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) || len(line) > l.max+2 {
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = l.r.ReadSlice('\n')
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return nil, fmt.Errorf("%w (limit %d bytes)", ErrLineTooLong, l.max)
	}
	if err != nil {
		if len(line) == 0 || !errors.Is(err, io.EOF) {
			return nil, err
		}
		// A last line without a newline is still a line; the next call returns io.EOF.
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) > l.max {
		return nil, fmt.Errorf("%w (limit %d bytes)", ErrLineTooLong, l.max)
	}
	for _, c := range line {
		if (c < 0x20 && c != '\t') || c > 0x7E {
			return line, ErrNotASCII
		}
	}
	return line, nil
}

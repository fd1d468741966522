package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klaverjas-arena/arena/protocol"
)

// traceDirFlag is --trace-dir of the commands that run matches.
const traceDirFlag = "trace-dir"

// openSeatTraces creates dir and in it one trace file per table seat, SEAT-NAME.trace, for
// referee.Config.SeatTraces: a bot's own transcript, the lines it was sent ("< ") and the
// lines it wrote ("> "), ready to feed to its author's tests. It returns the writers and a
// function that closes the files.
func openSeatTraces(dir string, names []string) ([]io.Writer, func(), error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("--%s: %w", traceDirFlag, err)
	}
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	out := make([]io.Writer, len(names))
	for i, name := range names {
		path := filepath.Join(dir, seatTraceName(protocol.Seat(i), name))
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("--%s: %w", traceDirFlag, err)
		}
		files = append(files, f)
		out[i] = f
	}
	return out, closeAll, nil
}

// seatTraceName is the file name of a seat's trace: the seat and the bot's name, made safe
// for a file name.
func seatTraceName(seat protocol.Seat, name string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '/' || r == 0 || r == ' ' {
			return '_'
		}
		return r
	}, name)
	return seat.String() + "-" + safe + ".trace"
}

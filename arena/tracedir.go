package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/klaverjas-arena/arena/arena/botdef"
	"github.com/klaverjas-arena/arena/protocol"
	"golang.org/x/sys/unix"
)

// traceDirFlag is --trace-dir of the commands that run matches.
const traceDirFlag = "trace-dir"

// checkTraceDir checks, creating nothing, that the trace directory can be written: it is a
// writable directory, or the nearest of its parents that exists is one (openSeatTraces
// makes the rest).
func checkTraceDir(dir string) error {
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		switch {
		case err == nil && !fi.IsDir():
			return fmt.Errorf("--%s %s: %s is not a directory", traceDirFlag, dir, p)
		case err == nil && unix.Access(p, unix.W_OK) != nil:
			return fmt.Errorf("--%s %s: directory %s is not writable", traceDirFlag, dir, p)
		case err == nil:
			return nil
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, unix.ENOTDIR): // ENOTDIR: a file on the way, found next
			return fmt.Errorf("--%s: %w", traceDirFlag, err)
		case filepath.Dir(p) == p:
			return fmt.Errorf("--%s %s: %w", traceDirFlag, dir, err)
		}
	}
}

// botNames is the names of the bots by seat.
func botNames(bots []botdef.Bot) []string {
	names := make([]string, len(bots))
	for i, b := range bots {
		names[i] = b.Name
	}
	return names
}

// openSeatTraces creates dir and in it one trace file per table seat and room,
// SEAT-NAME.trace in the first room and SEAT-NAME.roomR.trace in room R from 2 on, for
// referee.Config.SeatTraces: a bot process's own transcript, the lines it was sent ("< ") and
// the lines it wrote ("> "), ready to feed to its author's tests. It returns the writers and
// a function that closes the files.
func openSeatTraces(dir string, names []string, rooms int) ([]io.Writer, func(), error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("--%s: %w", traceDirFlag, err)
	}
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	out := make([]io.Writer, rooms*len(names))
	for i := range out {
		path := filepath.Join(dir, seatTraceName(protocol.Seat(i%len(names)), names[i%len(names)], i/len(names)))
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

// seatTraceName is the file name of the trace of a seat in a room (from 0): the seat and the
// bot's name, made safe for a file name, and the room from the second on.
func seatTraceName(seat protocol.Seat, name string, room int) string {
	safe := strings.Map(func(r rune) rune {
		if r == '/' || r == 0 || r == ' ' {
			return '_'
		}
		return r
	}, name)
	if room > 0 {
		safe += fmt.Sprintf(".room%d", room+1)
	}
	return seat.String() + "-" + safe + ".trace"
}

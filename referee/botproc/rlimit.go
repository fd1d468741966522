package botproc

import (
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// DefaultOpenFiles is the most files a bot process may have open (RLIMIT_NOFILE, soft and
// hard alike) unless its Spec says otherwise, or the arena's own hard limit where that is
// lower. It keeps a bot that opens files, pipes or sockets in a loop from filling the
// kernel's file table (fs.file-max), which every process of the machine, the arena's
// included, draws on: 256 processes (a bot's PidsMax) of 1024 files each is a tenth of a
// typical table, while 256 of the usual 20,000 or more can fill it. 1024 is the usual soft
// limit, which programs of every language are made for.
const DefaultOpenFiles = 1024

var openFilesCeiling = hardLimit(unix.RLIMIT_NOFILE, DefaultOpenFiles)

// hardLimit returns a function giving the arena's own hard limit of resource, read once
// (fallback where it cannot be read).
func hardLimit(resource int, fallback uint64) func() uint64 {
	return sync.OnceValue(func() uint64 {
		var own unix.Rlimit
		if err := unix.Getrlimit(resource, &own); err != nil {
			return fallback
		}
		return own.Max
	})
}

// OpenFilesCeiling is the most open files a bot process can be allowed (Spec.OpenFiles):
// the arena's own hard limit, which no process of the arena's can raise.
func OpenFilesCeiling() uint64 { return openFilesCeiling() }

// DefaultFileSize is the largest a file written by a bot process may grow (RLIMIT_FSIZE,
// soft and hard alike) unless its Spec says otherwise, or the arena's own hard limit where
// that is lower. It is a backstop where a bot's writes are not bounded otherwise: a scratch
// directory without a file system of its own, or a bot run without the sandbox, whose
// runaway log could fill the disk during a league of days. (The sandbox's /tmp is bounded by
// its own size.) A write past it fails with EFBIG, and a program that does not ignore
// SIGXFSZ, as Go and Python programs do, is killed by that signal.
const DefaultFileSize = 1 << 30

var fileSizeCeiling = hardLimit(unix.RLIMIT_FSIZE, DefaultFileSize)

// FileSizeCeiling is the largest file size limit a bot process can be given (Spec.FileSize):
// the arena's own hard limit, usually unlimited (the largest uint64).
func FileSizeCeiling() uint64 { return fileSizeCeiling() }

// fileLimits are the resource limits on files of one bot process, from its Spec.
type fileLimits struct {
	openFiles uint64 // RLIMIT_NOFILE
	fileSize  uint64 // RLIMIT_FSIZE, in bytes: a multiple of fileSizeBlock
}

// fileSizeBlock is the unit of the shell's ulimit -f (POSIX; dash, bash as sh, busybox), in
// which the sandbox sets the file size limit: the limit is rounded down to it everywhere.
const fileSizeBlock = 512

// botFileLimits returns the file limits of a bot process run by spec, or an error (the
// arena's, naming what to do) if spec asks for more than the arena itself may have.
func botFileLimits(spec Spec) (fileLimits, error) {
	var l fileLimits
	var ok bool
	if l.openFiles, ok = asked(int64(spec.OpenFiles), DefaultOpenFiles, OpenFilesCeiling()); !ok {
		return l, fmt.Errorf("open files limit %d: above the arena's own hard limit, %d (raise that with ulimit -Hn before the arena starts, or allow the bot fewer)", spec.OpenFiles, OpenFilesCeiling())
	}
	if l.fileSize, ok = asked(spec.FileSize, DefaultFileSize, FileSizeCeiling()); !ok {
		return l, fmt.Errorf("file size limit %d bytes: above the arena's own hard limit, %d bytes (raise that with ulimit -Hf before the arena starts, or allow the bot less)", spec.FileSize, FileSizeCeiling())
	}
	l.fileSize -= l.fileSize % fileSizeBlock
	return l, nil
}

// asked returns the limit a Spec asks for with n: def (at most ceiling) for n <= 0, else n,
// and false if n is above ceiling.
func asked(n int64, def, ceiling uint64) (uint64, bool) {
	switch {
	case n <= 0:
		return min(def, ceiling), true
	case uint64(n) > ceiling:
		return 0, false
	}
	return uint64(n), true
}

// noCoreDumps sets the arena's RLIMIT_CORE to 0, soft and hard, which every bot inherits and
// none can raise: a crashing bot writes no core file, in its working directory or anywhere,
// and a bot that crashes in a loop cannot fill a disk that way. The arena loses nothing: on
// Linux it is not dumpable (Harden), and a process that is not dumpable writes no core file
// anyway (unless fs.suid_dumpable is set); on macOS a Go program writes one only with
// GOTRACEBACK=crash.
func noCoreDumps() error {
	if err := unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{}); err != nil {
		return fmt.Errorf("botproc: no core dumps: %w", err)
	}
	return nil
}

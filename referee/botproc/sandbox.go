package botproc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Sandbox says how a bot is confined (Spec.Sandbox). The bot runs under bubblewrap (bwrap,
// the sandbox of Flatpak) with its own PID, mount, network (loopback only), IPC, UTS and
// cgroup namespaces, in a new session without a controlling terminal, with no capabilities
// and no_new_privs, as user SandboxUID, in a file system of its own:
//
//   - read-only: the system directories (/usr, /bin, /sbin, /lib*, /etc, /opt), every
//     directory on the bot's PATH (and the parent of one named bin or shims, which is the
//     installation it belongs to, unless that parent is / or a home directory), the
//     directory of the program, the bot's working directory and ReadOnly;
//   - writable: a private tmpfs /tmp of TmpSize bytes, a directory of the process's own at
//     Scratch, and the fresh working directory Start makes when Spec.Dir is empty;
//   - a fresh /proc that shows the bot's own processes only, and a /dev with null, zero,
//     random and urandom only;
//   - nothing else: no /home, /root, /run, /var or /sys, and none of Hide, even where those
//     files lie in a directory the bot sees.
//
// The cgroup limits of Spec (memory, processes) apply to the sandbox as a whole.
type Sandbox struct {
	// ReadOnly lists more host paths (files or directories) the bot may read, at the same
	// paths inside.
	ReadOnly []string
	// Scratch, if set, is a directory in which Start makes a fresh, empty directory of the
	// bot process's own, named by its start time and the bot's name; the bot sees that one
	// at the path Scratch (and nothing else of Scratch) and may write it. Two processes of
	// one bot (partners at a table) share nothing through it. Stop keeps the directory, for
	// the organiser to read. When the arena runs as root that directory is given to
	// SandboxUID. Scratch must exist, and no other path the bot sees may lie in it.
	Scratch string
	// ScratchSize, if positive, makes the process's own scratch directory a file system of
	// its own of that many bytes (at least MinScratchSize; the arena must run as root): an
	// ext2 image in Scratch, named as the directory would be with ".ext2" added, which Stop
	// keeps. The bot cannot write more than that, and what it writes changes no free-space
	// or free-inode count that another process can read (statfs), as a directory on the
	// host's file system would for its partner. The image takes its whole size on the host
	// from the start; once no process of the bot (by name) in the same ScratchGroup runs,
	// Stop gives back the image's blocks that hold only zeros.
	ScratchSize int64
	// ScratchGroup names the processes of a bot that play the same deals (a league's worker
	// slot, whose processes play its matches and may be kept from one match to the next):
	// the images of a bot's processes in a group are compacted only when none of them runs,
	// for one could otherwise tell another how much it wrote through the host's free space.
	// "" is one group for all the arena's processes of the bot.
	ScratchGroup string
	// Hide lists files the bot must never see (the arena's database, logs, traces, key and
	// stderr files). A file in a directory the bot sees is left out of the bot's view of that
	// directory, which is fixed when the bot starts: files the arena creates there later are
	// not visible either.
	Hide []string
	// TmpSize is the size of the private /tmp in bytes; 0 means DefaultTmpSize.
	TmpSize int64
}

// SandboxUID and SandboxGID are the user and group a sandboxed bot runs as: the traditional
// "nobody". When the arena runs as root this is the bot's real user id; otherwise the bot
// keeps the arena's user id outside its user namespace, and nobody is what it sees inside.
const (
	SandboxUID = 65534
	SandboxGID = 65534
)

// scratchKey is a bot's name and its Sandbox.ScratchGroup: the processes whose scratch
// images are compacted together.
type scratchKey struct{ name, group string }

// MinScratchSize is the smallest Sandbox.ScratchSize.
const MinScratchSize = 4 << 20

// DefaultTmpSize is the size of a sandboxed bot's /tmp unless Sandbox.TmpSize says otherwise.
const DefaultTmpSize = 64 << 20

// PrivateFilesError says that a bot's working directory, program or a file its command line
// names is not open to SandboxUID, with the chmod that would open it. Such a bot runs as the
// arena's user inside a user namespace instead (see Sandbox).
type PrivateFilesError struct{ Err error }

func (e *PrivateFilesError) Error() string { return e.Err.Error() }

func (e *PrivateFilesError) Unwrap() error { return e.Err }

// SandboxError returns nil if bots can be sandboxed on this machine, and otherwise why not,
// with what to install.
func SandboxError() error { return sandboxes().err }

// ResolveProgram returns the absolute path of the program argv0 as Start runs it in the
// working directory dir: a name without a slash from the arena's PATH, a path with one
// relative to dir ("./python3" is dir's python3, never the one on PATH). It fails, saying
// why, for a program that does not exist or cannot be executed.
func ResolveProgram(argv0, dir string) (string, error) {
	if !strings.Contains(argv0, "/") {
		p, err := exec.LookPath(argv0)
		if err != nil {
			return "", err
		}
		return filepath.Abs(p)
	}
	if !filepath.IsAbs(argv0) {
		argv0 = filepath.Join(dir, argv0)
	}
	fi, err := os.Stat(argv0)
	if err != nil {
		return "", err
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", &os.PathError{Op: "exec", Path: argv0, Err: os.ErrPermission}
	}
	return filepath.Abs(argv0)
}

// sandboxBuildError says that a bot's sandbox could not be built: bwrap ended before the
// sandbox ran anything of the bot's, as when a file it shows is replaced while bwrap mounts
// it. It is the arena's trouble, not the bot's, and Start tries again.
type sandboxBuildError struct {
	stderr, status string // what bwrap wrote, and how it ended
}

func (e *sandboxBuildError) Error() string {
	return fmt.Sprintf("the sandbox could not be built (bwrap: %s): %s", e.status, strings.TrimSpace(e.stderr))
}

package botproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/syntax"
)

// systemDirs are the host directories every sandbox shows read-only (those that exist; a
// symbolic link, as /bin is on merged-/usr systems, is recreated as the same link).
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"}

// devices are the only device nodes in a sandbox's /dev.
var devices = []string{"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"}

// sandboxSupport is what the machine offers for sandboxes, found once.
type sandboxSupport struct {
	bwrap   string // path of bwrap
	setpriv string // path of setpriv (root only: drops to SandboxUID inside the sandbox)
	root    bool   // the arena runs as root: bwrap is privileged and the bot changes uid
	version string
	err     error // why no sandbox can be made
}

var (
	sandboxOnce sync.Once
	sandboxInfo *sandboxSupport
)

// sandboxes returns the machine's sandbox support, probing it on first use: bwrap and (as
// root) setpriv must be found, and a sandbox like a bot's must run /bin/true.
func sandboxes() *sandboxSupport {
	sandboxOnce.Do(func() { sandboxInfo = probeSandbox() })
	return sandboxInfo
}

func probeSandbox() *sandboxSupport {
	s := &sandboxSupport{root: os.Geteuid() == 0}
	var err error
	if s.bwrap, err = lookTool("bwrap"); err != nil {
		s.err = fmt.Errorf("bubblewrap (bwrap) is not installed (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap): %w", err)
		return s
	}
	if s.root {
		if s.setpriv, err = lookTool("setpriv"); err != nil {
			s.err = fmt.Errorf("setpriv (util-linux) is not installed: %w", err)
			return s
		}
	}
	if out, err := exec.Command(s.bwrap, "--version").Output(); err == nil {
		s.version = strings.TrimSpace(string(out))
	}
	truePath, err := lookTool("true")
	if err != nil {
		s.err = err
		return s
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	plan, err := s.plan(Spec{Argv: []string{truePath}, Dir: "/usr", Sandbox: &Sandbox{}}, "/usr", truePath, []string{"PATH=/usr/bin:/bin"}, procPaths{}, false)
	if err != nil {
		s.err = err
		return s
	}
	files, err := plan.files()
	if err != nil {
		s.err = err
		return s
	}
	defer closeFiles(files)
	cmd := exec.CommandContext(ctx, s.bwrap, plan.bwrapArgs()...)
	cmd.ExtraFiles = files
	cmd.Env = []string{}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		s.err = fmt.Errorf("bubblewrap cannot make a sandbox here (%v): %s", err, strings.TrimSpace(stderr.String()))
		if !s.root {
			s.err = fmt.Errorf("%w; unprivileged user namespaces may be turned off: sysctl user.max_user_namespaces or kernel.unprivileged_userns_clone, "+
				"or on Ubuntu 24.04 kernel.apparmor_restrict_unprivileged_userns (load the bwrap-userns-restrict AppArmor profile from the apparmor-profiles package); "+
				"or run the arena as root", s.err)
		}
	}
	return s
}

// lookTool finds a system program: on the arena's PATH, else in /usr/bin or /bin.
func lookTool(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs, nil
		}
	}
	for _, dir := range []string{"/usr/bin", "/bin", "/usr/sbin", "/sbin"} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found", name)
}

// CheckSandbox reports, before any bot starts, what would keep the bot of spec from
// starting in its sandbox: a program that cannot be found, a read-only path or scratch
// directory that does not exist, or a path the bot must see that lies in its scratch
// directory. When the arena runs as root and the bot's files are not open to SandboxUID, it
// returns a note saying so and what to do (the bot then runs as the arena's user inside a
// user namespace), and no error; so it does for a scratch directory without a size (see
// Sandbox.ScratchSize) and for a working directory that holds the home directory of the
// arena's user. It does nothing for a spec without a sandbox.
func CheckSandbox(spec Spec) (note string, err error) {
	if spec.Sandbox == nil {
		return "", nil
	}
	note, err = checkSandbox(spec)
	if err != nil {
		return "", err
	}
	notes := []string{note}
	if spec.Sandbox.Scratch != "" && spec.Sandbox.ScratchSize == 0 {
		notes = append(notes, unsizedScratchNote)
	}
	if note := homeNote(spec.Dir); note != "" {
		notes = append(notes, note)
	}
	return strings.Join(slices.DeleteFunc(notes, func(s string) bool { return s == "" }), "; "), nil
}

// homeNote is CheckSandbox's note on a working directory dir that is, or holds, the home
// directory of the arena's user (as for a bot given as a command to an arena started there);
// "" for any other.
func homeNote(dir string) string {
	home, err := os.UserHomeDir()
	if err != nil || dir == "" {
		return ""
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return ""
	}
	home = filepath.Clean(home)
	what := "is your home directory"
	switch {
	case !within(home, dir):
		return ""
	case home != dir:
		what = "holds your home directory " + home
	}
	return fmt.Sprintf("its working directory %s %s, which it may read (all but the arena's own files): "+
		"run the arena from the bots' own directory, or give the bot a dir in a bots file", dir, what)
}

// unsizedScratchNote is CheckSandbox's note on a scratch directory without a size.
const unsizedScratchNote = "its scratch directory is on the host's file system: no size limit, and its free-inode count, " +
	"which every bot sees, can carry signals between partners; a scratch size (scratch_size = \"256MiB\", as root) " +
	"gives each process a file system of its own"

// checkSandbox does the work of CheckSandbox but for the note on scratch.
func checkSandbox(spec Spec) (note string, err error) {
	s := sandboxes()
	if s.err != nil {
		return "", s.err
	}
	if len(spec.Argv) == 0 {
		return "", errors.New("no program given")
	}
	dir := spec.Dir
	if dir == "" {
		dir = os.TempDir() // a fresh private directory: made for the bot, open to it
	}
	prog, err := ResolveProgram(spec.Argv[0], dir)
	if err != nil {
		return "", fmt.Errorf("program %s: %w", spec.Argv[0], err)
	}
	env := spec.Env
	if env == nil {
		env = DefaultEnv(dir)
	}
	_, err = s.plan(spec, dir, prog, env, procPaths{}, false)
	var private *PrivateFilesError
	if !errors.As(err, &private) {
		return "", err
	}
	note = fmt.Sprintf("%v; so it runs as the arena's user inside a user namespace, not as uid %d", private.Err, SandboxUID)
	_, err = s.plan(spec, dir, prog, env, procPaths{}, true)
	return note, err
}

// SandboxDescription says what confines a sandboxed bot here, for the arena's start line.
func SandboxDescription() string {
	s := sandboxes()
	if s.err != nil {
		return "no sandbox: " + s.err.Error()
	}
	who := fmt.Sprintf("uid %d", SandboxUID)
	if !s.root {
		who = fmt.Sprintf("the arena's uid outside, %d in a user namespace", SandboxUID)
	}
	filter := "no system call filter on this architecture"
	if haveSeccomp {
		filter = "no shared file locks, file watches or keyrings"
	}
	return fmt.Sprintf("sandbox %s (pid, mount, network, ipc, uts, cgroup namespaces; %s; no capabilities; read-only system, private /tmp; %s)", s.version, who, filter)
}

// mountOp is one step of a sandbox's file system, in bwrap's terms.
type mountOp struct {
	path string   // where it lands inside (also the sort key: parents before children)
	args []string // the bwrap arguments
}

// sandboxPlan is a bot's sandbox: bwrap's options (given through a file, so that the
// environment and the mounts are on no command line) and the command it runs.
type sandboxPlan struct {
	args    []string
	command []string
}

// bwrapArgs returns bwrap's command line after the program name, with the options read
// from descriptor 3 (and the system call filter from 4: files).
func (pl *sandboxPlan) bwrapArgs() []string {
	return append([]string{"--args", "3", "--"}, pl.command...)
}

// files returns what bwrap reads at descriptors 3 and on, for exec.Cmd.ExtraFiles: the
// options, and the system call filter where there is one. The caller closes them once bwrap
// has started.
func (pl *sandboxPlan) files() ([]*os.File, error) {
	args, err := pl.argsFile()
	if err != nil || !haveSeccomp {
		return []*os.File{args}, err
	}
	filter, err := seccompFile()
	if err != nil {
		args.Close()
		return nil, err
	}
	return []*os.File{args, filter}, nil
}

// closeFiles closes the files of files.
func closeFiles(fs []*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

// procPaths are the host paths of one bot process that its sandbox shows: its stdin and
// stdout, FIFOs in fifoDir, which the sandbox shows at the same place and opens for the bot
// before its program runs, once it has written a byte to the FIFO ready (see awaitSandbox);
// and its own directory in the scratch directory, which the sandbox shows at
// Sandbox.Scratch. The zero value (for checks and the probe): bwrap's own stdin and stdout,
// and nothing at Sandbox.Scratch.
type procPaths struct {
	fifoDir, in, out, ready string
	scratch                 string
}

// plan builds the bwrap arguments that run the program prog (an absolute host path) with
// the arguments of spec.Argv[1:] in the sandbox of spec.Sandbox, in the working directory
// dir with the environment env. When spec.Dir is empty, dir is the fresh directory Start made
// for the bot, and it is writable. The process's own scratch directory (own.scratch) is
// shown at Sandbox.Scratch in place of that directory and all under it, so that the bot sees
// none of the other processes' directories there; no other bound path may lie in it.
//
// As root the bot runs as SandboxUID, and what it must reach must be open to that user: if
// it is not, plan returns a *PrivateFilesError. With asArenaUser (always, for an arena that
// is not root) the bot keeps the arena's user id outside a user namespace of its own, and is
// SandboxUID only inside it.
func (s *sandboxSupport) plan(spec Spec, dir, prog string, env []string, own procPaths, asArenaUser bool) (*sandboxPlan, error) {
	sb := spec.Sandbox
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	limits, err := botFileLimits(spec)
	if err != nil {
		return nil, err
	}
	args := []string{"--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--hostname", "sandbox",
		"--die-with-parent", "--new-session", "--cap-drop", "ALL"}
	if haveSeccomp {
		args = append(args, "--seccomp", "4") // files
	}
	dropUID := s.root && !asArenaUser
	if dropUID {
		// bwrap runs privileged; the bot drops to SandboxUID through setpriv, which needs
		// these three capabilities until it does.
		args = append(args, "--unshare-cgroup", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP")
	} else {
		args = append(args, "--unshare-user", "--uid", fmt.Sprint(SandboxUID), "--gid", fmt.Sprint(SandboxGID),
			"--disable-userns", "--unshare-cgroup-try")
	}

	tmpSize := sb.TmpSize
	if tmpSize <= 0 {
		tmpSize = DefaultTmpSize
	}
	ops := []mountOp{
		{"/proc", []string{"--proc", "/proc"}},
		{"/tmp", []string{"--perms", "1777", "--size", fmt.Sprint(tmpSize), "--tmpfs", "/tmp"}},
		{"/dev", devArgs()},
	}
	var hide []string
	for _, h := range sb.Hide {
		if h == "" {
			continue
		}
		if abs, err := filepath.Abs(h); err == nil {
			hide = append(hide, filepath.Clean(abs), realPath(abs))
		}
	}
	var ro, links []string
	for _, d := range systemDirs {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
		case fi.Mode()&os.ModeSymlink != 0:
			if target, err := os.Readlink(d); err == nil {
				ops = append(ops, mountOp{d, []string{"--symlink", target, d}})
				links = append(links, d)
			}
		default:
			ro = append(ro, d)
		}
	}
	ro = append(ro, pathDirs(env)...)
	ro = append(ro, filepath.Dir(prog))
	// Files named by the arguments (a script, a model) are readable with their directory.
	files := slices.DeleteFunc(argFiles(spec.Argv[1:], dir), func(f string) bool {
		return slices.Contains(hide, f) || slices.Contains(hide, realPath(f))
	})
	for _, f := range files {
		ro = append(ro, filepath.Dir(f))
	}
	if err := wholeSystem(dir, prog, files, sb.ReadOnly); err != nil {
		return nil, err
	}
	for _, p := range sb.ReadOnly {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("sandbox read-only path %q: %w", p, err)
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("sandbox read-only path: %w", err)
		}
		ro = append(ro, abs)
	}
	var rw []string
	if spec.Dir == "" {
		rw = append(rw, dir)
	} else {
		ro = append(ro, dir)
	}
	scratch, err := scratchPath(sb.Scratch)
	if err != nil {
		return nil, err
	}
	if err := s.checkScratchFS(sb); err != nil {
		return nil, err
	}
	// A path through a system link (/bin/sh on merged-/usr systems) is there through the link.
	ro = slices.DeleteFunc(ro, func(p string) bool {
		return slices.ContainsFunc(links, func(l string) bool { return within(p, l) })
	})
	if err := outsideScratch(scratch, slices.Concat(ro, rw, []string{own.fifoDir})); err != nil {
		return nil, err
	}
	ro, rw = minimalRoots(ro), minimalRoots(rw)
	if dropUID {
		// The bot runs as SandboxUID: what it must reach must be open to it. A fresh working
		// directory (and its own scratch directory) the arena gives to that user.
		roots := slices.Concat(ro, rw)
		var errs []error
		if spec.Dir != "" {
			errs = append(errs, reachable(roots, dir, 0o5, "working directory"))
		}
		errs = append(errs, reachable(roots, prog, 0o1, "program"))
		for _, f := range files {
			errs = append(errs, reachable(roots, f, 0o4, "file"))
		}
		if err := errors.Join(errs...); err != nil {
			return nil, &PrivateFilesError{err}
		}
	}
	for _, p := range ro {
		ops = append(ops, bindOps(p, "--ro-bind", hiddenUnder(p, hide))...)
	}
	for _, p := range rw {
		ops = append(ops, bindOps(p, "--bind", hiddenUnder(p, hide))...)
	}
	bound := slices.Concat(ro, rw)
	if scratch != "" {
		// The process's own directory replaces what a directory bound above the scratch
		// directory shows there (the other processes' directories).
		for _, v := range scratchViews(scratch, bound) {
			ops = slices.DeleteFunc(ops, func(op mountOp) bool { return within(op.path, v) })
			if own.scratch != "" {
				ops = append(ops, mountOp{v, []string{"--bind", own.scratch, v}})
			}
		}
		bound = append(bound, scratch)
	}
	if own.fifoDir != "" {
		ops = append(ops, mountOp{own.fifoDir, []string{"--ro-bind", own.fifoDir, own.fifoDir}}) // a FIFO takes writes on a read-only mount
		bound = append(bound, own.fifoDir)
	}
	ops = append(ops, parentDirs(bound)...)
	slices.SortStableFunc(ops, func(a, b mountOp) int { return strings.Compare(a.path, b.path) })
	ops = slices.CompactFunc(ops, func(a, b mountOp) bool { return slices.Equal(a.args, b.args) })
	for _, op := range ops {
		args = append(args, op.args...)
	}
	args = append(args, "--chdir", dir, "--clearenv")
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		args = append(args, "--setenv", k, v)
	}
	var command []string
	if dropUID {
		command = append(command, s.setpriv, fmt.Sprintf("--reuid=%d", SandboxUID), fmt.Sprintf("--regid=%d", SandboxGID),
			"--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--")
	}
	if own.fifoDir != "" {
		// The shell sets the open files and file size limits, says the sandbox is built,
		// opens the FIFOs in it, as the bot's user, and becomes the bot.
		command = append(command, "/bin/sh", "-c", fmt.Sprintf(`ulimit -n %d && ulimit -f %d && printf . >%s && exec "$0" "$@" <%s >%s`,
			limits.openFiles, limits.fileSize/fileSizeBlock, quoteWord(own.ready), quoteWord(own.in), quoteWord(own.out)))
	}
	command = append(command, prog)
	command = append(command, spec.Argv[1:]...)
	return &sandboxPlan{args: args, command: command}, nil
}

// wholeSystem returns an error naming each path a sandboxed bot would see that is the root
// directory (its working directory dir, the directory of its program prog or of a file its
// command line names, a read-only path), with what to do instead: showing / would show it
// the whole file system, and bubblewrap cannot bind it over the system's own links anyway.
func wholeSystem(dir, prog string, files, readOnly []string) error {
	var errs []error
	if dir == "/" {
		errs = append(errs, errors.New("working directory /: the sandbox would have to show the bot the whole file system; run the arena from another directory (the bot's own, say) or give the bot a dir in a bots file"))
	}
	if filepath.Dir(prog) == "/" {
		errs = append(errs, fmt.Errorf("program %s: it lies in /, which the sandbox would have to show whole; move it into a directory", prog))
	}
	for _, f := range files {
		if filepath.Dir(f) == "/" {
			errs = append(errs, fmt.Errorf("file %s on its command line: it lies in /, which the sandbox would have to show whole; move it into a directory", f))
		}
	}
	for _, p := range readOnly {
		if abs, err := filepath.Abs(p); err == nil && abs == "/" {
			errs = append(errs, errors.New("read_only path /: the whole file system; name the directories the bot needs"))
		}
	}
	return errors.Join(errs...)
}

// scratchPath returns the absolute path of the scratch directory scratch, or "" for none. It
// must be a directory.
func scratchPath(scratch string) (string, error) {
	if scratch == "" {
		return "", nil
	}
	abs, err := filepath.Abs(scratch)
	if err != nil {
		return "", fmt.Errorf("sandbox scratch directory %q: %w", scratch, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("sandbox scratch directory %s: not a directory", abs)
	}
	return abs, nil
}

// outsideScratch fails if one of the bound paths lies in the scratch directory (also through
// a symbolic link), where the process's own directory hides it.
func outsideScratch(scratch string, bound []string) error {
	if scratch == "" {
		return nil
	}
	real := resolved(scratch)
	for _, p := range bound {
		if p != "" && (within(p, scratch) || within(resolved(p), real)) {
			return fmt.Errorf("sandbox scratch directory %s: %s lies in it, and the bot sees only a directory of its own there", scratch, p)
		}
	}
	return nil
}

// scratchViews returns the paths inside the sandbox at which the scratch directory would be
// seen: its own, and its place in each of the bound paths roots that holds it, also where
// one of them or the scratch directory is reached through a symbolic link.
func scratchViews(scratch string, roots []string) []string {
	views := []string{scratch}
	real := resolved(scratch)
	for _, r := range roots {
		if realRoot := resolved(r); within(real, realRoot) {
			views = append(views, filepath.Join(r, strings.TrimPrefix(real, realRoot)))
		}
	}
	slices.Sort(views)
	return slices.Compact(views)
}

// resolved returns p with its symbolic links resolved, or p where that fails.
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// newScratchDir makes a bot process's own directory in the scratch directory scratch, empty
// and private to the arena's user, named by the time in UTC, the bot's name and random digits
// (20261202T070102.123456Z-mcts-1234567890), so that the names sort in the order the
// processes started.
func newScratchDir(scratch, name string) (string, error) {
	abs, err := filepath.Abs(scratch)
	if err != nil {
		return "", err
	}
	return os.MkdirTemp(abs, time.Now().UTC().Format("20060102T150405.000000Z")+"-"+fileName(name)+"-*")
}

// fileName returns name for use in a file name: every byte but an ASCII letter, digit, '.',
// '_' or '-' made '_', and at most 64 bytes ("bot" for an empty name).
func fileName(name string) string {
	if name == "" {
		return "bot"
	}
	b := []byte(name[:min(len(name), 64)])
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

// devArgs makes the sandbox's /dev: a tmpfs with the four devices and the usual links.
func devArgs() []string {
	a := []string{"--tmpfs", "/dev"}
	for _, d := range devices {
		a = append(a, "--dev-bind", d, d)
	}
	return append(a, "--symlink", "/proc/self/fd", "/dev/fd",
		"--symlink", "/proc/self/fd/0", "/dev/stdin",
		"--symlink", "/proc/self/fd/1", "/dev/stdout",
		"--symlink", "/proc/self/fd/2", "/dev/stderr",
		"--remount-ro", "/dev")
}

// pathDirs returns the directories of env's PATH, each with the parent of a bin or shims
// directory (the installation it belongs to: /usr/local/go for /usr/local/go/bin, ~/.pyenv
// for ~/.pyenv/shims) unless that parent is / or a home directory.
func pathDirs(env []string) []string {
	var path string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	var dirs []string
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		dirs = append(dirs, d)
		if base := filepath.Base(d); base == "bin" || base == "shims" || base == "sbin" {
			if parent := filepath.Dir(d); !isHomeOrRoot(parent) {
				dirs = append(dirs, parent)
			}
		}
	}
	return dirs
}

// isHomeOrRoot reports whether dir is /, a directory of home directories, or a user's home.
func isHomeOrRoot(dir string) bool {
	if dir == "/" || dir == "/root" || dir == "/home" || filepath.Dir(dir) == "/home" {
		return true
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.Clean(home) == dir {
		return true
	}
	return false
}

// parentDirs makes the directories that lead to the bound paths roots (those not inside
// another bound path) with mode 0755: bwrap would copy the host's modes, and a private
// parent such as a 0700 temporary directory would keep the bot from its own files.
func parentDirs(roots []string) []mountOp {
	var ops []mountOp
	for _, r := range roots {
		for d := filepath.Dir(r); d != filepath.Dir(d); d = filepath.Dir(d) {
			if slices.ContainsFunc(roots, func(o string) bool { return within(d, o) }) || d == "/tmp" {
				continue
			}
			ops = append(ops, mountOp{d, []string{"--perms", "0755", "--dir", d}})
		}
	}
	return ops
}

// realPath returns p with its directory's symbolic links resolved (p itself need not exist).
func realPath(p string) string {
	if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(d, filepath.Base(p))
	}
	return p
}

// hiddenUnder returns the paths of hide that lie in the host path p, as paths under p, also
// where p or a hidden path reaches the same place through a symbolic link.
func hiddenUnder(p string, hide []string) []string {
	real := p
	if r, err := filepath.EvalSymlinks(p); err == nil {
		real = r
	}
	var out []string
	for _, h := range hide {
		switch {
		case within(h, p):
			out = append(out, h)
		case within(h, real):
			out = append(out, filepath.Join(p, strings.TrimPrefix(h, real)))
		}
	}
	return out
}

// minimalRoots returns the distinct paths of ps with every path inside another left out.
func minimalRoots(ps []string) []string {
	ps = slices.Clone(ps)
	for i, p := range ps {
		ps[i] = filepath.Clean(p)
	}
	slices.Sort(ps)
	ps = slices.Compact(ps)
	var out []string
	for _, p := range ps {
		if len(out) > 0 && within(p, out[len(out)-1]) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// within reports whether p is dir or lies inside it.
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// bindOps shows the host path p at the same path inside with bind (--ro-bind or --bind),
// leaving out the hidden files under it. A directory that holds a hidden file, at any depth,
// becomes a tmpfs holding binds of its other entries (as they are now) and is then made
// read-only; the rest is bound whole.
//
// The entries are listed before bwrap starts, and another process may remove one in between
// (another shard's database copy, another bot's directory): they are bound with the -try
// forms, which leave out a source that is gone instead of failing the start.
func bindOps(p, bind string, hide []string) []mountOp {
	var under []string
	for _, h := range hide {
		if h != p && within(h, p) {
			under = append(under, h)
		} else if h == p {
			return nil // the path itself is hidden
		}
	}
	if len(under) == 0 {
		return []mountOp{{p, []string{bind, p, p}}}
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil // unreadable: show nothing rather than too much
	}
	ops := []mountOp{{p, []string{"--perms", "0755", "--tmpfs", p}}}
	for _, e := range entries {
		child := filepath.Join(p, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			if target, err := os.Readlink(child); err == nil && !slices.Contains(under, child) {
				ops = append(ops, mountOp{child, []string{"--symlink", target, child}})
			}
			continue
		}
		ops = append(ops, bindOps(child, strings.TrimSuffix(bind, "-try")+"-try", under)...)
	}
	// Read-only once the binds are in: the tmpfs must not take the bot's writes (a writable
	// bind inside it stays writable).
	// The key "p/\xff" sorts after every path inside p.
	return append(ops, mountOp{p + "/\xff", []string{"--remount-ro", p}})
}

// argsFile writes the plan's options, NUL-separated, to a memory file for bwrap's --args:
// the arguments are not on any command line a bot could read.
func (pl *sandboxPlan) argsFile() (*os.File, error) {
	var b bytes.Buffer
	for _, a := range pl.args {
		if strings.IndexByte(a, 0) >= 0 {
			return nil, errors.New("sandbox arguments: a NUL byte in an argument")
		}
		b.WriteString(a)
		b.WriteByte(0)
	}
	f, err := memFile("bwrap-args", b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("sandbox arguments: %w", err)
	}
	return f, nil
}

// memFile returns a memory file named name (for /proc's listings only) holding data, read
// from its start.
func memFile(name string, data []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), name)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// quoteWord quotes s for sh as one word.
func quoteWord(s string) string {
	q, err := syntax.Quote(s, syntax.LangPOSIX)
	if err != nil { // a NUL byte: no path has one
		return "''"
	}
	return q
}

// argFiles returns the absolute paths of the arguments that name existing files (relative
// ones from dir).
func argFiles(args []string, dir string) []string {
	var out []string
	for _, a := range args {
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

// reachable checks that SandboxUID can reach the host path p inside the sandbox whose bound
// paths are roots: every directory from p's root down must be open to it for search, and p
// itself for need (4 read, 1 search or execute). The directories above a root are made by
// the sandbox (mode 0755), so their host modes do not matter.
func reachable(roots []string, p string, need os.FileMode, what string) error {
	var root string
	for _, r := range roots {
		if within(p, r) && len(r) > len(root) {
			root = r
		}
	}
	if root == "" {
		return nil // not bound: nothing to check
	}
	denied := func(path, need string) error {
		return fmt.Errorf("%s %s: %s is not open to the sandbox's user (uid %d: needs %s for others; chmod o+%s)",
			what, p, path, SandboxUID, need, need)
	}
	for d := root; ; {
		fi, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("%s %s: %w", what, p, err)
		}
		last := d == p
		switch {
		case last && !openTo(fi, need):
			return denied(d, map[os.FileMode]string{0o1: "x", 0o4: "r", 0o5: "rx"}[need])
		case !last && !openTo(fi, 0o1):
			return denied(d, "x")
		}
		if last {
			return nil
		}
		rest := strings.TrimPrefix(strings.TrimPrefix(p, d), "/")
		next, _, _ := strings.Cut(rest, "/")
		d = filepath.Join(d, next)
	}
}

// openTo reports whether SandboxUID has the permission bits want (4 read, 2 write, 1 search)
// on fi, by its owner, group or other bits.
func openTo(fi os.FileInfo, want os.FileMode) bool {
	m := fi.Mode().Perm()
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		switch {
		case st.Uid == SandboxUID:
			return (m>>6)&want == want
		case st.Gid == SandboxGID:
			return (m>>3)&want == want
		}
	}
	return m&want == want
}

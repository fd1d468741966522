//go:build linux

package botproc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// scratchScript answers "req ls" with the entries of its scratch directory $S ("ans [a,b,]")
// and "req write NAME" by writing NAME there ("ans wrote NAME").
const scratchScript = `while read -r _ cmd arg; do
  case $cmd in
  ls) echo "ans [$(ls -A "$S" | tr '\n' ,)]";;
  write) echo "from $arg" > "$S/$arg" && echo "ans wrote $arg" || echo "ans denied $arg";;
  esac
done`

// TestSandbox_Scratch: two processes of one bot (partners at a table) granted the same
// scratch directory each write a directory of their own there and share nothing: the second,
// started after the first wrote, sees neither the first's file nor its directory, and the
// first never sees the second's. After Stop both directories are on the host, named in start
// order with the bot's name, holding what each wrote. Also where the scratch directory is in
// the bot's working directory beside a hidden file, holds a hidden file itself, or is given
// relative to the current directory, or through a symbolic link to the working directory.
func TestSandbox_Scratch(t *testing.T) {
	needSandbox(t)
	for _, tc := range []struct {
		name string
		// setup returns the bot's working directory ("" for a fresh one), its scratch
		// directory as the entry gives it, the files to hide, and the path at which the bot
		// uses the scratch directory ("" for the absolute path of the entry's).
		setup func(t *testing.T) (dir, scratch string, hide []string, use string)
	}{
		{"alone", func(t *testing.T) (string, string, []string, string) {
			return "", t.TempDir(), nil, ""
		}},
		{"in the working directory beside a hidden file", func(t *testing.T) (string, string, []string, string) {
			dir := openDir(t, t.TempDir())
			scratch := openDir(t, filepath.Join(dir, "scratch"))
			db, _ := arenaFiles(t, dir)
			return dir, scratch, []string{db}, ""
		}},
		{"through a link, used in the working directory", func(t *testing.T) (string, string, []string, string) {
			dir := openDir(t, t.TempDir())
			scratch := openDir(t, filepath.Join(dir, "scratch"))
			link := filepath.Join(t.TempDir(), "link")
			if err := os.Symlink(dir, link); err != nil {
				t.Fatal(err)
			}
			return dir, filepath.Join(link, "scratch"), nil, scratch
		}},
		{"holding a hidden file, relative", func(t *testing.T) (string, string, []string, string) {
			dir := openDir(t, t.TempDir())
			scratch := openDir(t, filepath.Join(dir, "scratch"))
			db, _ := arenaFiles(t, scratch)
			wd, err := os.Getwd()
			if err != nil {
				t.Fatal(err)
			}
			rel, err := filepath.Rel(wd, scratch)
			if err != nil {
				t.Fatal(err)
			}
			return dir, rel, []string{db}, ""
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, scratch, hide, use := tc.setup(t)
			abs, err := filepath.Abs(scratch)
			if err != nil {
				t.Fatal(err)
			}
			if use == "" {
				use = abs
			}
			start := func() *Proc {
				b := sandboxed(shBot(t, scratchScript), Sandbox{Scratch: scratch, Hide: hide})
				b.Name, b.Dir, b.Env = "partner", dir, append(b.Env, "S="+use)
				return mustStart(t, b)
			}
			ask := func(p *Proc, req, want string) {
				t.Helper()
				if r := exchange(t, p, req, 30*time.Second); r.Line != want {
					t.Errorf("%s: %q, want %q", req, r.Line, want)
				}
			}
			north := start()
			ask(north, "req ls", "ans []")
			ask(north, "req write north.txt", "ans wrote north.txt")
			south := start()
			ask(south, "req ls", "ans []")
			ask(south, "req write south.txt", "ans wrote south.txt")
			ask(north, "req ls", "ans [north.txt,]")
			ask(south, "req ls", "ans [south.txt,]")
			for _, p := range []*Proc{north, south} {
				if err := p.Stop(100 * time.Millisecond); err != nil {
					t.Errorf("Stop: %v", err)
				}
			}
			own := processDirs(t, abs)
			if len(own) != 2 {
				t.Fatalf("directories in the scratch directory after Stop: %v, want one for each process", own)
			}
			for i, who := range []string{"north", "south"} {
				if base := filepath.Base(own[i]); !strings.Contains(base, "-partner-") {
					t.Errorf("directory %s does not name the bot", base)
				}
				got, err := os.ReadFile(filepath.Join(own[i], who+".txt"))
				if err != nil || string(got) != "from "+who+".txt\n" {
					t.Errorf("%s's file in %s after Stop: %q, %v", who, own[i], got, err)
				}
			}
		})
	}
}

// TestSandbox_ScratchHoldsBotFiles: a path the bot must see that lies in its scratch
// directory (here its working directory), where its own directory would hide it, is refused
// before the start.
func TestSandbox_ScratchHoldsBotFiles(t *testing.T) {
	needSandbox(t)
	scratch := openDir(t, t.TempDir())
	dir := openDir(t, filepath.Join(scratch, "bot"))
	b := sandboxed(shBot(t, scratchScript), Sandbox{Scratch: scratch})
	b.Dir = dir
	if _, err := CheckSandbox(b.Spec); err == nil || !strings.Contains(err.Error(), dir+" lies in it") {
		t.Errorf("CheckSandbox of a working directory in the scratch directory: %v", err)
	}
}

// openDir makes (if need be) the directory dir with mode 0755 and returns it.
func openDir(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// processDirs returns the directories in scratch, sorted by name.
func processDirs(t *testing.T, scratch string) []string {
	t.Helper()
	entries, err := os.ReadDir(scratch)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(scratch, e.Name()))
		}
	}
	slices.Sort(dirs)
	return dirs
}

// scratchFSScript is scratchScript with "req df" (the free blocks, free inodes and size in
// bytes of $S, from statfs), "req files N" (N empty files) and "req fill" (writes until the
// file system is full: "ans full" when it ends with "No space left on device").
const scratchFSScript = `while read -r _ cmd arg; do
  case $cmd in
  df) echo "ans $(stat -f -c '%a %d' "$S") $(( $(stat -f -c '%b * %S' "$S") ))";;
  files) i=0; while [ $i -lt "$arg" ]; do : > "$S/f$i"; i=$((i+1)); done; echo "ans made $arg";;
  fill) if dd if=/dev/zero of="$S/big" bs=1M count=64 2>&1 | grep -q 'No space left'; then echo "ans full"; else echo "ans not full"; fi;;
  write) echo "from $arg" > "$S/$arg" && echo "ans wrote $arg" || echo "ans denied $arg";;
  esac
done`

// TestSandbox_ScratchFS: with a scratch size each process's scratch directory is a file
// system of its own. Partners share no free-inode or free-block count through it (the
// channel a directory on the host's file system leaves: north makes 50 files, south's count
// stays the same while north's drops by 50); a bot cannot write more than the size, and its
// writes allocate nothing more on the host; the host never sees the mount; after Stop the
// kernel lets go of the image, which holds what the bot wrote, and no directory is left. An
// image keeps all its blocks until no process of the bot runs; then the blocks that hold
// only zeros are given back, and the file system checks clean.
func TestSandbox_ScratchFS(t *testing.T) {
	needScratchFS(t)
	const size = 8 << 20
	scratch := openDir(t, t.TempDir())
	start := func() *Proc {
		b := sandboxed(shBot(t, scratchFSScript), Sandbox{Scratch: scratch, ScratchSize: size})
		b.Name, b.Env = "partner", append(b.Env, "S="+scratch)
		return mustStart(t, b)
	}
	ask := func(p *Proc, req string) string {
		t.Helper()
		r := exchange(t, p, req, 30*time.Second)
		return strings.TrimPrefix(r.Line, "ans ")
	}
	df := func(p *Proc) (free, inodes, total int64) {
		t.Helper()
		if _, err := fmt.Sscan(ask(p, "req df"), &free, &inodes, &total); err != nil {
			t.Fatalf("req df: %v", err)
		}
		return free, inodes, total
	}
	north := start()
	south := start()
	if _, _, total := df(north); total > size || total < size*3/4 {
		t.Errorf("north's scratch file system holds %d bytes, want about %d", total, size)
	}
	_, northInodes, _ := df(north)
	southFree, southInodes, _ := df(south)
	if got := ask(north, "req files 50"); got != "made 50" {
		t.Fatalf("req files 50: %q", got)
	}
	if free, inodes, _ := df(south); free != southFree || inodes != southInodes {
		t.Errorf("south's free blocks and inodes went from %d, %d to %d, %d when north made 50 files", southFree, southInodes, free, inodes)
	}
	if _, inodes, _ := df(north); inodes != northInodes-50 {
		t.Errorf("north's free inodes went from %d to %d after it made 50 files, want 50 fewer", northInodes, inodes)
	}

	images := scratchImages(t, scratch)
	if len(images) != 2 {
		t.Fatalf("files in the scratch directory: %v, want an image for each process", images)
	}
	allocated := func() []int64 { return allocatedBytes(t, images...) }
	before := allocated()
	for _, n := range before {
		if n < size {
			t.Errorf("an image has %d bytes allocated on the host, want all %d", n, size)
		}
	}
	if got := ask(north, "req fill"); got != "full" {
		t.Errorf("north writing 64 MiB into 8: %q, want full", got)
	}
	if got := ask(north, "req write north.txt"); got != "denied north.txt" && got != "wrote north.txt" {
		t.Errorf("req write north.txt: %q", got)
	}
	if after := allocated(); !slices.Equal(after, before) {
		t.Errorf("the images' blocks on the host went from %v to %v as north wrote", before, after)
	}
	if got := ask(south, "req write south.txt"); got != "wrote south.txt" {
		t.Errorf("req write south.txt: %q", got)
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*Proc{north, south} {
		if strings.Contains(string(mounts), p.scratchDir) || strings.Contains(string(mounts), filepath.Base(p.scratchImage)) {
			t.Errorf("the host sees the scratch mount of %s:\n%s", p.scratchImage, mounts)
		}
	}
	if held := loopHolders(images); len(held) != 2 {
		t.Errorf("loop devices holding the images of the two running bots: %v, want two", held)
	}
	points := []string{north.scratchDir, south.scratchDir}
	// North's image, its process ended, keeps every block while south runs: what north wrote
	// must not show in the host's free space before no process of the bot is left.
	if err := north.Stop(100 * time.Millisecond); err != nil {
		t.Errorf("Stop: %v", err)
	}
	waitLoopFree(t, images[:1])
	for i, n := range allocated() {
		if n < size {
			t.Errorf("image %s has %d bytes allocated on the host while a process of the bot runs, want all %d", images[i], n, size)
		}
	}
	// Then both give back what holds only zeros.
	if err := south.Stop(100 * time.Millisecond); err != nil {
		t.Errorf("Stop: %v", err)
	}
	for _, d := range points {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("mount point %s after Stop: %v, want it removed", d, err)
		}
	}
	if dirs := processDirs(t, scratch); len(dirs) != 0 {
		t.Errorf("directories in the scratch directory: %v, want none", dirs)
	}
	if held := loopHolders(images); len(held) != 0 {
		t.Errorf("loop devices %v hold the images after the last process of the bot stopped", held)
	}
	for i, n := range allocated() {
		if n > size/4 {
			t.Errorf("image %s has %d bytes of %d allocated on the host after the bot's last process ended, want them given back", images[i], n, size)
		}
	}
	if fsck, err := lookTool("e2fsck"); err == nil {
		for _, im := range images {
			if out, err := exec.Command(fsck, "-fn", im).CombinedOutput(); err != nil {
				t.Errorf("e2fsck -fn %s after it was compacted: %v\n%s", im, err, out)
			}
		}
	}
	debugfs, err := lookTool("debugfs")
	if err != nil {
		t.Skip("debugfs (e2fsprogs) not found, to read the images after Stop:", err)
	}
	for _, im := range images {
		if base := filepath.Base(im); !strings.Contains(base, "-partner-") {
			t.Errorf("image %s does not name the bot", base)
		}
	}
	out, err := exec.Command(debugfs, "-R", "cat /south.txt", images[1]).Output()
	if err != nil || string(out) != "from south.txt\n" {
		t.Errorf("south's file in %s after Stop: %q, %v", images[1], out, err)
	}
	out, err = exec.Command(debugfs, "-R", "ls -l /", images[0]).Output()
	if err != nil || !strings.Contains(string(out), " f49") || !strings.Contains(string(out), " big") {
		t.Errorf("north's files in %s after Stop (want f0..f49 and big): %s, %v", images[0], out, err)
	}
}

// TestArenaKilledScratchFS: when the arena is killed with SIGKILL, its bot dies with it, and
// the kernel lets go of the bot's scratch file system: nothing of it was ever mounted where
// the host sees it, so nothing is left mounted.
func TestArenaKilledScratchFS(t *testing.T) {
	needSandbox(t)
	if os.Geteuid() != 0 {
		t.Skip("a scratch file system needs the arena to run as root; this test runs as uid", os.Geteuid())
	}
	if err := scratchTools().err; err != nil {
		t.Skip("no scratch file system can be made here:", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	scratch := openDir(t, t.TempDir())
	mark := newMark()
	arena := exec.Command(exe, testBotArg, "arena")
	stdin, _ := arena.StdinPipe()
	stdout, _ := arena.StdoutPipe()
	if err := arena.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(stdin, mark, scratch)
	var word string
	var pid int
	if _, err := fmt.Fscanln(stdout, &word, &pid); err != nil || word != "started" {
		arena.Process.Kill()
		arena.Wait()
		t.Fatalf("helper arena: %q %v", word, err)
	}
	images := scratchImages(t, scratch)
	if len(images) != 1 {
		t.Fatalf("images in the scratch directory: %v, want one", images)
	}
	if len(loopHolders(images)) != 1 {
		t.Errorf("no loop device holds the running bot's scratch image %s", images[0])
	}
	arena.Process.Kill()
	arena.Wait()
	waitLoopFree(t, images)
	assertGone(t, mark)
	sweepTempDirs(os.Getpid())
}

// scratchImages returns the scratch file system images in scratch, sorted by name.
// TestScratchGroups: the images of a bot's processes in one scratch group are compacted when
// none of them runs, whatever the bot's processes in another group (a league's other worker
// slot) do.
func TestScratchGroups(t *testing.T) {
	needScratchFS(t)
	const size = 8 << 20
	scratch := openDir(t, t.TempDir())
	start := func(group string) *Proc {
		b := sandboxed(shBot(t, scratchFSScript), Sandbox{Scratch: scratch, ScratchSize: size, ScratchGroup: group})
		b.Name, b.Env = "slotted", append(b.Env, "S="+scratch)
		return mustStart(t, b)
	}
	a1 := start("slot 0")
	a2 := start("slot 0")
	b1 := start("slot 1")
	imageOf := map[*Proc]string{a1: a1.scratchImage, a2: a2.scratchImage, b1: b1.scratchImage}
	stop := func(p *Proc) {
		t.Helper()
		if err := p.Stop(100 * time.Millisecond); err != nil {
			t.Errorf("Stop: %v", err)
		}
	}
	whole := func(when string, ps ...*Proc) {
		t.Helper()
		for _, p := range ps {
			if n := allocatedBytes(t, imageOf[p])[0]; n < size {
				t.Errorf("%s: image %s has %d bytes allocated, want all %d", when, imageOf[p], n, size)
			}
		}
	}
	compacted := func(when string, ps ...*Proc) {
		t.Helper()
		for _, p := range ps {
			if n := allocatedBytes(t, imageOf[p])[0]; n > size/4 {
				t.Errorf("%s: image %s has %d bytes of %d allocated, want them given back", when, imageOf[p], n, size)
			}
		}
	}
	stop(a1)
	whole("a process of the same group still running", a1, a2, b1)
	stop(a2)
	compacted("the last process of the group stopped", a1, a2)
	whole("its own process running", b1)
	stop(b1)
	compacted("its process stopped", b1)
}

// needScratchFS skips the test where no scratch file system can be made.
func needScratchFS(t *testing.T) {
	t.Helper()
	needSandbox(t)
	if os.Geteuid() != 0 {
		t.Skip("a scratch file system needs the arena to run as root (it mounts one for each process); this test runs as uid", os.Geteuid())
	}
	if err := scratchTools().err; err != nil {
		t.Skip("no scratch file system can be made here:", err)
	}
}

// allocatedBytes returns how many bytes of each file are allocated on the host.
func allocatedBytes(t *testing.T, files ...string) []int64 {
	t.Helper()
	var n []int64
	for _, f := range files {
		var st unix.Stat_t
		if err := unix.Stat(f, &st); err != nil {
			t.Fatal(err)
		}
		n = append(n, st.Blocks*512)
	}
	return n
}

func scratchImages(t *testing.T, scratch string) []string {
	t.Helper()
	images, err := filepath.Glob(filepath.Join(scratch, "*.ext2"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(images)
	return images
}

// waitLoopFree waits (up to 30 s) until no loop device is backed by one of images: the
// kernel lets go of a scratch file system once the bot's last process has ended.
func waitLoopFree(t *testing.T, images []string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		held := loopHolders(images)
		if len(held) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("30 s after the bot ended loop devices still hold the scratch images: %v", held)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// loopHolders returns the loop devices backed by one of images.
func loopHolders(images []string) []string {
	files, _ := filepath.Glob("/sys/block/loop*/loop/backing_file")
	var held []string
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if slices.Contains(images, strings.TrimSpace(string(b))) {
			held = append(held, filepath.Base(filepath.Dir(filepath.Dir(f))))
		}
	}
	return held
}

// TestCheckScratchFS: a scratch size is refused, saying why, without a scratch directory,
// below MinScratchSize, for an arena that does not run as root, and larger than the free
// space where the images would go.
func TestCheckScratchFS(t *testing.T) {
	for _, tc := range []struct {
		root bool
		sb   Sandbox
		want string
	}{
		{true, Sandbox{ScratchSize: 8 << 20}, "without a scratch directory"},
		{true, Sandbox{Scratch: "/tmp", ScratchSize: 1 << 20}, "at least 4194304"},
		{false, Sandbox{Scratch: "/tmp", ScratchSize: 8 << 20}, "needs the arena to run as root"},
		{true, Sandbox{Scratch: "/tmp", ScratchSize: 1 << 50}, "less than the scratch size of 1125899906842624 bytes"},
	} {
		s := &sandboxSupport{root: tc.root}
		if err := s.checkScratchFS(&tc.sb); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("root %v, %+v: %v, want %q", tc.root, tc.sb, err, tc.want)
		}
	}
	if err := (&sandboxSupport{}).checkScratchFS(&Sandbox{Scratch: "/tmp"}); err != nil {
		t.Errorf("no scratch size: %v", err)
	}
}

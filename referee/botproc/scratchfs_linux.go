package botproc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// scratchFSTools are the programs that make a scratch file system (Sandbox.ScratchSize),
// found once.
type scratchFSTools struct {
	mkfs, mount string
	err         error // why none can be made
}

var (
	scratchToolsOnce sync.Once
	scratchToolsInfo *scratchFSTools
)

// scratchTools returns the programs that make scratch file systems, or why they are missing.
func scratchTools() *scratchFSTools {
	scratchToolsOnce.Do(func() {
		t := &scratchFSTools{}
		var errs []error
		var err error
		if t.mkfs, err = lookTool("mke2fs"); err != nil {
			errs = append(errs, fmt.Errorf("mke2fs (e2fsprogs: apt-get install e2fsprogs): %w", err))
		}
		if t.mount, err = lookTool("mount"); err != nil {
			errs = append(errs, fmt.Errorf("mount (util-linux): %w", err))
		}
		t.err = errors.Join(errs...)
		scratchToolsInfo = t
	})
	return scratchToolsInfo
}

// checkScratchFS says why the scratch file system of sb cannot be made here, or nil (also
// when sb asks for none).
func (s *sandboxSupport) checkScratchFS(sb *Sandbox) error {
	if sb.ScratchSize == 0 {
		return nil
	}
	switch {
	case sb.Scratch == "":
		return errors.New("sandbox scratch size without a scratch directory")
	case sb.ScratchSize < MinScratchSize:
		return fmt.Errorf("sandbox scratch size %d bytes: at least %d (4 MiB)", sb.ScratchSize, MinScratchSize)
	case !s.root:
		return errors.New("a scratch directory of a limited size needs the arena to run as root " +
			"(it mounts a file system of its own for each bot process); run the arena as root, " +
			"or leave the size out (the bot then writes the host's file system, with no limit)")
	}
	var st unix.Statfs_t
	if err := unix.Statfs(sb.Scratch, &st); err == nil && int64(st.Bavail)*st.Bsize < sb.ScratchSize {
		return fmt.Errorf("sandbox scratch directory %s: %d bytes free on its file system, less than the scratch size of %d bytes "+
			"that each bot process takes there", sb.Scratch, int64(st.Bavail)*st.Bsize, sb.ScratchSize)
	}
	if err := scratchTools().err; err != nil {
		return fmt.Errorf("a scratch directory of a limited size needs %w", err)
	}
	return nil
}

// newScratchFS makes a bot process's own scratch file system: an ext2 image of size bytes in
// the scratch directory scratch, named as newScratchDir names a directory with ".ext2" added,
// private to the arena's user, its blocks all allocated on the host (so that what the bot
// writes changes no free-space count another process can read), and its root directory
// owned by uid and gid. The type is ext2, not ext4, because ext4 zeroes blocks through the
// loop device (its inode tables after the mount, unwritten extents the bot writes into),
// which punches holes in the image: the host's free space would change, and the bot's later
// writes would allocate there again. ext2 has neither, and no fallocate for the bot. It also
// makes the empty directory mountPoint at which the sandbox mounts the image (see
// scratchMountCmd). The scratch ledger gives the zero blocks back later (compactImage).
func newScratchFS(scratch, name string, size int64, uid, gid int) (image, mountPoint string, err error) {
	abs, err := filepath.Abs(scratch)
	if err != nil {
		return "", "", err
	}
	f, err := os.CreateTemp(abs, time.Now().UTC().Format("20060102T150405.000000Z")+"-"+fileName(name)+"-*.ext2")
	if err != nil {
		return "", "", err
	}
	image = f.Name()
	defer func() {
		if err != nil {
			os.Remove(image)
		}
	}()
	// Allocated before mkfs and again after it, since mkfs may free the blocks it zeroes.
	err = unix.Fallocate(int(f.Fd()), 0, 0, size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", "", fmt.Errorf("allocate %d bytes for the scratch file system %s: %w", size, image, err)
	}
	out, err := exec.Command(scratchTools().mkfs, "-q", "-F", "-t", "ext2", "-b", "4096", "-m", "0",
		"-E", fmt.Sprintf("nodiscard,root_owner=%d:%d", uid, gid), "-L", "scratch", image).CombinedOutput()
	if err != nil {
		return "", "", fmt.Errorf("make the scratch file system %s: %v: %s", image, err, strings.TrimSpace(string(out)))
	}
	f, err = os.OpenFile(image, os.O_WRONLY, 0)
	if err != nil {
		return "", "", err
	}
	err = unix.Fallocate(int(f.Fd()), 0, 0, size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", "", fmt.Errorf("allocate the scratch file system %s: %w", image, err)
	}
	if mountPoint, err = os.MkdirTemp("", tempPrefix+owner+"-scratch-*"); err != nil {
		return "", "", err
	}
	return image, mountPoint, nil
}

// scratchMountScript mounts the image $2 at $3 with mount ($1), then runs the rest of its
// arguments (bwrap and its own).
const scratchMountScript = `"$1" -t ext2 -o loop,nosuid,nodev,noatime -- "$2" "$3" || exit 125; shift 3; exec "$@"`

// scratchMountCmd returns the command that runs bwrap (argv) with the image mounted at
// mountPoint in a mount namespace of the sandbox's own, which launch makes (Proc.ownMounts):
// the host never sees that mount, and the kernel unmounts it, and frees its loop device,
// when the bot's last process has ended, even if the arena is killed.
func (p *Proc) scratchMountCmd(image, mountPoint string, argv []string) *exec.Cmd {
	args := append([]string{"-c", scratchMountScript, "sh", scratchTools().mount, image, mountPoint}, argv...)
	p.ownMounts = true
	return exec.CommandContext(p.ctx, "/bin/sh", args...)
}

// scratchLedger keeps, for each bot and scratch group (scratchKey), how many of its
// processes with a scratch file system run, and the images of those that stopped. When the
// last one stops, it gives back the unused space of those images (compactImage). Not
// before: a bot whose process ended could otherwise signal to its partner, or to its
// process in the other room of a duplicate match, through how much the host's free space
// grows.
type scratchLedger struct {
	mu   sync.Mutex
	bots map[scratchKey]*botScratch
}

// botScratch is one bot's entry in the scratch ledger. Its mutex is held while its images
// are compacted, so that no process of the bot starts meanwhile.
type botScratch struct {
	mu      sync.Mutex
	live    int
	stopped []string
}

var scratchImagesLedger = &scratchLedger{bots: map[scratchKey]*botScratch{}}

// entry returns the ledger's entry for key.
func (l *scratchLedger) entry(key scratchKey) *botScratch {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bots[key]
	if b == nil {
		b = &botScratch{}
		l.bots[key] = b
	}
	return b
}

// started counts a process of the bot and group of key with a scratch file system; it
// waits while their images are being compacted.
func (l *scratchLedger) started(key scratchKey) {
	b := l.entry(key)
	b.mu.Lock()
	b.live++
	b.mu.Unlock()
}

// stopped counts the process that started(key) counted as ended, its image (if it made
// one) kept; once no process of key runs, it compacts their kept images and returns how
// many it compacted.
func (l *scratchLedger) stopped(key scratchKey, image string) (compacted int, err error) {
	b := l.entry(key)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.live--
	if image != "" {
		b.stopped = append(b.stopped, image)
	}
	if b.live > 0 {
		return 0, nil
	}
	var errs []error
	for _, im := range b.stopped {
		if err := compactImage(im); err != nil {
			errs = append(errs, fmt.Errorf("give back the unused space of the scratch image %s: %w", im, err))
		} else {
			compacted++
		}
	}
	b.stopped = nil
	return compacted, errors.Join(errs...)
}

// leaveLedger tells the scratch ledger that the process stopped, keeping image ("" for
// none), if Start counted it there; it returns the ledger's error.
func (p *Proc) leaveLedger(image string) error {
	if !p.inLedger {
		return nil
	}
	p.inLedger = false
	n, err := scratchImagesLedger.stopped(p.ledgerKey, image)
	if n > 0 {
		p.log.Debug().Str("scratch_group", p.ledgerKey.group).Int("images", n).Msg("botproc: scratch images compacted")
	}
	return err
}

// imageReleaseWait bounds compactImage's wait for the kernel to let go of an image.
const imageReleaseWait = 10 * time.Second

// compactImage gives back the host blocks of a scratch image that hold only zeros (those
// the bot never wrote, and the zeroes mke2fs wrote), punching holes there: the image reads
// the same, and takes on the host about what the bot left in it. It first waits until no
// loop device holds the image (the kernel unmounts it as the bot's last process ends), and
// leaves the image as it is if one still does.
func compactImage(image string) error {
	deadline := time.Now().Add(imageReleaseWait)
	for loopHeld(image) {
		if time.Now().After(deadline) {
			return fmt.Errorf("a loop device still holds it %v after its process ended", imageReleaseWait)
		}
		time.Sleep(5 * time.Millisecond)
	}
	f, err := os.OpenFile(image, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	fd, size := int(f.Fd()), fi.Size()
	punch := func(off, n int64) error {
		if n <= 0 {
			return nil
		}
		return unix.Fallocate(fd, unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, off, n)
	}
	const block = len(zeroBlock)
	buf := make([]byte, 1<<20)
	for off := int64(0); off < size; {
		data, err := unix.Seek(fd, off, unix.SEEK_DATA)
		if err == unix.ENXIO { // only holes (or unwritten blocks) from off on
			return punch(off, size-off)
		} else if err != nil {
			return err
		}
		if err := punch(off, data-off); err != nil {
			return err
		}
		hole, err := unix.Seek(fd, data, unix.SEEK_HOLE)
		if err != nil {
			return err
		}
		for pos := data; pos < hole; {
			n, err := f.ReadAt(buf[:min(int64(len(buf)), hole-pos)], pos)
			if n == 0 && err != nil {
				return err
			}
			run := int64(-1) // start of the current run of zero blocks
			for b := 0; b < n; b += block {
				blk := buf[b:min(b+block, n)]
				zero := bytes.Equal(blk, zeroBlock[:len(blk)])
				switch {
				case zero && run < 0:
					run = pos + int64(b)
				case !zero && run >= 0:
					if err := punch(run, pos+int64(b)-run); err != nil {
						return err
					}
					run = -1
				}
			}
			if run >= 0 {
				if err := punch(run, pos+int64(n)-run); err != nil {
					return err
				}
			}
			pos += int64(n)
		}
		off = hole
	}
	return nil
}

// zeroBlock is a block of zeros for compactImage to compare with.
var zeroBlock [4096]byte

// loopHeld says whether a loop device is backed by the file image (the kernel names it by
// its path with symbolic links resolved).
func loopHeld(image string) bool {
	image = resolved(image)
	files, _ := filepath.Glob("/sys/block/loop*/loop/backing_file")
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && strings.TrimSuffix(string(b), "\n") == image {
			return true
		}
	}
	return false
}

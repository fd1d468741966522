package botproc

import (
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
// writes would allocate there again. ext2 has neither, and no fallocate for the bot. It also makes the empty directory mountPoint at which the sandbox
// mounts the image (see scratchMountCmd).
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
	out, err := exec.Command(scratchTools().mkfs, "-q", "-F", "-t", "ext2", "-m", "0",
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
	if mountPoint, err = os.MkdirTemp("", fmt.Sprintf("%s%d-scratch-*", tempPrefix, os.Getpid())); err != nil {
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

package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// SchemaVersion is the layout version this arena writes: 2, every value with a checksum
// (checksum.go). It also reads schema 1, the same layout without checksums, and upgrades it
// when it opens it for writing.
const SchemaVersion = 2

// DefaultTimeout is how long Open waits for a database another process holds.
const DefaultTimeout = 300 * time.Millisecond

// Sentinel errors callers branch on.
var (
	// ErrNoDatabase is returned by a read-only Open of a path with no file.
	ErrNoDatabase = errors.New("no database")
	// ErrCorrupt is wrapped by errors about a file that is not a readable arena database.
	ErrCorrupt = errors.New("not a valid arena database")
	// ErrSchema is wrapped when the file's schema version is not SchemaVersion.
	ErrSchema = errors.New("database schema version mismatch")
	// ErrNotFound is returned for a league, match or deal that is not stored.
	ErrNotFound = errors.New("not found")
)

// Holder describes the process that holds the database open for writing.
type Holder struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Started time.Time `json:"started"`
}

// HeldError reports a database locked by another process.
type HeldError struct {
	Path   string
	Holder *Holder // nil if unknown
}

func (e *HeldError) Error() string {
	if e.Holder == nil {
		return fmt.Sprintf("database %s is held by another process", e.Path)
	}
	return fmt.Sprintf("database %s is held by pid %d (%s, started at %s)", e.Path, e.Holder.PID,
		e.Holder.Command, e.Holder.Started.Local().Format("2006-01-02 15:04:05"))
}

// Options configure Open.
type Options struct {
	ReadOnly bool
	Timeout  time.Duration // 0 means DefaultTimeout; never waits forever
	Command  string        // what the holder is doing, recorded for a second arena's message
}

// DB is an open arena database.
type DB struct {
	bolt       *bolt.DB
	path       string
	holderPath string
	readOnly   bool
	unclean    bool
	codec      codec
}

var (
	bucketMeta    = []byte("meta")
	bucketBots    = []byte("bots")
	bucketLeagues = []byte("leagues")
	keySchema     = []byte("schema")
)

// Open opens (creating if needed, unless read-only) the database at path, checks that bbolt
// can read its pages without reading outside the file (checkPages), and checks its schema
// version. For writing it first checks the whole file (Verify) and refuses a
// damaged one. A new file gets mode 0600: it holds the leagues' secret deal keys.
func Open(path string, opt Options) (db *DB, err error) {
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	before, err := os.Stat(path) // the size bbolt will map at least, for checkPages
	if opt.ReadOnly && errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s (a league creates it: arena league FILE)", ErrNoDatabase, path)
	}
	// bbolt writes the first pages of an empty file it opens for writing (as a new
	// database) and fails on one opened read-only: an empty file is a truncated database as
	// far as the arena can tell, refused as any other damage is, unchanged.
	switch {
	case err == nil && before.IsDir():
		return nil, fmt.Errorf("database %s is a directory: give a database file (--db FILE or ARENA_DB)", path)
	case err == nil && before.Size() == 0:
		return nil, fmt.Errorf("%w: %s is empty (0 bytes): a truncated database, or a file made empty; the file was not changed (restore it from a backup, or remove it to start a new database there)", ErrCorrupt, path)
	}
	// A damaged file can make bbolt read past the end of its mapping: turn that fault
	// into a panic, and the panic into an error.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, fmt.Errorf("%w: %s: %v; the file was not changed", ErrCorrupt, path, r)
		}
	}()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opt.Timeout, ReadOnly: opt.ReadOnly})
	if err != nil {
		return nil, openError(path, err)
	}
	// bbolt reads no page past the meta pages and the free list before this.
	problems, err := checkPages(b, path, before)
	if err == nil && problems.n > 0 {
		err = fmt.Errorf("%w; the file was not changed", problems.error(path))
	}
	if err != nil {
		b.Close()
		return nil, err
	}
	db = &DB{bolt: b, path: path, holderPath: path + ".holder", readOnly: opt.ReadOnly, codec: newCodec()}
	version, err := db.checkSchema()
	if err != nil {
		b.Close()
		return nil, err
	}
	if !opt.ReadOnly {
		// Check every page and every checksum before writing on: a damaged page written
		// around would spread. A holder record left behind means the last writer did not
		// close the file (a crash, kill -9, power loss).
		unclean := readHolder(db.holderPath) != nil
		if err := db.Verify(); err != nil {
			b.Close()
			if unclean {
				return nil, fmt.Errorf("after an unclean stop: %w; the file was not changed", err)
			}
			return nil, fmt.Errorf("%w; the file was not changed", err)
		}
		switch version {
		case 0:
			err = db.create()
		case 1:
			err = db.upgrade()
		}
		if err != nil {
			b.Close()
			return nil, err
		}
		db.unclean = unclean
		db.writeHolder(opt.Command)
	}
	return db, nil
}

// Unclean reports whether the previous writer did not close the database (it was then
// checked, and found consistent, by Open).
func (db *DB) Unclean() bool { return db.unclean }

func openError(path string, err error) error {
	const restore = "the file was not changed (restore it from a backup, or use --db for a new database)"
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return &HeldError{Path: path, Holder: readHolder(path + ".holder")}
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum), errors.Is(err, berrors.ErrVersionMismatch),
		strings.Contains(err.Error(), "file size too small"): // cut off
		return fmt.Errorf("%w: %s: %v; %s", ErrCorrupt, path, err, restore)
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EROFS):
		return fmt.Errorf("cannot open database %s for writing: %w (use --db or ARENA_DB for a writable place)", path, err)
	}
	return fmt.Errorf("open database %s: %w", path, err)
}

// checkSchema checks the file is an arena database this arena reads and returns its schema
// version: SchemaVersion, 1 (no checksums: read as it is), or 0 for an empty file.
func (db *DB) checkSchema() (int, error) {
	st, err := os.Stat(db.path)
	if err != nil {
		return 0, err
	}
	version := 0
	err = db.view(func(tx *bolt.Tx) error {
		if tx.Size() > st.Size() {
			return fmt.Errorf("%w: %s is truncated (%d bytes, its pages need %d); the file was not changed", ErrCorrupt, db.path, st.Size(), tx.Size())
		}
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			empty := true
			_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
			if !empty {
				return fmt.Errorf("%w: %s is a bbolt file of some other program", ErrCorrupt, db.path)
			}
			if db.readOnly {
				return fmt.Errorf("%w: %s is empty", ErrNoDatabase, db.path)
			}
			return nil
		}
		v := meta.Get(keySchema)
		if len(v) != 4 {
			return fmt.Errorf("%w: %s has no schema version", ErrCorrupt, db.path)
		}
		if got := binary.BigEndian.Uint32(v); got != SchemaVersion && got != 1 {
			return fmt.Errorf("%w: %s has schema %d, this arena reads %d (and 1)", ErrSchema, db.path, got, SchemaVersion)
		}
		version = int(binary.BigEndian.Uint32(v))
		return nil
	})
	return version, err
}

// create makes the top-level buckets of a new database.
func (db *DB) create() error {
	return db.update(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketMeta, bucketBots, bucketLeagues} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(keySchema, binary.BigEndian.AppendUint32(nil, SchemaVersion))
	})
}

// writeHolder records who holds the database, for the message a second arena prints. It
// is best effort: a read-only directory only loses the name in that message.
func (db *DB) writeHolder(command string) {
	h := Holder{PID: os.Getpid(), Command: command, Started: time.Now()}
	data, _ := json.Marshal(h)
	_ = os.WriteFile(db.holderPath, data, 0o600)
}

func readHolder(path string) *Holder {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var h Holder
	if json.Unmarshal(data, &h) != nil || h.PID == 0 {
		return nil
	}
	return &h
}

// Path returns the database file's path.
func (db *DB) Path() string { return db.path }

// Close closes the database and removes the holder record.
func (db *DB) Close() error {
	if !db.readOnly {
		if h := readHolder(db.holderPath); h != nil && h.PID == os.Getpid() {
			_ = os.Remove(db.holderPath)
		}
	}
	return db.bolt.Close()
}

// view runs fn in a read transaction, turning a panic on a damaged page into an error.
func (db *DB) view(fn func(*bolt.Tx) error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer db.recoverCorrupt(&err)
	return db.bolt.View(fn)
}

// update runs fn in a write transaction, turning a panic on a damaged page into an error.
func (db *DB) update(fn func(*bolt.Tx) error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer db.recoverCorrupt(&err)
	if err := db.bolt.Update(fn); err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			return fmt.Errorf("database %s: disk full (%w); nothing already stored is lost: free some space and run the same command again", db.path, err)
		}
		return err
	}
	return nil
}

func (db *DB) recoverCorrupt(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: %s: %v (check it with: bbolt check %s)", ErrCorrupt, db.path, r, db.path)
	}
}

// u32 encodes a big-endian key.
func u32(n int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(n)) }

package store

import (
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"
)

// CopyPath is where a running league keeps a copy of its database for readers that cannot
// wait for it to stop (arena merge of a running shard).
func CopyPath(db string) string { return db + ".copy" }

// CopyTo writes a consistent copy of the database, as of one read transaction, to path:
// into a temporary file beside it (mode 0600: it holds the deal keys), renamed over path
// once complete, so that a reader sees the old copy or the new one, never half of one.
func (db *DB) CopyTo(path string) error {
	tmp := path + ".tmp"
	err := db.bolt.View(func(tx *bolt.Tx) error { return tx.CopyFile(tmp, 0o600) })
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("copy of database %s: %w", db.path, err)
	}
	return nil
}

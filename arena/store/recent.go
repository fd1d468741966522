package store

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// LastMatches returns up to n of the league's done match records, the last in schedule
// order first, reading only those (a league page shows its latest matches without reading
// every record).
func (db *DB) LastMatches(league string, n int) ([]Match, error) {
	var out []Match
	err := db.view(func(tx *bolt.Tx) error {
		b, err := leagueBucket(tx, league)
		if err != nil {
			return err
		}
		old := legacy(tx)
		c := b.Bucket(bucketMatches).Cursor()
		for k, v := c.Last(); k != nil && len(out) < n; k, v = c.Prev() {
			data, err := unseal(k, v, old)
			if err != nil {
				return fmt.Errorf("league %s: %w", league, err)
			}
			var m Match
			if err := json.Unmarshal(data, &m); err != nil {
				return fmt.Errorf("%w: league %s: %s: %v", ErrCorrupt, league, describeKey(k), err)
			}
			if m.Done {
				out = append(out, m)
			}
		}
		return nil
	})
	return out, err
}

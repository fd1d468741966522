package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// checkLeagueRows is Verify's walk of a league's match records and deal rows: every value's
// checksum, and then the counts that tie them together, which no checksum covers: a page
// that lost elements, its count cut by damage, still passes bbolt's check and holds only
// sealed values. A finished match holds as many rows as its record says (a match's record
// is finished with the rows it then holds, and nothing adds rows to a finished match), no
// rows belong to a match without a record, and the league has its buckets of matches and of
// deals (every league is made with both). (The totals against the records is `standings
// --recompute`'s check.) add receives each problem.
func checkLeagueRows(b *bolt.Bucket, where string, old bool, add func(string)) error {
	damaged := false
	check := func(k, v []byte) ([]byte, bool) {
		data, err := unseal(k, v, old)
		if err != nil {
			add(valueProblem(where, err))
			damaged = true
			return nil, false
		}
		return data, true
	}
	type record struct {
		index       uint32
		done        bool
		deals, rows int
	}
	var records []record
	matches, deals := b.Bucket(bucketMatches), b.Bucket(bucketDeals)
	if matches == nil || deals == nil {
		add(where + ": its matches or deals are missing")
		return nil
	}
	err := matches.ForEach(func(k, v []byte) error {
		data, ok := check(k, v)
		if !ok || len(k) != 4 {
			return nil
		}
		done, deals, err := matchCounts(data)
		if err != nil {
			add(fmt.Sprintf("%s: the record of match %d does not decode: %v", where, binary.BigEndian.Uint32(k), err))
			damaged = true
			return nil
		}
		records = append(records, record{index: binary.BigEndian.Uint32(k), done: done, deals: deals})
		return nil
	})
	if err != nil {
		return err
	}
	next := 0            // records[next] is the first whose index may still come in the deals' keys
	var orphans []record // rows of matches without a record, in key order
	err = deals.ForEach(func(k, v []byte) error {
		if _, ok := check(k, v); !ok {
			return nil
		}
		if len(k) != 10 { // match, game, deal, attempt (dealKey)
			add(fmt.Sprintf("%s: a stored deal under a key of %d bytes", where, len(k)))
			return nil
		}
		index := binary.BigEndian.Uint32(k)
		for next < len(records) && records[next].index < index {
			next++
		}
		switch {
		case next < len(records) && records[next].index == index:
			records[next].rows++
		case len(orphans) > 0 && orphans[len(orphans)-1].index == index:
			orphans[len(orphans)-1].rows++
		default:
			orphans = append(orphans, record{index: index, rows: 1})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if damaged {
		return nil // the counts could only repeat the damage found
	}
	for _, r := range records {
		if r.done && r.rows != r.deals {
			add(fmt.Sprintf("%s: finished match %d holds %d stored deals, its record says %d", where, r.index, r.rows, r.deals))
		}
	}
	for _, o := range orphans {
		add(fmt.Sprintf("%s: %d stored deals of match %d, which has no record", where, o.rows, o.index))
	}
	return nil
}

// checkLeagueName checks that the league stored under name says it is that league: a
// bucket's name, unlike its values, has no checksum of its own.
func checkLeagueName(b *bolt.Bucket, name []byte, old bool, add func(string)) {
	v := b.Get(keyInfo)
	if v == nil {
		add(fmt.Sprintf("league %s has no record", name))
		return
	}
	data, err := unseal(keyInfo, v, old)
	if err != nil {
		return // the league's walk has named it
	}
	var l struct{ Name string }
	if err := json.Unmarshal(data, &l); err != nil || l.Name != string(name) {
		add(fmt.Sprintf("league %s: its record is of league %q", name, l.Name))
	}
}

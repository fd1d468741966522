package store

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"runtime"

	bolt "go.etcd.io/bbolt"
)

// checkLeagueRows is Verify's walk of a league's match records and deal rows: every value's
// checksum, and then the counts that tie them together, which no checksum covers: a page
// that lost elements, its count cut by damage, still passes the page check and holds only
// sealed values. A finished match holds as many rows as its record says (a match's record
// is finished with the rows it then holds, and nothing adds rows to a finished match), no
// rows belong to a match without a record, and the league has its buckets of matches and of
// deals (every league is made with both). (The totals against the records is `standings
// --recompute`'s check.) The second half of a large league's rows is walked beside the rest,
// in the read transaction that inTx runs its function in (given the league's bucket there).
func checkLeagueRows(b *bolt.Bucket, inTx func(func(*bolt.Bucket) error) error, where string, old bool, problems *problemList) error {
	type record struct {
		index       uint32
		done        bool
		deals, rows int
	}
	var records []record
	matches, deals := b.Bucket(bucketMatches), b.Bucket(bucketDeals)
	if matches == nil || deals == nil {
		problems.add(where + ": its matches or deals are missing")
		return nil
	}
	var half rowCount // the rows from the middle match on, if walked beside
	halfDone := make(chan error, 1)
	var middle []byte
	if last, _ := matches.Cursor().Last(); len(last) == 4 && runtime.GOMAXPROCS(0) > 1 {
		if n := binary.BigEndian.Uint32(last); n >= splitMatches {
			middle = binary.BigEndian.AppendUint32(nil, n/2)
		}
	}
	if middle != nil {
		go func() {
			halfDone <- inTx(func(b *bolt.Bucket) error {
				return half.walk(b.Bucket(bucketDeals), middle, nil, where, old)
			})
		}()
	}
	var first rowCount // the rows before the middle match, or all
	damaged := false
	err := matches.ForEach(func(k, v []byte) error {
		data, err := unseal(k, v, old)
		if err != nil {
			problems.add(valueProblem(where, err))
			damaged = true
			return nil
		}
		if len(k) != 4 {
			return nil
		}
		done, deals, err := matchCounts(data)
		if err != nil {
			problems.add(fmt.Sprintf("%s: the record of match %d does not decode: %v", where, binary.BigEndian.Uint32(k), err))
			damaged = true
			return nil
		}
		records = append(records, record{index: binary.BigEndian.Uint32(k), done: done, deals: deals})
		return nil
	})
	if err == nil {
		err = first.walk(deals, nil, middle, where, old)
	}
	if middle != nil {
		err = cmp.Or(err, <-halfDone)
	}
	if err != nil {
		return err
	}
	problems.merge(first.problems)
	problems.merge(half.problems)
	if damaged || first.damaged || half.damaged {
		return nil // the counts could only repeat the damage found
	}
	var orphans []rowRun // rows of matches without a record, in key order
	next := 0            // records[next] is the first whose index may still come in the runs
	for _, run := range append(first.runs, half.runs...) {
		for next < len(records) && records[next].index < run.index {
			next++
		}
		if next < len(records) && records[next].index == run.index {
			records[next].rows += run.rows
		} else {
			orphans = append(orphans, run)
		}
	}
	for _, r := range records {
		if r.done && r.rows != r.deals {
			problems.add(fmt.Sprintf("%s: finished match %d holds %d stored deals, its record says %d", where, r.index, r.rows, r.deals))
		}
	}
	for _, o := range orphans {
		problems.add(fmt.Sprintf("%s: %d stored deals of match %d, which has no record", where, o.rows, o.index))
	}
	return nil
}

// splitMatches is the fewest matches of a league whose rows checkLeagueRows walks in two
// halves at once. (A variable for the tests, which split every league of two or more.)
var splitMatches uint32 = 64

// rowCount is the count of a league's deal rows in a range of their keys, by match.
type rowCount struct {
	runs     []rowRun // in key order
	damaged  bool     // a row failed its check
	problems problemList
}

// rowRun counts the rows of one match that lie together in key order.
type rowRun struct {
	index uint32
	rows  int
}

// walk checks and counts the rows of deals with keys in [from, to) (nil: no bound).
func (c *rowCount) walk(deals *bolt.Bucket, from, to []byte, where string, old bool) error {
	if deals == nil {
		return nil // a league without deals, which checkLeagueRows names
	}
	cur := deals.Cursor()
	k, v := cur.First()
	if from != nil {
		k, v = cur.Seek(from)
	}
	for ; k != nil && (to == nil || bytes.Compare(k, to) < 0); k, v = cur.Next() {
		if _, err := unseal(k, v, old); err != nil {
			c.problems.add(valueProblem(where, err))
			c.damaged = true
			continue
		}
		if len(k) != 10 { // match, game, deal, attempt (dealKey)
			c.problems.add(fmt.Sprintf("%s: a stored deal under a key of %d bytes", where, len(k)))
			continue
		}
		if index := binary.BigEndian.Uint32(k); len(c.runs) > 0 && c.runs[len(c.runs)-1].index == index {
			c.runs[len(c.runs)-1].rows++
		} else {
			c.runs = append(c.runs, rowRun{index: index, rows: 1})
		}
	}
	return nil
}

// checkLeagueRecords checks that the league stored under name says it is that league (a
// bucket's name, unlike its values, has no checksum of its own) and holds the records every
// league is made with: its totals, and its deal key if it says it is keyed. A leaf page whose
// element count was cut by damage loses them with every value left sound.
func checkLeagueRecords(b *bolt.Bucket, name []byte, old bool, add func(string)) {
	if b.Get(keyTotals) == nil {
		add(fmt.Sprintf("league %s has no totals", name))
	}
	v := b.Get(keyInfo)
	if v == nil {
		add(fmt.Sprintf("league %s has no record", name))
		return
	}
	data, err := unseal(keyInfo, v, old)
	if err != nil {
		return // the league's walk has named it
	}
	var l struct {
		Name  string
		Keyed bool
	}
	if err := json.Unmarshal(data, &l); err != nil || l.Name != string(name) {
		add(fmt.Sprintf("league %s: its record is of league %q", name, l.Name))
		return
	}
	if l.Keyed && b.Get(keyDealKey) == nil {
		add(fmt.Sprintf("league %s is keyed but has no deal key", name))
	}
}

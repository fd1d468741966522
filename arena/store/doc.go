// Package store is the arena's database: one bbolt file holding the bots, the leagues,
// their matches, every deal (compactly), the faults, and the sufficient statistics for
// ratings. It is the only package that imports bbolt.
//
// # Layout
//
// Top-level buckets: "meta" (the schema version), "bots" (name → how to run it, as last
// used) and "leagues" (one sub-bucket per league). A league's bucket holds "info" (the
// league as started, with its file's hash), "dealkey" (its secret deal key, 32 bytes;
// absent in leagues started before deal keys), "totals" (per-bot totals and the rating
// sums of every finished match), and the sub-buckets "matches" (match number → match record)
// and "deals" (match, game, deal, attempt → compressed deal). Keys are big-endian, so
// cursors walk them in schedule order. Every value but the schema version carries a
// checksum of its key and bytes, checked on every read (checksum.go; schema 2). Verify
// checks a whole file: Open runs it before a writer writes anything.
//
// # Reading
//
// The readers of a whole league (Scores for its totals, MatchDeals for records) walk the
// match records and their rows in key order on one goroutine and decode them, whole matches
// at a time, on every CPU (pipeline.go); their callers see the matches in order. A binary
// row is re-derived by the rules engine as it is decoded, so a row that reads is a deal the
// rules allow.
//
// # Durability
//
// Every deal is committed in its own transaction as it finishes. A match's totals and
// rating sums are computed, inside one transaction, from the deals stored for it, and
// committed together with the mark that the match is done: the ratings can never hold
// half a duplicate pair, and a match that was not marked done is replayed from its start
// (StartMatch first deletes whatever deals it had), so no deal is counted twice. The file
// is never opened with NoSync.
//
// # Locking
//
// bbolt locks the file: one writer, or any number of readers. Open waits at most
// Options.Timeout and then returns a *HeldError naming the holder, which a writer records
// in a file beside the database (PATH.holder).
package store

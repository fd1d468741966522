package store

import (
	"slices"
	"testing"

	"github.com/klaverjas-arena/arena/referee/rules"
	bolt "go.etcd.io/bbolt"
)

// TestLeagueAuthors: the bots' author lines are stored with the league and read back, also
// after the file is closed and opened again.
func TestLeagueAuthors(t *testing.T) {
	db, path := MustOpen(t)
	authors := []string{"<b>A. Jansen</b> <a@example.org>", "", "team \"x\" & 'y'"}
	l := &League{Name: "x", Rules: rules.Default(), Bots: []string{"a", "b", "c"}, Authors: authors, Matches: 1}
	if err := db.CreateLeague(l, nil); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	got, err := ro.League("x")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Authors, authors) || got.Author(0) != authors[0] || got.Author(1) != "" || got.Author(3) != "" || got.Author(-1) != "" {
		t.Errorf("authors read back: %q", got.Authors)
	}
}

// TestLeagueWithoutAuthors reads a league record as arenas before author lines wrote it (no
// "authors" key): it reads, with no author for any bot, and the rest of it as it was.
func TestLeagueWithoutAuthors(t *testing.T) {
	db, _ := MustOpen(t)
	if err := db.CreateLeague(&League{Name: "x", Rules: rules.Default(), Bots: []string{"a", "b"}, Matches: 1}, nil); err != nil {
		t.Fatal(err)
	}
	// A record with the fields of the League of commit cfda725, the last without authors.
	const old = `{"name":"x","file":"/tmp/demo.toml","hash":"9f2c","config":"name = \"x\"\n","rules":{"preset":"amsterdams"},` +
		`"bots":["a","b"],"matches":1,"keyed":true,"created":"2026-12-01T10:00:00Z"}`
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketLeagues).Bucket([]byte("x")).Put(keyInfo, seal(keyInfo, []byte(old)))
	})
	if err != nil {
		t.Fatal(err)
	}
	l, err := db.League("x")
	if err != nil {
		t.Fatal(err)
	}
	if l.Authors != nil || l.Author(0) != "" || !slices.Equal(l.Bots, []string{"a", "b"}) || l.File != "/tmp/demo.toml" || !l.Keyed {
		t.Errorf("old record read as %+v", l)
	}
	if ls, err := db.Leagues(); err != nil || len(ls) != 1 || ls[0].Authors != nil {
		t.Errorf("Leagues: %+v, %v", ls, err)
	}
}

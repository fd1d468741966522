package league

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/protocol/bot"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/rs/zerolog"
)

// lowest passes when it may, else names the first suit, and plays its lowest legal card.
var lowest = bot.Bot{Name: "lowest", Decide: func(_ *bot.State, d bot.Decision) bot.Answer {
	if d.Kind == bot.BidKind && d.LegalBids.Has(protocol.BidPass) {
		return bot.Answer{Bid: protocol.BidPass}
	} else if d.Kind == bot.BidKind {
		return bot.Answer{Bid: d.LegalBids.All()[0]}
	}
	return bot.Answer{Card: d.LegalCards.Lowest()}
}}

// keyedRunner returns a runner of a small league "name" in db with in-process bots.
func keyedRunner(t *testing.T, db *store.DB, name string, key []byte) *Runner {
	t.Helper()
	f, err := Parse([]byte("name = \""+name+"\"\ngames = 2\nseed = 5\nconcurrency = 1\n"+twoBots), filepath.Join(t.TempDir(), "k.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return &Runner{File: f, DB: db, Key: key, Logger: zerolog.Nop(), Snapshot: filepath.Join(t.TempDir(), "snap.json"),
		Entrants: func(_ int, seats []int) []referee.Entrant {
			es := make([]referee.Entrant, len(seats))
			for i, b := range seats {
				es[i] = referee.Entrant{Name: f.Bots[b].Name, Start: referee.NewInProcess(lowest)}
			}
			return es
		}}
}

func openDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "arena.db"), store.Options{Command: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// runLeague prepares and runs the league and returns every stored deal's hands.
func runLeague(t *testing.T, r *Runner) []string {
	t.Helper()
	_, todo, err := r.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), todo); err != nil {
		t.Fatal(err)
	}
	var hands []string
	err = r.DB.Deals(r.File.Name, -1, func(_ *store.Match, rec *referee.DealRecord) error {
		if !rec.Keyed {
			t.Fatalf("deal %s %d/%d is not keyed", rec.Match, rec.Game, rec.Deal)
		}
		hands = append(hands, strings.Join(rec.Hands[:], "|"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hands
}

// TestLeagueKeys: a league makes its own key, keeps it in the database and never shows it
// (snapshot, league record, errors); a resume with another key is refused; the same key
// given explicitly deals the same cards in another database; a league started before deal
// keys keeps dealing from its seed and takes no key.
func TestLeagueKeys(t *testing.T) {
	db := openDB(t)
	r := keyedRunner(t, db, "k", nil)
	fresh := runLeague(t, r)
	key, err := db.DealKey("k")
	if err != nil || len(key) != referee.KeySize {
		t.Fatalf("stored key: %d bytes, %v", len(key), err)
	}
	snap, err := os.ReadFile(r.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := db.League("k")
	for what, data := range map[string]string{"snapshot": string(snap), "league record": l.Config + l.Hash + l.File} {
		if strings.Contains(data, string(key)) || strings.Contains(data, hex.EncodeToString(key)) {
			t.Errorf("the key is in the %s", what)
		}
	}

	other := bytes.Repeat([]byte{7}, referee.KeySize)
	_, _, err = keyedRunner(t, db, "k", other).Prepare()
	if !errors.Is(err, ErrKeyMismatch) || strings.Contains(err.Error(), hex.EncodeToString(other)) || strings.Contains(err.Error(), hex.EncodeToString(key)) {
		t.Errorf("resume with another key: %v", err)
	}
	if _, _, err := keyedRunner(t, db, "k", key).Prepare(); !errors.Is(err, ErrFinished) {
		t.Errorf("resume with its own key: %v", err)
	}
	if _, _, err := keyedRunner(t, db, "k", []byte("short")).Prepare(); err == nil {
		t.Error("a 5-byte key was taken")
	}

	a := runLeague(t, keyedRunner(t, openDB(t), "k", other))
	b := runLeague(t, keyedRunner(t, openDB(t), "k", other))
	if !slices.Equal(a, b) {
		t.Error("the same key and league file dealt different cards")
	}
	for i := range a {
		if a[i] == fresh[i] {
			t.Errorf("deal %d: the same cards with another key", i+1)
		}
	}

	old := keyedRunner(t, db, "old", nil)
	rec := &store.League{Name: "old", File: old.File.Path, Hash: old.File.Hash, Config: old.File.Text, Rules: old.File.Rules,
		Bots: old.File.BotNames(), Matches: old.File.Pairing.Matches(), Created: time.Now()}
	if err := db.PutLeague(rec); err != nil { // as an arena before deal keys did
		t.Fatal(err)
	}
	if _, _, err := keyedRunner(t, db, "old", other).Prepare(); !errors.Is(err, ErrKeyMismatch) {
		t.Errorf("a key for a league without one: %v", err)
	}
	if _, _, err := old.Prepare(); err != nil || !old.Unkeyed {
		t.Errorf("a league without a key: unkeyed %v, %v", old.Unkeyed, err)
	}
}

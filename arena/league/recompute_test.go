package league

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/klaverjas-arena/arena/arena/store"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/rs/zerolog"
)

// BenchmarkRecompute times Recompute over a league of two in-process bots, 40 games a
// pairing (3,200 deals), stored as a league stores them; it reports deals recomputed a second.
func BenchmarkRecompute(b *testing.B) {
	dir := b.TempDir()
	db, err := store.Open(filepath.Join(dir, "arena.db"), store.Options{Command: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	f, err := Parse([]byte("name = \"r\"\ngames = 100\nseed = 5\nconcurrency = 2\n"+twoBots), filepath.Join(dir, "r.toml"))
	if err != nil {
		b.Fatal(err)
	}
	r := &Runner{File: f, DB: db, Logger: zerolog.Nop(), Snapshot: filepath.Join(dir, "snap.json"),
		Entrants: func(_ int, seats []int) []referee.Entrant {
			es := make([]referee.Entrant, len(seats))
			for i, s := range seats {
				es[i] = referee.Entrant{Name: f.Bots[s].Name, Start: referee.NewInProcess(lowest)}
			}
			return es
		}}
	_, todo, err := r.Prepare()
	if err != nil {
		b.Fatal(err)
	}
	if err := r.Run(context.Background(), todo); err != nil {
		b.Fatal(err)
	}
	stored, err := db.Totals("r")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		fresh, err := Recompute(db, "r")
		if err != nil {
			b.Fatal(err)
		}
		if err := Compare(stored, fresh); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(stored.Deals)*float64(b.N)/b.Elapsed().Seconds(), "deals/s")
}

package web

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/arena/store"
)

// TestLeagueFileNotServed: the league file's text and path (the bots' commands, directories
// and environments, with whatever tokens they hold, and the arena machine's paths) are not
// served to spectators, on no page and in no JSON.
func TestLeagueFileNotServed(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "arena.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const secret = "sk-s3cr3t-token"
	l := &store.League{Name: "l", Bots: []string{"a", "b"}, Matches: 1, Rules: testRecords(t)[0].Rules, File: "/home/operator/private/league.toml",
		Config: "name = \"l\"\n[[bot]]\nname = \"a\"\ncmd = [\"/opt/bots/a\"]\nenv = { API_TOKEN = \"" + secret + "\" }\n"}
	if err := db.CreateLeague(l, nil); err != nil {
		t.Fatal(err)
	}
	srv, err := New(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/", "/api/leagues", "/league/l", "/api/league/l", "/league/l/matches", "/api/league/l/matches?page=1"} {
		body := get(t, srv, p).Body.String()
		for _, leak := range []string{secret, "/home/operator", "/opt/bots"} {
			if strings.Contains(body, leak) {
				t.Errorf("%s serves %q", p, leak)
			}
		}
	}
	var got []leagueLine
	decode(t, get(t, srv, "/api/leagues"), &got)
	if len(got) != 1 || got[0].Name != "l" || len(got[0].Bots) != 2 {
		t.Errorf("/api/leagues: %+v", got)
	}
}

package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/klaverjas-arena/arena/arena/view"
)

// BenchmarkPages times each kind of page a spectator loads, served from the test league
// (three bots, three matches) with warm caches: the server's cost of one answer.
func BenchmarkPages(b *testing.B) {
	db, name := testDB(b)
	srv, err := New(db, nil)
	if err != nil {
		b.Fatal(err)
	}
	base := "/league/" + url.PathEscape(name)
	for _, c := range []struct{ name, path string }{
		{"league", base}, {"bot", base + "/bot/" + url.PathEscape(hostile["r"])}, {"match", base + "/match/1"},
		{"deal", base + "/match/1/deal/5"}, {"api-league", "/api" + base},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, c.path, nil))
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d", c.path, w.Code)
				}
			}
		})
	}
}

// BenchmarkLogSourceAppend times what arena serve --log does when a followed log grows:
// ten deals appended to a log of 100,000 (3,126 matches of the test league's deals), the
// league made anew. Divided by 100,000 it is the cost a deal of the log.
func BenchmarkLogSourceAppend(b *testing.B) {
	base := testRecords(b)
	var recs []view.Located
	for i := 0; len(recs) < 100_000; i++ {
		for _, r := range base {
			r.Match = fmt.Sprintf("%s-%d", r.Match, i)
			recs = append(recs, view.Located{Rec: r})
		}
	}
	ls, _, err := NewLogSource("log", "log.jsonl", recs[10:], true)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		ls.Append(recs[:10], true)
	}
}

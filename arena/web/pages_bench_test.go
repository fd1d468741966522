package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
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

package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// FuzzPaths: whatever the path and query of a request, the viewer answers it (no panic) with
// a page, a redirect, "not found" or "method not allowed", never a server error: every bad
// league name, bot, match or deal number is the spectator's mistake, not the server's. The
// seeds are the test league's pages and their numbers bent.
func FuzzPaths(f *testing.F) {
	db, _ := testDB(f)
	srv, err := New(db, nil)
	if err != nil {
		f.Fatal(err)
	}
	league := "/league/%3Ci%3Ew%3C%2Fi%3E"
	for _, p := range []string{"/", "/api/leagues", league, league + "/matches", league + "/matches?page=2",
		league + "/bot/0", league + "/bot/%3Cscript%3Ealert(1)%3C%2Fscript%3E", league + "/match/0", league + "/match/0/deal/1",
		league + "/match/0/deal/1?at=3", league + "/match/-1", league + "/match/99999999999999999999", league + "/match/0/deal/0",
		league + "/match/0/deal/1-1-1", league + "/match/x/deal/y", "/api" + league + "/match/0/deal/1?at=-5",
		league + "/events", "/static/../../etc/passwd", "/league/%00", league + "/matches?page=-1&page=x"} {
		path, query, _ := strings.Cut(p, "?")
		if path, err = url.PathUnescape(path); err != nil {
			f.Fatal(err)
		}
		f.Add(path, query)
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		if strings.HasSuffix(path, "/events") {
			return // an event stream does not end; TestEvents has it
		}
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.URL.Path, r.URL.RawPath, r.URL.RawQuery = path, "", query
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		switch w.Code {
		case http.StatusOK, http.StatusMovedPermanently, http.StatusTemporaryRedirect, http.StatusPermanentRedirect,
			http.StatusNotFound, http.StatusBadRequest:
		default:
			t.Fatalf("GET %q ? %q: %d %s", path, query, w.Code, w.Body.String())
		}
	})
}

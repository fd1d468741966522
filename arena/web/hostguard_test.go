package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestLocalNamesOnly: names that reach this machine without DNS are answered, any other
// is refused with 421 before the viewer sees the request.
func TestLocalNamesOnly(t *testing.T) {
	reached := 0
	h := LocalNamesOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached++ }))
	for host, ok := range map[string]bool{
		"": true, "127.0.0.1": true, "127.0.0.1:8080": true, "[::1]:8080": true, "::1": true,
		"localhost": true, "LOCALHOST.:8080": true, "viewer.localhost:80": true, "10.1.2.3:8080": true,
		"evil.example": false, "evil.example:8080": false, "localhost.evil.example": false,
		"127.0.0.1.evil.example:8080": false, "xlocalhost": false, "[evil.example]:8080": false,
	} {
		reached = 0
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if got := w.Code == http.StatusOK && reached == 1; got != ok {
			t.Errorf("Host %q: status %d, reached the viewer %d times; want answered %t", host, w.Code, reached, ok)
		}
		if !ok && w.Code != http.StatusMisdirectedRequest {
			t.Errorf("Host %q: status %d, want 421", host, w.Code)
		}
	}
}

package web

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// LocalNamesOnly guards a viewer that listens on a loopback address against DNS
// rebinding: a web page from anywhere whose name the attacker points at 127.0.0.1 would
// otherwise be served this viewer's pages as its own, and could read them from the browser
// of the organiser who visits it. It answers only requests whose Host is an IP address or
// localhost (or a name under .localhost); any other is refused with 421 Misdirected
// Request and what to do instead. A viewer on a public address is for anyone's names, and
// needs no guard.
func LocalNamesOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !localName(r.Host) {
			msg := fmt.Sprintf("this viewer listens on a loopback address and answers only for localhost or an IP address, not for %q (a guard against DNS rebinding): browse http://localhost:PORT/, have a proxy send Host: localhost, or serve on a public address (--addr 0.0.0.0:PORT)", r.Host)
			http.Error(w, msg, http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// localName reports whether host (a Host header: a name or an address, with or without a
// port) names this machine without DNS: an IP address, localhost or a name under
// .localhost (RFC 6761), or nothing at all (HTTP/1.0).
func localName(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	return host == "" || net.ParseIP(host) != nil || host == "localhost" || strings.HasSuffix(host, ".localhost")
}

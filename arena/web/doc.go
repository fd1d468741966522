// Package web serves a read-only web viewer of stored leagues and logged matches: the
// leagues, a league's standings, crosstable, rating chart and live progress, a bot's
// results and decision times, a match with its duplicate boards side by side, and a deal
// viewer that steps through the tricks. Pages are rendered on the server with html/template
// from the values of package view; the same values are served as JSON under /api/ (see
// API.md beside this file). Every bot-controlled text is escaped, and the pages run under a
// Content-Security-Policy that allows only this server's own script and style.
package web

// Package textview renders the values of package view as terminal text: the standings
// table, a deal trick by trick as arena replay and arena demo print it, a deal at one
// decision as arena ask shows it, and a running league's status line.
package textview

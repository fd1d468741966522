// Package view turns stored or logged results into the values people look at: a league's
// standings with intervals and likelihood of superiority, its crosstable, a deal step by
// step (hands, bidding, tricks, roem, scores) or as it stood at one decision, a match summary, and a running league's
// progress. It computes; it does not print. The terminal commands render these values with
// package term, and the web viewer renders the same values as HTML and JSON.
package view

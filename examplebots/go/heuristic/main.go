// Command heuristic is the example bot that plays like a sensible club player: it bids on
// hand strength and plays by rules of thumb with a little card counting. Its decisions are
// in package strategy, so tests and the arena can also run it in-process.
//
//	go build -o bin/heuristic ./examplebots/go/heuristic
package main

import (
	"fmt"
	"os"

	"github.com/klaverjas-arena/arena/examplebots/go/heuristic/strategy"
	"github.com/klaverjas-arena/arena/protocol/bot"
)

func main() {
	if err := bot.Run(strategy.Bot()); err != nil {
		fmt.Fprintln(os.Stderr, "heuristic:", err)
		os.Exit(1)
	}
}

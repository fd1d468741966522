// Command pimc is the strongest example bot: perfect-information Monte Carlo over the
// project's rules engine and open-card solver (package search has the method). It plays
// every preset and the three-player game, and answers within the time the arena gives less
// a margin, or within -budget if that is less.
//
//	go build -o bin/pimc ./examplebots/go/pimc
//	bin/pimc -budget 100ms
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/klaverjas-arena/arena/examplebots/go/pimc/search"
	"github.com/klaverjas-arena/arena/protocol/bot"
)

func main() {
	cfg := search.DefaultConfig()
	flag.DurationVar(&cfg.Budget, "budget", cfg.Budget, "the most time one decision may take (0: all the arena gives, less the margin)")
	flag.DurationVar(&cfg.Margin, "margin", cfg.Margin, "time kept back from the arena's time for each answer (at least a third of the time given, and this or 20ms unless more than half of it)")
	flag.IntVar(&cfg.ExactTricks, "exact", cfg.ExactTricks, "tricks left from which the solver searches to the end of the deal")
	flag.IntVar(&cfg.Horizon, "horizon", cfg.Horizon, "tricks the solver looks ahead before that")
	flag.DurationVar(&cfg.DeepFrom, "deep-from", cfg.DeepFrom, "the least search time for -exact and -horizon; a shorter decision searches one trick less of each")
	flag.IntVar(&cfg.BidHorizon, "bid-horizon", cfg.BidHorizon, "tricks the solver looks ahead to value a trump suit")
	flag.IntVar(&cfg.PassBelow, "pass-below", cfg.PassBelow, "pass (when allowed) if the best suit is worth less than this on average (more than passing, with -pass-value)")
	flag.BoolVar(&cfg.HeuristicPass, "heuristic-pass", cfg.HeuristicPass, "pass where the heuristic bot would, and search only for the suit (where -pass-value does not apply)")
	flag.BoolVar(&cfg.PassValue, "pass-value", cfg.PassValue, "value passing by playing out the bidding after it (direct_kiezen at four)")
	flag.Float64Var(&cfg.InferEps, "infer-eps", cfg.InferEps, "weigh each world by the opponents' cards so far: a factor of this for each card the heuristic would not have played there (0: no inference)")
	flag.Float64Var(&cfg.InferPartnerEps, "infer-partner-eps", cfg.InferPartnerEps, "the same for the partner's cards (0: not weighed)")
	flag.IntVar(&cfg.InferDraws, "infer-draws", cfg.InferDraws, "worlds drawn for each one valued, keeping one by likelihood (1: weigh the values instead)")
	flag.BoolVar(&cfg.ModelOpponents, "model-opponents", cfg.ModelOpponents, "play the other side's cards in the look-ahead as the heuristic bot would, searching only the own side's")
	flag.IntVar(&cfg.Worlds, "worlds", cfg.Worlds, "the most worlds valued for one decision (0: as many as the time allows)")
	flag.Uint64Var(&cfg.Seed, "seed", 0, "seed of the sampler (0: from the clock)")
	flag.Parse()
	if err := bot.Run(search.NewPlayer(cfg).Bot()); err != nil {
		fmt.Fprintln(os.Stderr, "pimc:", err)
		os.Exit(1)
	}
}

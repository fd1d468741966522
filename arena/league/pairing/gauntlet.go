package pairing

import (
	"fmt"
	"slices"
)

// gauntlet is a round robin of only the pairings that include one bot: that bot against
// each of the others (in the three-player game, against every two of them).
type gauntlet struct {
	roundRobin
}

func newGauntlet(c Config) (*gauntlet, error) {
	bot := slices.Index(c.Names, c.Gauntlet)
	if bot < 0 {
		return nil, fmt.Errorf("gauntlet = %q: want the name of one of the bots", c.Gauntlet)
	}
	g := &gauntlet{roundRobin{sets: c.Sets}}
	for _, p := range combinations(len(c.Names), c.Size) {
		if slices.Contains(p, bot) {
			g.pairings = append(g.pairings, p)
		}
	}
	return g, nil
}

package referee

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// MatchProblem is an inconsistency between the deals of a match, found by VerifyMatch: a
// deal or game missing, repeated or out of order, a wrong dealer, a game that ends too soon
// or goes on after its end, a duplicate game not dealt its twin's cards.
type MatchProblem struct {
	Index int    // the record (an index into VerifyMatch's records) where it shows
	Text  string // what is wrong, naming the game and deal
}

// GameSum is one game as its deal records add up.
type GameSum struct {
	Number int   // the game number in the match, from 1
	Deals  int   // deals scored, redeals not counted
	Totals []int // per side, as in DealRecord.Result.Score
	Last   int   // the index of the game's last record
}

// VerifyMatch checks that the deal records of one match, in the order they were written,
// make whole games and duplicate sets the way Run plays them:
//
//   - every record has the match's ruleset, seed, table and keying;
//   - games are numbered from 1 without a gap, each with the deal set (pair) and rotation
//     its number gives;
//   - in each game the deals are numbered from 1 without a gap or a repeat, a redeal
//     (everybody passed, draaikaart_opnieuw_schudden) being followed by the same deal
//     again (attempt + 1), and only the first deal (with its redeals) is marked first;
//   - the dealer is the deal set's first dealer, one seat further on for each later game of
//     the set, and then one seat on for every deal; after a redeal the same dealer deals
//     again at four, and the next one in the three-player game. Without a key the first
//     dealer is computed from the seed (FirstDealer); a keyed record's (Keyed) depends on
//     the secret key too, which VerifyMatch does not need: it is then taken from the set's
//     first deal, and every other dealer of the set is checked relative to it;
//   - each game ends exactly where the ruleset's game_end says: after N deals scored, or
//     after the first deal that brings a side to the target;
//   - every duplicate set has all its games, and every deal a later game of the set shares
//     with the set's first game (same deal and attempt) was dealt the same cards, the same
//     way round from the dealer.
//
// open says the records may stop short of the match's end (a match being played or cut
// off): its last game and set may then be unfinished. The problems are in record order per
// game; the games are returned as the records add up, for comparison with stored sums.
func VerifyMatch(recs []DealRecord, open bool) ([]GameSum, []MatchProblem) {
	if len(recs) == 0 {
		return nil, nil
	}
	v := &matchVerifier{recs: recs, open: open, rs: &recs[0].Rules, table: recs[0].Rules.Players}
	if recs[0].Table != 0 {
		v.table = recs[0].Table
	}
	if v.table < 3 || v.table > protocol.MaxSeats || v.rs.Players < 3 || v.rs.Players > v.table {
		v.report(0, "a table of %d for a game of %d players: the games cannot be checked", v.table, v.rs.Players)
		return nil, v.problems
	}
	v.sides = Sides(v.rs, v.table)
	v.plays = 1
	for i := range recs {
		if r := &recs[i]; recordRotation(r) > 0 || r.Pair != r.Game-1 {
			v.plays = DuplicateGames(v.rs, v.table)
			break
		}
	}
	v.run()
	return v.games, v.problems
}

// matchVerifier is VerifyMatch's state.
type matchVerifier struct {
	recs        []DealRecord
	open        bool
	rs          *rules.Ruleset
	table       int
	sides       int
	plays       int // games per deal set: 1 without duplicate
	games       []GameSum
	problems    []MatchProblem
	firstOfGame map[int]int                 // game number → index of its first record
	setDealer   map[int]protocol.Seat       // keyed records: deal set → its first dealer, as its first deal says
	seedDealer  map[[2]uint64]protocol.Seat // unkeyed records: seed and deal set → the first dealer they give
}

func (v *matchVerifier) report(i int, format string, args ...any) {
	r := &v.recs[i]
	v.problems = append(v.problems, MatchProblem{Index: i, Text: fmt.Sprintf("game %d deal %d: ", r.Game, r.Deal) + fmt.Sprintf(format, args...)})
}

func (v *matchVerifier) run() {
	v.firstOfGame = map[int]int{}
	v.setDealer = map[int]protocol.Seat{}
	v.seedDealer = map[[2]uint64]protocol.Seat{}
	want := 1 // the next game number
	for start := 0; start < len(v.recs); {
		end := start + 1
		for end < len(v.recs) && v.recs[end].Game == v.recs[start].Game {
			end++
		}
		n := v.recs[start].Game
		switch _, seen := v.firstOfGame[n]; {
		case seen:
			v.report(start, "the game appears again after game %d: games repeated or out of order", want-1)
		case n != want && want == 1:
			v.report(start, "the match starts with this game, not with game 1")
		case n != want:
			v.report(start, "this game follows game %d: games missing or out of order", want-1)
		}
		if _, seen := v.firstOfGame[n]; !seen {
			v.firstOfGame[n] = start
		}
		if n < 1 {
			v.report(start, "game number %d: games are numbered from 1", n)
		} else {
			v.game(start, end, end == len(v.recs))
		}
		want = n + 1
		start = end
	}
	last := &v.recs[len(v.recs)-1]
	if have := (last.Game-1)%v.plays + 1; last.Game > 0 && have < v.plays && !v.open {
		v.report(len(v.recs)-1, "the match ends with deal set %d unfinished: %d of its %d duplicate games played", (last.Game-1)/v.plays, have, v.plays)
	}
}

// game checks one game's records, recs[start:end].
func (v *matchVerifier) game(start, end int, last bool) {
	first := &v.recs[start]
	n := first.Game
	pair, rotation := (n-1)/v.plays, (n-1)%v.plays
	dealer, dealerKnown := v.firstDealer(start, pair)
	dealer = dealer.Plus(rotation, v.table)
	sum := GameSum{Number: n, Totals: make([]int, v.sides), Last: end - 1}
	wantDeal, wantAttempt := 1, 0
	broken, setReported, overReported := false, false, false
	for i := start; i < end; i++ {
		r := &v.recs[i]
		if i > 0 {
			f := &v.recs[0]
			if r.Rules != f.Rules {
				v.report(i, "a ruleset other than the match's first deal's")
			}
			if r.Seed != f.Seed || r.Table != f.Table {
				v.report(i, "seed %d and table %d, but the match's first deal has seed %d and table %d", r.Seed, r.Table, f.Seed, f.Table)
			}
			if r.Keyed != f.Keyed {
				v.report(i, "keyed %t, but the match's first deal has keyed %t", r.Keyed, f.Keyed)
			}
		}
		if !setReported && (r.Pair != pair || recordRotation(r) != rotation || r.Mirror != (rotation > 0)) {
			v.report(i, "deal set %d rotation %d (mirror %t), but game %d is deal set %d rotation %d", r.Pair, recordRotation(r), r.Mirror, n, pair, rotation)
			setReported = true
		}
		if r.Deal != wantDeal || r.Attempt != wantAttempt {
			prev := &v.recs[max(i-1, start)]
			switch {
			case i > start && r.Deal == prev.Deal && r.Attempt == prev.Attempt:
				v.report(i, "attempt %d again: the deal is repeated", r.Attempt)
			default:
				v.report(i, "attempt %d where deal %d attempt %d comes next: deals missing, repeated or out of order", r.Attempt, wantDeal, wantAttempt)
			}
			broken = true // the dealer and first-deal checks would only repeat it
		}
		if !broken {
			if dealerKnown && r.Dealer != dealer.String() {
				from := "from the seed"
				if r.Keyed {
					from = "as the set's first deal says"
				}
				v.report(i, "dealt by %s, but %s deals here (the deal set's first dealer %s, one seat on per game and per deal)", r.Dealer, dealer, from)
				if d, err := protocol.ParseSeat(r.Dealer); err == nil && int(d) < v.table {
					dealer = d
				}
			}
			if r.First != (sum.Deals == 0) {
				v.report(i, "marked first %t, but it is the game's deal %d", r.First, sum.Deals+1)
			}
		}
		if !overReported && v.over(&sum) {
			v.report(i, "the game was over (game_end %s) after %d deals with totals %v, but goes on", v.rs.GameEnd, sum.Deals, sum.Totals)
			overReported = true
		}
		redeal := r.Result.Outcome == rules.Redeal.String()
		switch {
		case redeal:
		case len(r.Result.Score) != v.sides:
			v.report(i, "a score for %d sides, not %d: not counted", len(r.Result.Score), v.sides)
			sum.Deals++
		default:
			sum.Deals++
			for s, p := range r.Result.Score {
				sum.Totals[s] += p
			}
		}
		wantDeal, wantAttempt = r.Deal+1, 0
		if redeal {
			wantDeal, wantAttempt = r.Deal, r.Attempt+1
		}
		if !redeal || v.rs.Players == 3 {
			dealer = dealer.Next(v.table)
		}
	}
	if !v.over(&sum) && !(last && v.open) {
		v.report(end-1, "the game ends here unfinished, after %d deals (game_end %s, totals %v)", sum.Deals, v.rs.GameEnd, sum.Totals)
	}
	if rotation > 0 {
		if base, ok := v.firstOfGame[pair*v.plays+1]; ok && v.recs[base].Game != n {
			v.twins(base, start, end)
		}
	}
	v.games = append(v.games, sum)
}

// firstDealer returns the first dealer of deal set pair, whose game starts at recs[start],
// and whether it is known. Unkeyed, it is computed from the seed. Keyed, it is the dealer of
// the set's first deal (deal 1, attempt 0) as recorded, less the rotation of its game: the
// first one VerifyMatch meets, so normally that of the set's first game; the dealers of the
// set's deals are then checked relative to it. A game that does not start with deal 1 is
// reported as such, and its dealers go unchecked until the set's first deal is known.
func (v *matchVerifier) firstDealer(start, pair int) (protocol.Seat, bool) {
	r := &v.recs[start]
	if !r.Keyed { // the same for each game of the set: computed once (an HMAC)
		k := [2]uint64{r.Seed, uint64(pair)}
		d, ok := v.seedDealer[k]
		if !ok {
			d = FirstDealer(nil, r.Seed, pair, v.table)
			v.seedDealer[k] = d
		}
		return d, true
	}
	if d, ok := v.setDealer[pair]; ok {
		return d, true
	}
	if r.Deal != 1 || r.Attempt != 0 {
		return 0, false
	}
	d, err := protocol.ParseSeat(r.Dealer)
	if err != nil || int(d) >= v.table {
		v.report(start, "dealt by %q: not a seat at a table of %d", r.Dealer, v.table)
		return 0, false
	}
	rotation := (r.Game - 1) % v.plays
	d = d.Plus(v.table-rotation%v.table, v.table)
	v.setDealer[pair] = d
	return d, true
}

// over reports whether a game with these sums has ended, as rules.Game.Over decides.
func (v *matchVerifier) over(sum *GameSum) bool {
	if v.rs.GameEnd.Kind == rules.EndAfterDeals {
		return sum.Deals >= v.rs.GameEnd.N
	}
	for _, t := range sum.Totals {
		if t >= v.rs.GameEnd.N {
			return true
		}
	}
	return false
}

// twins checks the deals of a duplicate game, recs[start:end], against those of its set's
// first game starting at base: a deal both played was dealt the same cards.
func (v *matchVerifier) twins(base, start, end int) {
	baseEnd := base
	for baseEnd < len(v.recs) && v.recs[baseEnd].Game == v.recs[base].Game {
		baseEnd++
	}
	check := func(j, i int) {
		if r, t := &v.recs[i], &v.recs[j]; !sameCards(t, r, v.table) {
			v.report(i, "attempt %d was not dealt the cards of its duplicate twin, game %d deal %d attempt %d, moved on with the dealer", r.Attempt, t.Game, t.Deal, t.Attempt)
		}
	}
	if increasing(v.recs[base:baseEnd]) && increasing(v.recs[start:end]) {
		// Both games in deal order, as a match plays them: the twins meet in one walk.
		for i, j := start, base; i < end; i++ {
			for j < baseEnd && dealOrder(&v.recs[j], &v.recs[i]) < 0 {
				j++
			}
			if j < baseEnd && dealOrder(&v.recs[j], &v.recs[i]) == 0 {
				check(j, i)
			}
		}
		return
	}
	type key struct{ deal, attempt int }
	firstGame := map[key]int{}
	for i := base; i < baseEnd; i++ {
		firstGame[key{v.recs[i].Deal, v.recs[i].Attempt}] = i
	}
	for i := start; i < end; i++ {
		if j, ok := firstGame[key{v.recs[i].Deal, v.recs[i].Attempt}]; ok {
			check(j, i) // else a redeal or a deal only one of the games played
		}
	}
}

// dealOrder compares two records of a game by deal, then attempt.
func dealOrder(a, b *DealRecord) int {
	if c := cmp.Compare(a.Deal, b.Deal); c != 0 {
		return c
	}
	return cmp.Compare(a.Attempt, b.Attempt)
}

// increasing reports whether recs are in strictly increasing deal order.
func increasing(recs []DealRecord) bool {
	for i := 1; i < len(recs); i++ {
		if dealOrder(&recs[i-1], &recs[i]) >= 0 {
			return false
		}
	}
	return true
}

// sameCards reports whether two deals were dealt the same cards the same way round from
// their dealers, with the same skart and pile.
func sameCards(a, b *DealRecord, table int) bool {
	da, erra := protocol.ParseSeat(a.Dealer)
	db, errb := protocol.ParseSeat(b.Dealer)
	if erra != nil || errb != nil || a.Skart != b.Skart || !slices.Equal(a.Pile, b.Pile) {
		return false
	}
	for k := range table {
		if a.Hands[da.Plus(k, table)] != b.Hands[db.Plus(k, table)] {
			return false
		}
	}
	return true
}

// recordRotation returns the seats a record's hands moved on in its duplicate set (logs of
// the four-player game written before Rotation existed say only Mirror).
func recordRotation(r *DealRecord) int {
	if r.Mirror && r.Rotation == 0 {
		return 1
	}
	return r.Rotation
}

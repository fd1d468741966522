package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/klaverjas-arena/arena/arena/dealjson"
	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/rulesfile"
	bolt "go.etcd.io/bbolt"
)

// MatchLines reads the league (match < 0) or one match of it as MatchDeals does, and hands
// fn, on the caller's goroutine in index order, each match with its deals as the lines of a
// deal log (spec.md §12: byte for byte what json.Marshal writes for each deal's record, each
// line ending in a newline) and their number. The lines are made on the decoding goroutines,
// a binary row's straight from the values the rules engine derived, without a record; other
// rows through their record. fn must not keep lines.
func MatchLines(db *DB, league string, match int, fn func(m *Match, lines []byte, deals int) error) error {
	return db.view(func(tx *bolt.Tx) error {
		do := func(w *worker, m *Match, rows [][2][]byte, out *matchLines) error {
			if w.lines == nil {
				lw, err := newLineWriter(w.l)
				if err != nil {
					return err
				}
				w.lines = lw
			}
			out.text, out.deals = out.text[:0], len(rows)
			w.lines.startMatch(m)
			for _, row := range rows {
				data, err := unseal(row[0], row[1], w.old)
				if err == nil {
					out.text, err = w.lines.appendRow(out.text, row[0], data, &w.bin)
				}
				if err != nil {
					return fmt.Errorf("league %s match %s: %w", w.l.Name, m.ID, err)
				}
			}
			return nil
		}
		return readMatches(tx, league, match, do, func(m *Match, out *matchLines) error { return fn(m, out.text, out.deals) })
	})
}

// matchLines is one match as MatchLines hands it over.
type matchLines struct {
	text  []byte
	deals int
}

// lineWriter writes the deal-log lines of one league's rows: the text every line of the
// league or of a match shares is made once. One per decoding goroutine.
type lineWriter struct {
	l         *League
	bots      [][]byte // each bot's name as a JSON string
	rulesJSON []byte   // ,"rules":RULES}\n
	head      []byte   // {"v":1,"match":ID,"pair":
	seedSeats []byte   // ,"seed":SEED[,"keyed":true],"seats":[
	m         *Match
	rec       referee.DealRecord // a JSON row's record
	enc       dealjson.Encoder   // a JSON row's line
}

func newLineWriter(l *League) (*lineWriter, error) {
	w := &lineWriter{l: l}
	for _, name := range l.Bots {
		text, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		w.bots = append(w.bots, text)
	}
	rs, err := json.Marshal(rulesfile.Value(l.Rules)) // as DealRecord.MarshalJSON writes it
	if err != nil {
		return nil, err
	}
	w.rulesJSON = append(append(append([]byte(`,"rules":`), rs...), '}'), '\n')
	return w, nil
}

// startMatch makes the text that the lines of match m share.
func (w *lineWriter) startMatch(m *Match) {
	id, _ := json.Marshal(m.ID) // a string always marshals
	w.m = m
	w.head = append(append(strconv.AppendInt(append(w.head[:0], `{"v":`...), referee.LogVersion, 10), `,"match":`...), id...)
	w.head = append(w.head, `,"pair":`...)
	w.seedSeats = strconv.AppendUint(append(w.seedSeats[:0], `,"seed":`...), m.Seed, 10)
	if w.l.Keyed {
		w.seedSeats = append(w.seedSeats, `,"keyed":true`...)
	}
	w.seedSeats = append(w.seedSeats, `,"seats":[`...)
}

// appendRow appends the line of the stored row data under key, of the match startMatch was
// given; b is the binary rows' decoder.
func (w *lineWriter) appendRow(dst, key, data []byte, b *binDeal) ([]byte, error) {
	if !isBinRow(data) {
		actions := w.rec.Actions[:0]
		w.rec = referee.DealRecord{V: referee.LogVersion, Match: w.m.ID, Rules: w.l.Rules, Seed: w.m.Seed, Keyed: w.l.Keyed, Actions: actions}
		if err := decodeStoredRow(key, data, &w.rec, w.l.Bots, b, true); err != nil {
			return dst, err
		}
		line, err := w.enc.Append(dst, &w.rec)
		if err != nil {
			return dst, err
		}
		return append(line, '\n'), nil
	}
	game, deal, attempt, err := keyNumbers(key)
	if err != nil {
		return dst, err
	}
	if err := b.decode(data, &w.l.Rules, len(w.bots)); err != nil {
		return dst, err
	}
	out := append(dst, w.head...)
	out = appendInt(out, b.pair)
	if b.mirror {
		out = append(out, `,"mirror":true`...)
	} else {
		out = append(out, `,"mirror":false`...)
	}
	if b.rotation != 0 {
		out = appendInt(append(out, `,"rotation":`...), b.rotation)
	}
	out = appendInt(append(out, `,"game":`...), game)
	out = appendInt(append(out, `,"deal":`...), deal)
	out = appendInt(append(out, `,"attempt":`...), attempt)
	out = append(out, w.seedSeats...)
	for i, s := range b.seats {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, w.bots[s]...)
	}
	out = append(out, dealerFirst[b.dealer][boolIndex(b.first)]...)
	for i, h := range b.hands {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendHand(out, h)
	}
	out = append(out, `],"actions":`...)
	open := len(out) // the first action's comma, which becomes the list's '['
	out = appendActions(out, b)
	if b.n == 0 {
		out = append(out, '[')
	} else {
		out[open] = '['
	}
	out = appendResult(append(out, `],"result":`...), &b.deal)
	return append(out, w.rulesJSON...), nil
}

// actionRoom is the most bytes appendActions writes for one action: its start and its
// times, each copied whole (see shortText).
const actionRoom = 3*len(shortText{}.text) + len(`,"cpu":`)

// appendActions appends the actions of b, each from the comma before it, by copies into
// room reserved for all of them.
func appendActions(out []byte, b *binDeal) []byte {
	out = slices.Grow(out, actionRoom*b.n)
	n, all := len(out), out[:cap(out)]
	put := func(t *shortText) {
		*(*[len(t.text)]byte)(all[n : n+len(t.text)]) = t.text
		n += int(t.n)
	}
	for i := range b.n {
		seat, choice := b.seatsOf[i]&3, b.choices[i]
		switch b.phases[i] {
		case rules.PhaseBidding:
			put(&bidActions[seat][choice])
		case rules.PhaseClaim: // any number: its text may outgrow the room, which is made again
			o := append(appendInt(append(all[:n], claimActions[seat]...), b.claims[choice]), `,"ms":`...)
			o = slices.Grow(o, actionRoom*(b.n-i))
			n, all = len(o), o[:cap(o)]
		default:
			put(&cardActions[seat][choice&31])
		}
		if b.cpu && wallTime(b.cpuMS[i]) != 0 {
			put(&timeTexts[b.wall[i]])
			n += copy(all[n:], `,"cpu":`)
			put(&closedTimeTexts[b.cpuMS[i]])
		} else {
			put(&closedTimeTexts[b.wall[i]])
		}
	}
	return all[:n]
}

// appendResult appends the result of d, a deal at a table of four, as dealjson.AppendResult
// writes referee.ResultRecord's.
func appendResult(out []byte, d *rules.Deal) []byte {
	res := d.Result()
	out = append(append(append(out, `{"outcome":"`...), res.Outcome.String()...), '"')
	if res.Maker != protocol.NoSeat {
		out = append(append(append(out, `,"trump":"`...), res.Trump.String()...), `","maker":"`...)
		out = append(append(out, seatNames[res.Maker]...), '"')
	}
	for i, side := range [4]*[protocol.MaxSeats]int{&res.Score, &res.CardPoints, &res.Roem, &res.TricksWon} {
		out = append(out, resultKeys[i]...)
		out = appendInt(out, side[0])
		out = appendInt(append(out, ','), side[1])
		out = append(out, ']')
	}
	if tricks := d.Tricks(); len(tricks) > 0 {
		out = append(out, `,"winners":"`...)
		for i := range tricks {
			out = append(out, "NESW"[tricks[i].Winner&3])
		}
		out = append(out, '"')
	}
	if res.PitSide >= 0 {
		out = append(append(append(out, `,"pit":"`...), protocol.Team(res.PitSide).String()...), '"')
	}
	if res.Offender != protocol.NoSeat {
		out = append(append(append(out, `,"offender":"`...), seatNames[res.Offender]...), '"')
	}
	return append(out, '}')
}

// resultKeys open the result's per-side lists, in the order of RecordResult.
var resultKeys = [4]string{`,"score":[`, `,"cards":[`, `,"roem":[`, `,"tricks":[`}

// appendHand appends hand h as a JSON string in its notation.
func appendHand(out []byte, h protocol.CardSet) []byte {
	return append(appendHandText(append(out, '"'), h), '"')
}

func boolIndex(v bool) int {
	if v {
		return 1
	}
	return 0
}

// The text of the lines that comes from tables: what follows the seats for each dealer and
// first, each action's start up to its time for each seat and bid, card or claim (after the
// comma that ends the action before it), and the JSON of every time code's time
// (encoding/json's own, made once), alone and closing its action.
var (
	dealerFirst = func() (t [4][2]string) {
		for s := range t {
			t[s][0] = `],"dealer":"` + seatNames[s] + `","first":false,"hands":[`
			t[s][1] = `],"dealer":"` + seatNames[s] + `","first":true,"hands":[`
		}
		return t
	}()
	cardActions = func() (t [4][32]shortText) {
		for s := range t {
			for c := range t[s] {
				t[s][c] = makeShortText(`,{"seat":"` + seatNames[s] + `","card":"` + cardNames[c] + `","ms":`)
			}
		}
		return t
	}()
	bidActions = func() (t [4][5]shortText) {
		for s := range t {
			for b := range t[s] {
				t[s][b] = makeShortText(`,{"seat":"` + seatNames[s] + `","bid":"` + bidNames[b] + `","ms":`)
			}
		}
		return t
	}()
	claimActions = func() (t [4]string) {
		for s := range t {
			t[s] = `,{"seat":"` + seatNames[s] + `","claim":`
		}
		return t
	}()
	timeTexts, closedTimeTexts = func() (t, closed [256]shortText) {
		for q := range t {
			text, err := json.Marshal(wallTime(byte(q)))
			if err != nil {
				panic(err) // every time code is a finite number
			}
			t[q], closed[q] = makeShortText(string(text)), makeShortText(string(text)+"}")
		}
		return t, closed
	}()
)

// appendInt appends the decimal text of v, from smallInts below 1000.
func appendInt(out []byte, v int) []byte {
	if uint(v) >= uint(len(smallInts)) {
		return strconv.AppendInt(out, int64(v), 10)
	}
	n := len(out)
	if cap(out)-n < 4 {
		out = slices.Grow(out, 4)
	}
	t := &smallInts[v]
	*(*[4]byte)(out[n : n+4]) = *t
	return out[:n+int(t[3])]
}

// smallInts[v] is the decimal text of v, its length in the last byte.
var smallInts = func() (t [1000][4]byte) {
	for v := range t {
		copy(t[v][:3], strconv.Itoa(v))
		t[v][3] = byte(len(strconv.Itoa(v)))
	}
	return t
}()

// shortText is a text of at most 31 bytes, written by one copy of a fixed size (see
// appendActions): the pieces of an action are many and short, and a copy of a known size
// takes no call.
type shortText struct {
	text [31]byte
	n    uint8
}

func makeShortText(s string) shortText {
	if len(s) > 31 {
		panic("store: a short text of " + strconv.Itoa(len(s)) + " bytes")
	}
	t := shortText{n: uint8(len(s))}
	copy(t.text[:], s)
	return t
}

package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
	"github.com/klaverjas-arena/arena/referee/rules/bitstream"
)

// Binary rows. A league's ordinary deal (the four-player game, no fault, no rejected answer,
// no pile, its bots among the league's) is stored in about 50 bytes instead of the 450 of a
// compressed JSON row: the match-wide fields live in the league and match records, and what
// the rules engine can derive is derived again when the row is read:
//
//	binRowTag2, uvarint pair, flags (rotation 2 bits, dealer 2, first, mirror, cpu),
//	4 uvarint seat bots (indices into League.Bots), the hands (2 bits per card: its holder,
//	8 bytes), uvarint actions, uvarint claims and each claim (uvarint), then a bit stream:
//	each other action's choice as its index among the legal choices of that moment (as many
//	bits as the legal choices need), then each action's wall time and, with cpu, each
//	action's CPU time, as time codes (see appendTimes).
//
// A time is quantised to a byte, a log scale of 7% steps from 1 µs to 29 s; in the row it is
// the difference from the previous time of the same seat (the first: of any seat), zigzag
// and Elias gamma coded: a bot that answers about as fast each time costs 1-5 bits a time.
// Rows of the first binary layout (binRowTag, written until the time codes came) end with one
// byte per time instead, and are read as before. A row has one form, the one the writer
// makes: the reader refuses a uvarint longer than it needs, the flag bit 7, claims that the
// deal did not make and bits set after the last time code.
//
// The seats of the actions, the bids' and cards' names and the whole result come from
// replaying the actions with the engine. Times come back quantised, within 3.5% (below 1 µs:
// 0). Any other deal is a JSON row (see codec). The first byte tells them apart: both tags
// have bits 1-2 set, a reserved block type that no deflate stream begins with.
const (
	binRowTag  = 0x06
	binRowTag2 = 0x0E
)

// timeStep is the ratio between two wall times a byte tells apart.
const timeStep = 1.07

var logTimeStep = math.Log(timeStep)

// Flag bits of a binary row.
const (
	flagFirst  = 1 << 4
	flagMirror = 1 << 5
	flagCPU    = 1 << 6
	flagUnused = 1 << 7 // always 0
)

// errNotBinary says a deal needs a JSON row.
var errNotBinary = errors.New("deal needs a JSON row")

// encodeBinRow returns the binary row of rec, whose bots are among bots, or errNotBinary.
func encodeBinRow(rec *referee.DealRecord, bots []string) ([]byte, error) {
	rs := &rec.Rules
	if rs.Players != 4 || rec.Table != 0 || len(rec.Faults) > 0 || len(rec.Rejected) > 0 || len(rec.Pile) > 0 || rec.Skart != "" ||
		rec.Rotation > 3 || rec.V != referee.LogVersion {
		return nil, errNotBinary
	}
	seating, err := rec.Seating()
	if err != nil {
		return nil, errNotBinary
	}
	setup, err := rec.Setup()
	if err != nil {
		return nil, errNotBinary
	}
	out := append(make([]byte, 0, 64), binRowTag2)
	out = binary.AppendUvarint(out, uint64(rec.Pair))
	flags := byte(rec.Rotation) | byte(seating.Dealer)<<2
	if rec.First {
		flags |= flagFirst
	}
	if rec.Mirror {
		flags |= flagMirror
	}
	cpu := false
	for _, a := range rec.Actions {
		if a.CPUMS != 0 {
			cpu = true
		}
	}
	if cpu {
		flags |= flagCPU
	}
	out = append(out, flags)
	for _, name := range rec.Seats {
		i := slices.Index(bots, name)
		if i < 0 {
			return nil, errNotBinary
		}
		out = binary.AppendUvarint(out, uint64(i))
	}
	var holders uint64
	for seat, h := range setup.Hands {
		if h.Len() != 8 {
			return nil, errNotBinary
		}
		for c := range h.All() {
			holders |= uint64(seat) << (2 * uint(c))
		}
	}
	out = binary.LittleEndian.AppendUint64(out, holders)
	out = binary.AppendUvarint(out, uint64(len(rec.Actions)))

	d, err := rules.NewDeal(rs, setup)
	if err != nil {
		return nil, errNotBinary
	}
	var w bitstream.Writer
	var claims []int
	for _, a := range rec.Actions {
		if a.Seat != seating.TableSeat(d.ToMove()).String() {
			return nil, errNotBinary
		}
		var err error
		switch d.Phase() {
		case rules.PhaseBidding:
			legal := d.LegalBids()
			b, perr := protocol.ParseBid(a.Bid)
			if perr != nil || !legal.Has(b) || a.Card != "" || a.Claim != nil || a.Discard != "" {
				return nil, errNotBinary
			}
			w.Write(uint64(bits.OnesCount64(uint64(legal&(1<<b-1)))), bitstream.IndexBits(bits.OnesCount64(uint64(legal))))
			err = d.Bid(b)
		case rules.PhaseClaim:
			if a.Claim == nil || a.Bid != "" || a.Card != "" || a.Discard != "" || *a.Claim < 0 {
				return nil, errNotBinary
			}
			claims = append(claims, *a.Claim)
			err = d.Claim(*a.Claim)
		case rules.PhasePlay:
			legal := d.Legal()
			c, perr := protocol.ParseCard(a.Card)
			if perr != nil || !legal.Has(c) || a.Bid != "" || a.Claim != nil || a.Discard != "" {
				return nil, errNotBinary
			}
			w.Write(uint64((legal & (1<<c - 1)).Len()), bitstream.IndexBits(legal.Len()))
			err = d.Play(c)
		default:
			return nil, errNotBinary
		}
		if err != nil {
			return nil, errNotBinary
		}
	}
	if result := referee.ResultRecord(d, seating); d.Phase() != rules.PhaseDone || !result.Equal(&rec.Result) {
		return nil, errNotBinary
	}
	out = binary.AppendUvarint(out, uint64(len(claims)))
	for _, c := range claims {
		out = binary.AppendUvarint(out, uint64(c))
	}
	var wall, cpuTimes [64]byte
	if len(rec.Actions) > len(wall) {
		return nil, errNotBinary
	}
	for i, a := range rec.Actions {
		var ok1, ok2 bool
		wall[i], ok1 = quantiseWall(a.MS)
		cpuTimes[i], ok2 = quantiseWall(a.CPUMS)
		if !ok1 || !ok2 && cpu {
			return nil, errNotBinary
		}
	}
	seatsOf := actionSeats(rec.Actions)
	appendTimes(&w, wall[:len(rec.Actions)], seatsOf)
	if cpu {
		appendTimes(&w, cpuTimes[:len(rec.Actions)], seatsOf)
	}
	return append(out, w.Bytes()...), nil
}

// actionSeats returns the seat index (0-3, from the notation N E S W) of each action.
func actionSeats(actions []referee.Action) []byte {
	out := make([]byte, len(actions))
	for i, a := range actions {
		if s, err := protocol.ParseSeat(a.Seat); err == nil {
			out[i] = byte(s)
		}
	}
	return out
}

// appendTimes writes the time codes of a stream of time bytes, one per action: each the
// zigzag difference from the seat's previous time (the first of a seat: from the previous
// time of any seat, the first of all from 0), plus one, in Elias gamma code.
func appendTimes(w *bitstream.Writer, times, seats []byte) {
	var last [4]int
	var seen [4]bool
	prev := 0
	for i, q := range times {
		s := seats[i]
		pred := prev
		if seen[s] {
			pred = last[s]
		}
		d := int(q) - pred
		z := uint64(d) << 1 // zigzag: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
		if d < 0 {
			z = uint64(-d)<<1 - 1
		}
		w.WriteGamma(z + 1)
		last[s], seen[s], prev = int(q), true, int(q)
	}
}

// readTimes reads what appendTimes wrote for seats into times; false on a code no time has
// (more than timeZeros 0 bits) or data that ends first. Each code is decoded from the
// accumulator in registers, without a table: a table of the short codes missed the
// processor's first cache on one code in seven beside the text tables of a row's line.
func readTimes(r *bitstream.Reader, times, seats []byte) bool {
	last := [4]int{-1, -1, -1, -1} // each seat's previous time, -1 before its first
	prev := 0
	acc, nacc := r.Acc, r.N // in registers: r is loaded and stored only to fill it
	seats = seats[:len(times)]
	for i, s := range seats {
		if nacc < 2*timeZeros+1 {
			r.Acc, r.N = acc, nacc
			r.Fill()
			acc, nacc = r.Acc, r.N
		}
		v, rest, length, ok := bitstream.DecodeGamma(acc, nacc, timeZeros)
		if !ok {
			return false
		}
		acc, nacc = rest, nacc-length
		pred := last[s&3]
		if pred < 0 {
			pred = prev
		}
		q := pred + unzigzag(v-1)
		if q < 0 || q > 255 {
			return false
		}
		times[i] = byte(q)
		last[s&3], prev = q, q
	}
	r.Acc, r.N = acc, nacc
	return true
}

// timeZeros is the most 0 bits a time code begins with: those of ±255, the largest difference.
const timeZeros = 8

// unzigzag is the difference that appendTimes coded as z.
func unzigzag(z uint64) int { return int(z>>1) ^ -int(z&1) }

// playPhases are the phases of a trick's four actions, and trickSeats for each leader the
// seats that play its four cards: at a binary row's table of four players, each seat is its
// table seat.
var (
	playPhases = [4]rules.Phase{rules.PhasePlay, rules.PhasePlay, rules.PhasePlay, rules.PhasePlay}
	trickSeats = [4][4]byte{{0, 1, 2, 3}, {1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, 2}}
)

// binDeal is a binary row decoded with the rules engine: the row's fields as the engine's
// values, each decision as it was taken, and the finished deal. A reader that needs no
// strings (the league totals) stops here; decodeBinRow builds the record from it. One
// binDeal is reused from row to row.
type binDeal struct {
	pair, rotation       int
	first, mirror, cpu   bool
	dealer               protocol.Seat
	seats                [4]uint64 // indices into the league's bots
	hands                [4]protocol.CardSet
	n                    int             // actions
	phases               [64]rules.Phase // the phase each action was taken in
	choices              [64]byte        // each action's bid, card, or claim's index in claims
	claims               [64]int         // the row's claims, in the order made
	seatsOf, wall, cpuMS [64]byte        // each action's table seat, wall and CPU time bytes
	deal                 rules.Deal
	names                [256]handName        // hands named lately, by nameSlot (see handNames)
	results              referee.ResultMemory // the memory of the results decodeBinRow makes
}

// seating is the table of a binary row's deal: four players.
func (b *binDeal) seating() rules.Seating {
	return rules.Seating{Table: 4, Players: 4, Dealer: b.dealer}
}

// decode reads a binary row of a league with bots bots under ruleset rs, re-deriving the
// deal with the engine: every decision must be an index among the legal ones of its moment,
// the deal must end with the last one, and the time codes must fill the row exactly.
func (b *binDeal) decode(data []byte, rs *rules.Ruleset, bots int) error {
	fail := func(what string) error { return fmt.Errorf("%w: stored deal: binary row: %s", ErrCorrupt, what) }
	r := byteReader{data: data[1:]}
	pair, flags := r.uvarint(), r.byte()
	if flags&flagUnused != 0 {
		return fail("a flag no writer sets")
	}
	b.pair, b.rotation = int(pair), int(flags&3)
	b.first, b.mirror, b.cpu = flags&flagFirst != 0, flags&flagMirror != 0, flags&flagCPU != 0
	b.dealer = protocol.Seat(flags >> 2 & 3)
	for i := range b.seats {
		if b.seats[i] = r.uvarint(); b.seats[i] >= uint64(bots) {
			return fail("seat of no bot")
		}
	}
	holders := r.uint64()
	n, nClaims := r.uvarint(), r.uvarint()
	if r.err || n > 64 || nClaims > n {
		return fail("truncated")
	}
	claims := &b.claims
	for i := range nClaims {
		claims[i] = int(r.uvarint())
	}
	b.n = int(n)
	timeBytes := 0 // the trailing time bytes of a first-layout row
	if data[0] == binRowTag {
		timeBytes = b.n
		if b.cpu {
			timeBytes += b.n
		}
	}
	if r.err || len(r.data)-r.pos < timeBytes {
		return fail("truncated")
	}
	var setup rules.Setup
	const low = 0x5555555555555555 // the low bit of each card's holder
	lo, hi := holders&low, holders>>1&low
	setup.Hands = [protocol.MaxSeats]protocol.CardSet{evenBits(low &^ lo &^ hi), evenBits(lo &^ hi), evenBits(hi &^ lo), evenBits(lo & hi)}
	b.hands = setup.Hands
	seating := b.seating()
	setup.Dealer, setup.FirstOfMatch = seating.DealDealer(), b.first
	d := &b.deal
	if err := d.Start(rs, setup); err != nil {
		return fail(err.Error())
	}
	br := bitstream.NewReader(r.data[r.pos : len(r.data)-timeBytes])
	i := 0 // the next action
	usedClaims := uint64(0)
	for i < b.n {
		phase := d.Phase()
		b.phases[i], b.seatsOf[i] = phase, byte(seating.TableSeat(d.ToMove()))
		var err error
		switch phase {
		case rules.PhaseBidding:
			legal := d.LegalBids()
			k := br.Read(bitstream.IndexBits(bits.OnesCount64(uint64(legal))))
			bid, ok := nthBid(legal, int(k))
			if !ok {
				return fail("bid out of range")
			}
			b.choices[i], err = byte(bid), d.Bid(bid)
			i++
		case rules.PhaseClaim:
			if usedClaims == nClaims {
				return fail("more claims than stored")
			}
			b.choices[i] = byte(usedClaims)
			err = d.Claim(claims[usedClaims])
			usedClaims++
			i++
		case rules.PhasePlay:
			from := len(d.Tricks())
			if !d.PlayIndexed(&br) {
				return fail("a card out of range, or cut off")
			}
			tricks := d.Tricks()
			if i+4*(len(tricks)-from) > len(b.phases) {
				return fail("more actions than a deal has")
			}
			for ti := from; ti < len(tricks); ti++ { // the cards just played, as actions, four at once
				t := &tricks[ti]
				*(*[4]rules.Phase)(b.phases[i : i+4]) = playPhases
				*(*[4]byte)(b.seatsOf[i : i+4]) = trickSeats[t.Leader&3]
				c := &t.Cards
				*(*[4]byte)(b.choices[i : i+4]) = [4]byte{byte(c[0]), byte(c[1]), byte(c[2]), byte(c[3])}
				i += 4
			}
		default:
			return fail("an action after the deal ended")
		}
		if err != nil || br.Err() {
			return fail("an action the rules refuse")
		}
	}
	if d.Phase() != rules.PhaseDone || i != b.n {
		return fail("the deal does not end with its last action")
	}
	if usedClaims != nClaims {
		return fail("more claims stored than the deal made")
	}
	if timeBytes > 0 {
		copy(b.wall[:n], r.data[len(r.data)-timeBytes:])
		if b.cpu {
			copy(b.cpuMS[:n], r.data[len(r.data)-timeBytes+b.n:])
		}
		return nil
	}
	if !readTimes(&br, b.wall[:n], b.seatsOf[:n]) || b.cpu && !readTimes(&br, b.cpuMS[:n], b.seatsOf[:n]) {
		return fail("a time code no time has")
	}
	if (br.Consumed()+7)/8 != uint(br.Size()) {
		return fail("bytes after the deal")
	}
	if br.Acc != 0 { // the last byte's unused bits, which the writer leaves 0
		return fail("bits set after the deal")
	}
	return nil
}

// evenBits returns the bits 0, 2, 4, … 62 of x as bits 0-31 (the others must be 0).
func evenBits(x uint64) protocol.CardSet {
	x = (x | x>>1) & 0x3333333333333333
	x = (x | x>>2) & 0x0F0F0F0F0F0F0F0F
	x = (x | x>>4) & 0x00FF00FF00FF00FF
	x = (x | x>>8) & 0x0000FFFF0000FFFF
	x = (x | x>>16) & 0x00000000FFFFFFFF
	return protocol.CardSet(x)
}

// decodeBinRow fills the deal part of rec (whose match-wide fields, the ruleset first, are
// set) from a binary row, the bots of its seats from bots, its actions only if actions is
// set (else none); b is the decoder's scratch.
func decodeBinRow(data []byte, rec *referee.DealRecord, bots []string, b *binDeal, actions bool) error {
	if err := b.decode(data, &rec.Rules, len(bots)); err != nil {
		return err
	}
	rec.Pair, rec.Rotation, rec.First, rec.Mirror = b.pair, b.rotation, b.first, b.mirror
	rec.Dealer = seatNames[b.dealer]
	for i, s := range b.seats {
		rec.Seats[i] = bots[s]
	}
	rec.Hands = b.handNames()
	rec.Skart, rec.Pile, rec.Table, rec.Faults, rec.Rejected = "", nil, 0, nil, nil
	b.results.Fill(&rec.Result, &b.deal, b.seating())
	if !actions {
		rec.Actions = nil
		return nil
	}
	b.setActions(rec)
	return nil
}

// setActions sets the actions of rec to the decoded row's, in the memory rec came with if
// it has enough.
func (b *binDeal) setActions(rec *referee.DealRecord) {
	rec.Actions = slices.Grow(rec.Actions[:0], b.n)[:b.n]
	var claims []int // the claims' own memory: a record keeps pointers into it
	for i := range rec.Actions {
		a := &rec.Actions[i]
		*a = referee.Action{Seat: seatNames[b.seatsOf[i]], MS: wallTime(b.wall[i])}
		if b.cpu {
			a.CPUMS = wallTime(b.cpuMS[i])
		}
		switch b.phases[i] {
		case rules.PhaseBidding:
			a.Bid = bidNames[b.choices[i]]
		case rules.PhaseClaim:
			if claims == nil {
				claims = make([]int, 0, b.n-i)
			}
			claims = append(claims, b.claims[b.choices[i]])
			a.Claim = &claims[len(claims)-1]
		default:
			a.Card = cardNames[b.choices[i]]
		}
	}
}

// handNames returns the notation of each of the deal's hands (CardSet.String). A duplicate
// match deals every hand again in its other games: the names are kept (names), and a deal
// whose four hands were all seen lately takes them from there, without text or allocation.
func (b *binDeal) handNames() [4]string {
	var names [4]string
	for i, h := range b.hands {
		if e := &b.names[nameSlot(h)]; e.hand == h && e.name != "" {
			names[i] = e.name
			continue
		}
		names = handNames(b.hands) // one not seen lately: all four made, in one allocation
		for j, hand := range b.hands {
			b.names[nameSlot(hand)] = handName{hand, names[j]}
		}
		break
	}
	return names
}

// handName is a hand and its notation.
type handName struct {
	hand protocol.CardSet
	name string
}

// nameSlot is the place of hand h in binDeal.names: a multiplicative hash of its bits.
func nameSlot(h protocol.CardSet) uint8 { return uint8(uint32(h) * 0x9E3779B1 >> 24) }

// handNames returns the notation of each hand (CardSet.String), the four in one allocation.
func handNames(hands [4]protocol.CardSet) (names [4]string) {
	var buf [4*protocol.NumCards*3 + handRoom]byte // room for the last fixed-size copies
	text, ends := buf[:0], [4]int{}
	for i, h := range hands {
		text = appendHandText(text, h)
		ends[i] = len(text)
	}
	all, start := string(text), 0
	for i, end := range ends {
		names[i], start = all[start:end], end
	}
	return names
}

// handRoom is the bytes appendHandText needs beyond the end of its text: a whole suit's.
const handRoom = len(rankTexts[0])

// appendHandText appends the notation of hand h (CardSet.String): its cards in ascending
// order separated by spaces, or "-" for none. Each suit's cards, each followed by a space,
// take one fixed-size copy of their ranks' text (rankTexts) with the suit's letters laid
// over it; the last space is dropped. The tables are small, so that they stay in the
// processor's first cache beside the others of a row's line.
func appendHandText(out []byte, h protocol.CardSet) []byte {
	if h == 0 {
		return append(out, '-')
	}
	n := len(out)
	all := slices.Grow(out, protocol.NumCards*3+handRoom)[:n+protocol.NumCards*3+handRoom]
	for suit := range 4 {
		ranks := uint8(h >> (8 * suit))
		text, letters := &rankTexts[ranks], &suitLetters[suit]
		dst := (*[handRoom]byte)(all[n : n+handRoom])
		for i := 0; i < handRoom; i += 8 {
			le.PutUint64(dst[i:], le.Uint64(text[i:])|le.Uint64(letters[i:]))
		}
		n += 3 * bits.OnesCount8(ranks)
	}
	return all[:n-1]
}

// rankTexts[r] is the ranks of the rank set r (bit i for rank i, 7 to A), each as the card
// notation's rank letter, a zero where the suit's letter goes and a space; zeros after them.
// suitLetters[s] has the letter of suit s at every place a suit letter goes.
var rankTexts, suitLetters = func() (t [256][24]byte, letters [4][24]byte) {
	for r := range t {
		k := 0
		for rank := range 8 {
			if r>>rank&1 != 0 {
				t[r][3*k], t[r][3*k+2] = cardNames[rank][0], ' '
				k++
			}
		}
	}
	for s := range letters {
		for i := 1; i < len(letters[s]); i += 3 {
			letters[s][i] = cardNames[8*s][1]
		}
	}
	return t, letters
}()

// seatNames, cardNames and bidNames are the notation of every seat and card, made once.
var (
	seatNames = [4]string{"N", "E", "S", "W"}
	cardNames = func() (names [32]string) {
		for c := range protocol.Card(32) {
			names[c] = c.String()
		}
		return names
	}()
	bidNames = func() (names [5]string) {
		for b := range protocol.Bid(5) {
			names[b] = b.String()
		}
		return names
	}()
)

// nthBid returns the k-th bid of legal in the order of Bids.All.
func nthBid(legal protocol.Bids, k int) (protocol.Bid, bool) {
	for b := range protocol.Bid(5) {
		if legal.Has(b) {
			if k == 0 {
				return b, true
			}
			k--
		}
	}
	return 0, false
}

// quantiseWall returns the byte of a time in milliseconds (wall or CPU), or false beyond the
// scale.
func quantiseWall(ms float64) (byte, bool) {
	us := ms * 1000
	if us < 1 {
		return 0, us >= 0
	}
	q := 1 + math.Round(math.Log(us)/logTimeStep)
	return byte(q), q <= 255
}

// wallTime returns the milliseconds of a time byte.
func wallTime(q byte) float64 { return wallTimes[q] }

// wallTimes are the milliseconds of every time byte, computed once.
var wallTimes = func() (ms [256]float64) {
	for q := 1; q < len(ms); q++ {
		ms[q] = math.Pow(timeStep, float64(q-1)) / 1000
	}
	return ms
}()

// byteReader reads the fixed and varint fields of a row.
type byteReader struct {
	data []byte
	pos  int
	err  bool
}

func (r *byteReader) byte() byte {
	if r.pos >= len(r.data) {
		r.err = true
		return 0
	}
	r.pos++
	return r.data[r.pos-1]
}

// uvarint reads a uvarint as binary.AppendUvarint writes it: a longer encoding of the same
// value (a last byte of 0) is refused, so that a row has one form.
func (r *byteReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.data[min(r.pos, len(r.data)):])
	if n <= 0 || n > 1 && r.data[r.pos+n-1] == 0 {
		r.err = true
		return 0
	}
	r.pos += n
	return v
}

func (r *byteReader) uint64() uint64 {
	if r.pos+8 > len(r.data) {
		r.err = true
		return 0
	}
	r.pos += 8
	return binary.LittleEndian.Uint64(r.data[r.pos-8:])
}

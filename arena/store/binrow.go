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
	var w bitWriter
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
			w.write(uint64(bits.OnesCount64(uint64(legal&(1<<b-1)))), choiceBits(bits.OnesCount64(uint64(legal))))
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
			w.write(uint64((legal & (1<<c - 1)).Len()), choiceBits(legal.Len()))
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
	return append(out, w.bytes()...), nil
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
func appendTimes(w *bitWriter, times, seats []byte) {
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
		v := z + 1
		n := uint(bits.Len64(v)) - 1
		w.write(0, n)
		w.write(1, 1)
		w.write(v&(1<<n-1), n)
		last[s], seen[s], prev = int(q), true, int(q)
	}
}

// readTimes reads what appendTimes wrote for seats into times; false on a code no time has.
// The short codes, nearly all, are looked up in gammaCodes.
func readTimes(r *bitReader, times, seats []byte) bool {
	last := [4]int{-1, -1, -1, -1} // each seat's previous time, -1 before its first
	prev := 0
	acc, nacc := r.acc, r.nacc // in registers: r is loaded and stored only to fill it
	for i := range times {
		if nacc < gammaPeek {
			r.acc, r.nacc = acc, nacc
			r.fill()
			acc, nacc = r.acc, r.nacc
		}
		var d int
		if e := gammaCodes[acc&(1<<gammaPeek-1)]; e.bits != 0 && uint(e.bits) <= nacc {
			d = int(e.diff)
			acc >>= e.bits
			nacc -= uint(e.bits)
		} else {
			r.acc, r.nacc = acc, nacc
			v, ok := r.gamma(9)
			if !ok {
				return false
			}
			acc, nacc = r.acc, r.nacc
			d = unzigzag(v - 1)
		}
		s := seats[i] & 3
		pred := last[s]
		if pred < 0 {
			pred = prev
		}
		q := pred + d
		if q < 0 || q > 255 {
			return false
		}
		times[i] = byte(q)
		last[s], prev = q, q
	}
	r.acc, r.nacc = acc, nacc
	return true
}

// unzigzag is the difference that appendTimes coded as z.
func unzigzag(z uint64) int {
	if z&1 != 0 {
		return -int(z>>1) - 1
	}
	return int(z >> 1)
}

// gammaPeek is the bits that gammaCodes looks up.
const gammaPeek = 12

// gammaCodes[w] is the time code (see appendTimes) in the lowest bits of the gammaPeek bits
// w: its length in bits and the difference it codes; a length of 0 when it does not fit in
// them.
var gammaCodes = func() (codes [1 << gammaPeek]struct {
	bits uint8
	diff int8
}) {
	for w := range codes {
		n := bits.TrailingZeros(uint(w) | 1<<gammaPeek)
		if 2*n+1 > gammaPeek {
			continue
		}
		v := uint64(1<<n | w>>(n+1)&(1<<n-1))
		codes[w].bits, codes[w].diff = uint8(2*n+1), int8(unzigzag(v-1))
	}
	return codes
}()

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
	choices              [64]int         // each action's bid, card or claim
	claims               [64]int         // the row's claims, in the order made
	seatsOf, wall, cpuMS [64]byte        // each action's table seat, wall and CPU time bytes
	deal                 rules.Deal
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
	br := bitReader{data: r.data[r.pos : len(r.data)-timeBytes]}
	i := 0 // the next action
	usedClaims := uint64(0)
	outOfRange := false
	chooseCard := func(legal rules.CardSet) (protocol.Card, bool) { // the next card of the row
		n := legal.Len()
		if k := br.read(choiceBits(n)); k < uint64(n) {
			return legal.Nth(int(k)), true
		}
		outOfRange = true
		return 0, false
	}
	for i < b.n {
		phase := d.Phase()
		b.phases[i], b.seatsOf[i] = phase, byte(seating.TableSeat(d.ToMove()))
		var err error
		switch phase {
		case rules.PhaseBidding:
			legal := d.LegalBids()
			k := br.read(choiceBits(bits.OnesCount64(uint64(legal))))
			bid, ok := nthBid(legal, int(k))
			if !ok {
				return fail("bid out of range")
			}
			b.choices[i], err = int(bid), d.Bid(bid)
			i++
		case rules.PhaseClaim:
			if usedClaims == nClaims {
				return fail("more claims than stored")
			}
			b.choices[i] = claims[usedClaims]
			err = d.Claim(claims[usedClaims])
			usedClaims++
			i++
		case rules.PhasePlay:
			from := len(d.Tricks())
			if !d.PlayChosen(chooseCard) || outOfRange {
				return fail("card out of range")
			}
			tricks := d.Tricks()
			for ti := from; ti < len(tricks); ti++ { // the cards just played, as actions
				t := &tricks[ti]
				for j, c := range t.Cards[:4] {
					if i == len(b.phases) {
						return fail("more actions than a deal has")
					}
					b.phases[i], b.seatsOf[i], b.choices[i] = rules.PhasePlay, byte(seating.TableSeat(t.Seat(j, 4))), int(c)
					i++
				}
			}
		default:
			return fail("an action after the deal ended")
		}
		if err != nil || br.err {
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
	if (br.consumed()+7)/8 != uint(len(br.data)) {
		return fail("bytes after the deal")
	}
	if br.acc != 0 { // the last byte's unused bits, which the writer leaves 0
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
	rec.Hands = handNames(b.hands)
	rec.Skart, rec.Pile, rec.Table, rec.Faults, rec.Rejected = "", nil, 0, nil, nil
	rec.Result = referee.ResultRecord(&b.deal, b.seating())
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
			claims = append(claims, b.choices[i])
			a.Claim = &claims[len(claims)-1]
		default:
			a.Card = cardNames[b.choices[i]]
		}
	}
}

// handNames returns the notation of each hand (CardSet.String), the four in one allocation.
func handNames(hands [4]protocol.CardSet) (names [4]string) {
	var buf [4*32*3 + len(shortText{}.text)]byte // room for the last fixed-size copy
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

// appendHandText appends the notation of hand h (CardSet.String): its cards in ascending
// order separated by spaces, or "-" for none; each suit's cards by one copy of a fixed size
// (suitTexts).
func appendHandText(out []byte, h protocol.CardSet) []byte {
	if h == 0 {
		return append(out, '-')
	}
	texts := &suitTexts
	for suit := range uint(4) {
		if cards := uint8(h >> (8 * suit)); cards != 0 {
			out = texts[suit][cards].append(out)
			texts = &spacedSuitTexts
		}
	}
	return out
}

// suitTexts is suitCards as short texts, and spacedSuitTexts the same after the space that
// separates a suit's cards from the suit's before.
var suitTexts, spacedSuitTexts = func() (t, spaced [4][256]shortText) {
	for suit := range t {
		for cards := range t[suit] {
			t[suit][cards], spaced[suit][cards] = makeShortText(suitCards[suit][cards]), makeShortText(" "+suitCards[suit][cards])
		}
	}
	return t, spaced
}()

// suitCards is the notation of every set of cards of one suit, by suit and the set's bits.
var suitCards = func() (t [4][256]string) {
	for suit := range t {
		for cards := range t[suit] {
			var text []byte
			for s := cards; s != 0; s &= s - 1 {
				if s != cards {
					text = append(text, ' ')
				}
				text = append(text, cardNames[8*suit+bits.TrailingZeros(uint(s))]...)
			}
			t[suit][cards] = string(text)
		}
	}
	return t
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

// choiceBits is the bits an index among n choices takes.
func choiceBits(n int) uint { return uint(bits.Len(uint(max(n, 1) - 1))) }

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

// bitWriter appends bit fields, least significant bit first.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) write(v uint64, n uint) {
	w.acc |= v << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

func (w *bitWriter) bytes() []byte {
	if w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc, w.nacc = 0, 0
	}
	return w.out
}

// bitReader reads what bitWriter wrote.
type bitReader struct {
	data []byte
	err  bool
	acc  uint64 // bits loaded and not yet read, the next one lowest
	nacc uint
	next int // the next byte to load
}

// read returns the next n bits (n ≤ 56); past the end it sets err and returns 0.
func (r *bitReader) read(n uint) uint64 {
	if r.nacc < n {
		return r.readFilled(n)
	}
	v := r.acc & (1<<n - 1)
	r.acc >>= n
	r.nacc -= n
	return v
}

// readFilled is read when the accumulator holds too few bits: it fills it first. Not
// inlined, so that read is.
//
//go:noinline
func (r *bitReader) readFilled(n uint) uint64 {
	if r.fill(); r.nacc < n {
		r.err = true
		return 0
	}
	return r.read(n)
}

// consumed returns the bits read so far.
func (r *bitReader) consumed() uint { return 8*uint(r.next) - r.nacc }

// fill loads the accumulator with as many whole bytes as it holds (at least 57 bits, unless
// the data ends first); the bits above the loaded ones stay 0.
func (r *bitReader) fill() {
	if r.next+8 <= len(r.data) {
		k := (64 - r.nacc) / 8 // the bytes that fit
		w := binary.LittleEndian.Uint64(r.data[r.next:])
		if k < 8 {
			w &= 1<<(8*k) - 1
		}
		r.acc |= w << r.nacc
		r.next += int(k)
		r.nacc += 8 * k
		return
	}
	for r.nacc <= 56 && r.next < len(r.data) {
		r.acc |= uint64(r.data[r.next]) << r.nacc
		r.next++
		r.nacc += 8
	}
}

// gamma reads an Elias gamma code (n 0 bits, a 1 bit, the n bits below it) of at most most
// 0 bits (most < 28) and returns its value; false if it has more, or the data ends first.
func (r *bitReader) gamma(most uint) (uint64, bool) {
	if r.nacc <= 2*most {
		r.fill()
	}
	n := uint(bits.TrailingZeros64(r.acc))
	if n > most || 2*n+1 > r.nacc {
		return 0, false
	}
	v := 1<<n | r.acc>>(n+1)&(1<<n-1)
	r.acc >>= 2*n + 1
	r.nacc -= 2*n + 1
	return v, true
}

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

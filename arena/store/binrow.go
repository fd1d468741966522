package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"slices"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// Binary rows. A league's ordinary deal (the four-player game, no fault, no rejected answer,
// no pile, its bots among the league's) is stored in about 90 bytes instead of the 450 of a
// compressed JSON row: the match-wide fields live in the league and match records, and what
// the rules engine can derive is derived again when the row is read:
//
//	binRowTag, uvarint pair, flags (rotation 2 bits, dealer 2, first, mirror, cpu),
//	4 uvarint seat bots (indices into League.Bots), the hands (2 bits per card: its holder,
//	8 bytes), uvarint actions, uvarint claims and each claim (uvarint), each other action's
//	choice as its index among the legal choices of that moment (as many bits as the legal
//	choices need), then at the end each action's wall time (one byte, a log scale of 7% steps
//	from 1 µs to 29 s) and, with cpu, each action's CPU time (a byte on the same scale).
//
// The seats of the actions, the bids' and cards' names and the whole result come from
// replaying the actions with the engine. Times come back quantised, within 3.5% (below 1 µs:
// 0). Any other deal is a JSON row (see codec). The
// first byte tells them apart: binRowTag has bits 1-2 set, a reserved block type that no
// deflate stream begins with.
const binRowTag = 0x06

// timeStep is the ratio between two wall times a byte tells apart.
const timeStep = 1.07

var logTimeStep = math.Log(timeStep)

// Flag bits of a binary row.
const (
	flagFirst  = 1 << 4
	flagMirror = 1 << 5
	flagCPU    = 1 << 6
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
	out := append(make([]byte, 0, 96), binRowTag)
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
		switch d.Phase() {
		case rules.PhaseBidding:
			legal := d.LegalBids()
			b, err := protocol.ParseBid(a.Bid)
			if err != nil || !legal.Has(b) || a.Card != "" || a.Claim != nil || a.Discard != "" {
				return nil, errNotBinary
			}
			w.write(uint64(bits.OnesCount64(uint64(legal&(1<<b-1)))), choiceBits(bits.OnesCount64(uint64(legal))))
		case rules.PhaseClaim:
			if a.Claim == nil || a.Bid != "" || a.Card != "" || a.Discard != "" || *a.Claim < 0 {
				return nil, errNotBinary
			}
			claims = append(claims, *a.Claim)
		case rules.PhasePlay:
			legal := d.Legal()
			c, err := protocol.ParseCard(a.Card)
			if err != nil || !legal.Has(c) || a.Bid != "" || a.Claim != nil || a.Discard != "" {
				return nil, errNotBinary
			}
			w.write(uint64((legal & (1<<c - 1)).Len()), choiceBits(legal.Len()))
		default:
			return nil, errNotBinary
		}
		if err := a.Apply(d, seating); err != nil {
			return nil, errNotBinary
		}
	}
	if d.Phase() != rules.PhaseDone || !reflect.DeepEqual(referee.ResultRecord(d, seating), rec.Result) {
		return nil, errNotBinary
	}
	out = binary.AppendUvarint(out, uint64(len(claims)))
	for _, c := range claims {
		out = binary.AppendUvarint(out, uint64(c))
	}
	out = append(out, w.bytes()...)
	for _, a := range rec.Actions {
		q, ok := quantiseWall(a.MS)
		if !ok {
			return nil, errNotBinary
		}
		out = append(out, q)
	}
	if cpu {
		for _, a := range rec.Actions {
			q, ok := quantiseWall(a.CPUMS)
			if !ok {
				return nil, errNotBinary
			}
			out = append(out, q)
		}
	}
	return out, nil
}

// decodeBinRow fills the deal part of rec (whose match-wide fields, the ruleset first, are
// set) from a binary row, the bots of its seats from bots.
func decodeBinRow(data []byte, rec *referee.DealRecord, bots []string) error {
	fail := func(what string) error { return fmt.Errorf("%w: stored deal: binary row: %s", ErrCorrupt, what) }
	r := byteReader{data: data[1:]}
	pair, flags := r.uvarint(), r.byte()
	rec.Pair, rec.Rotation = int(pair), int(flags&3)
	rec.First, rec.Mirror = flags&flagFirst != 0, flags&flagMirror != 0
	dealer := protocol.Seat(flags >> 2 & 3)
	rec.Dealer = dealer.String()
	for i := range rec.Seats {
		b := r.uvarint()
		if b >= uint64(len(bots)) {
			return fail("seat of no bot")
		}
		rec.Seats[i] = bots[b]
	}
	holders := r.uint64()
	n, nClaims := r.uvarint(), r.uvarint()
	if r.err || n > 64 || nClaims > n {
		return fail("truncated")
	}
	claims := make([]int, nClaims)
	for i := range claims {
		claims[i] = int(r.uvarint())
	}
	timeBytes := int(n)
	if flags&flagCPU != 0 {
		timeBytes += int(n)
	}
	if r.err || len(r.data)-r.pos < timeBytes {
		return fail("truncated")
	}
	times := r.data[len(r.data)-timeBytes:]
	var setup rules.Setup
	for c := range protocol.Card(32) {
		seat := holders >> (2 * uint(c)) & 3
		setup.Hands[seat] = setup.Hands[seat].Add(c)
	}
	for i, h := range setup.Hands {
		rec.Hands[i] = h.String()
	}
	rec.Skart, rec.Pile, rec.Table, rec.Faults, rec.Rejected = "", nil, 0, nil, nil
	seating := rules.Seating{Table: 4, Players: 4, Dealer: dealer}
	setup.Dealer, setup.FirstOfMatch = seating.DealDealer(), rec.First
	d, err := rules.NewDeal(&rec.Rules, setup)
	if err != nil {
		return fail(err.Error())
	}
	br := bitReader{data: r.data[r.pos : len(r.data)-timeBytes]}
	rec.Actions = make([]referee.Action, n)
	for i := range rec.Actions {
		a := &rec.Actions[i]
		a.Seat = seatNames[seating.TableSeat(d.ToMove())]
		a.MS = wallTime(times[i])
		if flags&flagCPU != 0 {
			a.CPUMS = wallTime(times[int(n)+i])
		}
		switch d.Phase() {
		case rules.PhaseBidding:
			legal := d.LegalBids()
			k := br.read(choiceBits(bits.OnesCount64(uint64(legal))))
			b, ok := nthBid(legal, int(k))
			if !ok {
				return fail("bid out of range")
			}
			a.Bid = b.String()
			err = d.Bid(b)
		case rules.PhaseClaim:
			if len(claims) == 0 {
				return fail("more claims than stored")
			}
			a.Claim = &claims[0]
			err = d.Claim(claims[0])
			claims = claims[1:]
		case rules.PhasePlay:
			legal := d.Legal()
			k := br.read(choiceBits(legal.Len()))
			if k >= uint64(legal.Len()) {
				return fail("card out of range")
			}
			c := legal.Nth(int(k))
			a.Card = cardNames[c]
			err = d.Play(c)
		default:
			return fail("an action after the deal ended")
		}
		if err != nil || br.err {
			return fail("an action the rules refuse")
		}
	}
	if d.Phase() != rules.PhaseDone {
		return fail("the deal does not end")
	}
	rec.Result = referee.ResultRecord(d, seating)
	return nil
}

// seatNames and cardNames are the notation of every seat and card, made once.
var (
	seatNames = [4]string{"N", "E", "S", "W"}
	cardNames = func() (names [32]string) {
		for c := range protocol.Card(32) {
			names[c] = c.String()
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
func wallTime(q byte) float64 {
	if q == 0 {
		return 0
	}
	return math.Pow(timeStep, float64(q-1)) / 1000
}

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
	pos  uint // bits read
	err  bool
}

func (r *bitReader) read(n uint) uint64 {
	var v uint64
	for i := range n {
		byteAt := (r.pos + i) / 8
		if int(byteAt) >= len(r.data) {
			r.err = true
			return 0
		}
		v |= uint64(r.data[byteAt]>>((r.pos+i)%8)&1) << i
	}
	r.pos += n
	return v
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

func (r *byteReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.data[min(r.pos, len(r.data)):])
	if n <= 0 {
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

package store

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/klaverjas-arena/arena/referee"
)

// row is what a stored deal keeps of its record: the match-wide fields (version, match,
// ruleset, seed) live once in the league and match records.
type row struct {
	Pair     int                   `json:"p"`
	Mirror   bool                  `json:"m,omitempty"`
	Rotation int                   `json:"ro,omitempty"`
	Table    int                   `json:"t,omitempty"`
	Skart    string                `json:"sk,omitempty"`
	Game     int                   `json:"g"`
	Deal     int                   `json:"d"`
	Attempt  int                   `json:"a,omitempty"`
	Seats    [4]string             `json:"s"`
	Dealer   string                `json:"dl"`
	First    bool                  `json:"f,omitempty"`
	Hands    [4]string             `json:"h"`
	Pile     []string              `json:"pl,omitempty"`
	Actions  []referee.Action      `json:"x"`
	Result   referee.RecordResult  `json:"r"`
	Faults   []referee.FaultRecord `json:"fl,omitempty"`
	Rejected []referee.Rejection   `json:"rj,omitempty"`
}

// dictionary primes the compressor with what every row repeats.
var dictionary = []byte(`{"p":0,"g":1,"d":1,"s":["","","",""],"dl":"N","h":["7C 8C 9C TC JC QC KC AC","7D 8D 9D TD JD QD KD AD","7H 8H 9H TH JH QH KH AH","7S 8S 9S TS JS QS KS AS"],` +
	`"x":[{"seat":"E","bid":"pass","ms":0.1},{"seat":"S","bid":"pass","ms":0.1},{"seat":"N","card":"JH","ms":0.1,"cpu":0.1},{"seat":"E","card":"9S","ms":0.2,"cpu":0.1},{"seat":"W","card":"AD","ms":0.3,"cpu":0.2}],` +
	`"r":{"outcome":"made","trump":"H","maker":"N","score":[100,62],"cards":[100,62],"roem":[0,0],"tricks":[5,3],"winners":"NESWNESW"}}`)

// codec compresses rows; it is safe for concurrent use.
type codec struct {
	writers *sync.Pool
}

func newCodec() codec {
	return codec{writers: &sync.Pool{New: func() any {
		w, _ := flate.NewWriterDict(io.Discard, flate.BestSpeed, dictionary)
		return w
	}}}
}

// encodeRow returns the stored row of a league's deal: a binary row (binrow.go) when the deal
// allows one and its bots are among bots, else the compressed JSON row.
func (c codec) encodeRow(rec *referee.DealRecord, bots []string) ([]byte, error) {
	if bots != nil {
		if row, err := encodeBinRow(rec, bots); err == nil {
			return row, nil
		}
	}
	return c.encode(rec)
}

// encode compresses the deal part of a record.
func (c codec) encode(rec *referee.DealRecord) ([]byte, error) {
	r := row{Pair: rec.Pair, Mirror: rec.Mirror, Rotation: rec.Rotation, Table: rec.Table, Skart: rec.Skart, Game: rec.Game, Deal: rec.Deal, Attempt: rec.Attempt, Seats: rec.Seats,
		Dealer: rec.Dealer, First: rec.First, Hands: rec.Hands, Pile: rec.Pile, Actions: rec.Actions, Result: rec.Result, Faults: rec.Faults, Rejected: rec.Rejected}
	data, err := json.Marshal(&r)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w := c.writers.Get().(*flate.Writer)
	defer c.writers.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeStoredRow fills the deal part of rec from a stored row of either kind under its key
// (see dealKey), the bots of a binary row's seats from bots; b is a binary row's scratch. A
// binary row's actions are left out unless actions is set (a JSON row's never are).
func decodeStoredRow(key, data []byte, rec *referee.DealRecord, bots []string, b *binDeal, actions bool) error {
	if isBinRow(data) {
		var err error
		if rec.Game, rec.Deal, rec.Attempt, err = keyNumbers(key); err != nil {
			return err
		}
		return decodeBinRow(data, rec, bots, b, actions)
	}
	return decodeRow(data, rec)
}

// keyNumbers returns the game, deal and attempt of a deal's key (see dealKey), or ErrCorrupt
// for a key not of 10 bytes.
func keyNumbers(key []byte) (game, deal, attempt int, err error) {
	if len(key) != 10 {
		return 0, 0, 0, fmt.Errorf("%w: stored deal under a key of %d bytes", ErrCorrupt, len(key))
	}
	return int(binary.BigEndian.Uint16(key[4:])), int(binary.BigEndian.Uint16(key[6:])), int(binary.BigEndian.Uint16(key[8:])), nil
}

// isBinRow reports whether a stored row is a binary row (binrow.go).
func isBinRow(data []byte) bool {
	return len(data) > 0 && (data[0] == binRowTag || data[0] == binRowTag2)
}

// decodeRow fills the deal part of rec from a compressed JSON row.
func decodeRow(data []byte, rec *referee.DealRecord) error {
	rd := flate.NewReaderDict(bytes.NewReader(data), dictionary)
	defer rd.Close()
	raw, err := io.ReadAll(io.LimitReader(rd, 1<<22))
	if err != nil {
		return fmt.Errorf("%w: stored deal: %v", ErrCorrupt, err)
	}
	var r row
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("%w: stored deal: %v", ErrCorrupt, err)
	}
	rec.Pair, rec.Mirror, rec.Game, rec.Deal, rec.Attempt = r.Pair, r.Mirror, r.Game, r.Deal, r.Attempt
	rec.Seats, rec.Dealer, rec.First, rec.Hands, rec.Pile = r.Seats, r.Dealer, r.First, r.Hands, r.Pile
	rec.Actions, rec.Result, rec.Faults, rec.Rejected = r.Actions, r.Result, r.Faults, r.Rejected
	rec.Rotation, rec.Table, rec.Skart = r.Rotation, r.Table, r.Skart
	return nil
}

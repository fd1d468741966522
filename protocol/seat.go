package protocol

// Seat is a place at the table, numbered clockwise from North: N=0, E=1, S=2, W=3.
// Play and dealing go clockwise, i.e. to the next number. A three-player table uses
// seats N, E and S.
type Seat uint8

// The seats, clockwise.
const (
	North Seat = iota
	East
	South
	West
	// NoSeat means "no seat", e.g. no maker yet.
	NoSeat Seat = 0xFF
)

// MaxSeats is the largest table the engine supports.
const MaxSeats = 4

const seatLetters = "NESW"

// String returns the seat letter N, E, S or W; "-" for NoSeat.
func (s Seat) String() string {
	if s >= MaxSeats {
		return "-"
	}
	return seatLetters[s : s+1]
}

// Next returns the seat to the left (clockwise) at a table of n seats.
func (s Seat) Next(n int) Seat {
	if int(s)+1 >= n {
		return 0
	}
	return s + 1
}

// Plus returns the seat k places clockwise from s at a table of n seats.
func (s Seat) Plus(k, n int) Seat {
	v := int(s) + k
	for v >= n {
		v -= n
	}
	return Seat(v)
}

// ParseSeat parses a seat letter N, E, S or W.
func ParseSeat(text string) (Seat, error) {
	if len(text) == 1 {
		for i := range MaxSeats {
			if text[0] == seatLetters[i] {
				return Seat(i), nil
			}
		}
	}
	return NoSeat, &NotationError{What: "seat", Text: text, Want: "one of N E S W"}
}

// Team is a partnership at a four-player table: NS (North and South) or EW (East and West).
type Team uint8

// The two partnerships.
const (
	NS Team = iota
	EW
	// NoTeam means "no team".
	NoTeam Team = 0xFF
)

// TeamOf returns the partnership of seat s at a four-player table.
func TeamOf(s Seat) Team { return Team(s & 1) }

// Other returns the opposing partnership.
func (t Team) Other() Team { return t ^ 1 }

// String returns "NS" or "EW"; "-" for NoTeam.
func (t Team) String() string {
	switch t {
	case NS:
		return "NS"
	case EW:
		return "EW"
	}
	return "-"
}

// ParseTeam parses "NS" or "EW".
func ParseTeam(text string) (Team, error) {
	switch text {
	case "NS":
		return NS, nil
	case "EW":
		return EW, nil
	}
	return NoTeam, &NotationError{What: "team", Text: text, Want: "NS or EW"}
}

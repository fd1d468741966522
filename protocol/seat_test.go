package protocol

import (
	"errors"
	"testing"
)

func TestSeatNotation(t *testing.T) {
	for i, text := range []string{"N", "E", "S", "W"} {
		s, err := ParseSeat(text)
		if err != nil || s != Seat(i) {
			t.Errorf("ParseSeat(%q) = %v, %v; want seat %d", text, s, err, i)
		}
		if s.String() != text {
			t.Errorf("seat %d String = %q", i, s.String())
		}
	}
	for _, bad := range []string{"", "n", "NS", "X", "0", " N"} {
		if s, err := ParseSeat(bad); err == nil || s != NoSeat || !errors.Is(err, ErrNotation) {
			t.Errorf("ParseSeat(%q) = %v, %v; want NoSeat and a notation error", bad, s, err)
		}
	}
	if NoSeat.String() != "-" {
		t.Errorf("NoSeat = %q", NoSeat.String())
	}
}

func TestSeatNextPlus(t *testing.T) {
	tests := []struct {
		from    Seat
		k, n    int
		want    Seat
		viaNext bool // k == 1: also check Next
	}{
		{North, 1, 4, East, true},
		{East, 1, 4, South, true},
		{South, 1, 4, West, true},
		{West, 1, 4, North, true},
		{North, 2, 4, South, false},
		{East, 2, 4, West, false},
		{West, 2, 4, East, false},
		{South, 3, 4, East, false},
		{West, 3, 4, South, false},
		{North, 0, 4, North, false},
		{North, 4, 4, North, false},
		{East, 5, 4, South, false},
		{North, 1, 3, East, true},
		{South, 1, 3, North, true},
		{East, 2, 3, North, false},
	}
	for _, tt := range tests {
		if got := tt.from.Plus(tt.k, tt.n); got != tt.want {
			t.Errorf("%v.Plus(%d, %d) = %v, want %v", tt.from, tt.k, tt.n, got, tt.want)
		}
		if tt.viaNext {
			if got := tt.from.Next(tt.n); got != tt.want {
				t.Errorf("%v.Next(%d) = %v, want %v", tt.from, tt.n, got, tt.want)
			}
		}
	}
}

func TestTeams(t *testing.T) {
	tests := []struct {
		seat Seat
		team Team
		name string
	}{{North, NS, "NS"}, {East, EW, "EW"}, {South, NS, "NS"}, {West, EW, "EW"}}
	for _, tt := range tests {
		if got := TeamOf(tt.seat); got != tt.team || got.String() != tt.name {
			t.Errorf("TeamOf(%v) = %v, want %s", tt.seat, got, tt.name)
		}
		if TeamOf(tt.seat.Plus(2, 4)) != tt.team {
			t.Errorf("partner of %v is not in team %s", tt.seat, tt.name)
		}
		if TeamOf(tt.seat.Next(4)) == tt.team {
			t.Errorf("left neighbour of %v is in the same team", tt.seat)
		}
		if p, err := ParseTeam(tt.name); err != nil || p != tt.team {
			t.Errorf("ParseTeam(%q) = %v, %v", tt.name, p, err)
		}
	}
	if NS.Other() != EW || EW.Other() != NS {
		t.Error("Other wrong")
	}
	if NoTeam.String() != "-" {
		t.Errorf("NoTeam = %q", NoTeam.String())
	}
	for _, bad := range []string{"", "SN", "ns", "NE", "N"} {
		if tm, err := ParseTeam(bad); err == nil || tm != NoTeam || !errors.Is(err, ErrNotation) {
			t.Errorf("ParseTeam(%q) = %v, %v", bad, tm, err)
		}
	}
}

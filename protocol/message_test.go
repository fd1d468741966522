package protocol

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestMessageLines(t *testing.T) {
	hand := mustSet(t, "7C JD QD JH QH KH 9S AS")
	cases := []struct {
		msg  Message
		line string
	}{
		{&Klaverjas{Versions: []int{1, 2}}, "klaverjas 1 2"},
		{&Rules{Options: [][2]string{{"players", "4"}, {"deal_packets", "[3,2,3]"}}}, "rules players=4 deal_packets=[3,2,3]"},
		{&Game{Number: 2, Seat: East, DecisionMS: 1000, BankMS: 60000, IncrementMS: 100}, "game 2 E 1000 60000 100"},
		{&Dealt{Number: 1, Dealer: West, Hand: hand}, "dealt 1 W 7C,JD,QD,JH,QH,KH,9S,AS"},
		{&Turned{Card: NewPileCard(4, Hearts)}, "turned 4H"},
		{&Turned{Card: Joker}, "turned JK"},
		{&Said{Seat: South, Bid: PlaySuit(Hearts)}, "said S H"},
		{&Said{Seat: North, Bid: BidPass}, "said N pass"},
		{&Trump{Suit: Spades, Maker: East}, "trump S E"},
		{&Played{Seat: West, Card: NewCard(Nine, Diamonds)}, "played W 9D"},
		{&TrickDone{Winner: North, Points: 25, Roem: 20}, "trick N 25 20"},
		{&Scored{Outcome: "made", Score: []int{82, 80}, Cards: []int{82, 80}, Roem: []int{0, 0}, Pit: "-", Offender: NoSeat}, "scored made 82,80 82,80 0,0 - -"},
		{&Scored{Outcome: "forfeit", Score: []int{0, 332}, Cards: []int{40, 30}, Roem: []int{20, 50}, Pit: "-", Offender: East}, "scored forfeit 0,332 40,30 20,50 - E"},
		{&GameOver{Totals: []int{1320, 1104}}, "gameover 1320,1104"},
		{&Fault{Kind: "timeout", Detail: "no answer in 1050 ms"}, "fault timeout no answer in 1050 ms"},
		{&Quit{}, "quit"},
		{&BidRequest{TimeMS: 1000, Hand: hand, Legal: Bids(0).Add(PlaySuit(Hearts)).Add(BidPass)}, "bid 1000 7C,JD,QD,JH,QH,KH,9S,AS H pass"},
		{&PlayRequest{TimeMS: 950, Trump: Hearts, Leader: East, Trick: []Card{NewCard(Ace, Spades), NewCard(Seven, Clubs)}, Hand: hand, Legal: mustSet(t, "9S AS")},
			"play 950 H E AS,7C 7C,JD,QD,JH,QH,KH,9S,AS 9S AS"},
		{&PlayRequest{TimeMS: 1000, Trump: Clubs, Leader: North, Hand: hand, Legal: hand}, "play 1000 C N - 7C,JD,QD,JH,QH,KH,9S,AS 7C JD QD JH QH KH 9S AS"},
		{&ClaimRequest{TimeMS: 1000, Trump: Spades, Trick: []Card{NewCard(King, Spades), NewCard(Queen, Spades), NewCard(Seven, Hearts), NewCard(Eight, Hearts)}}, "claim 1000 S KS,QS,7H,8H"},
		// The three-player game: a dealer sitting out gets no cards; lists are per seat.
		{&Dealt{Number: 3, Dealer: South}, "dealt 3 S -"},
		{&Active{Seats: [3]Seat{West, North, East}}, "active W N E"},
		{&Scored{Outcome: "nat", Score: []int{90, 0, 90, 0}, Cards: []int{60, 70, 32, 0}, Roem: []int{0, 20, 0, 0}, Pit: "-", Offender: NoSeat}, "scored nat 90,0,90,0 60,70,32,0 0,20,0,0 - -"},
		{&DiscardRequest{TimeMS: 1000, Trump: Hearts, Skart: mustSet(t, "7S AD"), Hand: mustSet(t, "7C 8C AD JD QD JH QH KH 7S 9S TS AS")},
			"discard 1000 H AD,7S 7C,8C,JD,QD,AD,JH,QH,KH,7S,9S,TS,AS"},
	}
	for _, tc := range cases {
		if got := Line(tc.msg); got != tc.line {
			t.Errorf("Line(%T) = %q, want %q", tc.msg, got, tc.line)
		}
		back, err := ParseMessage(tc.line)
		if err != nil {
			t.Errorf("ParseMessage(%q): %v", tc.line, err)
			continue
		}
		if !reflect.DeepEqual(back, tc.msg) {
			t.Errorf("ParseMessage(%q) = %#v, want %#v", tc.line, back, tc.msg)
		}
	}
}

func TestParseMessageErrors(t *testing.T) {
	cases := []struct {
		line  string
		token int
		want  string
	}{
		{"", 1, "message name"},
		{"hello 1 x", 1, "message name"},
		{"dealt one W -", 2, "whole number"},
		{"dealt 1 X -", 3, "seat"},
		{"dealt 1 W 7C,7C", 4, "cards"},
		{"dealt 1 W 7C,", 4, "cards"},
		{"dealt 1 W 7C JD", 5, "end of line"},
		{"play 1000 H E - 7C", 7, "legal card"},
		{"play 1000 X E - 7C 7C", 3, "suit"},
		{"bid 1000 7C H H", 5, "each bid once"},
		{"bid 1000 7C", 4, "legal bid"},
		{"scored won 1,2 1,2 0,0 - -", 2, "outcome"},
		{"rules players", 2, "name=value"},
		{"klaverjas", 2, "protocol version"},
		{"trick N -5 0", 3, "whole number"},
		{"active W N", 4, "three different seats"},
		{"active W N W", 4, "three different seats"},
		{"active W N X", 4, "three different seats"},
		{"active W N E S", 5, "end of line"},
	}
	for _, tc := range cases {
		_, err := ParseMessage(tc.line)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Token != tc.token || !strings.Contains(se.Want, tc.want) || !errors.Is(err, ErrNotation) {
			t.Errorf("ParseMessage(%q) = %v, want a SyntaxError at token %d wanting %q", tc.line, err, tc.token, tc.want)
		}
	}
}

func TestReplies(t *testing.T) {
	if h, err := ParseHello("hello 1 my-bot  Jan  de Vries "); err != nil || h.Version != 1 || h.Name != "my-bot" || h.Author != "Jan de Vries" {
		t.Errorf("ParseHello: %+v %v", h, err)
	}
	for _, bad := range []string{"hello", "hello x bot", "hello 1", "hello 1 bad/name", "helo 1 x"} {
		if _, err := ParseHello(bad); err == nil {
			t.Errorf("ParseHello(%q) accepted", bad)
		}
	}
	if r, err := ParseRulesReply("refuse no rotterdams, sorry"); err != nil || !r.Refuse || r.Reason != "no rotterdams, sorry" {
		t.Errorf("refuse: %+v %v", r, err)
	}
	if r, err := ParseRulesReply("ok"); err != nil || r.Refuse {
		t.Errorf("ok: %+v %v", r, err)
	}
	if _, err := ParseRulesReply("ok then"); err == nil {
		t.Error("ok with more accepted")
	}
	if b, err := ParseBidReply("pass"); err != nil || b != BidPass {
		t.Errorf("bid pass: %v %v", b, err)
	}
	if b, err := ParseBidReply(" H "); err != nil || b != PlaySuit(Hearts) {
		t.Errorf("bid H: %v %v", b, err)
	}
	for _, bad := range []string{"", "h", "H S", "play H", "PASS"} {
		if _, err := ParseBidReply(bad); err == nil {
			t.Errorf("ParseBidReply(%q) accepted", bad)
		}
	}
	if c, err := ParseCardReply("JH"); err != nil || c != NewCard(Jack, Hearts) {
		t.Errorf("card: %v %v", c, err)
	}
	for _, bad := range []string{"", "jh", "JH JH", "10H", "JH,"} {
		if _, err := ParseCardReply(bad); err == nil {
			t.Errorf("ParseCardReply(%q) accepted", bad)
		}
	}
	if n, err := ParseClaimReply("20"); err != nil || n != 20 {
		t.Errorf("claim: %v %v", n, err)
	}
	for _, bad := range []string{"", "-20", "1001", "twenty", "20 roem"} {
		if _, err := ParseClaimReply(bad); err == nil {
			t.Errorf("ParseClaimReply(%q) accepted", bad)
		}
	}
	if a, b, err := ParseDiscardReply(" 7S  AD"); err != nil || a != NewCard(Seven, Spades) || b != NewCard(Ace, Diamonds) {
		t.Errorf("discard: %v %v %v", a, b, err)
	}
	if a, b, err := ParseDiscardReply("7S 7S"); err != nil || a != b { // two cards: the rules refuse the same one twice
		t.Errorf("discard of one card twice: %v %v %v", a, b, err)
	}
	for _, bad := range []string{"", "7S", "7S,AD", "7S AD 8S", "7s AD"} {
		if _, _, err := ParseDiscardReply(bad); err == nil {
			t.Errorf("ParseDiscardReply(%q) accepted", bad)
		}
	}
	if !IsInfo("info depth 12") || !IsInfo("info") || IsInfo("information") || IsInfo("JH") {
		t.Error("IsInfo")
	}
}

// FuzzParseMessage: the decoder never panics, and whatever it accepts encodes to a line that
// decodes to the same message.
func FuzzParseMessage(f *testing.F) {
	for _, s := range []string{"klaverjas 1", "rules players=4 game_end=deals:16", "game 1 N 1000 0 0", "dealt 1 W 7C,8C,9C,JD,QD,JH,QH,KH",
		"turned JK", "said E pass", "trump H S", "played N QC", "trick N 3 20", "active E S W", "scored made 80,102 60,102 20,0 - -", "gameover 80,102",
		"fault timeout slow", "quit", "bid 1000 QC,JD C D H S pass", "play 1000 H E KC,TC,JC 8H,TH 8H TH", "claim 1000 S KS,QS,7H,8H",
		"discard 500 H AD,7S 7C,8C,JD,QD,AD,JH,QH,KH,7S,9S,TS,AS", "dealt 2 W -"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		m, err := ParseMessage(line)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			return
		}
		again, err := ParseMessage(Line(m))
		if err != nil || !reflect.DeepEqual(again, m) {
			t.Fatalf("%q -> %#v -> %q -> %#v, %v", line, m, Line(m), again, err)
		}
	})
}

// FuzzLineReader: any input gives lines of at most the limit, and never a panic.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("JH\nTS\r\ninfo x\n"), 8)
	f.Add([]byte(strings.Repeat("x", 100)+"\nok\n"), 16)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		max = 1 + abs(max)%64
		r := NewLineReader(strings.NewReader(string(data)), max)
		for range len(data) + 2 {
			line, err := r.ReadLine()
			if len(line) > max {
				t.Fatalf("line of %d bytes over the limit %d", len(line), max)
			}
			if err != nil && !errors.Is(err, ErrLineTooLong) && !errors.Is(err, ErrNotASCII) {
				return
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

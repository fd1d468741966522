package rules

import (
	"strings"
	"testing"

	"github.com/klaverjas-arena/arena/protocol"
)

// TestCardPoints checks every rank's points as trump and as a plain card (RULES.md §2).
func TestCardPoints(t *testing.T) {
	tests := []struct {
		rank         string
		trump, plain int
	}{
		{"J", 20, 2}, {"9", 14, 0}, {"A", 11, 11}, {"T", 10, 10},
		{"K", 4, 4}, {"Q", 3, 3}, {"8", 0, 0}, {"7", 0, 0},
	}
	for _, tt := range tests {
		for _, su := range []string{"C", "D", "H", "S"} {
			c := card(t, tt.rank+su)
			for _, tr := range []string{"C", "D", "H", "S"} {
				want := tt.plain
				if tr == su {
					want = tt.trump
				}
				if got := Points(c, suitOf(t, tr)); got != want {
					t.Errorf("Points(%s, trump %s) = %d, want %d", c, tr, got, want)
				}
			}
		}
	}
}

func TestSetPoints(t *testing.T) {
	tests := []struct {
		set, trump string
		want       int
	}{
		{"7H 8H 9H TH JH QH KH AH", "H", 62},
		{"7H 8H 9H TH JH QH KH AH", "S", 30},
		{"7C 8C 9C TC JC QC KC AC", "H", 30},
		{"JC JD JH JS", "D", 26},
		{"9C 9D 9H 9S", "S", 14},
		{"AC TD KH QS", "C", 28},
		{"", "H", 0},
	}
	for _, tt := range tests {
		if got := SetPoints(cards(t, tt.set), suitOf(t, tt.trump)); got != tt.want {
			t.Errorf("SetPoints(%s, trump %s) = %d, want %d", tt.set, tt.trump, got, tt.want)
		}
	}
	for _, tr := range []Suit{protocol.Clubs, protocol.Diamonds, protocol.Hearts, protocol.Spades} {
		if got := SetPoints(protocol.FullDeck, tr); got != 152 {
			t.Errorf("SetPoints(deck, trump %v) = %d, want 152 (162 without the last trick)", tr, got)
		}
	}
}

// TestCardOrder checks the trump order J 9 A T K Q 8 7 and the plain order A T K Q J 9 8 7,
// that any trump beats any plain card and that a card of a third suit never wins.
func TestCardOrder(t *testing.T) {
	trump, led := suitOf(t, "H"), suitOf(t, "C")
	trumps := strings.Fields("JH 9H AH TH KH QH 8H 7H")
	plain := strings.Fields("AC TC KC QC JC 9C 8C 7C")
	for _, order := range [][]string{trumps, plain} {
		for i := range order {
			for j := range order {
				a, b := card(t, order[i]), card(t, order[j])
				if got := Beats(a, b, led, trump); got != (i < j) {
					t.Errorf("Beats(%s, %s) = %v, want %v", a, b, got, i < j)
				}
			}
		}
	}
	for _, tc := range trumps {
		for _, pc := range plain {
			if !Beats(card(t, tc), card(t, pc), led, trump) || Beats(card(t, pc), card(t, tc), led, trump) {
				t.Errorf("trump %s must beat led %s", tc, pc)
			}
		}
		if !Beats(card(t, tc), card(t, "AS"), led, trump) {
			t.Errorf("trump %s must beat AS", tc)
		}
	}
	for _, pc := range plain {
		if Beats(card(t, "AD"), card(t, pc), led, trump) || !Beats(card(t, pc), card(t, "AD"), led, trump) {
			t.Errorf("off-suit AD must not beat led %s", pc)
		}
	}
}

// TestTrickWinner is RULES.md §5.1 with the trick's card points (§2), and the last-trick
// bonus when it is the last trick.
func TestTrickWinner(t *testing.T) {
	tests := []struct {
		name, trump, leader, trick string
		winner                     string
		points                     int
	}{
		{"highest of the led suit", "H", "N", "KC AC 7D TC", "E", 25},
		{"off-suit aces never win", "H", "N", "7C AD AS 8C", "W", 22},
		{"single ruff wins", "H", "N", "AC 7H KC TC", "E", 25},
		{"overruff wins", "H", "N", "AC 7H 8H QH", "W", 14},
		{"trump led: jack wins", "H", "N", "9H JH AH TH", "E", 55},
		{"trump led: nine beats ace", "H", "E", "AH 9H 7C 8H", "S", 25},
		{"plain jack is worth 2 and beats 9", "H", "N", "JC 7C 8C 9C", "N", 2},
		{"ten beats king in plain", "S", "W", "KD TD QD JD", "N", 19},
		{"leader of a late trick wins with the led seven", "D", "S", "7C 8H 9S TH", "S", 10},
		{"lowest trump beats plain aces", "C", "E", "AD AH 7C AS", "W", 33},
		{"nine of trumps beats ace of trumps ruffing", "S", "N", "AD AS 9S KD", "S", 40},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := trickOf(t, tt.leader, tt.trick)
			trump := suitOf(t, tt.trump)
			if got := tr.Winner(trump, 4); got != seatOf(t, tt.winner) {
				t.Errorf("winner %s, want %s", got, tt.winner)
			}
			if got := SetPoints(tr.Played, trump); got != tt.points {
				t.Errorf("points %d, want %d", got, tt.points)
			}
		})
	}
}

func TestTrickBasics(t *testing.T) {
	var empty Trick
	if empty.WinningIndex(protocol.Hearts) != -1 || empty.Winner(protocol.Hearts, 4) != protocol.NoSeat || empty.Led() != protocol.NoSuit {
		t.Error("empty trick: WinningIndex, Winner or Led wrong")
	}
	tr := trickOf(t, "W", "9D AD")
	if tr.Led() != protocol.Diamonds || tr.N != 2 {
		t.Errorf("Led %v N %d", tr.Led(), tr.N)
	}
	if tr.WinningIndex(protocol.Hearts) != 1 || tr.Winner(protocol.Hearts, 4) != protocol.North {
		t.Errorf("winner of W:9D N:AD = %v", tr.Winner(protocol.Hearts, 4))
	}
	for i, want := range []string{"W", "N", "E", "S"} {
		if got := tr.Seat(i, 4); got != seatOf(t, want) {
			t.Errorf("Seat(%d) = %v, want %s", i, got, want)
		}
	}
	if tr.Played != cards(t, "9D AD") {
		t.Errorf("Set = %v", tr.Played)
	}
}

// TestLastTrickBonus plays a whole deal and checks each trick's recorded points: the card
// points, plus 10 on the last trick; all tricks add up to 162.
func TestLastTrickBonus(t *testing.T) {
	for _, bonus := range []int{10, 0} {
		r := ruleset(t, "last_trick_bonus="+map[int]string{10: "10", 0: "0"}[bonus])
		d := pitDeal(t, r)
		recs := d.Tricks()
		if len(recs) != 8 {
			t.Fatalf("%d tricks", len(recs))
		}
		// N leads J 9 A T K Q 8 7 of trumps; the others add no points except their cards:
		// E clubs 7..A, S diamonds A..7, W spades 7..A.
		want := []int{20 + 0 + 11 + 0, 14 + 0 + 4 + 0, 11 + 0 + 3 + 0, 10 + 10 + 2 + 10, 4 + 2 + 10 + 2, 3 + 3 + 0 + 3, 0 + 4 + 0 + 4, 0 + 11 + 0 + 11 + bonus}
		total := 0
		for i, rec := range recs {
			if rec.Points != want[i] {
				t.Errorf("bonus %d: trick %d points %d, want %d", bonus, i+1, rec.Points, want[i])
			}
			total += rec.Points
		}
		if total != 152+bonus {
			t.Errorf("bonus %d: total %d, want %d", bonus, total, 152+bonus)
		}
	}
}

// pitDeal plays a deal in which North holds every heart, East every club, South every
// diamond and West every spade; W deals, N plays hearts and leads the trumps J 9 A T K Q 8 7,
// E plays clubs upwards, S diamonds downwards, W spades upwards. NS take every trick; no trick
// holds roem (one card of each suit, never four of one rank).
func pitDeal(t *testing.T, r *Ruleset) *Deal {
	t.Helper()
	d, err := NewDeal(r, Setup{Dealer: protocol.West, Hands: handsOf(t,
		"7H 8H 9H TH JH QH KH AH", "7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD", "7S 8S 9S TS JS QS KS AS")})
	if err != nil {
		t.Fatal(err)
	}
	bid(t, d, "H")
	n := strings.Fields("JH 9H AH TH KH QH 8H 7H")
	e := strings.Fields("7C 8C 9C TC JC QC KC AC")
	s := strings.Fields("AD KD QD JD TD 9D 8D 7D")
	w := strings.Fields("7S 8S 9S TS JS QS KS AS")
	for i := range 8 {
		play(t, d, n[i]+" "+e[i]+" "+s[i]+" "+w[i])
		if r.RoemClaiming == RoemClaimRequired {
			if err := d.Claim(0); err != nil {
				t.Fatal(err)
			}
		}
	}
	if d.Phase() != PhaseDone {
		t.Fatalf("phase %v after 8 tricks", d.Phase())
	}
	return d
}

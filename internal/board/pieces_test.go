package board

import (
	"errors"
	"testing"
)

// TestChessSquares: columns past z go on as a spreadsheet's (aa, ab, …),
// and every square written as a chess square reads back as itself.
func TestChessSquares(t *testing.T) {
	for c, want := range map[int]string{0: "a", 25: "z", 26: "aa", 27: "ab", 29: "ad", 51: "az", 52: "ba", 63: "bl", 701: "zz", 702: "aaa"} {
		if got := Column(c); got != want {
			t.Errorf("Column(%d) = %q, want %q", c, got, want)
		}
	}
	for row := range 64 {
		for col := range 64 {
			sq := Square{Row: row, Col: col}
			got, err := ParseSquares(sq.Chess())
			if err != nil || len(got) != 1 || got[0] != sq {
				t.Fatalf("ParseSquares(%q) = %v, %v, want %v", sq.Chess(), got, err, sq)
			}
		}
	}
	got, err := ParseSquares("AB14, b1")
	if err != nil || len(got) != 2 || got[0] != (Square{Row: 13, Col: 27}) || got[1] != (Square{Row: 0, Col: 1}) {
		t.Errorf("ParseSquares(AB14, b1) = %v, %v", got, err)
	}
	for _, bad := range []string{"a", "1", "a0", "aaaa1", "a1b", "é1", "a-1", "ab"} {
		if _, err := ParseSquares(bad); !errors.Is(err, ErrPlacement) {
			t.Errorf("ParseSquares(%q) = %v, want ErrPlacement", bad, err)
		}
	}
	for _, tc := range []struct {
		s    Span
		want string
	}{{Span{N: 8}, "rows and columns 0..7"}, {Span{N: 8, Chess: true}, "a..h, 1..8"}, {Span{N: 30, Chess: true}, "a..ad, 1..30"}} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%+v = %q, want %q", tc.s, got, tc.want)
		}
	}
}

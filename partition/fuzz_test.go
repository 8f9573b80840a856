package partition

import (
	"fmt"
	"testing"

	"github.com/nqueens/nqueens/internal/board"
)

// FuzzParseSquares: any text is a placement or an error; a placement
// written back reads the same.
func FuzzParseSquares(f *testing.F) {
	for _, s := range []string{"0:1,3:2", "b1,c4", "a1", "", ",", "z9", "1-1", "0:-1", "A10", " 0:1 , 2:3 ", "99999999999999999999:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		placed, err := board.ParseSquares(s)
		if err != nil {
			if len(err.Error()) > 400 {
				t.Fatalf("message of %d bytes", len(err.Error()))
			}
			return
		}
		again, err := board.ParseSquares(board.PlacedString(placed))
		if err != nil || fmt.Sprint(again) != fmt.Sprint(placed) {
			t.Fatalf("%q: %v, written back %q: %v, %v", s, placed, board.PlacedString(placed), again, err)
		}
		_ = CheckPlacement(8, placed)
	})
}

// FuzzParseShards: any text is a range of shards A-B/M (or I/M) with
// 0 ≤ A ≤ B < M, or an error; I/M parses as ParseShard parses it.
func FuzzParseShards(f *testing.F) {
	for _, s := range []string{"0/8", "0-7/8", "3-3/8", "4-3/8", "0-8/8", "-1-2/3", "1-/3", "-/3", "1--2/3", "+1-2/3", "1-+2/3", "", "1-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b, m, err := ParseShards(s)
		i, m1, err1 := parseShard(s)
		if err1 == nil && (err != nil || a != i || b != i || m != m1) {
			t.Fatalf("%q: ParseShard %d/%d, ParseShards %d-%d/%d, %v", s, i, m1, a, b, m, err)
		}
		if err != nil {
			if len(err.Error()) > 300 {
				t.Fatalf("message of %d bytes", len(err.Error()))
			}
			return
		}
		if m < 1 || a < 0 || a > b || b >= m {
			t.Fatalf("%q: shards %d-%d/%d", s, a, b, m)
		}
	})
}

// FuzzParseShard: any text is a shard I/M with 0 ≤ I < M, or an error.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/8", "7/8", "8/8", "-1/3", "1/0", "", "/", "3", "a/b", "1/2/3", " 1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, m, err := parseShard(s)
		if err != nil {
			if len(err.Error()) > 300 {
				t.Fatalf("message of %d bytes", len(err.Error()))
			}
			return
		}
		if m < 1 || i < 0 || i >= m {
			t.Fatalf("%q: shard %d/%d", s, i, m)
		}
	})
}

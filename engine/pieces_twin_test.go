package engine

import (
	"math/bits"

	"github.com/nqueens/nqueens/internal/board"
)

// This file holds the twin the tests check the pieces' kernels against:
// the plain search walkShort and walkTorus were written from.

// walkPieces is the kernel of the pieces other than the queen and of the
// torus (board.CountPieces tasks): it counts the completions of a board
// whose rows above row are placed (leaving the attacks a), under the rules
// r and avoiding the squares ban forbids (pieces placed in advance), and
// the pieces it placed (nodes). The last row is counted without placing
// its piece: its free squares are the completions. An iterative
// depth-first search with the state of each level in a small stack, the
// rules applied without branches (a short move of distance 0 takes the
// piece's own column, which the column mask holds anyway; the diagonals of
// pieces without them are masked away), the torus's rotations apart. The
// last two rows are counted without a level (each free square of the
// second-last row adds the last row's free squares it leaves), and a
// placement after which the row below the next is already blocked is
// counted as a node but not searched below.
func walkPieces(n int, r board.Rules, ban *board.Bans, a board.Attacks, row int) (sols, nodes uint64) {
	switch {
	case row >= n:
		return 1, 0
	case row == n-1:
		return uint64(bits.OnesCount64(a.Free() &^ ban[row&63])), 0
	}
	s1, s2 := r.Near1, r.Near2
	long := uint64(0)
	if r.Long {
		long = full
	}
	all := uint64(1)<<uint(n) - 1
	wrap := uint(n - 1)
	type level struct {
		a    board.Attacks
		free uint64
	}
	var st [maxRows]level
	d := 0
	st[0] = level{a, a.Free() &^ ban[row&63]}
	last := n - 1 - row // the level whose row is the last
	for d >= 0 {
		lv := &st[d&63]
		if lv.free == 0 {
			d--
			continue
		}
		b := lv.free & -lv.free
		lv.free ^= b
		nodes++
		p := lv.a
		c := board.Attacks{Cols: p.Cols | b, N1: p.N2 | b<<s1 | b>>s1, N2: b<<s2 | b>>s2}
		ld, rd := p.LD|b, p.RD|b
		if r.Torus {
			c.LD = (ld<<1 | ld>>wrap) & all
			c.RD = rd>>1 | (rd&1)<<wrap
		} else {
			c.LD, c.RD = ld<<1&long, rd>>1&long
		}
		free := c.Free() &^ ban[(row+d+1)&63]
		switch {
		case d+1 == last:
			sols += uint64(bits.OnesCount64(free))
			continue
		case free == 0:
			continue
		case d+2 == last:
			// Two rows left: each free square of the next row completes
			// a board with every square of the last row it leaves free,
			// without a level of its own.
			lastBan := ban[(row+d+2)&63]
			for f := free; f != 0; f &= f - 1 {
				x := f & -f
				nodes++
				t := board.Attacks{Cols: c.Cols | x, N1: c.N2 | x<<s1 | x>>s1}
				ld, rd := c.LD|x, c.RD|x
				if r.Torus {
					t.LD = (ld<<1 | ld>>wrap) & all
					t.RD = rd>>1 | (rd&1)<<wrap
				} else {
					t.LD, t.RD = ld<<1&long, rd>>1&long
				}
				sols += uint64(bits.OnesCount64(t.Free() &^ lastBan))
			}
			continue
		case !r.Torus && c.Cols|c.LD<<1&long|c.RD>>1&long|c.N2|ban[(row+d+2)&63] == full:
			// The row after the next is blocked already: no completion
			// (the torus's wrapped diagonals are not looked ahead).
			continue
		}
		d++
		st[d&63] = level{c, free}
	}
	return sols, nodes
}

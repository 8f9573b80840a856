package engine

import (
	"math/bits"

	"github.com/nqueens/nqueens/partition"
)

// walkPieces is the kernel of the pieces other than the queen and of the
// torus (partition.CountPieces tasks): it counts the completions of a board
// whose rows above row are placed (leaving the attacks a), under the rules
// r and avoiding the squares ban forbids (pieces placed in advance), and
// the pieces it placed (nodes). The last row is counted without placing its piece: its
// free squares are the completions. A plain depth-first search over
// partition.Attacks: these pieces carry more state than a queen (the short
// moves into the next two rows), and their counts are not the hot path.
func walkPieces(n int, r partition.Rules, ban *partition.Bans, a partition.Attacks, row int) (sols, nodes uint64) {
	free := a.Free()
	if row < n {
		free &^= ban[row]
	}
	if row >= n {
		return 1, 0
	}
	if row == n-1 {
		return uint64(bits.OnesCount64(free)), 0
	}
	for ; free != 0; free &= free - 1 {
		nodes++
		s, k := walkPieces(n, r, ban, r.Place(n, a, free&-free), row+1)
		sols += s
		nodes += k
	}
	return sols, nodes
}

// factorialTimes returns k!·w as a 128-bit number (high, low word); the
// planner keeps it within 128 bits (rooks up to n = 34).
func factorialTimes(k int, w uint64) (hi, lo uint64) {
	lo = w
	for i := 2; i <= k; i++ {
		h, l := bits.Mul64(lo, uint64(i))
		hi = hi*uint64(i) + h
		lo = l
	}
	return hi, lo
}

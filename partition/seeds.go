package partition

import (
	"fmt"
	"math/bits"

	"github.com/nqueens/nqueens/internal/board"
)

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }

// below returns the columns 0..k-1.
func below(k int) uint64 { return uint64(1)<<uint(k) - 1 }

// mirrorSeeds splits the board by the left-right mirror. Every solution with
// its row-0 queen left of the centre has a mirror image with it right of the
// centre (weight 2). For odd n, a solution with its row-0 queen in the middle
// column has its row-1 queen off the centre, and its mirror has it on the
// other side: the left side with weight 2 covers both.
func mirrorSeeds(n int) []seed {
	switch n {
	case 0:
		return []seed{{kind: board.Count, weight: 1, bans: &noBans}}
	case 1:
		return []seed{{prefix: []uint8{0}, kind: board.Count, weight: 1, bans: &noBans}}
	}
	seeds := []seed{{allow: []uint64{below(n / 2)}, kind: board.Count, weight: 2, bans: &noBans}}
	if n%2 == 1 {
		mid := uint8(n / 2)
		seeds = append(seeds, seed{prefix: []uint8{mid}, allow: []uint64{below(n / 2)}, kind: board.Count, weight: 2, bans: &noBans})
	}
	return seeds
}

// symSeeds splits the board by the 8 symmetries of the square (rotations and
// reflections), after Takaken's bounds.
//
// Every side of the board holds one queen; call its distance to the nearest
// corner along that side the side's distance, and m the least of the four.
// Among the 8 images of a solution, the lexicographically least (reading the
// queens' columns row by row) has its row-0 queen in column m.
//
//   - m = 0, a corner queen. Only one corner can hold a queen, and two images
//     put it at (0,0): the solution and its transpose, which never coincide
//     (a transpose-symmetric solution would have two queens on one
//     anti-diagonal). With the row-1 queen in column b, forbidding column 1
//     in rows 2..b-1 keeps exactly one of the two, the lexicographically
//     smaller, so every completion is the least of a class of 8 (the
//     Classify kernel confirms it at no cost worth measuring).
//   - m ≥ 1: the row-0 queen in column m < (n-1)/2, and every other side's
//     queen at least m from its corners: columns 0 and n-1 are banned in
//     rows 1..m-1 and n-m..n-1, and the last row's queen lies in columns
//     m..n-1-m. Several images of one class can satisfy these bounds, so the
//     kernel compares each completion with its 7 other images (Classify).
//     For m ≥ 2 the region is searched upside down (see flipFrom): the
//     bottom rows' bounds then prune first.
//
// For n ≤ 3 one Classify task over the whole board is exact and trivial.
func symSeeds(n int) []seed {
	if n <= 3 {
		return []seed{{kind: board.Classify, weight: 1, bans: &noBans}}
	}
	var seeds []seed
	// Corner: queen (0,0), row-1 queen in column b (2..n-1; the bans make
	// b = n-1 barren, and the planner drops it).
	for b := 2; b < n-1; b++ {
		bans := new(board.Bans)
		for r := 2; r < b; r++ {
			bans[r] = 1 << 1
		}
		seeds = append(seeds, seed{prefix: []uint8{0, uint8(b)}, kind: board.Classify, weight: 1, bans: bans})
	}
	edges := uint64(1) | uint64(1)<<uint(n-1)
	for m := 1; 2*m < n-1; m++ {
		bans := new(board.Bans)
		for r := 1; r < m; r++ {
			bans[r] = edges
		}
		for r := n - m; r < n; r++ {
			bans[r] = edges
		}
		bans[n-1] |= below(m) | below(n-1)&^below(n-m)
		if m < flipFrom {
			seeds = append(seeds, seed{prefix: []uint8{uint8(m)}, kind: board.Classify, weight: 1, bans: bans})
			continue
		}
		// Search this region upside down: the bounds on the bottom rows
		// then prune from the first rows, and the row-0 queen becomes a
		// queen placed in the last row. The kernel turns each completion
		// back over before classifying it.
		flipped := placedBans(n, []board.Square{{Row: n - 1, Col: m}}, board.Queen.Rules(false))
		for r := 0; r < n; r++ {
			flipped[n-1-r] |= bans[r]
		}
		flipped[n-1] = below(n) &^ (1 << uint(m))
		seeds = append(seeds, seed{kind: board.Classify, weight: 1, bans: flipped, flip: true, tag: fmt.Sprintf("f%d:", m)})
	}
	return seeds
}

// flipFrom is the least m whose region is searched upside down: measured
// node counts (n = 14) drop by 2% at m = 2 up to 76% at m = 6, and grow by
// 2% at m = 1.
const flipFrom = 2

package partition

import (
	"fmt"
	"math/bits"

	"github.com/nqueens/nqueens/internal/board"
)

// JoinMaxN is the largest board the join method plans: its kernel keeps the
// 2n-1 diagonals of each direction in a uint64.
const JoinMaxN = 32

// The join method's plan (the kernel is engine/join.go; the tasks stream
// from source.eachJoin).
//
// The board is cut into a west half (columns 0..h-1, h = n/2) and an east
// half (columns n-h..n-1); for odd n the middle column between them holds one
// queen, in row a. A task fixes a and the set E of rows whose queen lies in
// the east half (h rows); the other h rows hold the west queens. The kernel
// lists both halves and counts the pairs that share no diagonal.
//
// Symmetry: the left-right mirror maps the solutions with east rows E to
// those with east rows W (the complement), and the up-down flip maps them to
// those with east rows rev(E) and the middle queen in row n-1-a. Row sets in
// one orbit of these maps have the same count, so one task per orbit counts
// for all of them: its weight is the orbit's size (4 for most E). For odd n,
// a middle queen above the centre stands for the one below it too (weight
// 2), and only the mirror acts on its row sets; a queen in the centre keeps
// both maps. That is 4 of the 8 symmetries of the square; the other 4
// (transpositions) do not keep the cut between west and east.
//
// From n = 28 an even board has two middle columns between halves of
// n/2-1 columns (JoinMiddle): a task is then a set of east rows alone, and
// each way of the two middle queens within it is counted with a weight of
// its own (JoinPairs).

// symmetricTasks counts the solutions equal to their 180° and to their 90°
// rotation, one task per column of the row-0 queen (one task for n = 0):
// the join counts only totals, and these give the unique count by
// Burnside's lemma. Their searches place whole orbits of queens and are
// tiny next to the join's (cost 1).
func symmetricTasks(n int) []Task {
	var tasks []Task
	for _, k := range []struct {
		kind board.Kind
		tag  string
	}{{board.PointSymmetric, "p"}, {board.Rot90Symmetric, "r"}} {
		if n == 0 {
			tasks = append(tasks, Task{ID: k.tag + "root", Kind: k.kind, Weight: 1, Cost: 1, Middle: -1})
		}
		for c := 0; c < n; c++ {
			tasks = append(tasks, Task{ID: fmt.Sprintf("%s%d", k.tag, c), Kind: k.kind, Weight: 1, Cost: 1,
				Prefix: []uint8{uint8(c)}, Middle: -1})
		}
	}
	return tasks
}

// forEachSubset calls f with every k-element subset of the first m bits,
// in increasing numeric order, until f returns false or w stops; with skip
// ≥ 0 each subset has a zero inserted at bit skip (subsets of the m+1 bits
// without it, in the same order).
func forEachSubset(w *walker, m, k, skip int, f func(uint64) bool) {
	if k > m {
		return
	}
	low := below(max(skip, 0))
	for x := below(k); x>>uint(m) == 0; {
		e := x
		if skip >= 0 {
			e = x&low | (x&^low)<<1
		}
		if w.stopped() || !f(e) {
			return
		}
		if x == 0 {
			return
		}
		// The next subset of k bits (Gosper): the lowest run of ones
		// moves up by one, the rest of it back to the bottom.
		c := x & -x
		r := x + c
		if r == 0 {
			return // past bit 63
		}
		x = r | ((x^r)>>2)>>uint(bits.TrailingZeros64(c))
	}
}

// orbit returns the size of e's orbit under the mirror (complement within
// rows) and, if flip, the up-down flip of an n-row board, when e is the
// orbit's least member; 0 otherwise.
func orbit(e, rows uint64, n int, flip bool) uint64 {
	m := rows &^ e
	if m < e {
		return 0
	}
	if !flip {
		if m == e {
			return 1
		}
		return 2
	}
	r := reverse(e, n)
	rm := rows &^ r
	if r < e || rm < e {
		return 0
	}
	k := uint64(1)
	if m != e {
		k++
	}
	if r != e && r != m {
		k++
	}
	if rm != e && rm != m && rm != r {
		k++
	}
	return k
}

// reverse maps row r to row n-1-r.
func reverse(rows uint64, n int) uint64 {
	return bits.Reverse64(rows) >> uint(64-n)
}

// A join task's cost estimates its work, the number of west-east pairs
// the kernel compares, from its row sets (and the middle queen's row mid,
// or -1): h! placements per half ignoring diagonals, times the chance that
// no two of a half's queens share one (1 - 2(h-d)/(h(h-1)) for each pair
// of rows d < h apart) and that none shares one with the middle queen
// (1 - 1/h for each row within h of it). Its rank correlation with
// measured task times is 0.74-0.78 at n = 16 and 0.80 at n = 17 (0.57
// without the middle queen's term). joinCoster in stream.go computes it.

// binomial is n choose k.
func binomial(n, k int) uint64 {
	b := uint64(1)
	for i := 1; i <= k; i++ {
		b = b * uint64(n-k+i) / uint64(i)
	}
	return b
}

package partition

import (
	"fmt"
	"math/bits"
)

// JoinMaxN is the largest board the join method plans: its kernel keeps the
// 2n-1 diagonals of each direction in a uint64.
const JoinMaxN = 32

// JoinLongFrom is the least board on which the join weights its pairs by
// their long-diagonal queens (even n only; engine/match.go, longBits): the
// two transpositions of the square count for it, and the pairs in which
// both halves hold a long-diagonal queen are never matched. Below it the
// sieve that the weights need costs more than it saves. A weighted task counts another
// share of the total than an unweighted one (only the plan's sum is the
// same), so the plans it applies to have fingerprints of their own.
const JoinLongFrom = 18

// JoinLong tells whether the join weights an n×n board's pairs by their
// long-diagonal queens (not where two middle columns part the halves).
func JoinLong(n int) bool { return n%2 == 0 && n >= JoinLongFrom && JoinMiddle(n) == 0 }

// JoinMiddle returns how many middle columns part the join's west and
// east halves of an n×n board: 1 for odd n, 0 for even n below 28, and 2
// for even n from 28 on. Halves of h columns hold a pair of half-boards
// that share no diagonal with chance about 2^-h·h/2; each middle queen,
// fixed before the halves are listed, takes two diagonals from both
// halves' lists at once, so that each pair is likelier to be a solution.
// With none, the n = 28 join compared about 4 times as many pairs per
// solution as n = 27's (5 times as many at n = 14 against 2 middle
// columns: 499 pairs per solution against 78, n = 13 and 15 with one:
// 112 and 276), and cost 2.1 times as much per solution.
func JoinMiddle(n int) int {
	switch {
	case n%2 == 1:
		return 1
	case n >= joinTwoFrom:
		return 2
	}
	return 0
}

// JoinSide returns the columns of each of the join's halves of an n×n
// board: the west half takes columns 0..h-1, the east half n-h..n-1.
func JoinSide(n int) int { return (n - JoinMiddle(n)) / 2 }

// JoinPairs calls f with the middle queens' rows of each way an even
// n×n board with two middle columns (JoinMiddle) completes task east: a
// is the row of the queen in column h, b the row of the queen in column
// h+1 (h = JoinSide(n)), the west half takes the other rows, and weight
// is how many solutions each of its half-board pairs stands for.
//
// The maps that keep the cut are the mirror (west and east change places,
// and so do the middle columns: (E, W, a, b) to (W, E, b, a)) and the
// up-down flip (every row r to n-1-r). Each orbit of ways is counted
// once, in the one of its members with a < b and a + b < n-1, weight 4;
// where a + b = n-1 two members qualify, (E, W, a, b) and (rev W, rev E,
// a, b): the one with the smaller east rows counts for both (weight 4),
// and one that is both (E = rev W) for the two it stands for (weight 2).
// The middle queens must not attack each other: b ≥ a+2. Every task
// (every set of h east rows) has ways of both kinds, so the plan's tasks
// are the C(n, h) sets of east rows, with no weight of their own.
func JoinPairs(n int, east uint64, f func(a, b int, weight uint64)) {
	all := below(n)
	rest := all &^ east
	for x := rest; x != 0; x &= x - 1 {
		a := bits.TrailingZeros64(x)
		for y := rest &^ below(a+2) &^ ^below(n-a); y != 0; y &= y - 1 {
			b := bits.TrailingZeros64(y)
			w := uint64(4)
			if a+b == n-1 {
				switch rw := reverse(rest&^(1<<uint(a)|1<<uint(b)), n); {
				case east == rw:
					w = 2
				case east > rw:
					continue
				}
			}
			f(a, b, w)
		}
	}
}

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
		kind Kind
		tag  string
	}{{PointSymmetric, "p"}, {Rot90Symmetric, "r"}} {
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

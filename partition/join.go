package partition

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// JoinMaxN is the largest board the join method plans: its kernel keeps the
// 2n-1 diagonals of each direction in a uint64.
const JoinMaxN = 32

// joinTasks plans the join method (the kernel is engine/join.go).
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
func joinTasks(ctx context.Context, n int) ([]Task, error) {
	if n > JoinMaxN {
		return nil, fmt.Errorf("%w: %d is too large for the join method (accepted: 0..%d; sym and mirror accept up to %d)", ErrSize, n, JoinMaxN, MaxN)
	}
	h := n / 2
	all := below(n)
	width := (n + 3) / 4
	tasks := symmetricTasks(n)
	// Room for every task up front: the tasks are large and many.
	splits := binomial(n-n%2, h) / 4
	if n%2 == 1 {
		// Each row of the middle queen but the centre's: C(n-1, h)/2
		// orbits; the centre's C(n-1, h)/4.
		splits = uint64(2*h+1) * binomial(n-1, h) / 4
	}
	// (Row sets that are their own images add a few orbits.)
	tasks = slices.Grow(tasks, int(splits+splits/32)+8)
	wk := &walker{ctx: ctx, rules: Queen.Rules(false)}
	if n%2 == 0 {
		forEachSubset(wk, all, h, func(e uint64) {
			if w := orbit(e, all, n, true); w > 0 {
				tasks = append(tasks, Task{ID: fmt.Sprintf("e%0*x", width, e), Kind: Halves, Weight: w,
					Cost: joinCost(e, all&^e, -1), Rows: e, Middle: -1})
			}
		})
		return tasks, wk.err
	}
	for a := 0; a <= h; a++ {
		rest := all &^ (1 << uint(a))
		flip := a == h // the centre queen keeps the up-down flip
		forEachSubset(wk, rest, h, func(e uint64) {
			w := orbit(e, rest, n, flip)
			if a < h {
				w *= 2 // and the middle queen in row n-1-a
			}
			if w > 0 {
				tasks = append(tasks, Task{ID: fmt.Sprintf("m%d:e%0*x", a, width, e), Kind: Halves, Weight: w,
					Cost: joinCost(e, rest&^e, a), Rows: e, Middle: int8(a)})
			}
		})
	}
	return tasks, wk.err
}

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

// forEachSubset calls f with every k-element subset of set, in increasing
// numeric order, until w stops.
func forEachSubset(w *walker, set uint64, k int, f func(uint64)) {
	var rec func(rest uint64, k int, acc uint64)
	rec = func(rest uint64, k int, acc uint64) {
		if w.stopped() {
			return
		}
		if k == 0 {
			f(acc)
			return
		}
		if bits.OnesCount64(rest) < k {
			return
		}
		// Subsets without the highest element come first numerically.
		hi := uint64(1) << uint(63-bits.LeadingZeros64(rest))
		rec(rest&^hi, k, acc)
		rec(rest&^hi, k-1, acc|hi)
	}
	rec(set, k, 0)
}

// orbit returns the size of e's orbit under the mirror (complement within
// rows) and, if flip, the up-down flip of an n-row board, when e is the
// orbit's least member; 0 otherwise.
func orbit(e, rows uint64, n int, flip bool) uint64 {
	images := []uint64{e, rows &^ e}
	if flip {
		r := reverse(e, n)
		images = append(images, r, rows&^r)
	}
	var distinct []uint64
	for _, x := range images {
		if x < e {
			return 0
		}
		seen := false
		for _, y := range distinct {
			seen = seen || x == y
		}
		if !seen {
			distinct = append(distinct, x)
		}
	}
	return uint64(len(distinct))
}

// reverse maps row r to row n-1-r.
func reverse(rows uint64, n int) uint64 {
	return bits.Reverse64(rows) >> uint(64-n)
}

// joinCost estimates a join task's work, the number of west-east pairs the
// kernel compares, from its row sets (and the middle queen's row mid, or
// -1): h! placements per half ignoring diagonals, times the chance that no
// two of a half's queens share one and that none shares one with the
// middle queen. Its rank correlation with measured task times is 0.74-0.78
// at n = 16 and 0.80 at n = 17 (0.57 without the middle queen's term).
func joinCost(east, west uint64, mid int) uint64 {
	c := halfPlacements(east, mid) * halfPlacements(west, mid)
	return uint64(max(1, math.Round(c/64)))
}

// halfPlacements estimates how many ways h queens fit in h columns, one in
// each of the given rows: h! permutations; for each pair of rows d apart a
// chance of 1 - 2(h-d)/(h(h-1)) that their queens share no diagonal; for
// each row within h of the middle queen's, 1 - 1/h that its queen avoids
// the one square of the half that queen attacks there.
func halfPlacements(rows uint64, mid int) float64 {
	var buf [64]int
	r := buf[:0]
	for x := rows; x != 0; x &= x - 1 {
		r = append(r, bits.TrailingZeros64(x))
	}
	h := len(r)
	p := 1.0
	for i := 2; i <= h; i++ {
		p *= float64(i)
	}
	for i := range r {
		for j := i + 1; j < len(r); j++ {
			if d := r[j] - r[i]; d < h {
				p *= 1 - 2*float64(h-d)/float64(h*(h-1))
			}
		}
		if d := r[i] - mid; mid >= 0 && h > 0 && max(d, -d) <= h {
			p *= 1 - 1/float64(h)
		}
	}
	return p
}

// binomial is n choose k.
func binomial(n, k int) uint64 {
	b := uint64(1)
	for i := 1; i <= k; i++ {
		b = b * uint64(n-k+i) / uint64(i)
	}
	return b
}

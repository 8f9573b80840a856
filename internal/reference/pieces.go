package reference

import "math/big"

// Attack tells whether pieces on (r1, c1) and (r2, c2) of an n×n board,
// in different rows and columns, attack each other. piece is "queen",
// "superqueen", "king", "knight" or "rook"; torus makes the queens' diagonals wrap
// around the board. Written from the moves, square against square, with
// no bit masks: the tests' check of the engine's piece rules.
func Attack(n int, piece string, torus bool, r1, c1, r2, c2 int) bool {
	dr, dc := abs(r1-r2), abs(c1-c2)
	diagonal := dr == dc
	if torus {
		// On the torus (r, c) and (r+k, c±k) share a diagonal for every k,
		// all taken mod n.
		diagonal = mod(r2-r1-(c2-c1), n) == 0 || mod(r2-r1+(c2-c1), n) == 0
	}
	knight := dr == 1 && dc == 2 || dr == 2 && dc == 1
	switch piece {
	case "queen":
		return diagonal
	case "superqueen":
		return diagonal || knight
	case "king":
		return dr <= 1 && dc <= 1
	case "knight":
		return knight
	case "rook":
		return false // rows and columns only, one piece each already
	}
	panic("reference: unknown piece " + piece)
}

// PieceSolutions calls yield with every placement of n pieces on the n×n
// board, one per row and column, no two attacking each other, as the
// column of each row's piece, in lexicographic order (every placement of a
// row's piece checked against every piece above); it stops early when
// yield returns false. The slice is reused between calls.
func PieceSolutions(n int, piece string, torus bool, yield func([]int) bool) {
	cols := make([]int, 0, n)
	used := make([]bool, n)
	var rec func() bool
	rec = func() bool {
		if len(cols) == n {
			return yield(cols)
		}
		r := len(cols)
		for c := 0; c < n; c++ {
			ok := !used[c]
			for r0 := 0; ok && r0 < r; r0++ {
				ok = !Attack(n, piece, torus, r0, cols[r0], r, c)
			}
			if ok {
				used[c] = true
				cols = append(cols, c)
				if !rec() {
					return false
				}
				cols = cols[:r]
				used[c] = false
			}
		}
		return true
	}
	rec()
}

// CountPieces counts the placements [PieceSolutions] lists.
func CountPieces(n int, piece string, torus bool) uint64 {
	var total uint64
	PieceSolutions(n, piece, torus, func([]int) bool { total++; return true })
	return total
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func mod(x, n int) int { return ((x % n) + n) % n }

// CountShortRange counts n kings or knights on the n×n board, one per row
// and column, no two attacking, by a second method: a sweep over the rows
// that keeps, for every set of columns used so far and the columns of the
// last two rows, how many ways lead there. These pieces attack only the
// next two rows, so that state decides every later row. It shares nothing
// with the backtracking searches.
func CountShortRange(n int, piece string) uint64 {
	if n == 0 {
		return 1
	}
	type state struct {
		used   uint32
		c1, c2 int8 // the last row's column and the one before (-1: none)
	}
	ways := map[state]uint64{{0, -1, -1}: 1}
	for r := 0; r < n; r++ {
		next := map[state]uint64{}
		for s, w := range ways {
			for c := 0; c < n; c++ {
				if s.used&(1<<c) != 0 {
					continue
				}
				ok := true
				for d, p := range []int8{s.c1, s.c2} {
					if p >= 0 && Attack(n, piece, false, r-1-d, int(p), r, c) {
						ok = false
					}
				}
				if ok {
					next[state{s.used | 1<<c, int8(c), s.c1}] += w
				}
			}
		}
		ways = next
	}
	var total uint64
	for _, w := range ways {
		total += w
	}
	return total
}

// Kings is A002464(n), n kings one per row and column with none on
// neighbouring squares, by inclusion and exclusion over the pairs of
// neighbouring rows whose kings take neighbouring columns:
// n! + Σ_{k=1}^{n-1} (−1)^k (n−k)! Σ_{r=1}^{k} 2^r C(n−k, r) C(k−1, r−1).
// It shares nothing with the engine's recurrence, and is exact for any n.
func Kings(n int) *big.Int {
	fact := func(k int) *big.Int { return new(big.Int).MulRange(1, int64(max(k, 1))) }
	if n == 0 {
		return big.NewInt(1)
	}
	s := fact(n)
	for k := 1; k < n; k++ {
		inner := new(big.Int)
		for r := 1; r <= k; r++ {
			term := new(big.Int).Lsh(big.NewInt(1), uint(r))
			term.Mul(term, new(big.Int).Binomial(int64(n-k), int64(r)))
			term.Mul(term, new(big.Int).Binomial(int64(k-1), int64(r-1)))
			inner.Add(inner, term)
		}
		inner.Mul(inner, fact(n-k))
		if k%2 == 1 {
			s.Sub(s, inner)
		} else {
			s.Add(s, inner)
		}
	}
	return s
}

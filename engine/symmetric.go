package engine

// This file counts the solutions that equal their own 180° or 90° rotation,
// for methods that count totals without classifying every solution (join):
// with the total they give the number of classes by Burnside's lemma
// (the unique count of a join follows once every task is counted). Symmetric solutions are few and determined by a
// part of the board, so these searches place whole orbits of queens at
// once and are tiny next to the total's count.

import "math/bits"

// symBoard is a board under construction: the rows, columns and diagonals
// taken (bit c-r+n-1 and bit r+c for a queen at row r, column c).
type symBoard struct {
	n                  uint
	rows, cols, d1, d2 uint64
}

// put places a queen at (r, c) if no queen attacks it or holds its row.
func (b *symBoard) put(r, c uint) bool {
	m1, m2 := uint64(1)<<(c+b.n-1-r), uint64(1)<<(r+c)
	if (b.rows>>r|b.cols>>c)&1 != 0 || (b.d1&m1|b.d2&m2) != 0 {
		return false
	}
	b.rows |= 1 << r
	b.cols |= 1 << c
	b.d1 |= m1
	b.d2 |= m2
	return true
}

// candidates are the columns of row r that no queen attacks.
func (b *symBoard) candidates(r uint) uint64 {
	return ^(b.cols | b.d1>>(b.n-1-r) | b.d2>>r) & (uint64(1)<<b.n - 1)
}

// startSym is the empty n×n board, with the centre's queen placed for odd
// n: a solution equal to its 180° rotation has one (the middle row's queen
// maps to the middle row, so it sits in the middle column).
func startSym(n int) symBoard {
	b := symBoard{n: uint(n)}
	if n%2 == 1 {
		b.put(uint(n/2), uint(n/2))
	}
	return b
}

// countPointSym counts the solutions equal to their 180° rotation whose
// row-0 queen is in column first (n = 0: the empty board): each queen at
// (r, c) comes with its image at (n-1-r, n-1-c).
func countPointSym(n, first int) (sols, nodes uint64) {
	return countOrbits(n, first, false)
}

// countRot90Sym counts the solutions equal to their 90° rotation whose
// row-0 queen is in column first: each queen at (r, c) comes with its three
// images (c, n-1-r), (n-1-r, n-1-c) and (n-1-c, r).
func countRot90Sym(n, first int) (sols, nodes uint64) {
	return countOrbits(n, first, true)
}

// orbit places the queen at (r, c) with its images under the 180° rotation,
// and the 90° ones too if rot90; false if one of the squares is attacked.
func (b *symBoard) orbit(r, c uint, rot90 bool) bool {
	m := b.n - 1
	if rot90 {
		return b.put(r, c) && b.put(c, m-r) && b.put(m-r, m-c) && b.put(m-c, r)
	}
	return b.put(r, c) && b.put(m-r, m-c)
}

// countOrbits counts the completions of the board made of whole orbits of
// queens (see symBoard.orbit), the first with the row-0 queen in column
// first. Each step places the orbit of the queen of the highest free row.
// nodes counts the orbits placed.
func countOrbits(n, first int, rot90 bool) (sols, nodes uint64) {
	if n <= 1 {
		return 1, uint64(n) // the empty board, or the one queen
	}
	var rec func(b symBoard)
	rec = func(b symBoard) {
		if b.rows == uint64(1)<<b.n-1 {
			sols++
			return
		}
		r := uint(bits.TrailingZeros64(^b.rows))
		for f := b.candidates(r); f != 0; f &= f - 1 {
			nb := b
			if nb.orbit(r, uint(bits.TrailingZeros64(f)), rot90) {
				nodes++
				rec(nb)
			}
		}
	}
	b := startSym(n)
	if b.orbit(0, uint(first), rot90) {
		nodes++
		rec(b)
	}
	return sols, nodes
}

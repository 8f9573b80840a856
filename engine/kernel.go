package engine

import "math/bits"

// This file holds the counting kernel, the hot loop every backtracking method
// ends in (walkBanned in classify.go is its twin for tasks with bans).
//
// Masks are inverted, a set bit meaning "taken": cols, the diagonal going
// down-left (dl, shifted left once per row) and the one going down-right (dr,
// shifted right once per row). The column mask also has every bit at or above
// n set, so a row is exhausted when cols|dl|dr is all ones, and the board is
// full when cols is. The search keeps the state of each level in small
// arrays indexed by a depth d and, after m-queens:
//   - the lowest free square is ^posib & (posib+1), with no NOT of the masks;
//   - the diagonals are shifted once per level, not once per candidate;
//   - a level whose candidates are exhausted is not kept: the slot above is
//     written unconditionally and d advances only if candidates remain, so
//     pushing is branch-free and backtracking skips finished levels;
//   - the last row is counted without placing its queen: a placement that
//     leaves one free column, still open in the next row, is a solution;
//   - a placement that leaves row+2 or row+3 fully blocked is not searched
//     below. The free columns, one per row left, tell which rows exist, so
//     the loop never compares row numbers.
// Indices are masked with &63 (the stacks have 64+2 slots, boards at most 64
// rows): no bounds checks, no allocation, no calls.

// maxRows is the size of the kernels' stacks: boards up to 64 rows.
const maxRows = 64

// full is a mask with every square taken.
const full = ^uint64(0)

// start is where a search begins: the first free row and the attack masks
// (inverted, see above) left by the queens already placed above it.
type start struct {
	Row          int
	LD, Cols, RD uint64
}

// emptyStart is the empty n×n board.
func emptyStart(n int) start { return start{Cols: ^(uint64(1)<<uint(n) - 1)} }

// place returns the start after a queen at bit in row s.Row.
func (s start) place(bit uint64) start {
	return start{Row: s.Row + 1, LD: (s.LD | bit) << 1, Cols: s.Cols | bit, RD: (s.RD | bit) >> 1}
}

// b2u converts a bool to 0 or 1 without a branch (the compiler emits SETcc).
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// walk counts the completions of s. It returns the completions and the
// nodes: the queens the search placed. A square whose queen would leave the
// next row fully blocked is not tried at all (see doomed), so when two rows
// are left every square tried in the first completes a board: the last two
// rows are counted without a level of their own (and the last row's queen
// is not placed). A placement after which row+2 or row+3 is already fully
// blocked is counted as a node but not searched below. At n = 16 the
// lookahead saves 28% of the nodes, the filter another 20% (bench/data/README.md
// lists the variants that did not pay).
func walk(s start) (sols, nodes uint64) {
	free := ^s.Cols
	switch {
	case free == 0:
		return 1, 0 // the prefix is a whole solution
	case free&(free-1) == 0:
		return b2u(s.Cols|s.LD|s.RD != full), 0 // only the last row is left
	}
	below := ^(s.Cols | s.LD<<1 | s.RD>>1) // the next row's free squares
	if below == 0 {
		return 0, 0
	}
	posib := s.Cols | s.LD | s.RD | doomed(below)
	if free2 := free & (free - 1); free2&(free2-1) == 0 {
		k := uint64(bits.OnesCount64(^posib)) // two rows left
		return k, k
	}
	return walkRows(s, posib)
}

// doomed returns the squares of a row whose queen would block the next
// row, given the next row's free squares f (not empty) before that queen:
// a queen in column b takes b-1, b and b+1 there, so it blocks the row
// when f lies within them, that is for b from f's highest column less one
// to its lowest plus one (no square when they are more than two apart).
func doomed(f uint64) uint64 {
	upToLow := (f^(f-1))<<1 | 1 // columns up to f's lowest plus one
	fromHigh := uint64(int64(full<<uint(bits.Len64(f)-1)) >> 1)
	return upToLow & fromHigh
}

// walkGo is the search of walk for a start with three rows or more left,
// whose untried squares are posib (set bits: taken or doomed), in Go: the
// portable kernel, and the twin of the assembly one (walkBMI) where there
// is one.
func walkGo(s start, posib uint64) (sols, nodes uint64) { return walkCut(s, posib, maxRows, nil) }

// walkCut is walkGo stopping at row cut: a start it would search from
// there goes to cut's sink (with its untried squares) instead, counted
// above as walkGo counts it: the device's host cut (Batch.walkLevel)
// runs the kernel's own loop. A cut at maxRows is none.
func walkCut(s start, posib uint64, cut int, sink func(start, uint64)) (sols, nodes uint64) {
	// A row holds one queen: the next row is the cut's once the columns
	// taken are s's and cut-s.Row more (the levels do not count rows: the
	// last square of a level reuses it).
	atCut := bits.OnesCount64(s.Cols) + cut - s.Row
	var cols, dl, dr, rest [maxRows]uint64
	d := 1
	cols[1], dl[1], dr[1] = s.Cols, s.LD, s.RD
	for d > 0 {
		i := d & 63
		c, dls, drs := cols[i], dl[i]<<1, dr[i]>>1
		for posib != full {
			bit := ^posib & (posib + 1)
			posib ^= bit
			nodes++
			nc := c | bit
			ndl := bit<<1 | dls
			ndr := bit>>1 | drs
			// The next row has a free square (bit was not doomed), and
			// row+2 exists: three rows were left at least.
			la := nc | ndl<<1 | ndr>>1
			if la == full {
				continue
			}
			next := nc | ndl | ndr | doomed(^la)
			if free2 := ^nc & (^nc - 1); free2&(free2-1) == 0 {
				// Two rows left: each of the next row's untried
				// squares completes a board.
				k := uint64(bits.OnesCount64(^next))
				sols += k
				nodes += k
				continue
			}
			if nc|ndl<<2|ndr>>2 == full {
				continue // row+3 exists and is blocked
			}
			if taken := bits.OnesCount64(nc); taken >= atCut {
				sink(start{Row: cut + taken - atCut, Cols: nc, LD: ndl, RD: ndr}, next)
				continue
			}
			rest[(d+1)&63] = posib
			d += int(b2u(posib != full))
			i = d & 63
			cols[i], dl[i], dr[i] = nc, ndl, ndr
			c, dls, drs = nc, ndl<<1, ndr>>1
			posib = next
		}
		posib = rest[d&63]
		d--
	}
	return sols, nodes
}

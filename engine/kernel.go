package engine

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
// nodes: the queens the search placed. The last row's queen is not placed
// (a board with one free column left is a solution exactly when that
// column is free in the last row), and a placement after which row+2 or
// row+3 is already fully blocked is counted as a node but not searched
// below: the lookahead costs a few operations per node and saves 28% of
// the nodes at n = 16 (6-8% of the time, README "Dead ends" for the
// variants that did not pay).
func walk(s start) (sols, nodes uint64) {
	if s.Cols == full {
		return 1, 0 // the prefix is a whole solution
	}
	posib := s.Cols | s.LD | s.RD
	if f := ^s.Cols; f&(f-1) == 0 {
		return b2u(posib != full), 0 // only the last row is left
	}
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
			next := nc | ndl | ndr
			if next == full {
				continue
			}
			// free holds the columns left, one per row below this one.
			free := ^nc
			free2 := free & (free - 1)
			if free2 == 0 {
				sols++ // the next row is the last, and its column is free
				continue
			}
			// Row+2 exists (two free columns at least); row+3 when
			// free2 has a second bit.
			if nc|ndl<<1|ndr>>1 == full || (nc|ndl<<2|ndr>>2 == full && free2&(free2-1) != 0) {
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

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
//   - a solution is a placement that fills cols, counted without a branch,
//     so the loop never compares row numbers.
// Indices are masked with &63 (the stacks have 64+2 slots, boards at most 64
// rows): no bounds checks, no allocation, no calls.

// maxRows is the size of the kernels' stacks: boards up to 64 rows.
const maxRows = 64

// MaxN is the largest board the counting kernels accept.
const MaxN = maxRows

// full is a mask with every square taken.
const full = ^uint64(0)

// Start is where a search begins: the first free row and the attack masks
// (inverted, see above) left by the queens already placed above it.
type Start struct {
	Row          int
	LD, Cols, RD uint64
}

// emptyStart is the empty n×n board.
func emptyStart(n int) Start { return Start{Cols: ^(uint64(1)<<uint(n) - 1)} }

// place returns the start after a queen at bit in row s.Row.
func (s Start) place(bit uint64) Start {
	return Start{Row: s.Row + 1, LD: (s.LD | bit) << 1, Cols: s.Cols | bit, RD: (s.RD | bit) >> 1}
}

// b2u converts a bool to 0 or 1 without a branch (the compiler emits SETcc).
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// walk counts the completions of s. It returns the completions and the
// nodes: the queens the search placed, the last row's included.
func walk(s Start) (sols, nodes uint64) {
	if s.Cols == full {
		return 1, 0 // the prefix is a whole solution
	}
	var cols, dl, dr, rest [maxRows]uint64
	d := 1
	cols[1], dl[1], dr[1] = s.Cols, s.LD, s.RD
	posib := s.Cols | s.LD | s.RD
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
				sols += b2u(nc == full)
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

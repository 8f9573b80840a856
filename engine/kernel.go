package engine

// This file holds the counting kernel, the hot loop every backtracking method
// ends in (the sym method's classifying twin is in classify.go).
//
// Masks are inverted, a set bit meaning "attacked": cols, the diagonal going
// down-left (ld, shifted left once per row) and the one going down-right (rd,
// shifted right once per row). The column mask also has every bit at or above
// n set, so a row's free squares are ^(ld|cols|rd|ban[row]) with no extra AND.
// The search is an explicit array stack held in locals: no allocation, no
// recursion, no bounds checks (indices are masked with &63). It also
//   - never descends into a child whose next row, or the row after it, or the
//     one after that, is already fully attacked (m-queens' look-ahead);
//   - pushes a frame only when the current row still has alternatives;
//   - counts the last two rows in closed form: two columns are left, so row
//     n-2 has at most two free squares and row n-1 at most one.

// maxRows is the size of the kernel's stacks: boards up to 64 rows.
const maxRows = 64

// MaxN is the largest board the counting kernels accept.
const MaxN = maxRows

// Start is where a search begins: the first free row and the attack masks
// (inverted, see above) left by the queens already placed above it.
type Start struct {
	Row          int
	LD, Cols, RD uint64
}

// b2u converts a bool to 0 or 1 without a branch (the compiler emits SETcc).
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// walk counts the completions of s on an n×n board, where ban[r] holds the
// squares of row r that the method forbids (symmetry bounds; zero for plain
// counting). It returns the completions and the nodes: queens placed by the
// search in rows 0..n-3, plus one per completion.
func walk(n int, s Start, ban *[maxRows]uint64) (sols, nodes uint64) {
	last := n - 1
	if last-s.Row < 2 {
		return walkShort(n, s, ban)
	}
	var stkL, stkC, stkR, stkF [maxRows]uint64
	var stkD [maxRows]int
	ld, cols, rd := s.LD, s.Cols, s.RD
	free := ^(ld | cols | rd | ban[s.Row&63])
	d := s.Row // the row of the queen being placed
	sp := 0
	pen := last - 2 // a queen in row pen has row n-2 as its child
	banP, banL := ban[(last-1)&63], ban[last&63]
	for {
		if free == 0 {
			if sp == 0 {
				return sols, nodes
			}
			sp--
			i := sp & 63
			ld, cols, rd, free, d = stkL[i], stkC[i], stkR[i], stkF[i], stkD[i]
			continue
		}
		bit := free & -free
		free ^= bit
		nodes++
		nld := (ld | bit) << 1
		ncols := cols | bit
		nrd := (rd | bit) >> 1
		if d >= pen {
			// Rows n-2 and n-1 in closed form.
			nfree := ^(nld | ncols | nrd | banP)
			x1 := nfree & -nfree
			x2 := nfree ^ x1
			f1 := ^((nld|x1)<<1 | ncols | x1 | (nrd|x1)>>1 | banL)
			f2 := ^((nld|x2)<<1 | ncols | x2 | (nrd|x2)>>1 | banL)
			k := b2u(x1 != 0)&b2u(f1 != 0) + b2u(x2 != 0)&b2u(f2 != 0)
			sols += k
			nodes += k
			continue
		}
		nfree := ^(nld | ncols | nrd | ban[(d+1)&63])
		if nfree == 0 || ^(ncols|nld<<1|nrd>>1) == 0 || ^(ncols|nld<<2|nrd>>2) == 0 {
			continue
		}
		if free != 0 {
			i := sp & 63
			stkL[i], stkC[i], stkR[i], stkF[i], stkD[i] = ld, cols, rd, free, d
			sp++
		}
		d++
		ld, cols, rd, free = nld, ncols, nrd, nfree
	}
}

// walkShort counts the completions of a start with at most two rows left,
// the same way walk's closed form does.
func walkShort(n int, s Start, ban *[maxRows]uint64) (sols, nodes uint64) {
	if s.Row >= n {
		return 1, 1
	}
	free := ^(s.LD | s.Cols | s.RD | ban[s.Row&63])
	for free != 0 {
		bit := free & -free
		free ^= bit
		if s.Row == n-1 {
			sols++
			nodes++
			continue
		}
		next := Start{Row: s.Row + 1, LD: (s.LD | bit) << 1, Cols: s.Cols | bit, RD: (s.RD | bit) >> 1}
		k, _ := walkShort(n, next, ban)
		sols += k
		nodes += k
	}
	return sols, nodes
}

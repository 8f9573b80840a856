package engine

import "math/bits"

// walkSym is walk's twin for Classify tasks: the same search, but every
// completion is compared with its images under the 8 symmetries of the
// square and counted only if it is the least of them (see classify). board
// holds the placed queen's bit for each row above s.Row on entry.
func walkSym(n int, s Start, ban *[maxRows]uint64, board *[maxRows]uint64, c *Result) {
	last := n - 1
	if last-s.Row < 2 {
		walkSymShort(n, s, ban, board, c)
		return
	}
	var stkL, stkC, stkR, stkF [maxRows]uint64
	var stkD [maxRows]int
	ld, cols, rd := s.LD, s.Cols, s.RD
	free := ^(ld | cols | rd | ban[s.Row&63])
	d := s.Row
	sp := 0
	pen := last - 2
	banP, banL := ban[(last-1)&63], ban[last&63]
	nodes := c.Nodes
	for {
		if free == 0 {
			if sp == 0 {
				c.Nodes = nodes
				return
			}
			sp--
			i := sp & 63
			ld, cols, rd, free, d = stkL[i], stkC[i], stkR[i], stkF[i], stkD[i]
			continue
		}
		bit := free & -free
		free ^= bit
		nodes++
		board[d&63] = bit
		nld := (ld | bit) << 1
		ncols := cols | bit
		nrd := (rd | bit) >> 1
		if d >= pen {
			nfree := ^(nld | ncols | nrd | banP)
			for ; nfree != 0; nfree &= nfree - 1 {
				x := nfree & -nfree
				f := ^((nld|x)<<1 | ncols | x | (nrd|x)>>1 | banL)
				if f != 0 {
					nodes++
					board[(last-1)&63] = x
					board[last&63] = f
					c.add(classify(n, board))
				}
			}
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

// walkSymShort classifies the completions of a start with at most two rows
// left.
func walkSymShort(n int, s Start, ban *[maxRows]uint64, board *[maxRows]uint64, c *Result) {
	if s.Row >= n {
		c.Nodes++
		c.add(classify(n, board))
		return
	}
	for free := ^(s.LD | s.Cols | s.RD | ban[s.Row&63]); free != 0; free &= free - 1 {
		bit := free & -free
		board[s.Row&63] = bit
		next := Start{Row: s.Row + 1, LD: (s.LD | bit) << 1, Cols: s.Cols | bit, RD: (s.RD | bit) >> 1}
		walkSymShort(n, next, ban, board, c)
	}
}

// class describes a solution's symmetry class, as seen from one member.
type class uint8

const (
	notLeast class = iota // another image of the solution is smaller
	size8                 // no symmetry: 8 solutions in the class
	size4                 // equal to its 180° rotation only
	size2                 // equal to its 90° rotation
	size1                 // equal to every image (n ≤ 1)
)

// add counts one classified completion.
func (r *Result) add(k class) {
	switch k {
	case size8:
		r.Unique++
		r.Total += 8
	case size4:
		r.Unique++
		r.Total += 4
		r.PointSym += 4
	case size2:
		r.Unique++
		r.Total += 2
		r.PointSym += 2
		r.Rot90Sym += 2
	case size1:
		r.Unique++
		r.Total++
		r.PointSym++
		r.Rot90Sym++
	}
}

// classify compares a solution, given as the queen's bit in each row, with
// its 7 images under the rotations and reflections of the square, reading
// each board as the sequence of its queens' columns. It returns notLeast if
// some image is smaller; otherwise the size of the class, from how many
// images equal the solution. Comparisons stop at the first differing row, so
// most calls look at a row or two per image.
func classify(n int, board *[maxRows]uint64) class {
	var p, q [maxRows]int8 // p[row] = column, q[column] = row
	for r := 0; r < n; r++ {
		c := int8(bits.TrailingZeros64(board[r&63]))
		p[r&63] = c
		q[c&63] = int8(r)
	}
	m := int8(n - 1)
	equal, rot90, rot180 := 1, false, false
	for t := 0; t < 7; t++ {
		cmp := 0
		for r := 0; r < n && cmp == 0; r++ {
			var v int8
			switch t {
			case 0: // left-right mirror
				v = m - p[r&63]
			case 1: // up-down mirror
				v = p[(n-1-r)&63]
			case 2: // rotation by 180°
				v = m - p[(n-1-r)&63]
			case 3: // transpose
				v = q[r&63]
			case 4: // anti-transpose
				v = m - q[(n-1-r)&63]
			case 5: // rotation by 90° clockwise
				v = m - q[r&63]
			case 6: // rotation by 270° clockwise
				v = q[(n-1-r)&63]
			}
			if w := p[r&63]; v < w {
				cmp = -1
			} else if v > w {
				cmp = 1
			}
		}
		switch {
		case cmp < 0:
			return notLeast
		case cmp == 0:
			equal++
			rot90 = rot90 || t == 5
			rot180 = rot180 || t == 2
		}
	}
	switch {
	case equal == 8:
		return size1
	case rot90:
		return size2
	case rot180:
		return size4
	}
	return size8
}

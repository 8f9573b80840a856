package engine

import "math/bits"

// walkBanned is walk's twin for tasks with bans (the sym method's symmetry
// bounds, queens placed in advance): the same search, avoiding the squares
// ban forbids in each row. With weight 0 (sym's Classify tasks) every
// completion is compared with its images under the 8 symmetries of the
// square and counted only if it is the least of them (see classify);
// otherwise each completion adds weight to r.Total. board holds the placed
// queen's bit for each row above s.Row on entry.
func walkBanned(n int, s Start, ban *[maxRows]uint64, board *[maxRows]uint64, weight uint64, flip bool, r *Result) {
	if s.Cols == full {
		r.leaf(n, board, weight, flip)
		return
	}
	var cols, dl, dr, rest [maxRows]uint64
	var rows [maxRows]int
	d := 1
	cols[1], dl[1], dr[1], rows[1] = s.Cols, s.LD, s.RD, s.Row
	posib := s.Cols | s.LD | s.RD | ban[s.Row&63]
	nodes := r.Nodes
	for d > 0 {
		i := d & 63
		c, dls, drs, row := cols[i], dl[i]<<1, dr[i]>>1, rows[i]
		banNext := ban[(row+1)&63]
		for posib != full {
			bit := ^posib & (posib + 1)
			posib ^= bit
			nodes++
			nc := c | bit
			ndl := bit<<1 | dls
			ndr := bit>>1 | drs
			next := nc | ndl | ndr | banNext
			if next == full {
				if nc == full {
					board[row&63] = bit
					r.leaf(n, board, weight, flip)
				}
				continue
			}
			// The board records the path: a row's queen is written when
			// the search goes below it (or completes the board), which
			// overwrites whatever an abandoned sibling left there.
			board[row&63] = bit
			rest[(d+1)&63] = posib
			d += int(b2u(posib != full))
			i = d & 63
			row++
			cols[i], dl[i], dr[i], rows[i] = nc, ndl, ndr, row
			c, dls, drs = nc, ndl<<1, ndr>>1
			banNext = ban[(row+1)&63]
			posib = next
		}
		posib = rest[d&63]
		d--
	}
	r.Nodes = nodes
}

// leaf counts one completion: weight solutions, or its class (weight 0),
// turning the board back over first for a task searched upside down.
func (r *Result) leaf(n int, board *[maxRows]uint64, weight uint64, flip bool) {
	if weight != 0 {
		r.Total += weight
		return
	}
	if flip {
		var up [maxRows]uint64
		for i := 0; i < n; i++ {
			up[i&63] = board[(n-1-i)&63]
		}
		r.add(classify(n, &up))
		return
	}
	r.add(classify(n, board))
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

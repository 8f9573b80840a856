package engine

import "math/bits"

// bannedSearch is the state of a search with bans (the sym method's
// symmetry bounds, queens placed in advance): the stacks of the search, the
// path (the queen's bit in each row), how a completion counts, and the
// sums. The search stops at each completion and resumes after it, so that
// the hot loop calls nothing and keeps its registers.
type bannedSearch struct {
	n      int
	weight uint64 // 0: classify each completion (sym's Classify tasks)
	flip   bool   // the task searches the board upside down
	ban    *[maxRows]uint64
	board  [maxRows]uint64

	cols, dl, dr, rest [maxRows]uint64
	rows               [maxRows]int
	d                  int    // current level; 0 when the search is over
	posib              uint64 // the current level's untried squares (set bits: taken)

	r Result
}

// walkBanned is walk's twin for tasks with bans: the same search, avoiding
// the squares ban forbids in each row. With weight 0 (sym's Classify tasks)
// every completion is compared with its images under the 8 symmetries of
// the square and counted only if it is the least of them (see classify);
// otherwise each completion adds weight to the total. board holds the
// placed queen's bit for each row above s.Row.
func walkBanned(bs *bannedSearch, s start) {
	bs.posib = s.Cols | s.LD | s.RD | bs.ban[s.Row&63]
	switch f := ^s.Cols; {
	case s.Cols == full:
		bs.leaf()
		return
	case f&(f-1) == 0: // only the last row is left
		if bs.posib != full {
			bs.board[s.Row&63] = f
			bs.leaf()
		}
		return
	}
	bs.d = 1
	bs.cols[1], bs.dl[1], bs.dr[1], bs.rows[1] = s.Cols, s.LD, s.RD, s.Row
	for bs.next() {
		bs.leaf()
	}
}

// next runs the search to its next completion, which it leaves in board,
// and reports whether there was one.
func (bs *bannedSearch) next() bool {
	d, posib, ban := bs.d, bs.posib, bs.ban
	var nodes uint64
	for d > 0 {
		i := d & 63
		c, dls, drs, row := bs.cols[i], bs.dl[i]<<1, bs.dr[i]>>1, bs.rows[i]
		ban1, ban2 := ban[(row+1)&63], ban[(row+2)&63]
		for posib != full {
			bit := ^posib & (posib + 1)
			posib ^= bit
			nodes++
			nc := c | bit
			ndl := bit<<1 | dls
			ndr := bit>>1 | drs
			next := nc | ndl | ndr | ban1
			if next == full {
				continue
			}
			// As in walk: the last row is counted without placing its
			// queen, and rows+2 and +3 are looked ahead when they exist.
			free := ^nc
			free2 := free & (free - 1)
			if free2 == 0 {
				bs.board[row&63] = bit
				bs.board[(row+1)&63] = free
				bs.d, bs.posib = d, posib
				bs.r.Nodes += nodes
				return true
			}
			if nc|ndl<<1|ndr>>1|ban2 == full || (nc|ndl<<2|ndr>>2|ban[(row+3)&63] == full && free2&(free2-1) != 0) {
				continue
			}
			// The board records the path: a row's queen is written when
			// the search goes below it (or completes the board), which
			// overwrites whatever an abandoned sibling left there.
			bs.board[row&63] = bit
			bs.rest[(d+1)&63] = posib
			d += int(b2u(posib != full))
			i = d & 63
			row++
			bs.cols[i], bs.dl[i], bs.dr[i], bs.rows[i] = nc, ndl, ndr, row
			c, dls, drs = nc, ndl<<1, ndr>>1
			ban1, ban2 = ban2, ban[(row+2)&63]
			posib = next
		}
		posib = bs.rest[d&63]
		d--
	}
	bs.d = 0
	bs.r.Nodes += nodes
	return false
}

// leaf counts one completion: weight solutions, or its class (weight 0),
// turning the board back over first for a task searched upside down.
func (bs *bannedSearch) leaf() {
	if bs.weight != 0 {
		bs.r.Total += bs.weight
		return
	}
	if bs.flip {
		var up [maxRows]uint64
		for i := 0; i < bs.n; i++ {
			up[i&63] = bs.board[(bs.n-1-i)&63]
		}
		bs.r.add(classify(bs.n, &up))
		return
	}
	bs.r.add(classify(bs.n, &bs.board))
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

package engine

import (
	"math/bits"

	"github.com/nqueens/nqueens/internal/board"
)

// bannedSearch is the state of a search with bans (the sym method's
// symmetry bounds, queens placed in advance): the stack of the search, the
// bans, the path (the queen's bit in each row), how a completion counts,
// and the sums. The search stops at each completion and resumes after it,
// so that the hot loop calls nothing and keeps its registers. The
// assembly kernel (nextBMI) shares this layout; TestBannedLayout checks it.
type bannedSearch struct {
	lv    [maxRows + 2]bannedLevel
	ban   [maxRows]uint64 // the squares banned in each row
	board [maxRows]uint64
	d     int    // current level; 0 when the search is over
	posib uint64 // the current level's untried squares (set bits: taken, tried or doomed)
	nodes uint64 // queens placed

	n      int
	weight uint64 // 0: classify each completion (sym's Classify tasks)
	flip   bool   // the task searches the board upside down
	asm    bool   // next runs the assembly kernel
	r      Result

	// A device's host cut (Batch.expandBanned) runs nextGo to row cut
	// (0: no cut): there nextGo stops as at a completion, atCut
	// set, the queen of the row above in board and the start it would
	// search from in edge, with its untried squares edgePosib.
	cut       uint64
	atCut     bool
	edge      start
	edgePosib uint64
}

// bannedLevel is one level of the stack: the columns taken, both
// diagonals shifted for the next row, the untried squares of the level
// above, and the row. 64 bytes: the assembly kernel finds a level's index
// with a shift.
type bannedLevel struct {
	cols, dls, drs, rest, row uint64
	_                         [3]uint64
}

// init readies bs for an n×n task with the given bans.
func (bs *bannedSearch) init(n int, ban *board.Bans) {
	*bs = bannedSearch{n: n}
	copy(bs.ban[:], ban[:])
}

// walkBanned is walk's twin for tasks with bans: the same search, avoiding
// the squares ban forbids in each row. With weight 0 (sym's Classify tasks)
// every completion is compared with its images under the 8 symmetries of
// the square and counted only if it is the least of them (see classify);
// otherwise each completion adds weight to the total. board holds the
// placed queen's bit for each row above s.Row.
func walkBanned(bs *bannedSearch, s start) {
	row := uint64(s.Row)
	posib := s.Cols | s.LD | s.RD | bs.ban[row&63]
	switch f := ^s.Cols; {
	case s.Cols == full:
		bs.leaf()
		return
	case f&(f-1) == 0: // only the last row is left
		if posib != full {
			bs.board[row&63] = f
			bs.leaf()
		}
		return
	}
	below := ^(s.Cols | s.LD<<1 | s.RD>>1 | bs.ban[(row+1)&63])
	if below == 0 {
		return
	}
	bs.d, bs.posib, bs.asm = 1, posib|doomed(below), useAsm(s)
	bs.lv[1] = bannedLevel{cols: s.Cols, dls: s.LD << 1, drs: s.RD >> 1, row: row}
	for bs.next() {
		bs.leaf()
	}
	bs.r.Nodes += bs.nodes
}

// nextGo runs the search to its next completion, which it leaves in
// board, and reports whether there was one: the portable kernel, and the
// twin of the assembly one (nextBMI) where there is one.
func (bs *bannedSearch) nextGo() bool {
	d, posib, ban, cut := bs.d, bs.posib, &bs.ban, bs.cut
	var nodes uint64
	for d > 0 {
		lv := &bs.lv[d&63]
		c, dls, drs, row := lv.cols, lv.dls, lv.drs, lv.row
		for posib != full {
			bit := ^posib & (posib + 1)
			posib ^= bit
			nodes++
			nc := c | bit
			ndl := bit<<1 | dls
			ndr := bit>>1 | drs
			// As in walk: the next row has a free square (bit was not
			// doomed), the last row's queen is not placed, and rows+2
			// and +3 are looked ahead when they exist.
			free := ^nc
			free2 := free & (free - 1)
			if free2 == 0 {
				bs.board[row&63] = bit
				bs.board[(row+1)&63] = free
				bs.d, bs.posib, bs.atCut = d, posib, false
				bs.nodes += nodes
				return true
			}
			la := nc | ndl<<1 | ndr>>1 | ban[(row+2)&63]
			if la == full || (free2&(free2-1) != 0 && nc|ndl<<2|ndr>>2|ban[(row+3)&63] == full) {
				continue
			}
			// The board records the path: a row's queen is written when
			// the search goes below it (or completes the board), which
			// overwrites whatever an abandoned sibling left there.
			bs.board[row&63] = bit
			if row+1 == cut { // rows go down one at a time: none skips it
				bs.edge = start{Row: int(row + 1), Cols: nc, LD: ndl, RD: ndr}
				bs.edgePosib = nc | ndl | ndr | ban[(row+1)&63] | doomed(^la)
				bs.d, bs.posib, bs.atCut = d, posib, true
				bs.nodes += nodes
				return true
			}
			bs.lv[(d+1)&63].rest = posib
			d += int(b2u(posib != full))
			row++
			lv := &bs.lv[d&63]
			c, dls, drs = nc, ndl<<1, ndr>>1
			lv.cols, lv.dls, lv.drs, lv.row = c, dls, drs, row
			posib = nc | ndl | ndr | ban[row&63] | doomed(^la)
		}
		posib = bs.lv[d&63].rest
		d--
	}
	bs.d = 0
	bs.nodes += nodes
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

package engine

// This file holds the join method's kernel: a meet in the middle that never
// backtracks a whole board.
//
// A join task fixes which rows hold their queen in the east half of the board
// (columns n-h..n-1, h = n/2); the other rows hold theirs in the west half
// (columns 0..h-1). For odd n the middle column's queen is placed first, in
// a row the task fixes too. Each half is then a small board of its own: h
// queens in h columns, one in each of its rows. Rows and columns of the two
// halves never clash, so a west half and an east half make a solution exactly
// when they share no diagonal. The kernel
//
//  1. lists every east half (a backtracking over its h rows, halfBoard) and
//     keeps, as one bit pattern, the diagonals it holds that a west queen
//     could also reach (the overlap window; 4h-2 bits);
//  2. lists every west half the same way;
//  3. counts the pairs with disjoint patterns (matchGroup): the east patterns
//     are transposed in groups of 64, one word per byte value of each byte
//     of a pattern, bit j set when pattern j shares no bit with that byte
//     value. A west pattern ANDs one word per byte and a popcount gives
//     how many of the 64 east halves it completes.
//
// Step 3 is the hot loop: per west pattern and group of 64 east patterns it
// does one load per pattern byte, the ANDs and a popcount; no branches, no
// bounds checks (the tables are indexed by bytes), no allocation (buffers
// belong to the worker and are reused). Memory is bounded: each side is
// listed in chunks of at most the worker's capacity and the west side is
// listed again for each further east chunk.

import (
	"math/bits"

	"github.com/nqueens/nqueens/partition"
)

// JoinMaxN is the largest board the join kernel accepts: its diagonal masks
// hold 2n-1 bits in a uint64.
const JoinMaxN = partition.JoinMaxN

// halfBoard lists the placements of one half of the board: h queens in the
// columns cols, one in each row of rows, attacking neither each other nor
// the banned diagonals. Listing can stop when a buffer is full and resume
// where it stopped.
type halfBoard struct {
	n, h       int
	rows       [JoinMaxN]uint8 // the half's rows, increasing
	cols       uint64          // the half's columns
	ban1, ban2 uint64          // diagonals taken before the half starts
	lo, width  uint            // overlap window: diagonals lo..lo+width-1
	win        uint64          // width low bits

	// The search stack, level i placing the queen of row rows[i]: the free
	// columns left to try, the columns and diagonals taken above it.
	depth              int
	free, used, d1, d2 [JoinMaxN]uint64
	started, done      bool
	nodes              uint64
}

// reset prepares h to list the half with the given rows and columns of an
// n×n board; ban1 and ban2 are diagonals already taken (bit c-r+n-1 and
// bit r+c for a queen at row r, column c).
func (hb *halfBoard) reset(n int, rows, cols, ban1, ban2 uint64) {
	h := bits.OnesCount64(cols)
	hb.n, hb.h, hb.cols, hb.ban1, hb.ban2 = n, h, cols, ban1, ban2
	i := 0
	for r := rows; r != 0; r &= r - 1 {
		hb.rows[i&(JoinMaxN-1)] = uint8(bits.TrailingZeros64(r))
		i++
	}
	// The west half reaches main diagonals up to (h-1)-0+n-1 and
	// anti-diagonals up to (n-1)+(h-1); the east half reaches both down to
	// n-h. In between lie 2h-1 diagonals of each direction.
	hb.lo = uint(n - h)
	hb.width = uint(max(2*h-1, 0))
	hb.win = uint64(1)<<hb.width - 1
	hb.depth, hb.started, hb.done, hb.nodes = 0, false, false, 0
}

// pattern is the part of the diagonals d1, d2 that the other half may
// also hold: the half's own queens only, main diagonals in the low bits.
func (hb *halfBoard) pattern(d1, d2 uint64) uint64 {
	return ((d1^hb.ban1)>>hb.lo)&hb.win | ((d2^hb.ban2)>>hb.lo&hb.win)<<hb.width
}

// rewind makes the next fill list the half again from the start.
func (hb *halfBoard) rewind() {
	hb.depth, hb.started, hb.done = 0, false, false
}

// fill writes the next patterns into buf and returns how many it wrote;
// fewer than len(buf) means the listing is complete. len(buf) must be > 0.
func (hb *halfBoard) fill(buf []uint64) int {
	if hb.done {
		return 0
	}
	n := uint(hb.n)
	if !hb.started {
		hb.started = true
		if hb.h == 0 {
			buf[0] = 0
			hb.done = true
			return 1
		}
		r := uint(hb.rows[0])
		hb.d1[0], hb.d2[0], hb.used[0] = hb.ban1, hb.ban2, 0
		hb.free[0] = hb.cols &^ (hb.ban1>>(n-1-r) | hb.ban2>>r)
	}
	k := 0
	i := hb.depth
	last := hb.h - 1
	nodes := hb.nodes
	for i >= 0 {
		i &= JoinMaxN - 1
		f := hb.free[i]
		if f == 0 {
			i--
			continue
		}
		b := f & -f
		hb.free[i] = f ^ b
		c := uint(bits.TrailingZeros64(b))
		r := uint(hb.rows[i])
		d1 := hb.d1[i] | 1<<(c+n-1-r)
		d2 := hb.d2[i] | 1<<(r+c)
		nodes++
		if i == last {
			buf[k&(len(buf)-1)] = hb.pattern(d1, d2)
			k++
			if k == len(buf) {
				hb.depth, hb.nodes = i, nodes
				return k
			}
			continue
		}
		u := hb.used[i] | b
		i++
		r = uint(hb.rows[i&(JoinMaxN-1)])
		hb.d1[i&(JoinMaxN-1)], hb.d2[i&(JoinMaxN-1)], hb.used[i&(JoinMaxN-1)] = d1, d2, u
		hb.free[i&(JoinMaxN-1)] = hb.cols &^ (u | d1>>(n-1-r) | d2>>r)
	}
	hb.depth, hb.nodes, hb.done = -1, nodes, true
	return k
}

// chunkRow is one byte's part of a group's table: word v has bit j set when
// pattern j of the group shares no bit with byte value v at that position.
type chunkRow [256]uint64

// groupTable is the table of one group of 64 patterns: one row per byte of
// a pattern (only the first `bytes` rows are used).
type groupTable [8]chunkRow

// buildGroup fills t from up to 64 patterns of `bytes` bytes each.
func buildGroup(t *groupTable, pats []uint64, nbytes int) {
	var has [64]uint64 // has[b]: the patterns holding bit b
	for j, p := range pats {
		for ; p != 0; p &= p - 1 {
			has[bits.TrailingZeros64(p)&63] |= 1 << uint(j&63)
		}
	}
	valid := ^uint64(0) >> (64 - uint(len(pats)))
	for k := 0; k < nbytes; k++ {
		row := &t[k&7]
		row[0] = valid
		for v := 1; v < 256; v++ {
			low := v & -v
			row[v] = row[v^low] &^ has[(8*k+bits.TrailingZeros(uint(low)))&63]
		}
	}
}

// matchGroup counts the pairs of a pattern of items and a pattern of the
// group whose bits are disjoint.
func matchGroup(t *groupTable, nbytes int, items []uint64) uint64 {
	var s int
	switch {
	case nbytes <= 4:
		for _, w := range items {
			s += bits.OnesCount64(t[0][uint8(w)] & t[1][uint8(w>>8)] & t[2][uint8(w>>16)] & t[3][uint8(w>>24)])
		}
	case nbytes == 5:
		for _, w := range items {
			s += bits.OnesCount64(t[0][uint8(w)] & t[1][uint8(w>>8)] & t[2][uint8(w>>16)] & t[3][uint8(w>>24)] &
				t[4][uint8(w>>32)])
		}
	case nbytes == 6:
		for _, w := range items {
			s += bits.OnesCount64(t[0][uint8(w)] & t[1][uint8(w>>8)] & t[2][uint8(w>>16)] & t[3][uint8(w>>24)] &
				t[4][uint8(w>>32)] & t[5][uint8(w>>40)])
		}
	default:
		for _, w := range items {
			s += bits.OnesCount64(t[0][uint8(w)] & t[1][uint8(w>>8)] & t[2][uint8(w>>16)] & t[3][uint8(w>>24)] &
				t[4][uint8(w>>32)] & t[5][uint8(w>>40)] & t[6][uint8(w>>48)] & t[7][uint8(w>>56)])
		}
	}
	return uint64(s)
}

// Join buffer sizes, in patterns. A worker's memory for the join is two
// pattern buffers and one block of group tables.
const (
	// tableGroups is how many groups of 64 patterns are transposed at once:
	// with 4-byte patterns their tables (8 KiB each) stay in L2.
	tableGroups = 16
	// itemBlock is how many patterns of the other side are matched against
	// one block of tables before the next: 32 KiB, in L1.
	itemBlock = 4096
	// MinJoinChunk and MaxJoinChunk bound a worker's pattern buffers: below
	// the minimum the west side would be listed again too often; above the
	// maximum no measured task gains anything.
	MinJoinChunk = 1 << 12
	MaxJoinChunk = 1 << 22
)

// JoinWorkerBytes is the memory one worker needs for the join with pattern
// buffers of chunk patterns each.
func JoinWorkerBytes(chunk int) int64 {
	return int64(2*8*chunk) + int64(tableGroups*8*256*8)
}

// joinScratch is a worker's reusable memory for join tasks.
type joinScratch struct {
	chunk        int
	east, west   []uint64
	tables       []groupTable
	eastH, westH halfBoard
}

func newJoinScratch(chunk int) *joinScratch {
	chunk = max(MinJoinChunk, min(MaxJoinChunk, chunk))
	chunk = 1 << (bits.Len(uint(chunk)) - 1) // a power of two: fill masks its index
	return &joinScratch{chunk: chunk}
}

// runJoin counts the solutions of one join task.
func runJoin(n int, t *partition.Task, js *joinScratch, r *Result) {
	if js.east == nil {
		js.east = make([]uint64, js.chunk)
		js.west = make([]uint64, js.chunk)
		js.tables = make([]groupTable, tableGroups)
	}
	h := n / 2
	west := uint64(1)<<uint(h) - 1
	east := west << uint(n-h)
	all := uint64(1)<<uint(n) - 1
	var ban1, ban2 uint64
	eastRows := t.Rows
	westRows := all &^ eastRows
	if n%2 == 1 {
		a := uint(t.Middle) // the middle column's queen, in row a
		ban1 = 1 << (uint(h) + uint(n) - 1 - a)
		ban2 = 1 << (a + uint(h))
		westRows &^= 1 << a
	}
	js.eastH.reset(n, eastRows, east, ban1, ban2)
	js.westH.reset(n, westRows, west, ban1, ban2)
	// Bytes per pattern; matchGroup reads at least 4 (patterns of fewer
	// bytes have zero bytes there, whose words buildGroup fills too).
	nbytes := max(4, (2*int(js.eastH.width)+7)/8)

	var pairs uint64
	westListed := -1 // patterns of a complete west listing kept in js.west, or -1
	for {
		ne := js.eastH.fill(js.east)
		if ne == 0 {
			break
		}
		if westListed >= 0 {
			pairs += matchChunk(js, js.east[:ne], js.west[:westListed], nbytes)
		} else {
			js.westH.rewind()
			for first := true; ; first = false {
				nw := js.westH.fill(js.west)
				if nw == 0 {
					break
				}
				pairs += matchChunk(js, js.east[:ne], js.west[:nw], nbytes)
				if nw < len(js.west) {
					if first {
						westListed = nw // the whole west side fits: keep it
					}
					break
				}
			}
		}
		if ne < len(js.east) {
			break
		}
	}
	r.Total = pairs * t.Weight
	r.Nodes = js.eastH.nodes + js.westH.nodes
}

// matchChunk counts the disjoint pairs of east and west patterns.
func matchChunk(js *joinScratch, east, west []uint64, nbytes int) uint64 {
	var s uint64
	for len(east) > 0 {
		// Transpose the next block of groups.
		g := 0
		for ; g < tableGroups && len(east) > 0; g++ {
			k := min(64, len(east))
			buildGroup(&js.tables[g], east[:k], nbytes)
			east = east[k:]
		}
		for items := west; len(items) > 0; {
			blk := items[:min(itemBlock, len(items))]
			items = items[len(blk):]
			for i := range js.tables[:g] {
				s += matchGroup(&js.tables[i], nbytes, blk)
			}
		}
	}
	return s
}

package engine

// This file lists the half-boards of the join method from quarters.
//
// A half (west or east, h columns) is cut again at row h into a north and a
// south quarter. A half-board with rows E takes one queen in each row of
// E∩north and E∩south; if its north queens take columns K, its south
// queens take the rest of the half's columns. So the half-boards with rows
// E are the compatible pairs (no shared diagonal) of a north placement with
// columns K and a south placement with the other columns, over every K.
// Quarter placements depend only on the quarter and the row set, and many
// tasks share a row set: they are listed once, kept in a cache within a
// memory budget, and listed again per task only when the budget is spent.

import (
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/nqueens/nqueens/internal/board"
)

// quarterList holds the placements of one queen in each row of a set of a
// quarter's rows, grouped by the set of columns they take. A placement is
// the diagonals its queens take, bit c-r+n-1 of d1 and bit r+c of d2 for a
// queen at row r, column c, packed into one word: a quarter's queens take
// at most 31 consecutive diagonals of each direction, from the quarter's
// frame on (see frame), so the word holds d1 >> b1 in its low half and
// d2 >> b2 in its high half.
type quarterList struct {
	keys   []uint64 // column sets, increasing
	offs   []uint32 // placements of keys[i] are places[offs[i]:offs[i+1]]
	places []uint64
	f      frame
}

// frame is where a quarter's diagonals start: its placements' d1 >> b1 and
// d2 >> b2 fit in 32 bits.
type frame struct{ b1, b2 uint }

// quarterFrame returns the frame of quarter q (side*2 + part) of an n×n
// board: its rows r0..r0+rows-1 and columns c0..c0+s-1 (s =
// board.JoinSide(n)) take main diagonals from c0-(r0+rows-1)+n-1 and
// anti-diagonals from r0+c0 on, s+rows-1 of each (31 at most for n ≤ 32).
func quarterFrame(n, q int) frame {
	h := n / 2 // north rows 0..h-1; the halves' columns: board.JoinSide
	r0, rows, c0 := 0, h, 0
	if q%2 == 1 {
		r0, rows = h, n-h
	}
	if q/2 == 1 {
		c0 = n - board.JoinSide(n)
	}
	return frame{b1: uint(max(0, c0-(r0+rows-1)+n-1)), b2: uint(r0 + c0)}
}

// pack packs diagonals d1, d2 of a placement in the frame.
func (f frame) pack(d1, d2 uint64) uint64 { return d1>>f.b1&(1<<32-1) | (d2>>f.b2)<<32 }

// unpack returns a packed placement's diagonals.
func (f frame) unpack(p uint64) (d1, d2 uint64) { return (p & (1<<32 - 1)) << f.b1, p >> 32 << f.b2 }

// window is the overlap of the two halves' diagonals: a west queen and an
// east queen can share main diagonals and anti-diagonals lo..lo+width-1
// only (with halves of s columns, the west half reaches up to (s-1)-0+n-1
// and (n-1)+(s-1), the east half down to n-s). A pattern holds those main diagonals in its low width
// bits and those anti-diagonals above them.
type window struct {
	lo, width uint
	mask      uint64
}

func newWindow(n int) window {
	s := board.JoinSide(n)
	w := uint(max(2*s-1, 0))
	return window{lo: uint(n - s), width: w, mask: uint64(1)<<w - 1}
}

func (w window) pattern(d1, d2 uint64) uint64 {
	return (d1>>w.lo)&w.mask | (d2>>w.lo&w.mask)<<w.width
}

// quarterScratch is a worker's scratch for listing quarters: a slot per
// set of the quarter's columns (at most 2^16), which holds how many
// placements take that set while they are counted and then where the next
// one goes while they are placed.
type quarterScratch struct{ at []uint32 }

// count counts the placements of one queen in each row of rows (rows of
// quarter q of an n×n board) in the columns cols, none attacking another,
// per column set, and returns the list's size: placements and column sets.
// A list is listed in two passes, counted and then placed where it
// belongs, so that it takes its own size alone (8 bytes a placement): a
// single pass that sorted its placements by column set afterwards took
// six times as much while it listed, gigabytes a list at n = 28.
func (sc *quarterScratch) count(n, q int, rows, cols uint64) (places, keys int) {
	ql := newQuarterLister(n, q, rows, cols, sc)
	clear(ql.at)
	if ql.k == 0 {
		ql.at[0] = 1 // the empty placement
	} else {
		ql.place(0, 0, 0, 0)
	}
	for _, c := range ql.at {
		places += int(c)
		if c != 0 {
			keys++
		}
	}
	return places, keys
}

// fill lists into l the placements count counted for the same quarter,
// rows and columns, grouped by column set in increasing order, each group
// in the order the search finds them; it reuses l's arrays where they are
// large enough.
func (sc *quarterScratch) fill(l *quarterList, n, q int, rows, cols uint64, places, keys int) {
	ql := newQuarterLister(n, q, rows, cols, sc)
	l.f = ql.f
	l.keys = slices.Grow(l.keys[:0], keys)
	l.offs = slices.Grow(l.offs[:0], keys+1)
	l.places = slices.Grow(l.places[:0], places)[:places]
	next := uint32(0)
	for i, c := range ql.at {
		if c != 0 {
			l.keys = append(l.keys, uint64(i)<<ql.shift)
			l.offs = append(l.offs, next)
		}
		ql.at[i] = next
		next += c
	}
	l.offs = append(l.offs, next)
	ql.places = l.places
	if ql.k == 0 {
		l.places[0] = l.f.pack(0, 0)
		return
	}
	ql.place(0, 0, 0, 0)
}

// listQuarter lists quarter q for rows into l (count, then fill).
func listQuarter(l *quarterList, n, q int, rows, cols uint64, sc *quarterScratch) {
	p, k := sc.count(n, q, rows, cols)
	sc.fill(l, n, q, rows, cols, p, k)
}

// quarterLister places one queen in each of k rows, depth first, and
// counts each placement under its column set (places nil) or stores it
// where its set's next one goes.
type quarterLister struct {
	n      uint
	k      int
	rs     [joinMaxN + 1]uint
	cols   uint64
	shift  uint     // the quarter's first column: a set's slot is cols >> shift
	at     []uint32 // quarterScratch.at
	places []uint64
	f      frame
}

func newQuarterLister(n, q int, rows, cols uint64, sc *quarterScratch) quarterLister {
	ql := quarterLister{n: uint(n), cols: cols, shift: uint(bits.TrailingZeros64(cols)), f: quarterFrame(n, q)}
	for x := rows; x != 0; x &= x - 1 {
		ql.rs[ql.k] = uint(bits.TrailingZeros64(x))
		ql.k++
	}
	size := 1 << uint(bits.OnesCount64(cols))
	if cap(sc.at) < size {
		sc.at = make([]uint32, size)
	}
	ql.at = sc.at[:size]
	return ql
}

// place places the queens of rows rs[i:] beside those of used, d1, d2; i <
// k. The last row's queens are counted or stored without a level of their
// own.
func (ql *quarterLister) place(i int, used, d1, d2 uint64) {
	r := ql.rs[i]
	free := ql.cols &^ (used | d1>>(ql.n-1-r) | d2>>r)
	if i < ql.k-1 {
		for ; free != 0; free &= free - 1 {
			c := uint(bits.TrailingZeros64(free))
			ql.place(i+1, used|1<<c, d1|1<<(c+ql.n-1-r), d2|1<<(r+c))
		}
		return
	}
	if ql.places == nil {
		for ; free != 0; free &= free - 1 {
			ql.at[(used|free&-free)>>ql.shift]++
		}
		return
	}
	for ; free != 0; free &= free - 1 {
		c := uint(bits.TrailingZeros64(free))
		s := (used | 1<<c) >> ql.shift
		ql.places[ql.at[s]] = ql.f.pack(d1|1<<(c+ql.n-1-r), d2|1<<(r+c))
		ql.at[s]++
	}
}

// quarterCache keeps the quarter lists of one board size, shared by all
// workers, while its budget lasts. Quarters are west-north, west-south,
// east-north, east-south; a list is found by its quarter and rows (shifted
// down to the quarter's first row).
//
// For odd n the lists ignore the middle column's queen: one list serves
// every row of it, and the half-join filters out the placements that queen
// attacks as it goes (halfJoin.fill, at no cost per pair). Lists kept per
// row of the middle queen, which avoid its diagonals, were measured
// against this (one worker): n = 17 2.37 s and 93 MB against
// 2.43 s and 45 MB, n = 19 58.8 s and 632 MB against 59.7 s and 224 MB;
// 2% of time for half to two thirds of the memory.
type quarterCache struct {
	n     int
	w     window
	sv    sieve
	lists [4][]atomic.Pointer[quarterList]
	room  atomic.Int64 // bytes the cache may still take
	kept  atomic.Int64 // bytes it holds
}

// newQuarterCache returns an empty cache for n×n boards that keeps at most
// budget bytes of lists.
func newQuarterCache(n int, budget int64) *quarterCache {
	c := &quarterCache{n: n, w: newWindow(n)}
	c.sv = newSieve(n, c.w)
	h := n / 2
	for q := range c.lists {
		rows := h // north quarters: rows 0..h-1
		if q%2 == 1 {
			rows = n - h // south quarters: rows h..n-1
		}
		c.lists[q] = make([]atomic.Pointer[quarterList], 1<<uint(rows))
	}
	c.room.Store(budget)
	return c
}

// quarterCacheBytes is the memory of an empty cache for n×n boards.
func quarterCacheBytes(n int) int64 {
	h := n / 2
	return 2 * 8 * (int64(1)<<uint(h) + int64(1)<<uint(n-h))
}

// columns returns the columns of side 0 (west) or 1 (east).
func (c *quarterCache) columns(side int) uint64 {
	s := board.JoinSide(c.n)
	west := uint64(1)<<uint(s) - 1
	if side == 0 {
		return west
	}
	return west << uint(c.n-s)
}

// middleBans returns the main diagonal and anti-diagonal bits of a queen
// in row r of the first middle column (column JoinSide(n)), and with two
// middle columns (JoinMiddle) of a queen in row r2 of the second; none for
// a row below 0.
func (c *quarterCache) middleBans(r, r2 int) (ban1, ban2 uint64) {
	n, s := c.n, board.JoinSide(c.n)
	for i, row := range [2]int{r, r2} {
		if row >= 0 {
			col := s + i
			ban1 |= 1 << uint(col-row+n-1)
			ban2 |= 1 << uint(row+col)
		}
	}
	return ban1, ban2
}

// get returns the list of quarter q (side*2 + part) for rows: the cached
// one, or one listed now, kept if the budget allows and otherwise listed
// into own. Lists ignore the middle queens (odd n, or two middle
// columns): one list serves every row of them, and the half-join filters
// what they attack.
func (c *quarterCache) get(q int, rows uint64, own *quarterList, sc *quarterScratch) *quarterList {
	shift := uint(0)
	if q%2 == 1 {
		shift = uint(c.n / 2)
	}
	slot := &c.lists[q][(rows>>shift)&uint64(len(c.lists[q])-1)]
	if l := slot.Load(); l != nil {
		return l
	}
	l, _ := c.list(slot, q, rows, own, sc)
	return l
}

// list lists quarter q for rows, into a list of its own kept in slot if
// the budget allows (counted first, so the kept list is made at its size)
// and otherwise into own. It returns the kept list (or another worker's)
// and true, or own and false.
func (c *quarterCache) list(slot *atomic.Pointer[quarterList], q int, rows uint64, own *quarterList, sc *quarterScratch) (*quarterList, bool) {
	cols := c.columns(q / 2)
	places, keys := sc.count(c.n, q, rows, cols)
	size := listBytes(places, keys)
	if c.room.Add(-size) < 0 {
		c.room.Add(size)
		sc.fill(own, c.n, q, rows, cols, places, keys)
		return own, false
	}
	kept := new(quarterList)
	sc.fill(kept, c.n, q, rows, cols, places, keys)
	if !slot.CompareAndSwap(nil, kept) {
		c.room.Add(size) // another worker listed it first
		return slot.Load(), true
	}
	c.kept.Add(size)
	return kept, true
}

// listBytes is the memory a kept list of that many placements and column
// sets takes.
func listBytes(places, keys int) int64 { return int64(keys)*12 + 4 + int64(places)*8 + 88 }

// halfJoin lists the patterns of one half's boards by joining a north and
// a south list. Listing can stop when a buffer is full and resume.
type halfJoin struct {
	north, south *quarterList
	jf           joinFrame
	cols         uint64 // the half's columns
	i, j         int    // north key (increasing), south key (decreasing)
	x, y         int    // position in the two keys' placements
	done         bool
	pairs        uint64 // north-south pairs compared
	firstPass    uint64 // pairs compared by the first listing, once rewound
	rewound      bool
}

func (hj *halfJoin) reset(north, south *quarterList, w window, cols, ban1, ban2 uint64) {
	*hj = halfJoin{north: north, south: south, cols: cols, j: len(south.keys) - 1,
		jf: newJoinFrame(north.f, south.f, w, ban1, ban2)}
}

// rewind makes the next fill list the half again from the start.
func (hj *halfJoin) rewind() {
	if !hj.rewound {
		hj.firstPass, hj.rewound = hj.pairs, true
	}
	hj.i, hj.j, hj.x, hj.y, hj.done = 0, len(hj.south.keys)-1, 0, 0, false
}

// nodes is the north-south pairs one listing of the half compares, its
// share of a task's nodes: the passes after the first (the west side
// listed again for each piece of the east side) are not counted, so that
// a task's nodes, which a shard file records and an audit compares, do
// not depend on the size of its buffers (which --memory sets).
func (hj *halfJoin) nodes() uint64 {
	if hj.rewound {
		return hj.firstPass
	}
	return hj.pairs
}

// fill writes the next patterns into buf (len a power of two) from index k
// on and returns the index after the last; hj.done tells whether the
// listing is complete.
func (hj *halfJoin) fill(buf []uint64, k int) int {
	N, S := hj.north, hj.south
	for ; hj.i < len(N.keys); hj.i, hj.x, hj.y = hj.i+1, 0, 0 {
		// South keys decrease as north keys increase: their complements
		// within the half's columns are in the opposite order.
		want := hj.cols ^ N.keys[hj.i]
		for hj.j >= 0 && S.keys[hj.j] > want {
			hj.j--
		}
		if hj.j < 0 {
			break
		}
		if S.keys[hj.j] != want {
			continue
		}
		lo, hi := int(N.offs[hj.i]), int(N.offs[hj.i+1])
		sp := S.places[S.offs[hj.j]:S.offs[hj.j+1]]
		if len(sp) == 0 {
			continue
		}
		for hj.x < hi-lo {
			room := len(buf) - k
			if hj.y == 0 && room >= len(sp) {
				// Whole north placements, as many as the buffer takes.
				c := min(hi-lo-hj.x, room/len(sp))
				np := N.places[lo+hj.x:][:c]
				var spared int
				k, spared = joinNorths(np, sp, buf, k, &hj.jf)
				hj.pairs += uint64(spared * len(sp))
				hj.x += c
				continue
			}
			// The buffer is nearly full: part of one north placement's.
			a := N.places[lo+hj.x]
			if !hj.jf.spares(a) {
				hj.x, hj.y = hj.x+1, 0
				continue // attacks the middle column's queen
			}
			if room == 0 {
				return k
			}
			end := min(len(sp), hj.y+room)
			k = hj.jf.joinSouthGo(a, sp[hj.y:end], buf, k)
			hj.pairs += uint64(end - hj.y)
			if end < len(sp) {
				hj.y = end
				return k
			}
			hj.x, hj.y = hj.x+1, 0
		}
	}
	hj.done = true
	return k
}

// joinFrame is what joining a north and a south list needs besides the
// placements: the lists' frames, the window of the patterns, and the
// middle column's queen's diagonals (odd n; zero for even n).
type joinFrame struct {
	north, south frame
	w            window
	ban1, ban2   uint64
	args         [14]uint64 // the same for the assembly kernel (see newJoinFrame)
}

// newJoinFrame returns the join frame of a north and a south list.
func newJoinFrame(north, south frame, w window, ban1, ban2 uint64) joinFrame {
	jf := joinFrame{north: north, south: south, w: w, ban1: ban1, ban2: ban2}
	// A south placement's pattern from its packed halves: each shifted
	// from its frame to the window's first diagonal.
	shifts := func(b uint) (left, right uint64) {
		return uint64(max(0, int(b)-int(w.lo))), uint64(max(0, int(w.lo)-int(b)))
	}
	sl1, sr1 := shifts(south.b1)
	sl2, sr2 := shifts(south.b2)
	jf.args = [14]uint64{uint64(north.b1), uint64(north.b2), uint64(south.b1), uint64(south.b2), ban1, ban2,
		uint64(w.lo), uint64(w.width), w.mask, 1<<32 - 1, sl1, sr1, sl2, sr2}
	return jf
}

// spares tells whether the packed north placement a spares the middle
// column's queen.
func (jf *joinFrame) spares(a uint64) bool {
	a1, a2 := jf.north.unpack(a)
	return a1&jf.ban1|a2&jf.ban2 == 0
}

// joinNorthsGo writes to buf from index k on, in order, the patterns of
// the half-boards of each north placement of np that spares the middle
// column's queen with the south placements of sp compatible with it and
// with that queen (see joinSouthGo), and returns the index after the last
// and how many north placements spared the queen: the portable kernel,
// and the assembly one's twin. buf's length is a power of two with room
// for len(np)*len(sp) patterns from k.
func joinNorthsGo(np, sp, buf []uint64, k int, jf *joinFrame) (int, int) {
	spared := 0
	for _, a := range np {
		if jf.spares(a) {
			k = jf.joinSouthGo(a, sp, buf, k)
			spared++
		}
	}
	return k, spared
}

// joinSouthGo writes to buf from index k on, in order, the pattern of the
// half-board of the packed north placement a with each packed south
// placement of sp that shares no diagonal with it or with the middle
// column's queen, and returns the index after the last. buf's length is a
// power of two with room for len(sp) from k.
func (jf *joinFrame) joinSouthGo(a uint64, sp, buf []uint64, k int) int {
	if len(buf) == 0 {
		return k
	}
	mask := len(buf) - 1
	a1, a2 := jf.north.unpack(a)
	apat := jf.w.pattern(a1, a2)
	// A south placement that attacks the middle queen shares a diagonal
	// with the north one extended by that queen's: the pair test leaves it
	// out at no extra cost. In the south frame, one AND tests both
	// directions.
	as := jf.south.pack(a1|jf.ban1, a2|jf.ban2)
	for _, b := range sp {
		// Written always, kept only when the pair is compatible: no
		// branch to mispredict.
		b1, b2 := jf.south.unpack(b)
		buf[k&mask] = apat | jf.w.pattern(b1, b2)
		k += int(b2u(as&b == 0))
	}
	return k
}

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
	"cmp"
	"math/bits"
	"slices"
	"sync/atomic"
)

// quarterList holds the placements of one queen in each row of a set of a
// quarter's rows, grouped by the set of columns they take. A placement is
// the diagonals its queens take: bit c-r+n-1 of d1 and bit r+c of d2 for a
// queen at row r, column c (two arrays: the half-join reads eight at a
// time).
type quarterList struct {
	keys   []uint64 // column sets, increasing
	offs   []uint32 // placements of keys[i] are d1[offs[i]:offs[i+1]] and d2's
	d1, d2 []uint64
}

// window is the overlap of the two halves' diagonals: a west queen and an
// east queen can share main diagonals and anti-diagonals lo..lo+width-1
// only (the west half reaches up to (h-1)-0+n-1 and (n-1)+(h-1), the east
// half down to n-h). A pattern holds those main diagonals in its low width
// bits and those anti-diagonals above them.
type window struct {
	lo, width uint
	mask      uint64
}

func newWindow(n int) window {
	h := n / 2
	w := uint(max(2*h-1, 0))
	return window{lo: uint(n - h), width: w, mask: uint64(1)<<w - 1}
}

func (w window) pattern(d1, d2 uint64) uint64 {
	return (d1>>w.lo)&w.mask | (d2>>w.lo&w.mask)<<w.width
}

// keyed is a placement with its column set, while a list is being built.
type keyed struct{ cols, d1, d2 uint64 }

// listQuarter fills q with the placements of one queen in each row of rows,
// in the columns cols of an n×n board, none attacking another. tmp is
// scratch space, returned for reuse.
func listQuarter(q *quarterList, n int, rows, cols uint64, tmp []keyed) []keyed {
	var rs [joinMaxN + 1]uint
	k := 0
	for x := rows; x != 0; x &= x - 1 {
		rs[k] = uint(bits.TrailingZeros64(x))
		k++
	}
	tmp = tmp[:0]
	var rec func(i int, used, d1, d2 uint64)
	rec = func(i int, used, d1, d2 uint64) {
		if i == k {
			tmp = append(tmp, keyed{used, d1, d2})
			return
		}
		r := rs[i]
		free := cols &^ (used | d1>>(uint(n)-1-r) | d2>>r)
		for ; free != 0; free &= free - 1 {
			c := uint(bits.TrailingZeros64(free))
			rec(i+1, used|1<<c, d1|1<<(c+uint(n)-1-r), d2|1<<(r+c))
		}
	}
	rec(0, 0, 0, 0)
	slices.SortFunc(tmp, func(a, b keyed) int { return cmp.Compare(a.cols, b.cols) })
	q.keys, q.offs, q.d1, q.d2 = q.keys[:0], q.offs[:0], q.d1[:0], q.d2[:0]
	for i, e := range tmp {
		if i == 0 || e.cols != tmp[i-1].cols {
			q.keys = append(q.keys, e.cols)
			q.offs = append(q.offs, uint32(len(q.d1)))
		}
		q.d1 = append(q.d1, e.d1)
		q.d2 = append(q.d2, e.d2)
	}
	q.offs = append(q.offs, uint32(len(q.d1)))
	return tmp
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
// against this (2026-12-01, one worker): n = 17 2.37 s and 93 MB against
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
	c.sv = newSieve(c.w)
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
	h := c.n / 2
	west := uint64(1)<<uint(h) - 1
	if side == 0 {
		return west
	}
	return west << uint(c.n-h)
}

// middleBans returns the main diagonal and anti-diagonal bits of the middle
// column's queen in row mid (odd n), none for mid < 0.
func (c *quarterCache) middleBans(mid int) (ban1, ban2 uint64) {
	if mid < 0 {
		return 0, 0
	}
	h, a := uint(c.n/2), uint(mid)
	return 1 << (h + uint(c.n) - 1 - a), 1 << (a + h)
}

// get returns the list of quarter q (side*2 + part) for rows: the cached
// one, or one listed now, kept if the budget allows and otherwise listed
// into own. For odd n, ban1 and ban2 are the diagonals of the middle
// column's queen in row mid, which the list ignores and the half-join
// filters; zero for even n (mid < 0).
func (c *quarterCache) get(q int, rows uint64, mid int, own *quarterList, tmp *[]keyed) (l *quarterList, ban1, ban2 uint64) {
	shift := uint(0)
	if q%2 == 1 {
		shift = uint(c.n / 2)
	}
	slot := &c.lists[q][(rows>>shift)&uint64(len(c.lists[q])-1)]
	b1, b2 := c.middleBans(mid)
	if l := slot.Load(); l != nil {
		return l, b1, b2
	}
	l, _ = c.list(slot, q, rows, own, tmp)
	return l, b1, b2
}

// list lists quarter q for rows into own and keeps a copy in slot if the
// budget allows. It returns the kept copy (or another worker's) and true,
// or own and false.
func (c *quarterCache) list(slot *atomic.Pointer[quarterList], q int, rows uint64, own *quarterList, tmp *[]keyed) (*quarterList, bool) {
	*tmp = listQuarter(own, c.n, rows, c.columns(q/2), *tmp)
	size := own.bytes()
	if c.room.Add(-size) < 0 {
		c.room.Add(size)
		return own, false
	}
	kept := &quarterList{
		keys: slices.Clone(own.keys),
		offs: slices.Clone(own.offs),
		d1:   slices.Clone(own.d1),
		d2:   slices.Clone(own.d2),
	}
	if !slot.CompareAndSwap(nil, kept) {
		c.room.Add(size) // another worker listed it first
		return slot.Load(), true
	}
	c.kept.Add(size)
	return kept, true
}

// bytes is the memory a kept list takes.
func (l *quarterList) bytes() int64 {
	return int64(len(l.keys))*8 + int64(len(l.offs))*4 + int64(len(l.d1))*16 + 96
}

// halfJoin lists the patterns of one half's boards by joining a north and
// a south list. Listing can stop when a buffer is full and resume.
type halfJoin struct {
	north, south *quarterList
	w            window
	cols         uint64 // the half's columns
	ban1, ban2   uint64 // the middle queen's diagonals, for shared lists
	i, j         int    // north key (increasing), south key (decreasing)
	x, y         int    // position in the two keys' placements
	done         bool
	pairs        uint64 // north-south pairs compared
}

func (hj *halfJoin) reset(north, south *quarterList, w window, cols, ban1, ban2 uint64) {
	*hj = halfJoin{north: north, south: south, w: w, cols: cols, ban1: ban1, ban2: ban2, j: len(south.keys) - 1}
}

// rewind makes the next fill list the half again from the start.
func (hj *halfJoin) rewind() {
	hj.i, hj.j, hj.x, hj.y, hj.done = 0, len(hj.south.keys)-1, 0, 0, false
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
		s1 := S.d1[S.offs[hj.j]:S.offs[hj.j+1]]
		s2 := S.d2[S.offs[hj.j]:S.offs[hj.j+1]]
		if len(s1) == 0 {
			continue
		}
		for hj.x < hi-lo {
			room := len(buf) - k
			if hj.y == 0 && room >= len(s1) {
				// Whole north placements, as many as the buffer takes.
				c := min(hi-lo-hj.x, room/len(s1))
				n1, n2 := N.d1[lo+hj.x:][:c], N.d2[lo+hj.x:][:c]
				k = joinNorths(n1, n2, s1, s2, buf, k, hj.ban1, hj.ban2, hj.w)
				hj.pairs += uint64(spared(n1, n2, hj.ban1, hj.ban2) * len(s1))
				hj.x += c
				continue
			}
			// The buffer is nearly full: part of one north placement's.
			a1, a2 := N.d1[lo+hj.x], N.d2[lo+hj.x]
			if a1&hj.ban1|a2&hj.ban2 != 0 {
				hj.x, hj.y = hj.x+1, 0
				continue // attacks the middle column's queen
			}
			if room == 0 {
				return k
			}
			end := min(len(s1), hj.y+room)
			k = joinSouthGo(a1|hj.ban1, a2|hj.ban2, hj.w.pattern(a1, a2), s1[hj.y:end], s2[hj.y:end], buf, k, hj.w)
			hj.pairs += uint64(end - hj.y)
			if end < len(s1) {
				hj.y = end
				return k
			}
			hj.x, hj.y = hj.x+1, 0
		}
	}
	hj.done = true
	return k
}

// spared counts the north placements that do not attack the middle
// column's queen (diagonals ban1, ban2).
func spared(n1, n2 []uint64, ban1, ban2 uint64) int {
	if ban1|ban2 == 0 {
		return len(n1)
	}
	c := 0
	n2 = n2[:len(n1)]
	for i, a1 := range n1 {
		c += int(b2u(a1&ban1|n2[i]&ban2 == 0))
	}
	return c
}

// joinNorthsGo writes to buf from index k on, in order, the patterns of
// the half-boards of each north placement (n1[i], n2[i]) that spares the
// middle column's queen (diagonals ban1, ban2; none for even n) with the
// south placements compatible with it and with that queen (see
// [joinSouthGo]), and returns the index after the last: the portable
// kernel, and the assembly one's twin. buf has room for
// len(n1)*len(s1) patterns from k.
func joinNorthsGo(n1, n2, s1, s2, buf []uint64, k int, ban1, ban2 uint64, w window) int {
	n2 = n2[:len(n1)]
	for i, a1 := range n1 {
		a2 := n2[i]
		if a1&ban1|a2&ban2 != 0 {
			continue
		}
		// A south placement that attacks the middle queen shares a
		// diagonal with the north one as extended here: the pair test
		// leaves it out at no extra cost.
		k = joinSouthGo(a1|ban1, a2|ban2, w.pattern(a1, a2), s1, s2, buf, k, w)
	}
	return k
}

// joinSouthGo writes to buf from index k on, in order, the pattern of the
// half-board of a north placement (diagonals a1, a2; pattern apat) with
// each south placement (s1[i], s2[i]) that shares no diagonal with it, and
// returns the index after the last: the portable kernel, and the assembly
// one's twin. buf's length is a power of two with room for len(s1) from
// k, and s2 is as long as s1.
func joinSouthGo(a1, a2, apat uint64, s1, s2, buf []uint64, k int, w window) int {
	if len(buf) == 0 {
		return k
	}
	mask := len(buf) - 1
	s2 = s2[:len(s1)]
	for i, b1 := range s1 {
		b2 := s2[i]
		// Written always, kept only when the pair is compatible: no
		// branch to mispredict.
		buf[k&mask] = apat | w.pattern(b1, b2)
		k += int(b2u((a1&b1)|(a2&b2) == 0))
	}
	return k
}

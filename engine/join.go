package engine

// This file holds the join method's task runner: a meet in the middle that
// never backtracks a whole board.
//
// A join task fixes which rows hold their queen in the east half of the board
// (columns n-h..n-1, h = board.JoinSide(n): n/2, or n/2-1 for even n
// from 28); the other rows hold theirs in the west half (columns 0..h-1).
// For odd n the middle column's queen is placed first, in a row the task
// fixes too; with two middle columns the task counts each way of their
// queens (board.JoinPairs), one after another. Each half is then a small board of its own: h
// queens in h columns, one in each of its rows. Rows and columns of the two
// halves never clash, so a west half and an east half make a solution exactly
// when they share no diagonal. The task
//
//  1. lists every east half-board (quarter.go: joining north and south
//     quarter placements), keeping of each only the diagonals a west queen
//     could also take, as a bit pattern (4h-2 bits);
//  2. lists every west half-board the same way;
//  3. counts the pairs with disjoint patterns (match.go, the hot loop).
//
// Memory is bounded: each side is listed into a buffer that grows up to a
// fixed size (the worker's chunk); when the east side needs more than one
// buffer the west side is listed again for each further one. The quarter
// cache keeps what its budget allows.

import (
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/partition"
)

// joinMaxN is the largest board the join kernel accepts: its diagonal masks
// hold 2n-1 bits in a uint64.
const joinMaxN = partition.JoinMaxN

// Join buffer sizes, in patterns.
const (
	// minJoinChunk and maxJoinChunk bound a worker's pattern buffers: below
	// the minimum the west side would be listed again too often; above the
	// maximum nothing is gained.
	minJoinChunk = 1 << 12
	maxJoinChunk = 1 << 24
)

// joinWorkerBytes is the memory one worker needs for the join of an n×n
// board with pattern buffers of chunk patterns each (one per side, and one
// per side sorted), its table blocks, its sieve's buckets and the quarter lists it lists for
// itself when the cache's budget is spent ([ownListBytes]).
func joinWorkerBytes(n, chunk int) int64 {
	return int64(4*8*chunk) + int64(unsafe.Sizeof([matchGroup]blockTable{})+unsafe.Sizeof(buckets{})) + ownListBytes(n)
}

// joinScratch is a worker's reusable memory for join tasks.
type joinScratch struct {
	chunk      int
	east, west []uint64
	// The same, sorted into sieve buckets. All four grow as tasks need,
	// the first two up to chunk patterns.
	sortE, sortW []uint64
	tables       *[matchGroup]blockTable // table blocks matched together
	buckets      *buckets
	eastH        halfJoin
	westH        halfJoin
	// Quarter lists listed for one task (cache budget spent), and scratch
	// for listing.
	own [4]quarterList
	// The north lists of a sampled part of a task (Sampler.Probe).
	thinned [2]quarterList
	lister  quarterScratch
	ways    []joinWay     // the task's ways
	cache   *quarterCache // shared by the workers of one run
	stop    *atomic.Bool  // set when the run is cancelled; nil: never
	sink    pairSink      // where the sides go to be matched; nil: the CPU's (cpuSink)
}

// A pairSink matches the pairs of sides a join task lists, a pair of
// sides (a way, or pieces of one) at a time: the CPU's (cpuSink) counts
// them at once, a device's (joinFeeder) puts them in its batch.
type pairSink interface {
	// match counts the disjoint pairs of the east and west patterns (in
	// js's buffers) and returns their count, or takes them and returns 0
	// (the device adds their count to the task's result later).
	match(js *joinScratch, sv sieve, east, west []uint64, chunks int) uint64
	// failed reports whether the sink failed: the task then stops.
	failed() bool
}

// cpuSink matches sides on the worker's own core. The sort buffers grow
// to the sides here, where they are used.
type cpuSink struct{}

func (cpuSink) match(js *joinScratch, sv sieve, east, west []uint64, chunks int) uint64 {
	js.sortE = grow(js.sortE, len(east), js.east)
	js.sortW = grow(js.sortW, len(west), js.west)
	return countSides(js, sv, east, west, chunks)
}

func (cpuSink) failed() bool { return false }

// scratchList reports whether l is one of js's own lists (listed for a
// task, or thinned for a part of one), which later tasks refill.
func (js *joinScratch) scratchList(l *quarterList) bool {
	for i := range js.own {
		if l == &js.own[i] {
			return true
		}
	}
	return l == &js.thinned[0] || l == &js.thinned[1]
}

// stopped reports whether the run was cancelled, or its sink failed: a
// join task then ends early with a partial count, which Run drops.
func (js *joinScratch) stopped() bool {
	return js.stop != nil && js.stop.Load() || js.sink != nil && js.sink.failed()
}

// count matches the sides east and west (held in js.east and js.west)
// in the worker's sink, the CPU's where none is set.
func (js *joinScratch) count(sv sieve, east, west []uint64, chunks int) uint64 {
	if js.sink == nil {
		return cpuSink{}.match(js, sv, east, west, chunks)
	}
	return js.sink.match(js, sv, east, west, chunks)
}

func newJoinScratch(chunk int) *joinScratch {
	chunk = max(minJoinChunk, min(maxJoinChunk, chunk))
	chunk = 1 << (bits.Len(uint(chunk)) - 1) // a power of two: fill masks its index
	return &joinScratch{chunk: chunk}
}

// firstBuffer is the size buffers start at; they double as tasks need,
// up to the worker's chunk.
const firstBuffer = 1 << 12

// listSide lists a side into *buf from the start, doubling the buffer
// until the side fits or the buffer holds chunk patterns, and returns how
// many patterns it holds.
func listSide(hj *halfJoin, buf *[]uint64, chunk int) int {
	if len(*buf) == 0 {
		*buf = make([]uint64, min(firstBuffer, chunk))
	}
	k := 0
	for {
		k = hj.fill(*buf, k)
		if hj.done || len(*buf) >= chunk {
			return k
		}
		grown := make([]uint64, 2*len(*buf))
		copy(grown, *buf)
		*buf = grown
	}
}

// grow returns buf, or a new buffer as long as side (the side buffer whose
// n patterns it will sort) if buf is shorter than n: sort buffers never
// outgrow their side's.
func grow(buf []uint64, n int, side []uint64) []uint64 {
	if len(buf) < n {
		return make([]uint64, max(n, len(side)))
	}
	return buf
}

// countSides counts the disjoint pairs of east and west patterns,
// transposing the side that makes the work smaller.
func countSides(js *joinScratch, sv sieve, east, west []uint64, chunks int) uint64 {
	if matchCost(len(west), len(east)) < matchCost(len(east), len(west)) {
		return countPairs(js, sv, west, east, js.sortW[:len(west)], js.sortE[:len(east)], chunks)
	}
	return countPairs(js, sv, east, west, js.sortE[:len(east)], js.sortW[:len(west)], chunks)
}

// matchCost estimates the work of matching items patterns against table
// blocks built from transposed ones, in items matched against a block.
func matchCost(transposed, items int) int {
	return (transposed + blockPatterns - 1) / blockPatterns * (items + buildCost)
}

// joinWay is one way a join task's board is completed: the west half's
// rows, the middle queens' diagonals (which both halves' lists must
// spare), the weight of each pair of half-boards, and the seed that picks
// the parts a sample thins. A task has one way, or with two middle columns
// (board.JoinMiddle) one for each pair of middle queens' rows
// (board.JoinPairs).
type joinWay struct {
	west       uint64
	ban1, ban2 uint64
	weight     uint64
	seed       uint64
}

// joinWays returns task t's ways, in ws's storage.
func joinWays(n int, t *partition.Task, qc *quarterCache, ws []joinWay) []joinWay {
	ws = ws[:0]
	all := uint64(1)<<uint(n) - 1
	west := all &^ t.Rows
	if board.JoinMiddle(n) < 2 {
		b1, b2 := qc.middleBans(int(t.Middle), -1)
		if t.Middle >= 0 {
			west &^= 1 << uint(t.Middle) // the middle column's queen's row
		}
		return append(ws, joinWay{west: west, ban1: b1, ban2: b2, weight: t.Weight, seed: t.Rows<<5 | uint64(t.Middle)})
	}
	board.JoinPairs(n, t.Rows, func(a, b int, weight uint64) {
		b1, b2 := qc.middleBans(a, b)
		ws = append(ws, joinWay{west: west &^ (1<<uint(a) | 1<<uint(b)), ban1: b1, ban2: b2, weight: weight,
			seed: t.Rows<<10 | uint64(a)<<5 | uint64(b)})
	})
	return ws
}

// startJoin readies js's half-joins for way w of task t and returns the
// table chunks of a pattern. With thinE or thinW above 1 the east or west
// side's north list is thinned to every thin-th placement (see
// thinNorth): a sampled part of the task.
func startJoin(n int, t *partition.Task, w *joinWay, qc *quarterCache, js *joinScratch, thinE, thinW int) int {
	if js.tables == nil {
		js.tables = new([matchGroup]blockTable)
	}
	h := n / 2
	all := uint64(1)<<uint(n) - 1
	north := uint64(1)<<uint(h) - 1
	south := all &^ north
	// Quarter q = side*2 + part: west-north, west-south, east-north,
	// east-south.
	var lists [4]*quarterList
	for q, rows := range [4]uint64{w.west & north, w.west & south, t.Rows & north, t.Rows & south} {
		lists[q] = qc.get(q, rows, &js.own[q], &js.lister)
	}
	if thinW > 1 {
		lists[0] = thinNorth(lists[0], &js.thinned[0], thinW, thinOffset(w.seed, thinW))
	}
	if thinE > 1 {
		lists[2] = thinNorth(lists[2], &js.thinned[1], thinE, thinOffset(^w.seed, thinE))
	}
	// Shared lists ignore the middle queens, whose diagonals the
	// half-join then leaves out (the pair test filters the south list
	// through the north one).
	js.westH.reset(lists[0], lists[1], qc.w, qc.columns(0), w.ban1, w.ban2)
	js.eastH.reset(lists[2], lists[3], qc.w, qc.columns(1), w.ban1, w.ban2)
	// Table chunks per pattern.
	return patternChunks(2 * int(qc.w.width))
}

// runJoin counts the solutions of one join task: each of its ways.
func runJoin(n int, t *partition.Task, qc *quarterCache, js *joinScratch, r *Result) {
	js.ways = joinWays(n, t, qc, js.ways)
	var total, nodes uint64
	for i := range js.ways {
		if js.stopped() {
			break
		}
		w := &js.ways[i]
		total += joinWayPairs(n, t, w, qc, js) * w.weight
		nodes += js.eastH.nodes() + js.westH.nodes()
	}
	r.Total = total
	r.Nodes = nodes
}

// joinWayPairs counts the pairs of half-boards of way w of task t that
// share no diagonal.
func joinWayPairs(n int, t *partition.Task, w *joinWay, qc *quarterCache, js *joinScratch) uint64 {
	chunks := startJoin(n, t, w, qc, js, 1, 1)
	ne := listSide(&js.eastH, &js.east, js.chunk)
	nw := listSide(&js.westH, &js.west, js.chunk)
	pairs := js.count(qc.sv, js.east[:ne], js.west[:nw], chunks)
	for (!js.eastH.done || !js.westH.done) && !js.stopped() {
		// A side did not fit in its buffer (the largest tasks of large
		// boards, or a small --memory): each piece of the east side is
		// matched against the whole west side, listed in pieces again
		// for each east piece but the first.
		for !js.westH.done {
			nw = js.westH.fill(js.west, 0)
			pairs += js.count(qc.sv, js.east[:ne], js.west[:nw], chunks)
		}
		if js.eastH.done {
			break
		}
		ne = js.eastH.fill(js.east, 0)
		js.westH.rewind()
		nw = js.westH.fill(js.west, 0)
		pairs += js.count(qc.sv, js.east[:ne], js.west[:nw], chunks)
	}
	return pairs
}

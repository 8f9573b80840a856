package engine

// Tests of the join method's stages against brute force on small boards:
// quarter lists, half-board listing, pair counting, and whole counts with
// the smallest buffers and no cache (the bounded-memory paths).

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/long"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

// bans returns the diagonals of a middle-column queen in row mid (none for
// mid < 0).
func bans(n, mid int) (uint64, uint64) {
	if mid < 0 {
		return 0, 0
	}
	h := n / 2
	return 1 << uint(h-mid+n-1), 1 << uint(mid+h)
}

// brutePlacements lists every way to put one queen in each of rows, in
// distinct columns of cols, no two on a diagonal and none on a banned one,
// as "cols/d1/d2" strings: every injective map, checked square by square.
func brutePlacements(n int, rows, cols, ban1, ban2 uint64) []string {
	var rs, cs []int
	for r := 0; r < n; r++ {
		if rows>>uint(r)&1 != 0 {
			rs = append(rs, r)
		}
		if cols>>uint(r)&1 != 0 {
			cs = append(cs, r)
		}
	}
	var out []string
	pick := make([]int, len(rs))
	var rec func(i int)
	rec = func(i int) {
		if i == len(rs) {
			var used, d1, d2 uint64
			for j, r := range rs {
				c := pick[j]
				for k := 0; k < j; k++ {
					r2, c2 := rs[k], pick[k]
					if c == c2 || r-r2 == c-c2 || r-r2 == c2-c {
						return
					}
				}
				m1, m2 := uint64(1)<<uint(c-r+n-1), uint64(1)<<uint(r+c)
				if m1&ban1 != 0 || m2&ban2 != 0 {
					return
				}
				used |= 1 << uint(c)
				d1 |= m1
				d2 |= m2
			}
			out = append(out, fmt.Sprintf("%x/%x/%x", used, d1, d2))
			return
		}
		for _, c := range cs {
			pick[i] = c
			rec(i + 1)
		}
	}
	rec(0)
	slices.Sort(out)
	return out
}

// bruteHalf lists the patterns of the half-boards with the given rows.
func bruteHalf(n int, rows, cols, ban1, ban2 uint64) []uint64 {
	w := newWindow(n)
	var out []uint64
	for _, s := range brutePlacements(n, rows, cols, ban1, ban2) {
		var used, d1, d2 uint64
		fmt.Sscanf(s, "%x/%x/%x", &used, &d1, &d2)
		if used == cols {
			out = append(out, w.pattern(d1, d2))
		}
	}
	slices.Sort(out)
	return out
}

// TestHalfJoin lists every half-board of small boards, from kept lists and
// from lists listed per task, both ways the cache keeps them for odd n (per
// row of the middle column's queen while the budget lasts, then shared and
// filtered by the half-join), against brute force.
func TestHalfJoin(t *testing.T) {
	for n := 0; n <= 10; n++ {
		for _, budget := range []int64{1 << 30, 0} {
			h := n / 2
			all := uint64(1)<<uint(n) - 1
			north := uint64(1)<<uint(h) - 1
			qc := newQuarterCache(n, budget)
			var own [2]quarterList
			var sc quarterScratch
			for mid := -1; mid <= h; mid++ {
				if (mid >= 0) != (n%2 == 1) {
					continue
				}
				rest := all
				if mid >= 0 {
					rest &^= 1 << uint(mid)
				}
				ban1, ban2 := bans(n, mid)
				b1, b2 := qc.middleBans(mid, -1)
				require.Equal(t, [2]uint64{ban1, ban2}, [2]uint64{b1, b2}, "n=%d mid %d", n, mid)
				for rows := uint64(0); rows <= all; rows++ {
					if rows&^rest != 0 || bits.OnesCount64(rows) != h {
						continue
					}
					for side := range 2 {
						cols := qc.columns(side)
						nl := qc.get(2*side, rows&north, &own[0], &sc)
						sl := qc.get(2*side+1, rows&^north, &own[1], &sc)
						var hj halfJoin
						hj.reset(nl, sl, qc.w, cols, b1, b2)
						// A small buffer makes the listing stop and resume.
						buf := make([]uint64, 4)
						var got []uint64
						for !hj.done {
							k := hj.fill(buf, 0)
							got = append(got, buf[:k]...)
						}
						slices.Sort(got)
						want := bruteHalf(n, rows, cols, ban1, ban2)
						if len(want) == 0 {
							want = nil
						}
						require.Equal(t, want, got, "n=%d budget %d side %d rows %b mid %d", n, budget, side, rows, mid)
					}
				}
			}
		}
	}
}

// halfIndices returns the indices of a join plan's row-split tasks.
func halfIndices(p *partition.Plan) []int {
	var is []int
	for i, t := range p.Tasks {
		if t.Kind == board.Halves {
			is = append(is, i)
		}
	}
	return is
}

// skipAllBut is an Options.Skip that runs only the plan's tasks is.
func skipAllBut(p *partition.Plan, is []int) []bool {
	skip := make([]bool, len(p.Tasks))
	for i := range skip {
		skip[i] = true
	}
	for _, i := range is {
		skip[i] = false
	}
	return skip
}

// halves returns a join plan's row-split tasks (not its symmetric ones).
func halves(p *partition.Plan) []partition.Task {
	var ts []partition.Task
	for _, t := range p.Tasks {
		if t.Kind == board.Halves {
			ts = append(ts, t)
		}
	}
	return ts
}

func TestCountPairs(t *testing.T) {
	splits := []int64{wideSplit, wideCut * wideCut}
	if !long.Run() { // the default and the race detector's run: the six-bit split only
		splits = splits[1:]
	}
	for _, split := range splits {
		t.Run(fmt.Sprintf("wideSplit=%d", split), func(t *testing.T) {
			t.Parallel()
			testCountPairs(t, split)
		})
	}
}

// testCountPairs checks countPairs against all pairs, on random sides
// (some too small to sieve, some large enough for every cut and split),
// the sides split by all the extra bits where the model says so from a
// product of wide of their sizes on.
func testCountPairs(t *testing.T, wide int64) {
	long.SkipRace(t) // all pairs, by brute force: 31 s under the race detector
	r := rand.New(rand.NewPCG(1, 2))
	js := newJoinScratch(minJoinChunk)
	js.tables = new([matchGroup]blockTable)
	boards := []int{4, 9, 16, 18, 23, 27, 32}
	if !long.Run() { // all pairs of the large sides take half a minute (minutes under the race detector)
		boards = []int{9, 16, 27}
	}
	for _, n := range boards {
		w := newWindow(n)
		sv := newSieve(n, w)
		sv.wide = wide
		assert.Equal(t, board.JoinLong(n), sv.long, "n=%d", n)
		if n == 16 { // weighted below JoinLongFrom too, for the test
			sv.long = true
		}
		chunks := patternChunks(2 * int(w.width))
		apart := 0
		random := func(k int) []uint64 {
			xs := make([]uint64, k)
			for i := range xs {
				// About a third of the bits set, as in real patterns.
				xs[i] = r.Uint64() & r.Uint64() & (r.Uint64() | r.Uint64()) & (uint64(1)<<(2*w.width) - 1)
			}
			return xs
		}
		// Sides large enough to be split by the extra bits, with the
		// transposed side in a few buckets (its cut bits mostly
		// clear), so that blocks hold sub-buckets whole and skip items
		// by the AND of their extra bits.
		skewed := func(k int) []uint64 {
			xs := random(k)
			cut := uint64(15)<<sv.m0 | uint64(15)<<sv.a0
			for i := range xs {
				if i%8 != 0 {
					xs[i] &^= cut
				}
			}
			return xs
		}
		// Sides whose cut and extra bits are each held by half the
		// patterns, as on real boards, but the transposed side's cut
		// bits taking four values of a bit at most (each bucket then fills
		// blocks, as the large sides' buckets do, and meets many of the
		// items' buckets) and its last two extra bits always
		// held (so that its blocks skip most items with six extra bits
		// and few with four): the widest cut, and where the sides' sizes
		// reach wide, all six extra bits.
		dense := func(k int, few bool) []uint64 {
			xs := random(k)
			if !sv.extra {
				return xs
			}
			mask := uint64(1)<<(2*w.width) - 1
			runs := (uint64(127)<<(sv.m0-1) | uint64(127)<<(sv.a0-1)) & mask
			cut := (uint64(15)<<sv.m0 | uint64(15)<<sv.a0) & mask
			keys := [4]uint64{0, 1 << sv.m0, 1 << (sv.a0 + 2), 1 << (sv.m0 + 3)}
			for i := range xs {
				xs[i] = xs[i]&^runs | r.Uint64()&runs
				if few {
					xs[i] = xs[i]&^cut | keys[i%4] | (uint64(1)<<(sv.m0+5)|uint64(1)<<(sv.a0+5))&mask
				}
			}
			return xs
		}
		for _, sizes := range [][3]int{{0, 5}, {5, 0}, {1, 1}, {63, 7}, {64, 200}, {65, 1}, {700, 900}, {2000, 3000}, {blockPatterns*2 + 70, 50},
			{wideCut + 100, wideCut},                             // the widest cut too
			{4 * wideCut, wideCut, 1}, {wideCut, 2 * wideCut, 1}, // a third number: 1, skewed sides, split
			{2 * wideCut, 2*wideCut + 300, 2}} { // 2: dense sides, split
			a, b := random(sizes[0]), random(sizes[1])
			switch sizes[2] {
			case 1:
				a, b = skewed(sizes[0]), skewed(sizes[1])
			case 2:
				a, b = dense(sizes[0], true), dense(sizes[1], false)
			}
			// Even n: pairs weighted by the patterns' long diagonals
			// (the middle ones of each direction), spelled out.
			long := func(x uint64) (k int) {
				for _, b := range []uint{w.width / 2, w.width + w.width/2} {
					k += int(x >> b & 1)
				}
				return k
			}
			var want, weighted uint64
			for _, x := range a {
				for _, y := range b {
					if x&y != 0 {
						continue
					}
					want++
					switch kx, ky := long(x), long(y); {
					case kx > 0 && ky > 0:
					case kx == 2 || ky == 2:
						weighted += 2
					default:
						weighted++
					}
				}
			}
			if !sv.long {
				weighted = want
			}

			assert.Equal(t, want, matchChunk(js, a, b, chunks), "matchChunk n=%d sizes %v", n, sizes)
			sa, sb := make([]uint64, len(a)), make([]uint64, len(b))
			assert.Equal(t, weighted, countPairs(js, sv, a, b, sa, sb, chunks), "countPairs n=%d sizes %v", n, sizes)
			if js.buckets.apart {
				apart++
			}
		}
		// Sides split by all six extra bits under the widest cut (the
		// dense ones) are laid out with their extra bits apart where the
		// window holds the runs (n ≥ 16).
		if wideCut*wideCut >= wide && n >= 16 {
			assert.Positive(t, apart, "n=%d: no sides laid out with their extra bits apart", n)
		}
	}
}

// TestJoinBounded counts with the smallest buffers (each side listed in
// many pieces, the west side listed again for each east piece) and with no
// quarter cache (every list listed per task), then with both.
func TestJoinBounded(t *testing.T) {
	boards := []int{11, 12}
	if long.Run() { // n = 13 takes most of the 17 s
		boards = append(boards, 13)
	}
	for _, n := range boards {
		p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		for _, c := range []struct {
			chunk  int
			budget int64
		}{{64, 1 << 30}, {1 << 20, 0}, {16, 0}, {1 << 20, 24 << 10}} {
			js := &joinScratch{chunk: c.chunk}
			qc := newQuarterCache(n, c.budget)
			var total uint64
			for i, task := range halves(p) {
				var r Result
				runJoin(n, &task, qc, js, &r)
				total += r.Total
				// A task's nodes are the same whatever its buffers
				// (an audit with another --memory compares them).
				if c.chunk != 1<<20 {
					var whole Result
					runJoin(n, &task, newQuarterCache(n, 1<<30), &joinScratch{chunk: 1 << 20}, &whole)
					require.Equal(t, whole.Nodes, r.Nodes, "n=%d task %d: nodes with buffers of %d and of 1M", n, i, c.chunk)
				}
			}
			assert.Equal(t, known.Total[n], total, "n=%d chunk %d budget %d", n, c.chunk, c.budget)
			if c.budget == 0 {
				assert.Zero(t, qc.kept.Load(), "nothing kept without a budget")
			}
			assert.LessOrEqual(t, qc.kept.Load(), c.budget)
			if c.budget == 24<<10 {
				assert.Positive(t, qc.kept.Load(), "n=%d: some lists kept", n)
			}
		}
	}
}

// TestJoinLongWeights counts boards below JoinLongFrom with the long
// diagonals' weights forced on, in whole and in pieces (small buffers, no
// cache): the plan's tasks, weighted, sum to the published total though
// each task counts another share of it, and with the weights off the
// tasks differ (the fingerprint must tell the two apart). Odd boards
// too: their middle queen is on a long diagonal only at the centre, which
// the transpositions keep (JoinLongOddFrom).
func TestJoinLongWeights(t *testing.T) {
	for _, n := range []int{4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15} {
		checkLongWeights(t, n)
	}
}

// checkLongWeights counts the join plan of the n×n board (one that
// board.JoinLong leaves unweighted) with the long diagonals' weights forced on and off, with
// whole sides and buffers of 16 patterns: weighted, the tasks sum to the
// published total, and from n = 8 some count another share than
// unweighted.
func checkLongWeights(t *testing.T, n int) {
	t.Helper()
	p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
	require.NoError(t, err)
	for _, chunk := range []int{1 << 20, 16} {
		js := &joinScratch{chunk: chunk}
		plain := newQuarterCache(n, 0)
		long := newQuarterCache(n, 0)
		require.False(t, long.sv.long)
		long.sv.long = true
		var total uint64
		differ := 0
		for _, task := range halves(p) {
			var r, r0 Result
			runJoin(n, &task, long, js, &r)
			runJoin(n, &task, plain, js, &r0)
			total += r.Total
			if r.Total != r0.Total {
				differ++
			}
		}
		assert.Equal(t, known.Total[n], total, "n=%d chunk %d", n, chunk)
		if n >= 8 {
			assert.Positive(t, differ, "n=%d: some tasks count another share", n)
		}
	}
}

func TestPlanJoinMemory(t *testing.T) {
	m, err := planJoinMemory(20, 4, 12<<30)
	require.NoError(t, err)
	assert.Equal(t, defaultJoinChunk, m.Chunk)
	assert.Equal(t, (int64(12<<30)-m.Fixed)/5*4, m.CacheBudget)
	m, err = planJoinMemory(20, 16, 128<<20)
	require.NoError(t, err)
	assert.Less(t, m.Chunk, defaultJoinChunk)
	own := 16 * ownListBytes(20)
	assert.LessOrEqual(t, m.Fixed-own, (128<<20-own)/2, "the buffers take at most half of what the own lists leave")
	_, err = planJoinMemory(20, 16, joinMinBytes(20, 16)-1)
	assert.Error(t, err)
	_, err = planJoinMemory(20, 16, joinMinBytes(20, 16))
	assert.NoError(t, err)
}

func TestTranspose64(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var a [64]uint64
	for i := range a {
		a[i] = r.Uint64()
	}
	b := a
	transpose64(&b)
	for i := range 64 {
		for j := range 64 {
			require.Equal(t, a[j]>>uint(i)&1, b[i]>>uint(j)&1, "bit %d of row %d", j, i)
		}
	}
}

// BenchmarkJoinKernel runs every task of a join plan (n = 14) on one
// goroutine with one worker's buffers and a warm quarter cache: the
// kernel alone, which must report 0 allocs/op.
func BenchmarkJoinKernel(b *testing.B) {
	n := 16
	p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
	require.NoError(b, err)
	js := newJoinScratch(defaultJoinChunk)
	qc := newQuarterCache(n, defaultQuarterBudget)
	tasks := halves(p)
	run := func() (total uint64) {
		for i := range tasks {
			var r Result
			runJoin(n, &tasks[i], qc, js, &r)
			total += r.Total
		}
		return total
	}
	run() // fill the cache and the buffers
	b.ReportAllocs()
	var total uint64
	for b.Loop() {
		total = run()
	}
	require.Equal(b, known.Total[n], total)
	b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "solutions/s")
}

// TestJoinCacheFills runs odd boards on several workers with budgets that
// run out while tasks run, so that workers share kept lists and list their
// own beside them (go test -race checks the cache).
func TestJoinCacheFills(t *testing.T) {
	ns := []int{11, 13, 15}
	if testing.Short() {
		ns = ns[:2]
	}
	for _, n := range ns {
		p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		for _, budget := range []int64{24 << 10, 256 << 10} {
			c, err := Run(context.Background(), p, Options{Workers: 4, Skip: skipAllBut(p, halfIndices(p)), quarterBudget: budget})
			require.NoError(t, err)
			assert.Equal(t, wide.Of(known.Total[n]), c.Total, "n=%d budget %d", n, budget)
		}
	}
}

// TestListQuarter checks the two-pass listing against brute force: every
// quarter and row set of boards to n = 11, each placement once, grouped by
// column set in increasing order, and within a set in the order of a
// search that tries columns left to right row by row; the same scratch
// and list reused from one to the next, larger and smaller.
func TestListQuarter(t *testing.T) {
	var sc quarterScratch
	var l quarterList
	for n := 1; n <= 11; n++ {
		qc := newQuarterCache(n, 0)
		h := n / 2
		for q := range 4 {
			r0, rowsN := 0, h
			if q%2 == 1 {
				r0, rowsN = h, n-h
			}
			cols := qc.columns(q / 2)
			for sub := uint64(0); sub < 1<<uint(rowsN); sub++ {
				rows := sub << uint(r0)
				if bits.OnesCount64(rows) > bits.OnesCount64(cols) {
					continue
				}
				// Brute force: every column for each row in turn.
				type placed struct{ cols, d1, d2 uint64 }
				var all []placed
				var rec func(x, used, d1, d2 uint64)
				rec = func(x, used, d1, d2 uint64) {
					if x == 0 {
						all = append(all, placed{used, d1, d2})
						return
					}
					r := uint(bits.TrailingZeros64(x))
					for c := uint(0); c < uint(n); c++ {
						b1, b2 := uint64(1)<<(c+uint(n)-1-r), uint64(1)<<(r+c)
						if cols>>c&1 == 1 && used>>c&1 == 0 && d1&b1 == 0 && d2&b2 == 0 {
							rec(x&(x-1), used|1<<c, d1|b1, d2|b2)
						}
					}
				}
				rec(rows, 0, 0, 0)
				slices.SortStableFunc(all, func(a, b placed) int { return cmp.Compare(a.cols, b.cols) })
				listQuarter(&l, n, q, rows, cols, &sc)
				require.Len(t, l.places, len(all), "n=%d q=%d rows %b", n, q, rows)
				require.Equal(t, len(l.keys)+1, len(l.offs))
				for i, key := range l.keys {
					for j := l.offs[i]; j < l.offs[i+1]; j++ {
						d1, d2 := l.f.unpack(l.places[j])
						require.Equal(t, l.places[j], l.f.pack(d1, d2), "packed in 64 bits")
						require.Equal(t, all[j], placed{key, d1, d2}, "n=%d q=%d rows %b place %d", n, q, rows, j)
					}
					if i > 0 {
						require.Less(t, l.keys[i-1], key)
					}
				}
			}
		}
	}
}

package engine

// This file holds the join method's hot loop: counting the pairs of west and
// east half-board patterns that share no bit.
//
// One side's patterns (whichever makes the work smaller, see countSides)
// are transposed in blocks of 512 (8 groups of 64): a block's table has,
// for each chunk of 6 bits of a pattern and each of the 64 values of that
// chunk, an entry of 8 words, one per group, whose bit j is set when
// pattern j of the group shares no bit with that value there. ANDing the
// entries an other-side pattern's chunks select leaves the patterns it is
// disjoint from; a popcount counts them. Per item and block: one load per
// chunk, the ANDs and a popcount of 8 words: on amd64 one AVX-512 register
// (or two AVX2 ones) per entry, in generated assembly (match_amd64.s, from
// _gen/gen.go; matchBlockGo is the portable twin, and the one built with
// -tags purego). No branches, no bounds checks, no allocation (the table,
// 44 KiB and in L1, belongs to the worker). A sieve (below) first skips
// the pairs of buckets that must share a bit.

import (
	"math/bits"

	"github.com/nqueens/nqueens/internal/board"
)

// blockGroups is how many groups of 64 patterns one table block holds:
// one AVX-512 register of words per table entry.
const blockGroups = 8

// blockPatterns is how many patterns one table block holds.
const blockPatterns = 64 * blockGroups

// A table block cuts patterns into chunks of chunkBits bits (bits
// 6k..6k+5 are chunk k), at most maxChunks of them; a pattern laid out
// with its extra bits apart (buckets.apart) has at most maxVary chunks
// before the extra bits' own one.
const (
	chunkBits = 6
	maxChunks = (64 + chunkBits - 1) / chunkBits
	maxVary   = 64/chunkBits - 1
)

// patternChunks is how many chunks a pattern of n bits takes.
func patternChunks(nbits int) int { return max(1, (nbits+chunkBits-1)/chunkBits) }

// blockTable is the table of one block of up to 512 patterns: for chunk k
// of a pattern and chunk value v, word g of t[k][v] has bit j set when
// pattern 64g+j of the block shares no bit with v in chunk k. Only the
// rows of the patterns' chunks are built and read; the words of groups
// beyond the block's patterns are zero. ANDing the entries an item's
// chunks select and counting the bits counts the block's patterns the
// item is disjoint from. 44 KiB, in L1: a worker has one.
type blockTable [maxChunks][1 << chunkBits][blockGroups]uint64

// buildBlockGo fills the first chunks rows of t from up to blockPatterns
// patterns: the portable way, and the twin the assembly one is tested
// against.
func buildBlockGo(t *blockTable, pats []uint64, chunks int) {
	var has [blockGroups][64]uint64 // has[g][b]: the patterns of group g holding bit b
	var valid [blockGroups]uint64
	for g := range blockGroups {
		lo, hi := min(64*g, len(pats)), min(64*g+64, len(pats))
		copy(has[g][:], pats[lo:hi])
		transpose64(&has[g])
		if hi > lo {
			valid[g] = ^uint64(0) >> (64 - uint(hi-lo))
		}
	}
	for k := range min(chunks, maxChunks) {
		// A chunk's word is the AND of its low 3 bits' and its high 3
		// bits': build those two tables of 8 per group, then combine.
		var lo, hi [8][blockGroups]uint64
		lo[0] = valid
		for g := range blockGroups {
			hi[0][g] = ^uint64(0)
		}
		// Bits past 63 (in the last chunk) are held by every pattern:
		// no item has them, and the assembly twin builds them so.
		holders := func(g, b int) uint64 {
			if b >= 64 {
				return ^uint64(0)
			}
			return has[g][b&63]
		}
		for v := 1; v < 8; v++ {
			low := v & -v
			b := chunkBits*k + bits.TrailingZeros(uint(low))
			for g := range blockGroups {
				lo[v][g] = lo[v^low][g] &^ holders(g, b)
				hi[v][g] = hi[v^low][g] &^ holders(g, b+3)
			}
		}
		row := &t[k]
		for v := range 1 << chunkBits {
			e, l, h := &row[v], &lo[v&7], &hi[v>>3]
			for g := range blockGroups {
				e[g] = l[g] & h[g]
			}
		}
	}
}

// matchBlockGo counts the disjoint pairs of an item and a pattern of the
// block t, reading the first chunks rows and the first groups groups of
// each entry: the portable kernel, and the twin the assembly ones are
// tested against.
func matchBlockGo(t *blockTable, chunks, groups int, items []uint64) uint64 {
	all := [blockGroups]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	return matchItemsGo(t, &all, min(chunks, maxChunks), groups, items)
}

// matchItemsGo counts, over items, the bits of the first groups words of
// start ANDed with the entries each item's first chunks chunks select:
// the portable kernels' loop.
func matchItemsGo(t *blockTable, start *[blockGroups]uint64, chunks, groups int, items []uint64) uint64 {
	var s int
	for _, w := range items {
		acc := *start
		for k := range chunks {
			e := &t[k][w>>(chunkBits*uint(k))&63]
			for g := range blockGroups {
				acc[g] &= e[g]
			}
		}
		for g := range groups {
			s += bits.OnesCount64(acc[g&(blockGroups-1)])
		}
	}
	return uint64(s)
}

// matchSubsGo counts the disjoint pairs of the block t and the items of
// [t0, t1) laid out with their extra bits apart (see buckets.apart), in
// the sub-buckets (bounded by iu, 1<<extraBits of them) that hold none of
// the extra bits in and: each sub-bucket's items read vary chunks, and
// the entry of chunk vary that the sub-bucket's extra bits select, once.
// The portable kernel, and the twin the assembly ones are tested against.
func matchSubsGo(t *blockTable, vary, groups int, items []uint64, iu []int, and, t0, t1 int) uint64 {
	var s uint64
	vary = min(vary, maxVary)
	for e := range 1 << extraBits {
		if lo, hi := max(iu[e], t0), min(iu[e+1], t1); e&and == 0 && lo < hi {
			s += matchItemsGo(t, &t[vary][e], vary, groups, items[lo:hi])
		}
	}
	return s
}

// transpose64 transposes a 64×64 bit matrix in place: afterwards bit j of
// a[b] is what bit b of a[j] was. Six rounds swap ever smaller blocks
// (32×32, 16×16, ..., 1×1) across the diagonal.
func transpose64(a *[64]uint64) {
	m := uint64(0x00000000ffffffff)
	for j := uint(32); j != 0; j, m = j>>1, m^(m<<(j>>1)) {
		for k := uint(0); k < 64; k = (k + j + 1) &^ j {
			t := (a[k&63]>>j ^ a[(k+j)&63]) & m
			a[k&63] ^= t << j
			a[(k+j)&63] ^= t
		}
	}
}

// matchChunk counts the disjoint pairs of east and west patterns.
func matchChunk(js *joinScratch, east, west []uint64, chunks int) uint64 {
	var s uint64
	for len(east) > 0 && !js.stopped() {
		k := min(blockPatterns, len(east))
		buildBlock(&js.tables[0], east[:k], chunks)
		s += matchBlock(&js.tables[0], chunks, (k+63)/64, west)
		east = east[k:]
	}
	return s
}

// sieve cuts the work of matching with a few bits of the patterns: sorted
// into buckets by their values on those bits, a bucket of items needs only
// the buckets of transposed patterns that share none of them. The cut bits
// are the middle diagonals of each direction, the densest ones (about half
// of all patterns hold each), so most bucket pairs are skipped: at n = 18
// six cut bits leave about a fifth of the work. Any bits would be correct:
// two patterns whose buckets share a bit share that bit.
//
// The middle diagonals are the board's two long ones (key bits 1 and 5,
// odd n too: the window is centred on them), and where board.JoinLong
// says so the sieve also weights each bucket pair by the halves' queens
// on them (long, see longWeight): the pairs in which both halves hold a
// long-diagonal queen are never matched.
//
// Large sides are split further, by the diagonals just outside the
// widest cut in each direction (four extra bits, or six where the sides
// hold pairs enough and the cost model says so: splits, split): the
// transposed patterns of a bucket are sorted by them,
// so that a block of 512 mostly holds patterns that agree on them, and
// the items of a bucket are split by them too. A block then skips the
// items that hold an extra bit every pattern of the block holds (the AND
// of its sub-buckets' extra bits). Blocks stay within a bucket, so they
// fill as before, and a block meets fewer items.
type sieve struct {
	m0, a0 uint  // lowest cut bit among the main and among the anti-diagonals
	ok     bool  // windows wide enough to cut
	long   bool  // weight pairs by their long-diagonal queens (even n)
	extra  bool  // the extra bits below the cuts exist (m0 ≥ 1)
	wide   int64 // the least product of the sides' sizes that may be split by all the extra bits: wideSplit
}

// newSieve returns the sieve of an n×n board's patterns in window w.
func newSieve(n int, w window) sieve {
	if w.width < 3 {
		return sieve{}
	}
	m0 := w.width/2 - 1
	return sieve{m0: m0, a0: w.width + w.width/2 - 1, ok: true, long: board.JoinLong(n), extra: m0 >= 1, wide: wideSplit}
}

// The transpositions' weights (even n). A key's long-diagonal queens are
// its bits 1 (the main long diagonal, r = c) and 5 (the anti one,
// r + c = n-1). The transposition about the anti-diagonal maps solutions
// to solutions, keeps the anti-diagonal's queen where it is and moves the
// main diagonal's queen between the west half and the east half; the one
// about the main diagonal does the same the other way round. So the
// solutions with a given set of long-diagonal queens east are as many as
// those with the same set west, and every solution is counted once by
// counting only those with no long-diagonal queen east, each 2^k times
// for the k it has west. A join task stands for its row sets' orbit under
// the mirror (which moves long-diagonal queens from one half to the other)
// and the up-down flip (which keeps them in their half); summed over the
// orbit, its count is the task's weight times the sum over its own pairs of
//
//	1 if neither half has a long-diagonal queen,
//	2^(k-1) if one half has k ≥ 1 of them and the other none,
//	0 if both halves have one
//
// (docs/design.md, "The join at even n", gives the derivation). Pairs of
// the last kind are about a fifth of the work at n = 16..20, and are never
// matched; every sieve cut holds both long diagonals.
const longBits = 0x22

// longWeight returns the weight of a pair of buckets of keys k1 and k2
// (either side east): see longBits.
func longWeight(k1, k2 uint8) uint64 {
	a, b := k1&longBits, k2&longBits
	switch {
	case a != 0 && b != 0:
		return 0
	case a|b == longBits:
		return 2
	}
	return 1
}

// Extra bits split a bucket into up to 1<<extraBits sub-buckets; fineKeys
// is how many keys and sub-buckets there are at most.
const (
	extraBits = 6
	fineKeys  = 256 << extraBits
)

// keyAt is x's bucket with the cut runs from bits m0 and a0 (both below
// 64, see [sieve.shifts]): its four main cut bits, then its four anti cut
// bits (the middle diagonal of each direction is the second). fineAt is
// its key and extra bits, key<<extraBits | extra, with the runs' lowest
// bits less one at f0 and f1: the extra bits are, from the lowest, the
// diagonals below and above the widest cut's four, main then anti, then
// the second diagonal above it, main then anti (a bit beyond the pattern
// is 0 in all of them, which only makes it useless); only with sv.extra
// (m0 ≥ 1). Plain functions of the shifts, for loops over patterns: a
// method on the sieve called there copied it to the stack for every
// pattern.
func keyAt(x uint64, m0, a0 uint) uint8 { return uint8(x>>m0&15 | (x>>a0&15)<<4) }

func fineAt(x uint64, f0, f1 uint) int {
	lo, hi := x>>f0&127, x>>f1&127
	return int((lo>>1&15|(hi>>1&15)<<4)<<extraBits | lo&1 | lo>>4&2 | hi<<2&4 | hi>>2&8 | lo>>2&16 | hi>>1&32)
}

// at is where fine key k (key<<extraBits | extra bits) goes in a
// histogram of shift: key<<shift and the shift lowest extra bits.
func at(k int, shift uint) int { return k>>extraBits<<shift | k&(1<<shift-1) }

// shifts returns the shifts keyAt and fineAt take.
func (sv sieve) shifts() (m0, a0, f0, f1 uint) {
	return sv.m0 & 63, sv.a0 & 63, (sv.m0 - 1) & 63, (sv.a0 - 1) & 63
}

// splits returns how many extra bits may split sides of nT and nI
// patterns (the shift of their sub-buckets): none below the widest cut's
// bound, four from there, and from the sieve's wide (wideSplit, a
// product of the sides' sizes) six, of which planFrom and work take four
// or six, whichever the cost model gives less work (sieve.split).
func (sv sieve) splits(nT, nI int) uint {
	switch m := min(nT, nI); {
	case !sv.extra || m < wideCut:
		return 0
	case int64(nT)*int64(nI) < sv.wide:
		return 4
	}
	return extraBits
}

// wideSplit is the least product of both sides' sizes for which six
// extra bits are weighed against four (a sieve's wide, which the tests
// lower to reach the split with small sides): weighing both (sieve.split)
// takes 1.1 ms, about 1% of the matching of 2^40 pairs (n = 28: a way of
// 2M patterns a side, 4 times as many pairs, matched in 0.5 s), less above.
const wideSplit = 1 << 40

// finerSort is what sorting a pattern by six extra bits costs more than
// by four, in the units of sieve.work (measured at n = 28, sides of 0.2-1M
// and 5-10M patterns: 2-3 ns a pattern more, where an item matched
// against a block of 7 chunks costs 1.5 ns, 56 units).
const finerSort = 100

// squeeze removes a cut's bits from patterns: a run of main diagonals
// from bit lo1 and a run of anti-diagonals from bit lo2 (above the first),
// leaving patterns of bits bits. Shifts are masked to 63, so that the
// compiler emits plain shifts.
type squeeze struct {
	low1, low2         uint64 // the bits below each run
	lo1, lo2, hi1, hi2 uint   // each run's first bit, and the first above it
	bits               uint
}

// squeeze returns the squeeze of cut m (a mask of key bits: each
// direction's bits in it are contiguous, see sieveMasks).
func (sv sieve) squeeze(m uint8) squeeze {
	lo, hi := uint(m&15), uint(m>>4)
	sq := squeeze{lo1: sv.m0 + uint(bits.TrailingZeros(lo)), lo2: sv.a0 + uint(bits.TrailingZeros(hi))}
	sq.hi1, sq.hi2 = sq.lo1+uint(bits.OnesCount(lo)), sq.lo2+uint(bits.OnesCount(hi))
	sq.low1, sq.low2 = 1<<sq.lo1-1, 1<<sq.lo2-1
	sq.bits = 2*(sv.a0-sv.m0) - (sq.hi1 - sq.lo1) - (sq.hi2 - sq.lo2) // a pattern has 2·width bits
	return sq
}

// apply removes the squeeze's bits from x, the higher run first.
func (sq *squeeze) apply(x uint64) uint64 {
	x = x&sq.low2 | x>>(sq.hi2&63)<<(sq.lo2&63)
	return x&sq.low1 | x>>(sq.hi1&63)<<(sq.lo1&63)
}

// apart returns, for sides split by shift extra bits under cut best, the
// squeeze that takes the cut's bits and the extra bits out of a pattern
// together, each direction's run of seven diagonals from the one below
// the widest cut's four to the second above them, and the chunks left
// for the rest of the pattern; false where the layout does not apply (a
// narrower cut or split, or a window too narrow for the runs and the
// chunk after them). Sides laid out this way store each pattern's extra
// bits apart, as its last chunk (see buckets.apart).
func (sv sieve) apart(best uint8, shift uint) (squeeze, int, bool) {
	if best != 0xff || shift != extraBits || !sv.extra || sv.m0+6 >= sv.a0 {
		return squeeze{}, 0, false
	}
	sq := squeeze{lo1: sv.m0 - 1, hi1: sv.m0 + 6, lo2: sv.a0 - 1, hi2: sv.a0 + 6}
	width := sv.a0 - sv.m0
	if sq.hi2 > 2*width {
		return squeeze{}, 0, false
	}
	sq.low1, sq.low2 = 1<<sq.lo1-1, 1<<sq.lo2-1
	sq.bits = 2*width - 14
	vary := patternChunks(int(sq.bits))
	if vary > maxVary {
		return squeeze{}, 0, false
	}
	return sq, vary, true
}

// sieveMasks are the cuts tried, in bits of a key: none, the middle
// diagonal of each direction, the middle two, three, four.
var sieveMasks = [...]uint8{0, 0x22, 0x33, 0x77, 0xff}

// wideCut is the least size of both sides for which the widest cut is
// tried: its buckets are too small to fill groups of 64 below that, and
// estimating its work takes 3^8 steps.
const wideCut = 1 << 13

// buildCost is what building one table block costs, in items matched
// against a block (BenchmarkMatch measures both: 1.3 µs and 2.1-2.8 ns
// with AVX-512 on a Xeon).
const buildCost = 600

// countPairs counts the pairs of a pattern of items and a pattern of
// transposed that share no bit, sieving both sides first, each pair
// weighted by its long-diagonal queens if sv.long (see longBits). sortT
// and sortI are scratch space as long as transposed and items.
func countPairs(js *joinScratch, sv sieve, transposed, items, sortT, sortI []uint64, chunks int) uint64 {
	if js.buckets == nil {
		js.buckets = new(buckets)
	}
	b := js.buckets
	if !b.sort(sv, transposed, items, sortT, sortI, chunks, extraBits) {
		return matchChunk(js, transposed, items, chunks)
	}
	return b.match(js, sv, sortT, sortI)
}

// buckets are both sides of a match sorted by the sieve's cut and, where
// the sides are split (shift = extraBits), by the extra bits within each
// bucket: the patterns of sub-bucket e of bucket v of each side at
// [start[v<<shift|e], start[v<<shift|e+1]), stored without the cut bits.
// A worker has one (about 800 KB).
//
// Sides split by all six extra bits under the widest cut are laid out
// with the extra bits apart (sieve.apart): each pattern is stored without
// the cut's bits and the extra bits, and with the extra bits (in fineAt's
// order) as its last chunk, chunk vary. The items of a sub-bucket all
// hold the same extra bits, so that chunk selects one table entry for
// all of them: matchSubs loads it once a sub-bucket and reads vary
// chunks an item, one fewer than the pattern has (n = 27, 28: 6 of 7,
// where the layout with the extra bits among the others needs 7).
type buckets struct {
	hT, hI         [fineKeys]int // the sides' patterns by key<<shift | extra bits
	shift          uint          // the extra bits the sides are split by (0, 4 or 6)
	best           uint8         // the cut
	sq             squeeze       // the cut's bits (and with apart the extra bits) taken out of the patterns
	chunks         int           // table chunks of a squeezed pattern
	apart          bool          // the extra bits stored apart, as chunk vary
	vary           int           // with apart: the chunks an item reads
	startT, startI [fineKeys + 1]int
	posT, posI     [fineKeys + 1]int
}

// histogram fills the first 256<<shift entries of hT and hI with the
// sides' patterns by key<<shift | the shift lowest extra bits (0 without
// sv.extra).
func (sv sieve) histogram(hT, hI *[fineKeys]int, transposed, items []uint64, shift uint) {
	clear(hT[:256<<shift])
	clear(hI[:256<<shift])
	m0, a0, f0, f1 := sv.shifts()
	switch {
	case shift == 0:
		kT, kI := (*[256]int)(hT[:256]), (*[256]int)(hI[:256])
		for _, x := range transposed {
			kT[keyAt(x, m0, a0)]++
		}
		for _, x := range items {
			kI[keyAt(x, m0, a0)]++
		}
	case !sv.extra:
		for _, x := range transposed {
			hT[int(keyAt(x, m0, a0))<<shift&(fineKeys-1)]++
		}
		for _, x := range items {
			hI[int(keyAt(x, m0, a0))<<shift&(fineKeys-1)]++
		}
	default:
		for _, x := range transposed {
			hT[at(fineAt(x, f0, f1), shift)&(fineKeys-1)]++
		}
		for _, x := range items {
			hI[at(fineAt(x, f0, f1), shift)&(fineKeys-1)]++
		}
	}
}

// keys sums the histogram h (by key<<shift | extra bits) by key.
func keys(h *[fineKeys]int, shift uint) (k [256]int) {
	for i, c := range h[:256<<shift] {
		k[i>>shift] += c
	}
	return k
}

// cut returns the cut of the sides whose patterns by key are hT and hI
// (nT and nI in all) with the least estimated work, in items matched
// against a block (see matchCost): 0 for none.
func (sv sieve) cut(hT, hI *[256]int, nT, nI int) uint8 {
	best, bestCost := uint8(0), -1
	for _, m := range sieveMasks {
		if m == 0xff && min(nT, nI) < wideCut || sv.long && m&longBits != longBits {
			continue
		}
		var cT, cI [256]int
		for k := range hT {
			cT[uint8(k)&m] += hT[k]
			cI[uint8(k)&m] += hI[k]
		}
		cost := 0
		for v := uint8(0); ; v = (v - m) & m { // every v ⊆ m
			if g := (cT[v] + blockPatterns - 1) / blockPatterns; g > 0 {
				work := buildCost
				rest := m &^ v
				for u := rest; ; u = (u - 1) & rest { // every u ⊆ rest
					if !sv.long || longWeight(v, u) != 0 {
						work += cI[u]
					}
					if u == 0 {
						break
					}
				}
				cost += g * work
			}
			if v == m {
				break
			}
		}
		if bestCost < 0 || cost < bestCost {
			best, bestCost = m, cost
		}
	}
	return best
}

// subBucket is where a pattern of histogram entry k (key<<shift | extra
// bits) goes within the cut best: its bucket, and its extra bits.
func subBucket(k int, best uint8, shift uint) int {
	return int(uint8(k>>shift)&best)<<shift | k&(1<<shift-1)
}

// bounds fills start[:256<<shift+1] with the bounds of the sub-buckets
// of cut best, split by shift extra bits, from a histogram h by
// key<<hShift | extra bits (hShift ≥ shift).
func bounds(start *[fineKeys + 1]int, h *[fineKeys]int, hShift uint, best uint8, shift uint) {
	clear(start[:256<<shift+1])
	for k, c := range h[:256<<hShift] {
		start[subBucket(k>>hShift<<shift|k&(1<<shift-1), best, shift)+1] += c
	}
	for k := 1; k <= 256<<shift; k++ {
		start[k] += start[k-1]
	}
}

// blockAnd returns the extra bits every pattern of block [p, p+k) holds,
// from the bounds of its bucket's sub-buckets, sub (1<<shift+1 of them).
func blockAnd(sub []int, p, k int) int {
	and := len(sub) - 2
	for e := range len(sub) - 1 {
		if sub[e] < p+k && sub[e+1] > p {
			and &= e
		}
	}
	return and
}

// sort chooses the cut and sorts both sides into sortT and sortI by
// bucket, and by up to most extra bits within a bucket where the sides
// are large; false if the sides are better matched whole (no cut).
func (b *buckets) sort(sv sieve, transposed, items, sortT, sortI []uint64, chunks int, most uint) bool {
	if !b.plan(sv, transposed, items, chunks, most) {
		return false
	}
	if sq, vary, ok := sv.apart(b.best, b.shift); ok {
		b.sq, b.apart, b.vary, b.chunks = sq, true, vary, vary+1
	}
	b.scatter(sv, transposed, items, sortT, sortI)
	return true
}

// plan chooses the cut of both sides and the bounds of their
// sub-buckets (startT, startI), split by the extra bits sv.splits gives
// but at most most of them, without moving a pattern; false if the
// sides are better matched whole (no cut).
func (b *buckets) plan(sv sieve, transposed, items []uint64, chunks int, most uint) bool {
	b.apart = false
	if !sv.ok || len(items) == 0 || len(transposed) == 0 {
		return false
	}
	b.shift = min(sv.splits(len(transposed), len(items)), most)
	sv.histogram(&b.hT, &b.hI, transposed, items, b.shift)
	return b.planFrom(sv, len(transposed), len(items), chunks)
}

// planFrom is plan from the sides' histograms, already in hT and hI (by
// key<<shift | extra bits), of nT and nI patterns.
func (b *buckets) planFrom(sv sieve, nT, nI, chunks int) bool {
	hShift := b.shift // the histograms' extra bits
	kT, kI := keys(&b.hT, hShift), keys(&b.hI, hShift)
	best := sv.cut(&kT, &kI, nT, nI)
	if best == 0 { // never with long weights: every cut they try holds the long diagonals
		return false
	}
	// Both sides are sorted by sub-bucket, each pattern stored without
	// its cut bits: the bucket pairs matched share none of them, so the
	// table need not hold them, and fewer chunks are matched per item
	// (n = 23: 34 bits, 6 chunks, instead of 42 bits and 7).
	b.sq, b.apart = sv.squeeze(best), false
	b.best, b.chunks = best, min(chunks, patternChunks(int(b.sq.bits)))
	if hShift == extraBits {
		b.shift, _ = sv.split(&b.hT, &b.hI, best, nT, nI, b.chunks)
	}
	bounds(&b.startT, &b.hT, hShift, best, b.shift)
	bounds(&b.startI, &b.hI, hShift, best, b.shift)
	return true
}

// scatter sorts both sides into sortT and sortI by the buckets plan
// chose (a counting sort), each pattern squeezed.
func (b *buckets) scatter(sv sieve, transposed, items, sortT, sortI []uint64) {
	best, sq := b.best, b.sq
	subs := 256 << b.shift
	copy(b.posT[:subs+1], b.startT[:subs+1])
	copy(b.posI[:subs+1], b.startI[:subs+1])
	m0, a0, f0, f1 := sv.shifts()
	if b.shift == 0 {
		pT, pI := (*[256]int)(b.posT[:256]), (*[256]int)(b.posI[:256])
		for _, x := range transposed {
			k := keyAt(x, m0, a0) & best
			sortT[pT[k]] = sq.apply(x)
			pT[k]++
		}
		for _, x := range items {
			k := keyAt(x, m0, a0) & best
			sortI[pI[k]] = sq.apply(x)
			pI[k]++
		}
		return
	}
	if b.apart {
		top := uint(chunkBits*b.vary) & 63
		for _, x := range transposed {
			k := subBucket(fineAt(x, f0, f1), best, extraBits) & (fineKeys - 1)
			sortT[b.posT[k]] = sq.apply(x) | uint64(k&(1<<extraBits-1))<<top
			b.posT[k]++
		}
		for _, x := range items {
			k := subBucket(fineAt(x, f0, f1), best, extraBits) & (fineKeys - 1)
			sortI[b.posI[k]] = sq.apply(x) | uint64(k&(1<<extraBits-1))<<top
			b.posI[k]++
		}
		return
	}
	for _, x := range transposed {
		k := subBucket(at(fineAt(x, f0, f1), b.shift), best, b.shift) & (fineKeys - 1)
		sortT[b.posT[k]] = sq.apply(x)
		b.posT[k]++
	}
	for _, x := range items {
		k := subBucket(at(fineAt(x, f0, f1), b.shift), best, b.shift) & (fineKeys - 1)
		sortI[b.posI[k]] = sq.apply(x)
		b.posI[k]++
	}
}

// Blocks are matched in groups: the items of a bucket are read in tiles
// of matchTile (128 KiB, which stay in L2), each tile matched against the
// group's matchGroup tables in turn (each 28-44 KiB, read from L1 while it
// is matched), so that with large buffers the items come from memory once
// a group instead of once a block.
const (
	matchGroup = 8
	matchTile  = 1 << 14
)

// match counts the disjoint pairs of the sorted sides.
func (b *buckets) match(js *joinScratch, sv sieve, sortT, sortI []uint64) uint64 {
	best, chunks, shift, apart, vary := b.best, b.chunks, b.shift, b.apart, b.vary
	subs := 1 << shift
	var ands, groups [matchGroup]int
	var s uint64
	for v := uint8(0); ; v = (v - best) & best {
		sub := b.startT[int(v)<<shift:][:subs+1]
		rest := best &^ v
		for p := sub[0]; p < sub[subs] && !js.stopped(); {
			// Transpose the next blocks of bucket v, and note the extra
			// bits all of each block's patterns hold.
			nb := 0
			for ; nb < matchGroup && p < sub[subs]; nb++ {
				k := min(blockPatterns, sub[subs]-p)
				buildBlock(&js.tables[nb], sortT[p:p+k], chunks)
				ands[nb], groups[nb] = blockAnd(sub, p, k), (k+63)/64
				p += k
			}
			// Match every bucket of items that shares no cut bit with
			// v, tile by tile, less the sub-buckets holding an extra bit
			// all of a block's patterns hold.
			for u := rest; ; u = (u - 1) & rest {
				wt := uint64(1)
				if sv.long {
					wt = longWeight(v, u)
				}
				if wt != 0 {
					iu := b.startI[int(u)<<shift:][:subs+1]
					for t0 := iu[0]; t0 < iu[subs]; t0 += matchTile {
						t1 := min(t0+matchTile, iu[subs])
						for j := range nb {
							if apart {
								s += wt * matchSubs(&js.tables[j&(matchGroup-1)], vary, groups[j], sortI, iu, ands[j], t0, t1)
							} else {
								s += wt * matchRuns(&js.tables[j&(matchGroup-1)], chunks, groups[j], sortI, iu, ands[j], t0, t1)
							}
						}
					}
				}
				if u == 0 {
					break
				}
			}
		}
		if v == best {
			break
		}
	}
	return s
}

// matchRuns counts the disjoint pairs of the block t and the items of
// [t0, t1) in the sub-buckets (bounded by iu) that hold none of the extra
// bits in and.
func matchRuns(t *blockTable, chunks, groups int, items []uint64, iu []int, and, t0, t1 int) uint64 {
	if and == 0 { // every sub-bucket
		return matchBlock(t, chunks, groups, items[t0:t1])
	}
	var s uint64
	subs := len(iu) - 1
	for e := 0; e < subs; {
		if e&and != 0 {
			e++
			continue
		}
		from := iu[e]
		for e++; e < subs && e&and == 0; e++ {
		}
		if lo, hi := max(from, t0), min(iu[e], t1); lo < hi {
			s += matchBlock(t, chunks, groups, items[lo:hi])
		}
	}
	return s
}

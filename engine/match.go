package engine

// This file holds the join method's hot loop: counting the pairs of west and
// east half-board patterns that share no bit.
//
// One side's patterns (whichever makes the work smaller, see countSides)
// are transposed in groups of 64: a group's table has, for each byte
// position of a pattern and each of the 256 values of that byte, one word
// whose bit j is set when pattern j shares no bit with that value there.
// ANDing the words an other-side pattern's bytes select leaves the
// patterns it is disjoint from; a popcount counts them. Per pattern and
// group of 64: one load per pattern byte, the ANDs and a popcount (two
// groups per pass, so each pattern's bytes are extracted once for both);
// no branches, no bounds checks (tables are indexed by bytes), no
// allocation (tables belong to the worker). A sieve (below) first skips the
// pairs of buckets that must share a bit.

import "math/bits"

// chunkRow is one byte's part of a group's table: word v has bit j set when
// pattern j of the group shares no bit with byte value v at that position.
type chunkRow [256]uint64

// groupTable is the table of one group of 64 patterns: one row per byte of
// a pattern (only the first nbytes rows are built and read).
type groupTable [8]chunkRow

// buildGroup fills t from up to 64 patterns of nbytes bytes each.
func buildGroup(t *groupTable, pats []uint64, nbytes int) {
	var has [64]uint64 // has[b]: the patterns holding bit b
	copy(has[:], pats)
	transpose64(&has)
	valid := ^uint64(0) >> (64 - uint(len(pats)))
	for k := 0; k < nbytes; k++ {
		// A byte's word is the AND of its low nibble's and its high
		// nibble's: build those two tables of 16, then combine.
		var lo, hi [16]uint64
		lo[0], hi[0] = valid, valid
		for v := 1; v < 16; v++ {
			low := v & -v
			b := (8*k + bits.TrailingZeros(uint(low))) & 63
			lo[v] = lo[v^low] &^ has[b]
			hi[v] = hi[v^low] &^ has[(b+4)&63]
		}
		row := &t[k&7]
		for v := range 16 {
			hv := hi[v]
			r := (*[16]uint64)(row[16*v:])
			for u := range 16 {
				r[u] = lo[u] & hv
			}
		}
	}
}

// matchGroups counts like matchGroup for two groups at once, t and u,
// extracting each item's bytes once for both.
func matchGroups(t, u *groupTable, nbytes int, items []uint64) uint64 {
	var s int
	switch {
	case nbytes <= 4:
		for _, w := range items {
			b0, b1, b2, b3 := uint8(w), uint8(w>>8), uint8(w>>16), uint8(w>>24)
			s += bits.OnesCount64(t[0][b0]&t[1][b1]&t[2][b2]&t[3][b3]) +
				bits.OnesCount64(u[0][b0]&u[1][b1]&u[2][b2]&u[3][b3])
		}
	case nbytes == 5:
		for _, w := range items {
			b0, b1, b2, b3, b4 := uint8(w), uint8(w>>8), uint8(w>>16), uint8(w>>24), uint8(w>>32)
			s += bits.OnesCount64(t[0][b0]&t[1][b1]&t[2][b2]&t[3][b3]&t[4][b4]) +
				bits.OnesCount64(u[0][b0]&u[1][b1]&u[2][b2]&u[3][b3]&u[4][b4])
		}
	default:
		return matchGroup(t, nbytes, items) + matchGroup(u, nbytes, items)
	}
	return uint64(s)
}

// matchTables counts the disjoint pairs of items and the patterns of the
// first g tables.
func matchTables(tables []groupTable, g, nbytes int, items []uint64) uint64 {
	var s uint64
	i := 0
	for ; i+1 < g; i += 2 {
		s += matchGroups(&tables[i], &tables[i+1], nbytes, items)
	}
	if i < g {
		s += matchGroup(&tables[i], nbytes, items)
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

// matchGroup counts the pairs of a pattern of items and a pattern of the
// group whose bits are disjoint. It reads the first max(4, nbytes) rows of
// t, which buildGroup must have built.
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
	case nbytes == 7:
		for _, w := range items {
			s += bits.OnesCount64(t[0][uint8(w)] & t[1][uint8(w>>8)] & t[2][uint8(w>>16)] & t[3][uint8(w>>24)] &
				t[4][uint8(w>>32)] & t[5][uint8(w>>40)] & t[6][uint8(w>>48)])
		}
	default:
		for _, w := range items {
			s += bits.OnesCount64(t[0][uint8(w)] & t[1][uint8(w>>8)] & t[2][uint8(w>>16)] & t[3][uint8(w>>24)] &
				t[4][uint8(w>>32)] & t[5][uint8(w>>40)] & t[6][uint8(w>>48)] & t[7][uint8(w>>56)])
		}
	}
	return uint64(s)
}

// matchChunk counts the disjoint pairs of east and west patterns.
func matchChunk(js *joinScratch, east, west []uint64, nbytes int) uint64 {
	var s uint64
	for len(east) > 0 && !js.stopped() {
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
			s += matchTables(js.tables, g, nbytes, blk)
		}
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
type sieve struct {
	m0, a0 uint // lowest cut bit among the main and among the anti-diagonals
	ok     bool // windows wide enough to cut
}

func newSieve(w window) sieve {
	if w.width < 3 {
		return sieve{}
	}
	return sieve{m0: w.width/2 - 1, a0: w.width + w.width/2 - 1, ok: true}
}

// key is a pattern's bucket: its four main cut bits, then its four anti
// cut bits (the middle diagonal of each direction is the second).
func (sv sieve) key(x uint64) uint8 {
	return uint8(x>>sv.m0&15 | (x>>sv.a0&15)<<4)
}

// sieveMasks are the cuts tried, in bits of a key: none, the middle
// diagonal of each direction, the middle two, three, four.
var sieveMasks = [...]uint8{0, 0x22, 0x33, 0x77, 0xff}

// wideCut is the least size of both sides for which the widest cut is
// tried: its buckets are too small to fill groups of 64 below that, and
// estimating its work takes 3^8 steps.
const wideCut = 1 << 13

// buildCost is what building one group's tables costs, in matched
// item-group pairs (BenchmarkMatch measures both).
const buildCost = 700

// countPairs counts the pairs of a pattern of items and a pattern of
// transposed that share no bit, sieving both sides first. sortT and sortI
// are scratch space as long as transposed and items.
func countPairs(js *joinScratch, sv sieve, transposed, items, sortT, sortI []uint64, nbytes int) uint64 {
	if !sv.ok || len(items) == 0 || len(transposed) == 0 {
		return matchChunk(js, transposed, items, nbytes)
	}
	var hT, hI [256]int
	for _, x := range transposed {
		hT[sv.key(x)]++
	}
	for _, x := range items {
		hI[sv.key(x)]++
	}
	// Choose the cut with the least estimated work.
	best, bestCost := uint8(0), -1
	for _, m := range sieveMasks {
		if m == 0xff && min(len(transposed), len(items)) < wideCut {
			continue
		}
		var cT, cI [256]int
		for k := range hT {
			cT[uint8(k)&m] += hT[k]
			cI[uint8(k)&m] += hI[k]
		}
		cost := 0
		for v := uint8(0); ; v = (v - m) & m { // every v ⊆ m
			if g := (cT[v] + 63) / 64; g > 0 {
				work := buildCost
				rest := m &^ v
				for u := rest; ; u = (u - 1) & rest { // every u ⊆ rest
					work += cI[u]
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
	if best == 0 {
		return matchChunk(js, transposed, items, nbytes)
	}
	// Counting sort of both sides by bucket.
	var startT, startI [257]int
	for k := range hT {
		startT[int(uint8(k)&best)+1] += hT[k]
		startI[int(uint8(k)&best)+1] += hI[k]
	}
	for k := 1; k <= 256; k++ {
		startT[k] += startT[k-1]
		startI[k] += startI[k-1]
	}
	posT, posI := startT, startI
	for _, x := range transposed {
		k := sv.key(x) & best
		sortT[posT[k]] = x
		posT[k]++
	}
	for _, x := range items {
		k := sv.key(x) & best
		sortI[posI[k]] = x
		posI[k]++
	}
	var s uint64
	for v := uint8(0); ; v = (v - best) & best {
		for tv := sortT[startT[v]:startT[int(v)+1]]; len(tv) > 0 && !js.stopped(); {
			// Transpose the next block of groups of bucket v.
			g := 0
			for ; g < tableGroups && len(tv) > 0; g++ {
				k := min(64, len(tv))
				buildGroup(&js.tables[g], tv[:k], nbytes)
				tv = tv[k:]
			}
			rest := best &^ v
			for u := rest; ; u = (u - 1) & rest {
				if iu := sortI[startI[u]:startI[int(u)+1]]; len(iu) > 0 {
					s += matchTables(js.tables, g, nbytes, iu)
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

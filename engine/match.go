package engine

// This file holds the join method's hot loop: counting the pairs of west and
// east half-board patterns that share no bit.
//
// East patterns are transposed in groups of 64: a group's table has, for
// each byte position of a pattern and each of the 256 values of that byte,
// one word whose bit j is set when pattern j shares no bit with that value
// there. ANDing the words a west pattern's bytes select leaves the east
// patterns it is disjoint from; a popcount counts them. Per west pattern
// and group of 64 east patterns: one load per pattern byte, the ANDs and a
// popcount; no branches, no bounds checks (tables are indexed by bytes), no
// allocation (tables belong to the worker).

import "math/bits"

// chunkRow is one byte's part of a group's table: word v has bit j set when
// pattern j of the group shares no bit with byte value v at that position.
type chunkRow [256]uint64

// groupTable is the table of one group of 64 patterns: one row per byte of
// a pattern (only the first `bytes` rows are used).
type groupTable [8]chunkRow

// buildGroup fills t from up to 64 patterns of `bytes` bytes each.
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
		for v := range row {
			row[v] = lo[v&15] & hi[v>>4]
		}
	}
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

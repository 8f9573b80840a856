// Command gen writes the engine's amd64 kernels with avo: with -set match
// the join method's matching kernels (engine/match_amd64.s and its Go
// declarations), with -set walk the backtracking kernels
// (engine/kernel_amd64.s, see walk.go). Run it through go generate in
// engine/; CI checks that its output is unchanged.
//
// A table block (engine.blockTable) holds up to 512 patterns, 8 groups of
// 64: for each chunk k of 6 pattern bits (bits 6k..6k+5) and each of the 64
// values v of that chunk, an entry of 8 words, word g with bit j set when
// pattern 64g+j shares no bit with v there. A matching kernel counts, for
// each item of a slice, the block's patterns the item is disjoint from: it
// ANDs the entries the item's chunks select and counts the bits. There is
// one function per number of chunks (1 to 11: patterns of up to 66 bits)
// and instruction set: AVX-512 (one register per entry, VPOPCNTQ) and AVX2
// (two registers per entry, bits counted by nibble lookups). The block is
// built with AVX-512 by transposing the patterns' bits (transposeAVX512)
// and combining the rows of each chunk's bits (buildRowAVX512).
// engine.matchBlockGo and engine.buildBlockGo are their portable twins.
//
// joinNorthsAVX512 lists half-boards eight at a time: north placements one
// by one against eight south ones, the compatible pairs' patterns
// compressed into the output (engine.joinNorthsGo is its twin).
package main

import (
	"flag"
	"fmt"
	"os"

	. "github.com/mmcloughlin/avo/build"
)

// Layout of engine.blockTable.
const (
	chunkBits  = 6
	entries    = 1 << chunkBits
	entryBytes = 8 * 8 // blockGroups words
	rowBytes   = entries * entryBytes
	maxChunks  = 11
	maxVary    = 64/chunkBits - 1 // the chunks an item laid out with its extra bits apart reads, at most
)

const joinArgsType = "*[14]uint64"

const signature = "func(t *[11][64][8]uint64, items []uint64) uint64"

const subsSignature = "func(t *[11][64][8]uint64, items []uint64, bounds *[65]int, and, t0, t1 int) uint64"

func main() {
	set := flag.String("set", "match", "kernels to write: match (the join's) or walk (the backtracking ones)")
	flag.Parse()
	ConstraintExpr("amd64,!purego")
	switch *set {
	case "match":
		matchSet()
	case "walk":
		walkSet()
	default:
		fmt.Fprintf(os.Stderr, "gen: unknown -set %q (accepted: match, walk)\n", *set)
		os.Exit(2)
	}
	Generate()
}

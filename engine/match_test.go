package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkMatch measures what the cost model (buildCost) weighs: building
// one table block, and matching one item against a block.
func BenchmarkMatch(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	pats := make([]uint64, 1<<16)
	for i := range pats {
		pats[i] = r.Uint64() & r.Uint64() & (1<<34 - 1)
	}
	t := new(blockTable)
	for _, chunks := range []int{5, 6, 7} {
		b.Run(fmt.Sprintf("build/chunks=%d", chunks), func(b *testing.B) {
			i := 0
			for b.Loop() {
				buildBlock(t, pats[i&127*blockPatterns:][:blockPatterns], chunks)
				i++
			}
		})
		b.Run(fmt.Sprintf("item/chunks=%d", chunks), func(b *testing.B) {
			buildBlock(t, pats[:blockPatterns], chunks)
			var s uint64
			for b.Loop() {
				s += matchBlock(t, chunks, blockGroups, pats)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pats)), "ns/item")
		})
	}
}

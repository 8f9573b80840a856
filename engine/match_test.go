package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nqueens/nqueens/partition"
)

// BenchmarkMatch measures what the cost model (buildCost) weighs: building
// one table block, and matching one item against a block; and items laid
// out with their extra bits apart (matchSubs, buckets.apart) in
// sub-buckets of 16 to 1,024 items, which read one chunk fewer.
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
		for _, size := range []int{16, 128, 1024} {
			b.Run(fmt.Sprintf("subs/chunks=%d/items=%d", chunks, size), func(b *testing.B) {
				buildBlock(t, pats[:blockPatterns], chunks)
				iu := make([]int, 1<<extraBits+1)
				for e := range iu {
					iu[e] = min(e*size, len(pats))
				}
				var s uint64
				for b.Loop() {
					s += matchSubs(t, chunks-1, blockGroups, pats, iu, 0, 0, iu[1<<extraBits])
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(iu[1<<extraBits]), "ns/item")
			})
		}
	}
}

// TestSqueeze: a cut's squeeze drops exactly the cut's bits of a pattern
// and keeps the others in order, for every cut on every board.
func TestSqueeze(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for n := 9; n <= partition.JoinMaxN; n++ {
		w := newWindow(n)
		sv := newSieve(n, w)
		for _, m := range sieveMasks[1:] {
			sq := sv.squeeze(m)
			cut := map[uint]bool{}
			for b := range uint(4) {
				if m>>b&1 == 1 {
					cut[sv.m0+b] = true
				}
				if m>>(b+4)&1 == 1 {
					cut[sv.a0+b] = true
				}
			}
			assert.Equal(t, 2*w.width-uint(len(cut)), sq.bits, "n=%d cut %#x", n, m)
			for range 100 {
				x := r.Uint64() & (1<<(2*w.width) - 1)
				var want uint64
				k := uint(0)
				for b := range 2 * w.width {
					if !cut[b] {
						want |= (x >> b & 1) << k
						k++
					}
				}
				if got := sq.apply(x); got != want {
					t.Fatalf("n=%d cut %#x: squeeze(%#x) = %#x, want %#x", n, m, x, got, want)
				}
			}
		}
	}
}

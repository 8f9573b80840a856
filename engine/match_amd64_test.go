//go:build amd64 && !purego

package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAsmTwins checks every assembly kernel this CPU supports against its
// Go twin: the tables buildBlock builds and the counts of each matching
// kernel, for every pattern width and block size from 1 to 512 patterns.
func TestAsmTwins(t *testing.T) {
	if !asmBuild && bestMatchKernel() == nil {
		t.Skip("this CPU has neither AVX2 nor AVX-512")
	}
	r := rand.New(rand.NewPCG(7, 8))
	pats := make([]uint64, blockPatterns)
	items := make([]uint64, 300)
	want, got := new(blockTable), new(blockTable)
	for chunks := 1; chunks <= maxChunks; chunks++ {
		bitsMask := ^uint64(0) >> (64 - min(64, chunkBits*uint(chunks)))
		for _, k := range []int{1, 2, 63, 64, 65, 200, 448, 511, 512} {
			for i := range pats {
				pats[i] = r.Uint64() & r.Uint64() & bitsMask
			}
			for i := range items {
				items[i] = r.Uint64() & r.Uint64() & r.Uint64() & bitsMask
			}
			*want, *got = blockTable{}, blockTable{}
			buildBlockGo(want, pats[:k], chunks)
			if asmBuild {
				buildBlock(got, pats[:k], chunks)
				require.Equal(t, want, got, "buildBlock chunks=%d patterns %d", chunks, k)
			}
			groups := (k + 63) / 64
			w := matchBlockGo(want, chunks, groups, items)
			var brute uint64
			for _, x := range items {
				for _, p := range pats[:k] {
					if x&p == 0 {
						brute++
					}
				}
			}
			require.Equal(t, brute, w, "matchBlockGo chunks=%d patterns %d", chunks, k)
			for _, m := range matchKernels {
				if !m.supported {
					continue
				}
				for _, n := range []int{0, 1, 299, 300} {
					assert.Equal(t, matchBlockGo(want, chunks, groups, items[:n]),
						m.byChunks[chunks-1]((*[maxChunks][1 << chunkBits][blockGroups]uint64)(want), items[:n]),
						"%s chunks=%d patterns %d items %d", m.name, chunks, k, n)
				}
			}
		}
	}
}

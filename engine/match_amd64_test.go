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
	if !hasAVX512 && bestMatchKernel() == nil {
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
			if hasAVX512 {
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

// TestJoinNorthsTwin checks the AVX-512 half-join against its Go twin for
// up to 5 north and 40 south placements, with and without a middle queen,
// random placements whose pairs fit about half the time.
func TestJoinNorthsTwin(t *testing.T) {
	if !hasAVX512 {
		t.Skip("this CPU has no AVX-512")
	}
	r := rand.New(rand.NewPCG(9, 10))
	sparse := func() uint64 { return r.Uint64() & r.Uint64() & r.Uint64() }
	for _, n := range []int{8, 17, 18, 32} {
		w := newWindow(n)
		for nn := 0; nn <= 5; nn++ {
			for m := 0; m <= 40; m++ {
				n1, n2, s1, s2 := make([]uint64, nn), make([]uint64, nn), make([]uint64, m), make([]uint64, m)
				for i := range n1 {
					n1[i], n2[i] = sparse(), sparse()
				}
				for i := range s1 {
					s1[i], s2[i] = sparse(), sparse()
				}
				ban1, ban2 := uint64(0), uint64(0)
				if m%2 == 1 {
					ban1, ban2 = 1<<uint(r.IntN(64)), 1<<uint(r.IntN(64))
				}
				want, got := make([]uint64, 256), make([]uint64, 3+nn*m+8)
				kw := joinNorthsGo(n1, n2, s1, s2, want, 3, ban1, ban2, w)
				kg := joinNorths(n1, n2, s1, s2, got[:3+nn*m], 3, ban1, ban2, w)
				require.Equal(t, kw, kg, "n=%d north %d south %d", n, nn, m)
				require.Equal(t, want[3:kw], got[3:kg], "n=%d north %d south %d", n, nn, m)
				for _, x := range got[kg:] {
					require.Zero(t, x, "n=%d north %d south %d: written past the end", n, nn, m)
				}
			}
		}
	}
}

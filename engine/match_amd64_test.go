//go:build amd64 && !purego

package engine

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/cpuid/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

// TestAsmTwins checks every assembly kernel this CPU supports against its
// Go twin: the tables buildBlock builds and the counts of each matching
// kernel, for every pattern width and block size from 1 to 512 patterns.
func TestAsmTwins(t *testing.T) {
	if bestBuilder() == nil && bestMatchKernel() == nil {
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
			for i := range blockBuilders {
				if b := &blockBuilders[i]; b.supported {
					*got = blockTable{}
					buildBlockWith(b, got, pats[:k], chunks)
					require.Equal(t, want, got, "build %s chunks=%d patterns %d", b.name, chunks, k)
				}
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

// TestSubsTwins checks the kernels for items laid out with their extra
// bits apart against matchSubsGo, and matchSubsGo against all pairs: for
// every number of chunks an item reads, blocks of 1 to 512 patterns,
// random sub-bucket bounds, ANDs of extra bits and ranges of items.
func TestSubsTwins(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	pats := make([]uint64, blockPatterns)
	items := make([]uint64, 400)
	tb := new(blockTable)
	for vary := 1; vary <= maxVary; vary++ {
		low := ^uint64(0) >> (64 - chunkBits*uint(vary))
		for _, k := range []int{1, 64, 65, 300, 512} {
			for i := range pats {
				pats[i] = r.Uint64()&r.Uint64()&low | uint64(r.IntN(1<<extraBits))<<(chunkBits*uint(vary))
			}
			for i := range items {
				items[i] = r.Uint64() & r.Uint64() & r.Uint64() & low
			}
			*tb = blockTable{}
			buildBlock(tb, pats[:k], vary+1)
			// Sub-bucket bounds over 20..380, some sub-buckets empty.
			iu := make([]int, 1<<extraBits+1)
			iu[0] = 20
			for e := 1; e <= 1<<extraBits; e++ {
				iu[e] = iu[e-1] + r.IntN(12)
			}
			iu[1<<extraBits] = max(iu[1<<extraBits], iu[1<<extraBits-1])
			for _, c := range []struct{ and, t0, t1 int }{{0, 0, 400}, {0, 100, 250}, {5, 0, 400}, {0x21, 30, 31}, {63, 0, 400}, {0, 300, 100}} {
				var brute uint64
				for e := range 1 << extraBits {
					if e&c.and != 0 {
						continue
					}
					for i := max(iu[e], c.t0); i < min(iu[e+1], c.t1); i++ {
						x := items[i] | uint64(e)<<(chunkBits*uint(vary))
						for _, p := range pats[:k] {
							if x&p == 0 {
								brute++
							}
						}
					}
				}
				groups := (k + 63) / 64
				want := matchSubsGo(tb, vary, groups, items, iu, c.and, c.t0, c.t1)
				require.Equal(t, brute, want, "matchSubsGo chunks=%d patterns %d %+v", vary, k, c)
				for _, m := range matchKernels {
					if m.supported {
						got := m.subs[vary-1]((*[maxChunks][1 << chunkBits][blockGroups]uint64)(tb), items,
							(*[1<<extraBits + 1]int)(iu), c.and, c.t0, c.t1)
						assert.Equal(t, want, got, "%s chunks=%d patterns %d %+v", m.name, vary, k, c)
					}
				}
			}
		}
	}
}

// TestJoinNorthsTwin checks the AVX-512 half-join against its Go twin on
// real quarter lists (every north and south list of a few row sets of
// n = 8, 13, 18 and 19, each side, with and without a middle queen) and on
// random placements for up to 5 north and 40 south ones.
func TestJoinNorthsTwin(t *testing.T) {
	if !hasAVX512 {
		t.Skip("this CPU has no AVX-512")
	}
	check := func(np, sp []uint64, jf *joinFrame, what string) {
		want := make([]uint64, 1<<uint(bits.Len(uint(3+len(np)*len(sp)))))
		got := make([]uint64, 3+len(np)*len(sp)+8)
		kw, sw := joinNorthsGo(np, sp, want, 3, jf)
		kg, sg := joinNorths(np, sp, got[:3+len(np)*len(sp)], 3, jf)
		require.Equal(t, kw, kg, what)
		require.Equal(t, sw, sg, "%s: spared", what)
		require.Equal(t, want[3:kw], got[3:kg], what)
		for _, x := range got[kg:] {
			require.Zero(t, x, "%s: written past the end", what)
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{8, 13, 18, 19} {
		h := n / 2
		qc := newQuarterCache(n, 0)
		for side := range 2 {
			for trial := range 6 {
				rows := uint64(r.Uint32()) & (1<<uint(n) - 1)
				var nl, sl quarterList
				listQuarter(&nl, n, 2*side, rows&(1<<uint(h)-1), qc.columns(side), new(quarterScratch))
				listQuarter(&sl, n, 2*side+1, rows&^(1<<uint(h)-1), qc.columns(side), new(quarterScratch))
				mid := -1
				if n%2 == 1 && trial%2 == 1 {
					mid = r.IntN(n)
				}
				b1, b2 := qc.middleBans(mid, -1)
				jf := newJoinFrame(nl.f, sl.f, qc.w, b1, b2)
				for i := range nl.keys {
					j := r.IntN(len(sl.keys))
					np := nl.places[nl.offs[i]:nl.offs[i+1]]
					sp := sl.places[sl.offs[j]:sl.offs[j+1]]
					check(np, sp, &jf, fmt.Sprintf("n=%d side %d rows %b keys %d %d", n, side, rows, i, j))
				}
			}
		}
	}
	sparse := func() uint64 { return r.Uint64() & r.Uint64() & r.Uint64() }
	w := newWindow(32)
	for nn := 0; nn <= 5; nn++ {
		for m := 0; m <= 40; m++ {
			np, sp := make([]uint64, nn), make([]uint64, m)
			for i := range np {
				np[i] = sparse()
			}
			for i := range sp {
				sp[i] = sparse()
			}
			jf := newJoinFrame(frame{uint(r.IntN(32)), uint(r.IntN(32))}, frame{uint(r.IntN(32)), uint(r.IntN(32))}, w,
				1<<uint(r.IntN(64)), 1<<uint(r.IntN(64)))
			check(np, sp, &jf, fmt.Sprintf("random north %d south %d", nn, m))
		}
	}
}

// TestJoinEveryPath counts with each way this CPU can build, match and
// list (the best one, then AVX2 alone, then Go alone), the whole join of
// n = 11..13 and n = 16 unless -short.
func TestJoinEveryPath(t *testing.T) {
	defer func(b *blockBuilder, m *matchKernel, avx512 bool) { asmBuild, asmMatch, hasAVX512 = b, m, avx512 }(asmBuild, asmMatch, hasAVX512)
	paths := []struct {
		name  string
		build *blockBuilder
		match *matchKernel
	}{{"best", asmBuild, asmMatch}, {"avx2", &blockBuilders[1], &matchKernels[1]}, {"go", nil, nil}}
	ns := []int{11, 12, 13, 16}
	if testing.Short() {
		ns = ns[:3]
	}
	for _, p := range paths {
		if (p.build != nil && !p.build.supported) || (p.match != nil && !p.match.supported) {
			continue
		}
		asmBuild, asmMatch, hasAVX512 = p.build, p.match, p.name == "best" && cpuid.CPU.Supports(cpuid.AVX512F)
		for _, n := range ns {
			plan, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
			require.NoError(t, err)
			c, err := Run(context.Background(), plan, Options{Workers: 2})
			require.NoError(t, err)
			assert.Equal(t, wide.Of(known.Total[n]), c.Total, "%s n=%d", p.name, n)
		}
	}
}

// BenchmarkBuildBlock builds a block of 512 patterns of 6 chunks with each
// builder this CPU supports and in Go.
func BenchmarkBuildBlock(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	pats := make([]uint64, blockPatterns)
	for i := range pats {
		pats[i] = r.Uint64() & r.Uint64() & (1<<34 - 1)
	}
	t := new(blockTable)
	for i := range blockBuilders {
		if bb := &blockBuilders[i]; bb.supported {
			b.Run(bb.name, func(b *testing.B) {
				for b.Loop() {
					buildBlockWith(bb, t, pats, 6)
				}
			})
		}
	}
	b.Run("go", func(b *testing.B) {
		for b.Loop() {
			buildBlockGo(t, pats, 6)
		}
	})
}

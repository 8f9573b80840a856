//go:build amd64 && !purego

package engine

//go:generate go run -C _gen . -out ../match_amd64.s -stubs ../match_amd64_stubs.go -pkg engine

import "github.com/klauspost/cpuid/v2"

// kernelFunc is an assembly matching kernel for patterns of one number of
// chunks.
type kernelFunc = func(*[maxChunks][1 << chunkBits][blockGroups]uint64, []uint64) uint64

// subsFunc is an assembly kernel for items laid out with their extra
// bits apart (see matchSubsGo), for one number of chunks an item reads.
type subsFunc = func(t *[maxChunks][1 << chunkBits][blockGroups]uint64, items []uint64, bounds *[1<<extraBits + 1]int, and, t0, t1 int) uint64

// Matching kernels, best first; each entry is run only where the CPU and
// the OS support it.
var matchKernels = []matchKernel{
	{"avx512", cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512VPOPCNTDQ), [maxChunks]kernelFunc{
		matchBlockAVX512x1, matchBlockAVX512x2, matchBlockAVX512x3, matchBlockAVX512x4, matchBlockAVX512x5, matchBlockAVX512x6,
		matchBlockAVX512x7, matchBlockAVX512x8, matchBlockAVX512x9, matchBlockAVX512x10, matchBlockAVX512x11},
		[maxVary]subsFunc{
			matchSubsAVX512x1, matchSubsAVX512x2, matchSubsAVX512x3, matchSubsAVX512x4, matchSubsAVX512x5,
			matchSubsAVX512x6, matchSubsAVX512x7, matchSubsAVX512x8, matchSubsAVX512x9}},
	{"avx2", cpuid.CPU.Supports(cpuid.AVX2), [maxChunks]kernelFunc{
		matchBlockAVX2x1, matchBlockAVX2x2, matchBlockAVX2x3, matchBlockAVX2x4, matchBlockAVX2x5, matchBlockAVX2x6,
		matchBlockAVX2x7, matchBlockAVX2x8, matchBlockAVX2x9, matchBlockAVX2x10, matchBlockAVX2x11},
		[maxVary]subsFunc{
			matchSubsAVX2x1, matchSubsAVX2x2, matchSubsAVX2x3, matchSubsAVX2x4, matchSubsAVX2x5,
			matchSubsAVX2x6, matchSubsAVX2x7, matchSubsAVX2x8, matchSubsAVX2x9}},
}

// matchKernel is an assembly kernel: one function per number of chunks,
// for items as sorted and for items laid out with their extra bits apart.
type matchKernel struct {
	name      string
	supported bool
	byChunks  [maxChunks]kernelFunc
	subs      [maxVary]subsFunc
}

// hasAVX512 tells whether joinNorths runs its AVX-512 kernel.
var hasAVX512 = cpuid.CPU.Supports(cpuid.AVX512F)

// blockBuilder is an assembly way of building a table block: a transpose
// of 8 groups' bits and a row builder, called directly (not through
// function values, which would move the builder's scratch to the heap:
// one allocation a block).
type blockBuilder struct {
	name      string
	supported bool
	wide      bool // AVX-512; AVX2 otherwise
}

// blockBuilders, best first; each is used only where the CPU supports it.
var blockBuilders = []blockBuilder{
	{"avx512", cpuid.CPU.Supports(cpuid.AVX512F), true},
	{"avx2", cpuid.CPU.Supports(cpuid.AVX2), false},
}

func (b *blockBuilder) transpose(a *[64][blockGroups]uint64) {
	if b.wide {
		transposeAVX512(a)
	} else {
		transposeAVX2(a)
	}
}

func (b *blockBuilder) row(t *[1 << chunkBits][blockGroups]uint64, lacks *[chunkBits][blockGroups]uint64, valid *[blockGroups]uint64) {
	if b.wide {
		buildRowAVX512(t, lacks, valid)
	} else {
		buildRowAVX2(t, lacks, valid)
	}
}

// asmBuild is the builder buildBlock uses: the best one supported, nil
// for none (then it builds in Go).
var asmBuild = bestBuilder()

func bestBuilder() *blockBuilder {
	return firstSupported(blockBuilders, func(b *blockBuilder) bool { return b.supported })
}

// firstSupported returns the first of ks that supported accepts, nil for none.
func firstSupported[T any](ks []T, supported func(*T) bool) *T {
	for i := range ks {
		if supported(&ks[i]) {
			return &ks[i]
		}
	}
	return nil
}

// buildBlock fills the first chunks rows of t from up to blockPatterns
// patterns, as [buildBlockGo] does.
func buildBlock(t *blockTable, pats []uint64, chunks int) {
	if asmBuild == nil {
		buildBlockGo(t, pats, chunks)
		return
	}
	buildBlockWith(asmBuild, t, pats, chunks)
}

// buildBlockWith builds t with the builder b.
func buildBlockWith(b *blockBuilder, t *blockTable, pats []uint64, chunks int) {
	// lacks[j] lane g: pattern 64g+j inverted (zero past the patterns);
	// transposed, lacks[b] lane g has bit j set when that pattern lacks
	// bit b. Rows past bit 63 are for the last chunk's bits that no
	// pattern has.
	var lacks [maxChunks * chunkBits][blockGroups]uint64
	var valid [blockGroups]uint64
	for g := range blockGroups {
		lo, hi := min(64*g, len(pats)), min(64*g+64, len(pats))
		for j, p := range pats[lo:hi] {
			lacks[j&63][g] = ^p
		}
		if hi > lo {
			valid[g] = ^uint64(0) >> (64 - uint(hi-lo))
		}
	}
	b.transpose((*[64][blockGroups]uint64)(lacks[:64]))
	for k := range min(chunks, maxChunks) {
		b.row(&t[k], (*[chunkBits][blockGroups]uint64)(lacks[chunkBits*k:]), &valid)
	}
}

// asmMatch is the kernel matchBlock runs: the best one supported, nil for
// none.
var asmMatch = bestMatchKernel()

func bestMatchKernel() *matchKernel {
	return firstSupported(matchKernels, func(m *matchKernel) bool { return m.supported })
}

// matchBlock counts the disjoint pairs of an item and a pattern of the
// block t (see [matchBlockGo], its portable twin) with the best kernel the
// CPU supports.
func matchBlock(t *blockTable, chunks, groups int, items []uint64) uint64 {
	if asmMatch == nil {
		return matchBlockGo(t, chunks, groups, items)
	}
	return asmMatch.byChunks[min(max(chunks, 1), maxChunks)-1]((*[maxChunks][1 << chunkBits][blockGroups]uint64)(t), items)
}

// matchSubs counts the disjoint pairs of the block t and the items of
// [t0, t1) laid out with their extra bits apart (see [matchSubsGo], its
// portable twin) with the best kernel the CPU supports.
func matchSubs(t *blockTable, vary, groups int, items []uint64, iu []int, and, t0, t1 int) uint64 {
	if asmMatch == nil {
		return matchSubsGo(t, vary, groups, items, iu, and, t0, t1)
	}
	return asmMatch.subs[min(max(vary, 1), maxVary)-1]((*[maxChunks][1 << chunkBits][blockGroups]uint64)(t), items,
		(*[1<<extraBits + 1]int)(iu), and, t0, t1)
}

// matchReadsWholeBlocks reports whether matchBlock reads all groups of a
// block whatever it holds: the assembly kernels do, the portable one reads
// only those that hold patterns.
func matchReadsWholeBlocks() bool { return asmMatch != nil }

// joinNorths lists half-boards as [joinNorthsGo] does, eight south
// placements at a time where the CPU has AVX-512.
func joinNorths(np, sp, buf []uint64, k int, jf *joinFrame) (int, int) {
	if !hasAVX512 {
		return joinNorthsGo(np, sp, buf, k, jf)
	}
	written, spared := joinNorthsAVX512(np, sp, buf[k:k+len(np)*len(sp)], &jf.args)
	return k + written, spared
}

// joinKernel names the matching kernel in use.
func joinKernel() string {
	if asmMatch == nil {
		return "go"
	}
	return asmMatch.name
}

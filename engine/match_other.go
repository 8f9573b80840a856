//go:build !amd64 || purego

package engine

// matchBlock is the portable kernel where no assembly one is built.
func matchBlock(t *blockTable, chunks, groups int, items []uint64) uint64 {
	return matchBlockGo(t, chunks, groups, items)
}

// matchSubs is the portable kernel for items laid out with their extra
// bits apart where no assembly one is built.
func matchSubs(t *blockTable, vary, groups int, items []uint64, iu []int, and, t0, t1 int) uint64 {
	return matchSubsGo(t, vary, groups, items, iu, and, t0, t1)
}

// buildBlock fills t from up to blockPatterns patterns
// each, the portable way.
func buildBlock(t *blockTable, pats []uint64, chunks int) {
	buildBlockGo(t, pats, chunks)
}

// joinNorths lists half-boards the portable way (see [joinNorthsGo]).
func joinNorths(np, sp, buf []uint64, k int, jf *joinFrame) (int, int) {
	return joinNorthsGo(np, sp, buf, k, jf)
}

func joinKernel() string { return "go" }

// matchReadsWholeBlocks is false: the portable kernel reads only the
// groups of a block that hold patterns.
func matchReadsWholeBlocks() bool { return false }

package engine

import "fmt"

// JoinMemory is how a join run uses its memory limit: each worker's pattern
// buffers (Chunk patterns each, see [JoinWorkerBytes]), the quarter cache's
// index and the budget for the quarter lists it keeps.
type JoinMemory struct {
	Chunk       int
	Fixed       int64 // the runtime, buffers of all workers, the cache's index
	CacheBudget int64 // most of the rest of the limit
}

// runtimeBytes is what the process takes besides the join's buffers and
// cache: code (about 10 MiB resident for small boards, measured with
// /usr/bin/time -v), goroutine stacks, the runtime's own structures and the
// garbage collector's slack, which --memory limits too.
const runtimeBytes = 24 << 20

// JoinMinBytes is the least memory limit a join on an n×n board with the
// given number of workers accepts.
func JoinMinBytes(n, workers int) int64 {
	return runtimeBytes + int64(workers)*JoinWorkerBytes(MinJoinChunk) + quarterCacheBytes(n)
}

// PlanJoinMemory divides limit bytes between the workers' buffers and the
// quarter cache of a join on an n×n board: the buffers shrink from
// DefaultJoinChunk towards MinJoinChunk until they take at most half of the
// limit, and the cache may take 80% of the rest (the other 20% is for the
// quarter lists a worker lists for one task when the cache is full, and
// the garbage collector's slack). It fails when the limit is below
// [JoinMinBytes].
func PlanJoinMemory(n, workers int, limit int64) (JoinMemory, error) {
	fixed := func(chunk int) int64 {
		return runtimeBytes + int64(workers)*JoinWorkerBytes(chunk) + quarterCacheBytes(n)
	}
	chunk := DefaultJoinChunk
	for chunk > MinJoinChunk && fixed(chunk) > limit/2 {
		chunk /= 2
	}
	if need := fixed(chunk); need > limit {
		return JoinMemory{}, fmt.Errorf("engine: the join on n = %d with %d workers needs at least %d bytes, the limit is %d", n, workers, need, limit)
	}
	return JoinMemory{Chunk: chunk, Fixed: fixed(chunk), CacheBudget: (limit - fixed(chunk)) / 5 * 4}, nil
}

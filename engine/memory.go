package engine

import (
	"fmt"

	"github.com/dustin/go-humanize"

	"github.com/nqueens/nqueens/partition"
)

// This file decides how much memory a method may take. Only the join keeps
// memory that grows with the board (pattern buffers per worker, a cache of
// quarter placements); the backtracking kernels use their stacks alone.

// MemoryError is returned by [Run] when [Options].Memory is below what the
// plan needs with the given workers.
type MemoryError struct {
	N, Workers  int
	Limit, Need int64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("engine: a memory limit of %s is too small for the join method on n = %d with %d workers: it needs at least %s",
		humanize.IBytes(uint64(e.Limit)), e.N, e.Workers, humanize.IBytes(uint64(e.Need)))
}

// DefaultMemory is the memory limit [Run] applies when [Options].Memory is
// 0: half of physical memory, or 4 GiB where that is unknown.
func DefaultMemory() int64 {
	if total := physicalMemory(); total > 0 {
		return int64(total / 2)
	}
	return 4 << 30
}

// MinMemory is the least memory limit with which [Run] accepts the plan on
// the given number of workers; 0 for plans whose memory does not depend on
// a limit (every method but join).
func MinMemory(plan *partition.Plan, workers int) int64 {
	if !needsMemory(plan) {
		return 0
	}
	workers = min(workers, max(1, len(plan.Tasks)))
	return joinMinBytes(plan.N, workers) + planBytes(plan)
}

// needsMemory reports whether the plan has join tasks.
func needsMemory(plan *partition.Plan) bool {
	for i := range plan.Tasks {
		if plan.Tasks[i].Kind == partition.Halves {
			return true
		}
	}
	return false
}

// planTaskBytes is the memory a plan takes per task, with its ID.
const planTaskBytes = 160

// planBytes is the memory the plan itself holds.
func planBytes(plan *partition.Plan) int64 { return int64(len(plan.Tasks)) * planTaskBytes }

// joinMemory is how a join run uses its memory limit: each worker's pattern
// buffers (Chunk patterns each, see [joinWorkerBytes]), the quarter cache's
// index and the budget for the quarter lists it keeps.
type joinMemory struct {
	Chunk       int
	Fixed       int64 // the runtime, buffers of all workers, the cache's index
	CacheBudget int64 // most of the rest of the limit
}

// runtimeBytes is what the process takes besides the join's buffers and
// cache: code (about 10 MiB resident for small boards, measured with
// /usr/bin/time -v), goroutine stacks, the runtime's own structures and the
// garbage collector's slack, which the limit bounds too.
const runtimeBytes = 24 << 20

// joinMinBytes is the least memory limit a join on an n×n board with the
// given number of workers accepts, not counting the plan.
func joinMinBytes(n, workers int) int64 {
	return runtimeBytes + int64(workers)*joinWorkerBytes(minJoinChunk) + quarterCacheBytes(n)
}

// planJoinMemory divides limit bytes between the workers' buffers and the
// quarter cache of a join on an n×n board: the buffers shrink from
// defaultJoinChunk towards minJoinChunk until they take at most half of the
// limit, and the cache may take 80% of the rest (the other 20% is for the
// quarter lists a worker lists for one task when the cache is full, and
// the garbage collector's slack). It fails when the limit is below
// [joinMinBytes].
func planJoinMemory(n, workers int, limit int64) (joinMemory, error) {
	fixed := func(chunk int) int64 {
		return runtimeBytes + int64(workers)*joinWorkerBytes(chunk) + quarterCacheBytes(n)
	}
	chunk := defaultJoinChunk
	for chunk > minJoinChunk && fixed(chunk) > limit/2 {
		chunk /= 2
	}
	if need := fixed(chunk); need > limit {
		return joinMemory{}, &MemoryError{N: n, Workers: workers, Limit: limit, Need: need}
	}
	return joinMemory{Chunk: chunk, Fixed: fixed(chunk), CacheBudget: (limit - fixed(chunk)) / 5 * 4}, nil
}

// defaultQuarterBudget is the quarter cache's budget for a single task
// run alone (RunTask): enough for every list of n ≤ 21.
const defaultQuarterBudget = 2 << 30

// defaultJoinChunk is the join buffers' largest default size: 1M patterns,
// 16 MiB a worker, more than any task of n ≤ 20 needs.
const defaultJoinChunk = 1 << 20

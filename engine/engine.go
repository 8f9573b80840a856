// Package engine counts n-queens solutions: the kernels and the parallel
// scheduler that runs a [partition.Plan]'s tasks on every core.
//
// The counting kernel is walk, in kernel.go; classify.go holds its twin for
// the full-symmetry method. [Run] runs tasks in an errgroup limited to the
// requested number of workers and sums their [Result]s into [Counts].
package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/klauspost/cpuid/v2"
	"golang.org/x/sync/errgroup"

	"github.com/nqueens/nqueens/partition"
)

// ErrWorkers is returned for a worker count below 1.
var ErrWorkers = errors.New("engine: workers must be at least 1")

// Result is what one task found. Counts are already weighted: Total is the
// number of solutions the task stands for.
type Result struct {
	// Task is the task's index in the slice given to [Run].
	Task int
	// Total solutions; Unique classes under the 8 symmetries; solutions
	// equal to their 180° rotation (PointSym) and to their 90° rotation
	// (Rot90Sym). The last three are zero for methods without classes.
	Total, Unique, PointSym, Rot90Sym uint64
	// Nodes counts the queens the search placed (see walk).
	Nodes uint64
}

// Counts sums results without overflow.
type Counts struct {
	Total, Unique, PointSym, Rot90Sym, Nodes Uint128
	// Tasks is the number of results summed.
	Tasks int
}

// Add adds one result to c.
func (c *Counts) Add(r Result) {
	c.Total = c.Total.Add64(r.Total)
	c.Unique = c.Unique.Add64(r.Unique)
	c.PointSym = c.PointSym.Add64(r.PointSym)
	c.Rot90Sym = c.Rot90Sym.Add64(r.Rot90Sym)
	c.Nodes = c.Nodes.Add64(r.Nodes)
	c.Tasks++
}

// Merge adds the sums in d to c.
func (c *Counts) Merge(d Counts) {
	c.Total = c.Total.Add(d.Total)
	c.Unique = c.Unique.Add(d.Unique)
	c.PointSym = c.PointSym.Add(d.PointSym)
	c.Rot90Sym = c.Rot90Sym.Add(d.Rot90Sym)
	c.Nodes = c.Nodes.Add(d.Nodes)
	c.Tasks += d.Tasks
}

// WorkerSteps returns the worker counts a scaling measurement tries: 1, 2,
// 4, … below max, then max.
func WorkerSteps(max int) []int {
	var ws []int
	for w := 1; w < max; w *= 2 {
		ws = append(ws, w)
	}
	return append(ws, max)
}

// Options tunes [Run].
type Options struct {
	// Workers is how many tasks run at once; 0 means [DefaultWorkers].
	Workers int
	// OnResult, if set, is called with each result as its task finishes,
	// never concurrently with itself.
	OnResult func(Result)
	// JoinChunk is the size, in patterns, of each worker's two buffers for
	// join tasks (see [JoinWorkerBytes]); 0 means [DefaultJoinChunk].
	// It bounds the memory a join uses; results do not depend on it.
	JoinChunk int
	// QuarterBudget bounds the bytes of quarter lists the join keeps for
	// all workers (see quarter.go); 0 means [DefaultQuarterBudget]. Lists
	// beyond it are listed again for each task that needs them.
	QuarterBudget int64
}

// DefaultQuarterBudget is the default memory the join's quarter cache may
// take: enough for every list of n ≤ 21.
const DefaultQuarterBudget = 2 << 30

// DefaultJoinChunk is the join buffers' default size: 1M patterns, 16 MiB a
// worker, more than any task of n ≤ 20 needs.
const DefaultJoinChunk = 1 << 20

// DefaultWorkers is the number of logical cores that cpuid reports, or
// runtime.NumCPU when cpuid cannot tell.
func DefaultWorkers() int {
	if n := cpuid.CPU.LogicalCores; n > 0 {
		return n
	}
	return runtime.NumCPU()
}

// Run counts the solutions of the given tasks of an n×n board and returns
// their sum. Workers goroutines in an errgroup take tasks from one queue in
// order of decreasing estimated cost, so that the big ones do not finish
// last. When ctx is cancelled no new task starts, running ones finish, and
// Run returns ctx's error with the counts of the tasks that did finish.
func Run(ctx context.Context, n int, tasks []partition.Task, opt Options) (Counts, error) {
	workers := opt.Workers
	if workers == 0 {
		workers = DefaultWorkers()
	}
	if workers < 1 {
		return Counts{}, fmt.Errorf("%w (got %d)", ErrWorkers, workers)
	}
	if n < 0 || n > MaxN {
		return Counts{}, fmt.Errorf("engine: board size %d out of range (accepted: 0..%d)", n, MaxN)
	}
	order := make([]int, len(tasks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return tasks[order[a]].Cost > tasks[order[b]].Cost })

	var qc *quarterCache
	for i := range tasks {
		if tasks[i].Kind == partition.Halves {
			qc = newQuarterCache(n, cmp.Or(opt.QuarterBudget, DefaultQuarterBudget))
			break
		}
	}
	var mu sync.Mutex
	var next atomic.Int64 // index into order of the next task to hand out
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	// One goroutine per worker, each taking the next task until none is
	// left: a goroutine grows its stack to the kernels' size once, not once
	// per task, and the cost-ordered queue balances the load dynamically.
	// Each worker sums its own results; the sums are added at the end.
	sums := make([]Counts, min(workers, len(tasks)))
	for w := range sums {
		g.Go(func() error {
			js := newJoinScratch(cmp.Or(opt.JoinChunk, DefaultJoinChunk))
			js.cache = qc
			for gctx.Err() == nil {
				k := int(next.Add(1) - 1)
				if k >= len(order) {
					return nil
				}
				i := order[k]
				r := runTask(n, &tasks[i], js)
				r.Task = i
				sums[w].Add(r)
				if opt.OnResult != nil {
					mu.Lock()
					opt.OnResult(r)
					mu.Unlock()
				}
			}
			return nil
		})
	}
	err := g.Wait()
	var c Counts
	for _, s := range sums {
		c.Merge(s)
	}
	if err == nil {
		err = ctx.Err()
	}
	return c, err
}

// RunTask counts one task on the calling goroutine.
func RunTask(n int, t *partition.Task) Result {
	js := newJoinScratch(DefaultJoinChunk)
	if t.Kind == partition.Halves {
		js.cache = newQuarterCache(n, DefaultQuarterBudget)
	}
	return runTask(n, t, js)
}

// firstColumn is the column of a task's row-0 queen, 0 without a prefix.
func firstColumn(t *partition.Task) int {
	if len(t.Prefix) == 0 {
		return 0
	}
	return int(t.Prefix[0])
}

// runTask counts one task with a worker's join buffers (allocated on the
// first join task).
func runTask(n int, t *partition.Task, js *joinScratch) Result {
	s := emptyStart(n)
	var board [maxRows]uint64
	for _, c := range t.Prefix {
		board[s.Row&63] = 1 << c
		s = s.place(1 << c)
	}
	var r Result
	switch t.Kind {
	case partition.Halves:
		runJoin(n, t, js.cache, js, &r)
	case partition.PointSymmetric:
		sols, nodes := countPointSym(n, firstColumn(t))
		r.PointSym, r.Nodes = sols*t.Weight, nodes
	case partition.Rot90Symmetric:
		sols, nodes := countRot90Sym(n, firstColumn(t))
		r.Rot90Sym, r.Nodes = sols*t.Weight, nodes
	case partition.Classify, partition.CountBanned:
		bs := bannedSearch{n: n, ban: (*[maxRows]uint64)(t.Bans), board: board}
		if t.Kind == partition.Classify {
			bs.flip = t.Flip
		} else {
			bs.weight = t.Weight
		}
		walkBanned(&bs, s)
		r = bs.r
	default:
		sols, nodes := walk(s)
		r.Total = sols * t.Weight
		r.Nodes = nodes
	}
	return r
}

// Package engine counts n-queens solutions: the kernels and the parallel
// scheduler that runs a [partition.Plan]'s tasks on every core.
//
// The kernels, one per kind of task:
//   - walk (kernel.go), the backtracking counter of the mirror method;
//   - walkBanned (classify.go), its twin for tasks with bans: the sym
//     method's classification of every solution, and placed queens;
//   - runJoin (join.go, quarter.go, match.go), the join method's meet in
//     the middle: half-boards listed from quarter placements, pairs
//     without a common diagonal counted;
//   - countPointSym and countRot90Sym (symmetric.go), the join's searches
//     for solutions equal to their own rotations.
//
// [Run] runs a plan's tasks in an errgroup limited to the requested number
// of workers and sums their [Result]s into [Counts]; it sizes the join's
// memory to [Options].Memory. [EachSolution] lists the solutions of one task.
package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/klauspost/cpuid/v2"
	"golang.org/x/sync/errgroup"

	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

// Errors returned by [Run] and [EachSolution].
var (
	errWorkers = fmt.Errorf("workers must be from 1 to %d", MaxWorkers)
	errPlan    = errors.New("invalid plan")
	errList    = errors.New("the task does not list solutions")
)

// Result is what one task found. Counts are already weighted: Total is the
// number of solutions the task stands for.
type Result struct {
	// Task is the task's index in the plan's Tasks.
	Task int
	// Total solutions; Unique classes under the 8 symmetries; solutions
	// equal to their 180° rotation (PointSym) and to their 90° rotation
	// (Rot90Sym). Which of the last three a task counts depends on its
	// kind: Classify tasks count all three, PointSymmetric and
	// Rot90Symmetric tasks their own, the others none.
	Total, Unique, PointSym, Rot90Sym uint64
	// TotalHi holds the words above Total's of a total of 2^64 or more
	// (the rooks' and kings' closed forms, up to 320 bits in all); zero
	// for every other kernel. See Result.total.
	TotalHi [wide.Words - 1]uint64
	// Nodes measures the task's work: for the backtracking kernels the
	// queens placed (see walk), for join tasks the north–south pairs of
	// quarter placements tried while listing half-boards. Nodes are
	// comparable between plans of one method only.
	Nodes uint64
}

// total returns r's total, all its words.
func (r *Result) total() wide.Uint {
	var w [wide.Words]uint64
	w[0] = r.Total
	copy(w[1:], r.TotalHi[:])
	return wide.FromWords(w)
}

// setWide sets r's total to u.
func (r *Result) setWide(u wide.Uint) {
	w := u.Words()
	r.Total = w[0]
	copy(r.TotalHi[:], w[1:])
}

// The types engine's API holds from the packages below the library,
// under engine's names, so that an importer can name each of them.
type (
	// Uint is an unsigned count of up to 320 bits, room for any board's.
	Uint = wide.Uint
	// Device counts tasks beside the CPU workers (the library opens
	// them: nqueens.WithDevice).
	Device = backend.Device
	// Knobs tune how devices run the join (nqueens.WithDeviceTuning).
	Knobs = backend.Knobs
	// Stages are a device's own times for the stages of its work.
	Stages = backend.Stages
)

// Counts sums results without overflow.
type Counts struct {
	Total, Unique, PointSym, Rot90Sym, Nodes Uint
	// Tasks is the number of results summed.
	Tasks int
}

// Add adds one result to c.
func (c *Counts) Add(r Result) {
	c.Total = c.Total.Add(r.total())
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
	// Skip, if not empty, leaves out the plan's task i where Skip[i] is
	// true (a resumed run's finished tasks): its length is then the
	// plan's. Empty or nil, every task runs.
	Skip []bool
	// Memory bounds, in bytes, what the run may take; 0 means
	// [DefaultMemory]. Run refuses a limit below [minMemory] (the plan's
	// tasks and their results, the join's smallest buffers) with a
	// [*MemoryError]; the join's buffers and cache are sized to it (a
	// smaller limit makes the join slower, never larger). While a join
	// runs, the Go runtime's soft memory limit is set to it, so that the
	// garbage collector keeps the heap within it too.
	Memory int64
	// OnResult, if set, is called with each result as its task finishes,
	// never concurrently with itself.
	OnResult func(Result)
	// Devices count tasks beside the CPU workers, taking them from the
	// same queue a batch at a time as each finishes (so a fast device
	// takes more). With devices, Workers may be -1: no CPU worker. A plan
	// a device cannot count ([CheckDevicePlan]) is an error.
	Devices []Device
	// Tuning is how the devices run the join (zero knobs: their
	// defaults, backend.DefaultKnobs); Tuning.Hosts host goroutines per
	// device list and sort its tasks, beside any CPU workers.
	Tuning Knobs
	// Profile, if set, receives where the devices' join spent its time
	// (added to what it holds).
	Profile *JoinProfile

	// Keep, if set, keeps the join's worker buffers and quarter cache
	// from this run for the next run given the same Keep, instead of
	// each run making its own: for a caller that runs many small plans of
	// one board in a row (the shards of a range, [KeptBuffers]).
	Keep *KeptBuffers

	// quarterBudget, if set, replaces the quarter cache's budget (tests).
	quarterBudget int64
}

// KeptBuffers holds what a join run leaves for the next run given it
// ([Options].Keep): its workers' buffers, grown to the tasks' size, and
// its quarter cache, whose lists the next plan's tasks of the same board
// share. A run takes them if it is of the same board with the same
// buffer size and cache budget (otherwise it makes its own and keeps
// those); they are freed with the KeptBuffers. The zero value is empty and
// ready; a KeptBuffers is for runs one after another, not at once.
type KeptBuffers struct {
	mu      sync.Mutex
	n       int
	chunk   int
	budget  int64
	cache   *quarterCache
	scratch []*joinScratch
}

// take returns the kept quarter cache of the n×n board for a run with
// the given buffer size and cache budget, its budget moved to the run's
// (a run's budget is what its memory limit leaves beside its plan, so it
// differs a little from shard to shard), or a new one, dropping what was
// kept, when the board or the buffers differ or the cache holds more
// than the new budget.
func (k *KeptBuffers) take(n, chunk int, budget int64) *quarterCache {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cache != nil && k.n == n && k.chunk == chunk && k.cache.room.Load()+budget-k.budget >= 0 {
		k.cache.room.Add(budget - k.budget)
		k.budget = budget
		return k.cache
	}
	k.n, k.chunk, k.budget, k.cache, k.scratch = n, chunk, budget, newQuarterCache(n, budget), nil
	return k.cache
}

// scratchFor returns a kept worker's buffers, or new ones.
func (k *KeptBuffers) scratchFor(chunk int) *joinScratch {
	if k != nil {
		k.mu.Lock()
		defer k.mu.Unlock()
		if m := len(k.scratch); m > 0 && k.chunk == chunk {
			js := k.scratch[m-1]
			k.scratch = k.scratch[:m-1]
			return js
		}
	}
	return newJoinScratch(chunk)
}

// give keeps a worker's buffers for the next run.
func (k *KeptBuffers) give(js *joinScratch) {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	js.cache, js.stop = nil, nil
	k.scratch = append(k.scratch, js)
}

// MaxWorkers bounds the workers of a run: more than the cores of the
// largest machines only adds goroutines, buffers and a longer wait for
// running tasks after a stop.
const MaxWorkers = 4096

// DefaultWorkers is how many tasks a run takes at once by default: the
// CPUs the process may run on (GOMAXPROCS, which follows the CPU affinity,
// taskset or Slurm's binding, and cgroup CPU quotas, a Kubernetes pod's
// limit), capped by the logical cores that cpuid reports.
func DefaultWorkers() int {
	n := runtime.GOMAXPROCS(0)
	if c := cpuid.CPU.LogicalCores; c > 0 {
		n = min(n, c)
	}
	return max(1, n)
}

// check returns an error naming the first task of the plan that no kernel
// can run.
func check(plan *partition.Plan) error {
	if plan == nil {
		return fmt.Errorf("%w: no plan", errPlan)
	}
	if plan.N < 0 || plan.N > maxRows {
		return fmt.Errorf("%w: board size %d out of range (accepted: 0..%d)", errPlan, plan.N, maxRows)
	}
	for i := range plan.Tasks {
		if err := checkTask(plan.N, &plan.Tasks[i]); err != nil {
			return err
		}
	}
	return nil
}

// checkTask returns an error if no kernel can run t on an n×n board.
func checkTask(n int, t *partition.Task) error {
	bad := len(t.Prefix) > n
	for _, c := range t.Prefix {
		bad = bad || int(c) >= n
	}
	switch t.Kind {
	case board.Count:
	case board.Classify, board.CountBanned, board.CountPieces:
		bad = bad || t.Bans == nil
	case board.Halves:
		bad = bad || n > joinMaxN || bits.OnesCount64(t.Rows) != board.JoinSide(n) || n < 64 && t.Rows>>uint(n) != 0
		if n%2 == 1 {
			bad = bad || t.Middle < 0 || int(t.Middle) >= n || t.Rows>>uint(max(t.Middle, 0))&1 == 1
		} else {
			bad = bad || t.Middle >= 0
		}
	case board.PointSymmetric, board.Rot90Symmetric:
		bad = bad || len(t.Prefix) > 1
	case board.Formula:
		bad = bad || len(t.Prefix) > 0
	case board.Sweep:
		bad = bad || len(t.Prefix) > 0 || n > board.MaxSweepN
	default:
		return fmt.Errorf("%w: task %q has an unknown kind %d", errPlan, t.ID, t.Kind)
	}
	if bad {
		return fmt.Errorf("%w: task %q does not fit an %d×%d board", errPlan, t.ID, n, n)
	}
	return nil
}

// Run counts the solutions of the plan's tasks (all but those opt.Skip
// leaves out) and returns their sum. Workers goroutines in an errgroup take tasks
// from one queue in order of decreasing estimated cost, so that the big
// ones do not finish last. When ctx is cancelled no new task starts,
// running backtracking tasks finish (they are small), running join tasks
// stop within a block of work and are dropped, and Run returns ctx's error
// with the counts of the tasks that did finish. Invalid input (a plan no kernel can run, a worker
// count below 1, a Skip of another length than the plan's, a memory limit too small) is
// an error before any task starts.
//
// Run is three steps: validate (the checks and the queue), sizeRun (the
// memory split between workers and devices, and the join's cache) and
// schedule (the goroutines).
func Run(ctx context.Context, plan *partition.Plan, opt Options) (Counts, error) {
	q, err := validate(plan, opt)
	if err != nil || len(q.order) == 0 && len(opt.Devices) > 0 {
		return Counts{}, err
	}
	sz, err := sizeRun(plan, opt, q.workers)
	if err != nil {
		return Counts{}, err
	}
	defer sz.release()
	return schedule(ctx, plan, opt, q, sz)
}

// runQueue is a run's queue: the tasks to count, most costly first, and
// the CPU workers that take them (0: the devices alone).
type runQueue struct {
	order   []int
	workers int
}

// validate checks the plan and the options, and orders the tasks to
// count by decreasing cost.
func validate(plan *partition.Plan, opt Options) (runQueue, error) {
	if err := check(plan); err != nil {
		return runQueue{}, err
	}
	workers := cmp.Or(opt.Workers, DefaultWorkers())
	switch {
	case workers == -1 && len(opt.Devices) > 0:
		workers = 0 // the devices alone
	case workers < 1 || workers > MaxWorkers:
		return runQueue{}, fmt.Errorf("%w (got %d)", errWorkers, workers)
	}
	if len(opt.Devices) > 0 {
		if err := CheckDevicePlan(plan); err != nil {
			return runQueue{}, err
		}
		if err := checkRoles(plan, opt.Devices); err != nil {
			return runQueue{}, err
		}
	}
	if len(opt.Skip) > 0 && len(opt.Skip) != len(plan.Tasks) {
		return runQueue{}, fmt.Errorf("%w: Skip holds %d tasks, the plan %d", errPlan, len(opt.Skip), len(plan.Tasks))
	}
	order := make([]int, 0, len(plan.Tasks))
	for i := range plan.Tasks {
		if len(opt.Skip) == 0 || !opt.Skip[i] {
			order = append(order, i)
		}
	}
	tasks := plan.Tasks
	sort.SliceStable(order, func(a, b int) bool { return tasks[order[a]].Cost > tasks[order[b]].Cost })
	return runQueue{order: order, workers: min(workers, max(1, len(order)))}, nil
}

// runSizes are a run's memory split: the devices' join tuning and host
// goroutines, each worker's listing chunk, and the join's quarter cache
// (nil without join tasks); release gives back what the run held.
type runSizes struct {
	join    bool // the plan has join tasks
	tune    backend.Knobs
	hosts   int // a device join's host goroutines, per device
	chunk   int
	qc      *quarterCache
	release func()
}

// sizeRun splits the run's memory limit between the CPU workers, the
// devices' host goroutines and their batches, and the join's cache,
// refusing a limit too small ([*MemoryError]).
func sizeRun(plan *partition.Plan, opt Options, workers int) (runSizes, error) {
	sz := runSizes{join: needsMemory(plan), chunk: defaultJoinChunk, release: func() {}}
	limit := MemoryLimit(opt.Memory)
	sz.tune = resolve(opt.Tuning, opt.Devices)
	if sz.join {
		if err := checkJoin(sz.tune, opt.Devices); err != nil {
			return runSizes{}, err
		}
	}
	hosts, batches := sideOf(sz.join, len(opt.Devices), sz.tune) // sz.tune.Hosts resolved once, by resolve
	sz.hosts = hosts
	listers := workers + hosts*len(opt.Devices) // goroutines that list join tasks
	need := minMemory(plan, max(1, listers)) + batches
	if err := FitMemory(plan.N, plan.Method, listers, len(plan.Tasks), max(1, plan.Shards), limit, need); err != nil {
		if me, ok := err.(*MemoryError); ok {
			me.Hosts = hosts * len(opt.Devices)
		}
		return runSizes{}, err
	}
	if sz.join {
		mem, err := planJoinMemory(plan.N, listers, limit-planBytes(plan)-batches)
		if err != nil {
			return runSizes{}, err
		}
		sz.chunk = mem.Chunk
		budget := cmp.Or(opt.quarterBudget, mem.CacheBudget)
		if opt.Keep != nil {
			sz.qc = opt.Keep.take(plan.N, sz.chunk, budget)
		} else {
			sz.qc = newQuarterCache(plan.N, budget)
		}
		sz.release = holdGCLimit(limit)
	}
	return sz, nil
}

// schedule counts the queue's tasks: one goroutine per CPU worker, each
// taking the next task until none is left (a goroutine grows its stack to
// the kernels' size once, not once per task, and the cost-ordered queue
// balances the load dynamically), and one per device, which feeds it (for
// the join, through its host goroutines). Each worker sums its own
// results; the sums are added at the end. Join tasks, the long ones, look
// at stop between blocks of work and end early once ctx is done; a task
// cut short is not reported.
func schedule(ctx context.Context, plan *partition.Plan, opt Options, q runQueue, sz runSizes) (Counts, error) {
	order := q.order
	var mu sync.Mutex
	var next atomic.Int64 // index into order of the next task to hand out
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(q.workers + len(opt.Devices))
	var stop atomic.Bool
	defer context.AfterFunc(gctx, func() { stop.Store(true) })()
	// A sum per CPU worker, then per device (per host goroutine of a
	// device's join).
	cpu := min(q.workers, len(order))
	perDevice := max(1, sz.hosts)
	sums := make([]Counts, cpu+perDevice*len(opt.Devices))
	report := func(w int, r Result) {
		sums[w].Add(r)
		if opt.OnResult != nil {
			mu.Lock()
			opt.OnResult(r)
			mu.Unlock()
		}
	}
	var keep *KeptBuffers
	if sz.qc != nil {
		keep = opt.Keep
	}
	scratch := func() *joinScratch {
		js := keep.scratchFor(sz.chunk)
		js.cache, js.stop = sz.qc, &stop
		return js
	}
	for d, dev := range opt.Devices {
		w := cpu + d*perDevice
		if !sz.join {
			g.Go(func() error {
				return runDevice(gctx, dev.(backend.Searcher), plan, order, &next, func(r Result) { report(w, r) })
			})
			continue
		}
		feeders := make([]*joinScratch, sz.hosts)
		for h := range feeders {
			feeders[h] = scratch()
		}
		g.Go(func() error {
			defer func() {
				for _, js := range feeders {
					keep.give(js)
				}
			}()
			return runJoinDevice(gctx, dev.(backend.Joiner), plan, order, &next, feeders, sz.tune, opt.Profile, func(h int, r Result) { report(w+h, r) })
		})
	}
	for w := range sums[:cpu] {
		g.Go(func() error {
			js := scratch()
			defer keep.give(js)
			runWorker(gctx, plan, order, &next, js, &stop, func(r Result) { report(w, r) })
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

// runWorker is one CPU worker of schedule: it counts the next task of
// order (next is shared by every worker and device) until none is left or
// ctx is done, and reports each result. A join task that stop cuts short
// is not reported: a resumed run counts it again.
func runWorker(ctx context.Context, plan *partition.Plan, order []int, next *atomic.Int64, js *joinScratch, stop *atomic.Bool, report func(Result)) {
	tasks := plan.Tasks
	for ctx.Err() == nil {
		k := int(next.Add(1) - 1)
		if k >= len(order) {
			return
		}
		i := order[k]
		r := runTask(plan, &tasks[i], js)
		if tasks[i].Kind == board.Halves && stop.Load() {
			return // perhaps cut short: counted again on resume
		}
		r.Task = i
		report(r)
	}
}

// Sampler counts a plan's tasks one at a time on the calling goroutine,
// keeping one worker's join buffers and quarter cache between calls as a
// run's worker does: the tool for timing tasks one by one.
type Sampler struct {
	plan *partition.Plan
	js   *joinScratch
	hist [2][fineKeys]int // a probe's sides by fine key, for the work model
	ways []joinWay        // the probed task's
}

// NewSampler checks the plan and sizes one worker's buffers and cache to
// memory (0: [DefaultMemory]); a limit below what one worker needs is a
// [*MemoryError].
func NewSampler(plan *partition.Plan, memory int64) (*Sampler, error) {
	if err := check(plan); err != nil {
		return nil, err
	}
	limit := MemoryLimit(memory)
	// Parts of tasks keep their thinned north lists beside the own ones.
	var thinned int64
	if needsMemory(plan) {
		thinned = quarterListBytes(plan.N)
	}
	if err := FitMemory(plan.N, plan.Method, 1, len(plan.Tasks), 1, limit, minMemory(plan, 1)+thinned); err != nil {
		return nil, err
	}
	s := &Sampler{plan: plan}
	if needsMemory(plan) {
		mem, err := planJoinMemory(plan.N, 1, limit-planBytes(plan)-thinned)
		if err != nil {
			return nil, err
		}
		s.js = newJoinScratch(mem.Chunk)
		s.js.cache = newQuarterCache(plan.N, mem.CacheBudget)
	}
	return s, nil
}

// Count counts task i.
func (s *Sampler) Count(i int) (Result, error) {
	if i < 0 || i >= len(s.plan.Tasks) {
		return Result{}, fmt.Errorf("%w: no task %d in the plan", errPlan, i)
	}
	r := runTask(s.plan, &s.plan.Tasks[i], s.js)
	r.Task = i
	return r, nil
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
func runTask(plan *partition.Plan, t *partition.Task, js *joinScratch) Result {
	n, rules := plan.N, plan.Piece.Rules(plan.Torus)
	s := emptyStart(n)
	var placed [maxRows]uint64
	for _, c := range t.Prefix {
		placed[s.Row&63] = 1 << c
		s = s.place(1 << c)
	}
	var r Result
	switch t.Kind {
	case board.Halves:
		runJoin(n, t, js.cache, js, &r)
	case board.PointSymmetric:
		sols, nodes := countPointSym(n, firstColumn(t))
		r.PointSym, r.Nodes = sols*t.Weight, nodes
	case board.Rot90Symmetric:
		sols, nodes := countRot90Sym(n, firstColumn(t))
		r.Rot90Sym, r.Nodes = sols*t.Weight, nodes
	case board.Formula:
		r.setWide(kings(n))
	case board.Sweep:
		r.Total = sweepRows(n, rules)
	case board.CountPieces:
		if rules.Rook() {
			// Rooks: every arrangement of the free rows' pieces in the
			// free columns (the placed ones keep theirs).
			left := n - len(t.Prefix)
			for _, q := range plan.Placed {
				if q.Row >= len(t.Prefix) {
					left--
				}
			}
			r.setWide(factorialTimes(left, t.Weight))
			break
		}
		a := rules.After(n, t.Prefix)
		walk := walkShort
		if rules.Torus {
			walk = walkTorus
		}
		sols, nodes := walk(n, rules, t.Bans, a, len(t.Prefix))
		r.Total, r.Nodes = sols*t.Weight, nodes
	case board.Classify, board.CountBanned:
		var bs bannedSearch
		bs.init(n, t.Bans)
		bs.board = placed
		if t.Kind == board.Classify {
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

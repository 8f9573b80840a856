package engine

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"runtime/debug"
	"sync"

	"github.com/KimMachineGun/automemlimit/memlimit"
	"github.com/dustin/go-humanize"

	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/partition"
)

// This file is the memory model of a count, the one place that says what
// a count takes: the runtime, the plan's tasks and the ledger that holds
// their results (per task), for the join the pattern buffers of each
// worker and the cache of quarter placements, which grow with the board
// and are sized to the limit, and for each device its batch of starts
// (deviceBytes). The backtracking kernels use their stacks alone.

// MemoryError is returned when a memory limit is below what a count
// needs: by [Run] for its plan and workers, and by callers that check a
// plan's [MemoryNeed] before making it.
type MemoryError struct {
	N, Workers  int
	Method      partition.Method
	Tasks       int // the tasks the plan (or shard) holds
	Shards      int // the shards it is one of (1: the whole board)
	Limit, Need int64
	// Hosts of the Workers are the host goroutines that feed devices
	// (the join's hosts= knob, times the devices), each with its batch:
	// what fewer of them, or a smaller batch=, would save.
	Hosts int
}

// FitMemory returns nil when a run that needs need bytes fits limit, and else
// the [*MemoryError] of the n×n board by method on workers, its plan of
// tasks tasks one of shards shards: the one rule a memory refusal is
// decided by and the one place it is built (Run, the sampler, the join's
// buffers, and the library before it plans, with [MemoryNeed]).
func FitMemory(n int, method partition.Method, workers, tasks, shards int, limit, need int64) error {
	if need <= limit {
		return nil
	}
	return &MemoryError{N: n, Method: method, Workers: workers, Tasks: tasks, Shards: shards, Limit: limit, Need: need}
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("a memory limit of %s is too small for n = %d (%s, %d tasks) with %d workers: it needs at least %s",
		humanize.IBytes(uint64(e.Limit)), e.N, e.Method, e.Tasks, e.Workers, humanize.IBytes(uint64(e.Need)))
}

// MostlyTasks reports whether most of what the count needs is its plan's
// tasks (so that fewer tasks, in shards or smaller boards, would fit).
func (e *MemoryError) MostlyTasks() bool { return int64(e.Tasks)*taskBytes*2 > e.Need }

// ShardsToFit is a number of shards of the whole board (a power of 2)
// whose each fits the limit with room to spare (shards differ in their
// number of tasks), or 0 when shards would not help.
func (e *MemoryError) ShardsToFit() int {
	fit := MaxTasks(e.N, e.Method, e.Workers, e.Limit)
	if fit == 0 || !e.MostlyTasks() {
		return 0
	}
	m := 2
	for m < 1<<30 && m*fit < 4*e.Tasks*max(1, e.Shards) {
		m *= 2
	}
	return m
}

// gcLimit is the Go runtime's soft memory limit while join runs hold it:
// the caller's limit is saved when the first run starts and restored
// when the last one ends, and between them the limit is the sum of the
// runs' limits (each may take its own), never above the caller's. So
// concurrent counts leave the process's limit exactly as they found it.
var gcLimit struct {
	sync.Mutex
	runs  int
	sum   int64
	saved int64
}

// holdGCLimit takes limit bytes into the runtime's soft memory limit for
// a run; release gives them back.
func holdGCLimit(limit int64) (release func()) {
	gcLimit.Lock()
	defer gcLimit.Unlock()
	if gcLimit.runs == 0 {
		gcLimit.saved = debug.SetMemoryLimit(-1)
	}
	gcLimit.runs++
	gcLimit.sum += limit
	debug.SetMemoryLimit(min(gcLimit.saved, gcLimit.sum))
	return func() {
		gcLimit.Lock()
		defer gcLimit.Unlock()
		gcLimit.runs--
		gcLimit.sum -= limit
		if gcLimit.runs == 0 {
			debug.SetMemoryLimit(gcLimit.saved)
			return
		}
		debug.SetMemoryLimit(min(gcLimit.saved, gcLimit.sum))
	}
}

// DefaultMemory is the memory limit [Run] applies when [Options].Memory is
// 0: half of what the process may use ([UsableMemory]), or 4 GiB where that is
// not known.
func DefaultMemory() int64 {
	if u, _ := UsableMemory(); u > 0 {
		return u / 2
	}
	return 4 << 30
}

// MemoryLimit is the memory limit a run applies for a requested one: memory,
// or [DefaultMemory] for 0, capped at what the process may use ([UsableMemory])
// where that is known, so that a limit above it never lets a run grow
// into the system's out-of-memory killer or the runtime's.
func MemoryLimit(memory int64) int64 {
	m := cmp.Or(memory, DefaultMemory())
	if u, _ := UsableMemory(); u > 0 && m > u {
		return u
	}
	return m
}

// UsableMemory is the memory this process may use, and what bounds it (words
// for a message): the least of physical memory, the limit of its cgroup
// (a container's, a Kubernetes pod's, a Slurm job's --mem) and four
// fifths of its address-space limit (ulimit -v, which some Slurm sites
// set; the Go runtime's own reservations take the rest); 0 and "" where
// none is known. Read once.
func UsableMemory() (int64, string) { u := usable(); return u.bytes, u.what }

var usable = sync.OnceValue(func() (u struct {
	bytes int64
	what  string
}) {
	take := func(b uint64, what string) {
		if b > 0 && b < 1<<62 && (u.bytes == 0 || int64(b) < u.bytes) {
			u.bytes, u.what = int64(b), what
		}
	}
	take(physicalMemory(), "physical memory")
	if limit, err := memlimit.FromCgroup(); err == nil {
		take(limit, "the cgroup's memory limit")
	}
	take(addressSpaceLimit()/5*4, "four fifths of the address-space limit (ulimit -v)")
	return u
})

// taskBytes is the memory a count takes per task it holds: the task (80
// bytes and its ID, about 160 in all in the heap) and the ledger's record
// of its result (about 60).
const taskBytes = 224

// MemoryNeed is the least memory limit a count of an n×n board by method, whose
// plan (or shard) holds tasks tasks, accepts on the given workers: the
// runtime, the tasks and their results, and for the join its smallest
// buffers and the quarter cache's index.
func MemoryNeed(n int, method partition.Method, tasks, workers int) int64 {
	need := runtimeBytes + int64(tasks)*taskBytes
	if method == partition.Join && n <= joinMaxN {
		need += int64(min(workers, max(1, tasks)))*joinWorkerBytes(n, minJoinChunk) + quarterCacheBytes(n)
	}
	return need
}

// MaxTasks is how many tasks a count of an n×n board by method may hold
// within limit bytes on the given workers (0 when even none fit).
func MaxTasks(n int, method partition.Method, workers int, limit int64) int {
	free := limit - MemoryNeed(n, method, 0, workers)
	if method == partition.Join {
		free -= int64(workers-1) * joinWorkerBytes(n, minJoinChunk) // MemoryNeed(0) counted one worker
	}
	return int(max(0, free/taskBytes))
}

// minMemory is the least memory limit with which [Run] accepts the plan on
// the given number of workers ([MemoryNeed] of its tasks).
func minMemory(plan *partition.Plan, workers int) int64 {
	method := plan.Method
	if !needsMemory(plan) {
		method = partition.Sym // no join tasks: no join buffers
	}
	need := MemoryNeed(plan.N, method, len(plan.Tasks), workers)
	for i := range plan.Tasks {
		if plan.Tasks[i].Kind == board.Sweep {
			need += SweepBytes(plan.N)
		}
	}
	return need
}

// SweepBytes is what the row sweep of an n×n board takes at most: two rows
// of states, each of at most C(n, n/2) sets of columns with (n+1)² counts
// and the set itself, as much again for the garbage collector, which frees
// a row's arrays only after the next is made, and the index of every set
// of columns (4 bytes each).
func SweepBytes(n int) int64 {
	sets := new(big.Int).Binomial(int64(n), int64(n/2)).Int64()
	return 4*sets*(int64(n+1)*int64(n+1)*8+8) + 4<<uint(n)
}

// deviceBytes is what a device takes on the host while it counts: its
// batch of starts (batchStarts of them, about 88 bytes each, with room
// for a batch to grow past it by one task's starts).
const deviceBytes = 2 * batchStarts * 88

// joinBatchBytes is what one host goroutine of a device's join takes for
// its batch besides its listing buffers: the patterns of both sides (8
// bytes each, their arrays up to twice as long as they hold while they
// grow), the blocks, the sort jobs, the buckets' bounds (those of 1,024
// parts not split) and the sub-buckets' bounds and counts of the sides
// split by extra bits (a side of 8,192 patterns or more: under 4 bytes a
// pattern).
func joinBatchBytes(t backend.Knobs) int64 {
	return 2*8*int64(t.Batch) + int64(t.Batch)/int64(t.Block)*(16+8+4+8) + int64(t.Batch)/backend.SortChunk*16 +
		2*int64(backend.Bounds(0))*4*1024 + 4*int64(t.Batch)
}

// DeviceSide is what devices add to a run's memory: the host goroutines
// that list and sort a join's tasks for them (hosts per device: the
// tuning's, else the CPU's cores shared among the devices, twice over
// unless onCPU says every device runs on the CPU) and their batches'
// bytes; without join tasks, each device's batch of starts. The
// library's plan and pre-plan checks size devices by it from what the
// runtime lists (how many, whether on the CPU), the run by [sideOf] from
// the same rule once it holds the devices.
func DeviceSide(join bool, devices int, onCPU bool, t Knobs) (hosts int, bytes int64) {
	r := t
	r.Hosts = hostsFor(t, devices, onCPU)
	return sideOf(join, devices, r)
}

// sideOf is DeviceSide for knobs r whose Hosts is resolved (resolve,
// hostsFor).
func sideOf(join bool, devices int, r backend.Knobs) (hosts int, bytes int64) {
	switch {
	case devices == 0:
		return 0, 0
	case !join:
		return 0, int64(devices) * deviceBytes
	}
	return r.Hosts, int64(r.Hosts*devices) * joinBatchBytes(r.WithDefaults())
}

// needsMemory reports whether the plan has join tasks.
func needsMemory(plan *partition.Plan) bool {
	for i := range plan.Tasks {
		if plan.Tasks[i].Kind == board.Halves {
			return true
		}
	}
	return false
}

// planBytes is the memory the plan's tasks and their results take.
func planBytes(plan *partition.Plan) int64 { return int64(len(plan.Tasks)) * taskBytes }

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
	return runtimeBytes + int64(workers)*joinWorkerBytes(n, minJoinChunk) + quarterCacheBytes(n)
}

// ownListBytes is the most that one worker's own quarter lists (the four
// of a task, listed for it alone once the cache's budget is spent, each
// array kept at the largest size it had) take on an n×n board: 8 bytes a
// placement, 4 lists of [quarterPlaces]. A sampler's thinned north lists
// (at most half a list each) add [quarterListBytes].
func ownListBytes(n int) int64 { return 4 * quarterListBytes(n) }

// quarterListBytes is the memory of the largest quarter list of an n×n
// board, [quarterPlaces] of 8 bytes.
func quarterListBytes(n int) int64 { return int64(8 * quarterPlaces(n)) }

// quarterPlaces models the most placements one quarter list of an n×n
// board holds (one queen in each of k rows of a quarter, k about 0.7 of
// the quarter's columns): for halves of n/2 columns 1.25 × 28.6 million
// at n = 28, 2.45 times fewer each size down and 2.8 times more each size
// up, for halves beside middle columns (odd n, and even n from 28)
// 0.6 of that, at least 2^16. The most found listing 6
// random row sets for each k in both quarters of a side: n = 20 25,678,
// 22 123,230, 24 707,604, 25 1,073,114, 26 3,925,132, 27 6,050,956 and
// 28 28,581,976; the model is above each by a quarter at least. From n =
// 29 on it is an extrapolation (n = 30: 280 million placements, 2.2 GB a
// list; n = 32: 2.2 billion), not a measurement.
func quarterPlaces(n int) float64 {
	grow, odd := 2.45, 1.0
	if n > 28 {
		grow = 2.8
	}
	if board.JoinMiddle(n) > 0 { // a middle queen's or two's column less a side
		odd = 0.6
	}
	return max(1<<16, odd*1.25*28.6e6*math.Pow(grow, float64(n-28)))
}

// planJoinMemory divides limit bytes between the workers' buffers and own
// quarter lists and the quarter cache of a join on an n×n board: the own
// lists take what [ownListBytes] says, the buffers shrink from
// defaultJoinChunk towards minJoinChunk until they take at most half of
// the rest, and the cache may take 80% of what is left then (the other 20%
// is the garbage collector's slack). It fails when the limit is below
// [joinMinBytes].
func planJoinMemory(n, workers int, limit int64) (joinMemory, error) {
	fixed := func(chunk int) int64 {
		return runtimeBytes + int64(workers)*joinWorkerBytes(n, chunk) + quarterCacheBytes(n)
	}
	own := int64(workers) * ownListBytes(n)
	chunk := defaultJoinChunk
	for chunk > minJoinChunk && fixed(chunk)-own > (limit-own)/2 {
		chunk /= 2
	}
	if err := FitMemory(n, partition.Join, workers, 0, 1, limit, fixed(chunk)); err != nil {
		return joinMemory{}, err
	}
	return joinMemory{Chunk: chunk, Fixed: fixed(chunk), CacheBudget: (limit - fixed(chunk)) / 5 * 4}, nil
}

// defaultQuarterBudget is the quarter cache's budget for a single task
// run alone (the tests' RunTask): enough for every list of n ≤ 21.
const defaultQuarterBudget = 2 << 30

// defaultJoinChunk is the join buffers' largest default size: 16M
// patterns, 512 MiB a worker when full (they grow as tasks need; every task
// of n ≤ 20 fits in 1M). Larger buffers hold larger buckets, whose blocks
// the sieve's extra bits split better (simulated at n = 26: 0.40 of the
// shallow sieve's work at 16M, 0.51 at 4M, 0.67 at 1M; whole tasks of n =
// 24, best of 4: 2.95 s at 16M, 3.01 s at 4M, 3.44 s at 1M).
const defaultJoinChunk = 1 << 24

package engine

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/dustin/go-humanize"

	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/partition"
)

// This file is the join method on devices. Each task's two sides are
// listed from the same quarter cache as the CPU's join: by the device
// (joinlist.go: the host ships the quarter lists, the device lists the
// sides and counts them by bucket), or on a CPU device by the host
// (halfJoin, straight into the batch). The host plans each pair of sides'
// sieve as the CPU does (the cut by the CPU's cost model, and each
// sub-bucket's size: where jobs are cut, large sides' buckets split by up
// to backend.SplitBits extra bits); the device (or, on a CPU device, the
// host) sorts both sides into their sub-buckets, and the device matches
// them: each block of the transposed side's patterns against every
// bucket of the other side that shares no cut bit, less its sub-buckets
// that hold an extra bit every pattern of the block holds (the kernels are
// internal/opencl/join.cl, their Go twins listTwin and joinHost in the
// tests). Host goroutines (Knobs.Hosts per device) each fill a batch
// of many tasks and launch it when it is full, one launch at a time per
// device, so that the device counts one batch while the others are
// filled. A task's result is the CPU's, field for field: its total, and
// its nodes (the north–south pairs its listing compares), which the host
// counts.

// traitsOf is dev's traits, zero where it tells none.
func traitsOf(dev backend.Device) backend.Traits {
	if d, ok := dev.(backend.Describer); ok {
		return d.Traits()
	}
	return backend.Traits{}
}

// The tuning is resolved here alone: resolve makes the knobs concrete
// for a run's devices, forDevice for one of them, and launch gives the
// kernels theirs.

// resolve is k made concrete for a run on devices: every knob unset at
// its default, hosts the CPU's cores shared among the devices, and
// group, where unset, at most the largest work-group of every device
// that tells it (backend.Traits.MaxGroup). batch, list, sort, cut,
// popcount, chunk and layout stay as given until forDevice.
func resolve(k backend.Knobs, devices []backend.Device) backend.Knobs {
	r := k.WithDefaults()
	r.Hosts = hostsFor(k, len(devices), allOnCPU(devices))
	r.Batch = k.Batch
	if k.Group == 0 {
		for _, d := range devices {
			if g := traitsOf(d).MaxGroup; g >= backend.MinGroup {
				r.Group = min(r.Group, g&^(backend.MinGroup-1))
			}
		}
	}
	return r
}

// hostsFor is the host goroutines per device of a run on devices devices:
// the knobs', else the CPU's cores shared among them, twice over
// unless every device runs on the CPU. A GPU is fed by more goroutines
// than cores, so that while some wait for their launches others list and
// plan: in the simulated GPU's device-bound run of n = 20 two goroutines
// on two cores kept it busy 0.67 of the time, four 0.95-0.97. A device on
// the CPU shares the cores with them (pocl's n = 18 took 2.65 s with two,
// 3.1 s with four).
func hostsFor(k backend.Knobs, devices int, onCPU bool) int {
	perCore := 2
	if onCPU {
		perCore = 1
	}
	return cmp.Or(k.Hosts, max(1, perCore*DefaultWorkers()/max(1, devices)))
}

// allOnCPU reports whether every device runs on the CPU (and there is
// one).
func allOnCPU(devices []backend.Device) bool {
	for _, d := range devices {
		if !traitsOf(d).OnCPU {
			return false
		}
	}
	return len(devices) > 0
}

// forDevice is the run's knobs r for dev, each knob left auto or unset
// made concrete: list and sort the host's on a device that runs on the
// CPU (backend.Traits.OnCPU) and the device's elsewhere; cut never on the
// CPU and always elsewhere; popcount 64 on the CPU and 32 elsewhere;
// chunk 6 on the CPU and gpuChunkBits elsewhere; layout vector on the
// CPU and planar elsewhere (the model's choice: fewer shared-memory bank
// conflicts); batch sized from the device's traits (sizeBatch).
func forDevice(r backend.Knobs, dev backend.Device) backend.Knobs {
	// gpuChunkBits is the table's chunks on a device not on the CPU: 5
	// bits, the GPU model's choice (gpumodel_test.go: 32 values on 32
	// banks; n = 22 on an H100 9.2 against 12.3 ps a solution at 6 bits,
	// a model, not a measurement).
	const gpuChunkBits = 5
	tr := traitsOf(dev)
	onCPU := tr.OnCPU
	if r.Batch == 0 {
		r.Batch = sizeBatch(tr, r.Hosts)
	}
	auto := func(k *int, cpu, other int) {
		if *k == 0 {
			*k = other
			if onCPU {
				*k = cpu
			}
		}
	}
	auto(&r.List, backend.ByHost, backend.ByDevice)
	auto(&r.Sort, backend.ByHost, backend.ByDevice)
	auto(&r.Cut, backend.CutNever, backend.CutAlways)
	auto(&r.Popcount, 64, 32)
	auto(&r.Layout, backend.LayoutVector, backend.LayoutPlanar)
	auto(&r.Chunk, chunkBits, gpuChunkBits)
	return r
}

// launch is r, resolved for a device (forDevice), as the device's
// kernels are built and launched with it.
func launch(r backend.Knobs) backend.Tuning {
	return backend.Tuning{Group: r.Group, Block: r.Block, Items: r.Items, Batch: r.Batch,
		HostSorts: r.Sort == backend.ByHost, Cut: r.Cut == backend.CutAlways, Popcount: r.Popcount, ChunkBits: r.Chunk,
		Planar: r.Layout == backend.LayoutPlanar}
}

// Batch sizing: a launch should hold enough jobs to fill every compute
// unit several times over (a job is a work-group's), and each of the
// device's host goroutines keeps a batch's buffers on it.
const (
	// batchPerUnit is the patterns a batch holds per compute unit: at
	// n = 20 a batch of 2^20 patterns makes about 1,150 jobs (the
	// simulated device's launches), so 2^15 is about 36 jobs a unit.
	batchPerUnit = 1 << 15
	// minBatch is the smallest batch sizeBatch gives where memory allows.
	minBatch = 1 << 20
)

// sizeBatch is the batch (a power of two) of a device with traits tr fed
// by hosts host goroutines: the compute units' batchPerUnit each (at
// least minBatch; the default where the device tells none, or runs on
// the CPU), never above backend.DefaultKnobs', and within its memory:
// each goroutine's batch takes its sides twice (as listed and sorted,
// 16 bytes a pattern), in a buffer each no larger than the device
// allocates, and the goroutines' batches at most half the device's
// memory (the quarter lists and the runtime take the rest).
func sizeBatch(tr backend.Traits, hosts int) int {
	batch := backend.DefaultKnobs.Batch
	if tr.ComputeUnits > 0 && !tr.OnCPU {
		batch = min(batch, max(minBatch, 1<<bits.Len(uint(tr.ComputeUnits*batchPerUnit-1))))
	}
	lo := backend.MinBatch
	for batch > lo && !batchFits(tr, batch, hosts) {
		batch /= 2
	}
	return batch
}

// batchFits reports whether hosts goroutines' batches of batch patterns
// fit a device with traits tr: each takes its sides twice (as listed and
// sorted, 16 bytes a pattern), in a buffer each no larger than the device
// allocates, and the goroutines' batches at most half the device's memory
// (the quarter lists and the runtime take the rest). The one rule by
// which a batch is sized ([sizeBatch]) and a batch= given is checked
// ([checkJoin]).
func batchFits(tr backend.Traits, batch, hosts int) bool {
	return (tr.MaxAlloc == 0 || 8*uint64(batch) <= tr.MaxAlloc) &&
		(tr.Memory == 0 || 16*uint64(batch)*uint64(max(1, hosts)) <= tr.Memory/2)
}

// checkJoin refuses, before a run starts, devices and knobs r (resolved)
// that a join could not run: a device whose largest work-group is below
// the join's smallest, a group= above a device's largest, a batch= that
// the tuning's host goroutines would not fit on a device ([batchFits]).
// The knobs' refusals are *backend.TuningErrors naming the knob. (The
// back end refuses the same at its first launch; here they come before
// any task is counted, on the CPU workers beside it too.)
func checkJoin(r backend.Knobs, devices []backend.Device) error {
	for _, d := range devices {
		tr := traitsOf(d)
		switch most := tr.MaxGroup; {
		case most > 0 && most < backend.MinGroup:
			return fmt.Errorf("%w %s: the device's largest work-group, %d, is below the join's smallest, %d (--method sym counts on it)", ErrDevice, d.Name(), most, backend.MinGroup)
		case most > 0 && r.Group > most:
			accepted := fmt.Sprintf("group=%d to %d, a multiple of %d", backend.MinGroup, most&^(backend.MinGroup-1), backend.MinGroup)
			if most < 2*backend.MinGroup {
				accepted = fmt.Sprintf("group=%d only", backend.MinGroup)
			}
			return backend.TuningErrorf("group", "the tuning's group=%d is above the device's largest work-group, %d (accepted here: %s)", r.Group, most, accepted)
		}
		if r.Batch == 0 || batchFits(tr, r.Batch, r.Hosts) {
			continue
		}
		if tr.MaxAlloc > 0 && 8*uint64(r.Batch) > tr.MaxAlloc {
			return backend.TuningErrorf("batch", "the tuning's batch=%d needs buffers of %s, above the largest the device allocates, %s (a batch up to %d fits)",
				r.Batch, humanize.IBytes(8*uint64(r.Batch)), humanize.IBytes(tr.MaxAlloc), tr.MaxAlloc/8)
		}
		fit := r.Batch
		for fit > backend.MinBatch && !batchFits(tr, fit, r.Hosts) {
			fit /= 2
		}
		return backend.TuningErrorf("batch", "the tuning's batch=%d on %d host goroutines needs %s of device memory (16 bytes a pattern, a batch each), above half the device's %s (batch=%d fits on %d, or fewer hosts=)",
			r.Batch, r.Hosts, humanize.IBytes(16*uint64(r.Batch)*uint64(r.Hosts)), humanize.IBytes(tr.Memory), fit, r.Hosts)
	}
	return nil
}

// joinBatch is a Joiner's batch (backend.JoinBatch) with what the host
// keeps of it: each job's pending task (of its feeder) and the weight of
// its way.
type joinBatch struct {
	backend.JoinBatch
	owner []int32
	mult  []uint64
}

// itemBlocks is the items its blocks are matched against, summed over
// the blocks.
func (b *joinBatch) itemBlocks() int64 {
	var s int64
	for j := range b.Blocks() {
		s += b.jobItems(j)
	}
	return s
}

// jobItems is how many items job j matches against its block: its range
// of the items of every bucket u ⊆ cut &^ v of its part's I side, less
// the sub-buckets its block skips.
func (b *joinBatch) jobItems(j int) int64 {
	job := b.Jobs[backend.JobWords*j:][:backend.JobWords]
	return int64(job[5] - job[4])
}

// blockItems is how many items a block of bucket v of part whose
// patterns all hold the extra bits and matches: those of every bucket u ⊆
// cut &^ v of the part's I side whose long-diagonal weight with v is not
// 0, less its sub-buckets that hold a bit of and (the kernel's
// concatenation of the items a job matches).
func (b *joinBatch) blockItems(part, v, and uint32) uint32 {
	p := b.Parts[backend.PartWords*part:][:backend.PartWords]
	shift := uint(p[3] >> 24 & 15)
	bounds := b.Bounds[p[6]:][:backend.Bounds(shift)]
	cut, long := uint8(p[3]), p[3]>>8&1 != 0
	rest := cut &^ uint8(v)
	var s uint32
	for u := rest; ; u = (u - 1) & rest {
		for e := range uint32(1) << shift {
			if long && longWeight(uint8(v), u) == 0 {
				break
			}
			if e&and == 0 {
				k := uint32(u)<<shift | e
				s += bounds[k+1] - bounds[k]
			}
		}
		if u == 0 {
			break
		}
	}
	return s
}

// minJobItems is the fewest items a job is cut down to by shape (a
// variable: the tests lower it, and tableItems, to cut small boards'
// jobs).
var minJobItems int64 = 256

// tableItems is what building a job's table costs, in items matched (a
// model, not a measurement): loading and transposing its block and
// writing its chunks' 64 entries a chunk, 8 vectors each, takes each of
// a 128-work-item group's work-items about as many local-memory accesses
// as 4 items' lookups. A work-group's time grows with its job's items
// plus this (joinBatch.jobCost). A variable: the tests lower it.
var tableItems int64 = 512

// jobCost is job j's modelled time, in items: its items and its table.
func (b *joinBatch) jobCost(j int) int64 { return b.jobItems(j) + tableItems }

// shape sets each job's range of items, the whole of its block's, and,
// where cut is set (not on a device that runs on the CPU, where a job's
// table costs more than a tail: pocl's n = 18 took 2.6 → 3.4 s cut),
// cuts the batch's large jobs into jobs of the same block against
// consecutive ranges of its items, so that no job's modelled time
// (jobCost: items and table) passes 1.2 times the launch's mean and no
// work-group runs far past the launch's others (a block of a large
// bucket had held a launch's whole time on one work-group). Each piece
// pays a table, so a launch of many small jobs is cut little. The
// pieces' counts add up in the task's total as the jobs' do.
func (b *joinBatch) shape(cut bool) {
	n := b.Blocks()
	if n == 0 {
		return
	}
	// Each job's range: all its block's items (the bounds are known now,
	// where the device listed the sides too).
	var total int64
	for j := range n {
		job := b.Jobs[backend.JobWords*j:][:backend.JobWords]
		job[4], job[5] = 0, b.blockItems(job[2], job[3], job[6])
		total += b.jobItems(j)
	}
	// The cap: the most items a piece takes such that the largest
	// piece's cost is within 1.2 times the mean (cost × pieces ≤ 1.2 ×
	// (items + pieces × tableItems)), found by bisection, but not below
	// minJobItems.
	pieces := func(limit int64) int64 {
		var k int64
		for j := range n {
			k += max(1, (b.jobItems(j)+limit-1)/limit)
		}
		return k
	}
	fits := func(limit int64) bool {
		k := pieces(limit)
		return 5*(limit+tableItems)*k <= 6*(total+k*tableItems)
	}
	var most int64
	for j := range n {
		most = max(most, b.jobItems(j))
	}
	if !cut || most <= minJobItems || fits(most) {
		return // no job stands out
	}
	lo, hi := minJobItems, most // lo may fail; hi fails
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	limit := lo
	jobs, owner, mult := b.Jobs, b.owner, b.mult
	b.Jobs, b.owner, b.mult = make([]uint32, 0, len(jobs)+len(jobs)/4), make([]int32, 0, len(owner)), make([]uint64, 0, len(mult))
	for j := range n {
		job := jobs[backend.JobWords*j:][:backend.JobWords]
		lo, items := int64(job[4]), int64(job[5]-job[4])
		pieces := max(1, (items+limit-1)/limit)
		for k := range pieces {
			b.Jobs = append(b.Jobs, job[0], job[1], job[2], job[3], uint32(lo+k*items/pieces), uint32(lo+(k+1)*items/pieces), job[6], 0)
			b.owner = append(b.owner, owner[j])
			b.mult = append(b.mult, mult[j])
		}
	}
}

// patterns is how many patterns b holds.
func (b *joinBatch) patterns() int { return len(b.Pats) }

// reset empties b, keeping its arrays, and its quarter lists (Lists) for
// the next launch unless they pass a quarter of the batch's patterns
// (2 MiB a million): the device keeps those it holds
// (backend.JoinBatch.ListsSent), so a list the cache keeps is shipped
// once while the batch's lists last, whatever launches use it. It
// reports whether the lists were emptied.
func (b *joinBatch) reset() (emptied bool) {
	b.Pats, b.Parts, b.Bounds = b.Pats[:0], b.Parts[:0], b.Bounds[:0]
	b.Sorts, b.Jobs, b.Out, b.owner, b.mult = b.Sorts[:0], b.Jobs[:0], b.Out[:0], b.owner[:0], b.mult[:0]
	b.Listings, b.Slots, b.Listed, b.Room, b.OnDevice = b.Listings[:0], b.Slots[:0], b.Listed[:0], 0, false
	if len(b.Lists) > b.Tuning.Batch/4 {
		b.Lists, b.ListsSent = b.Lists[:0], 0
		return true
	}
	return false
}

// joinChunks returns the most table chunks of bits bits a join pattern
// of the n×n board has, and the chunks of one squeezed by the widest cut
// (four bits of each direction): what a device's join kernel is built
// for.
func joinChunks(n, bits int) (most, squeezed int) {
	width := 2 * int(newWindow(n).width)
	of := func(b int) int { return max(1, (b+bits-1)/bits) }
	return of(width), of(max(0, width-8))
}

// appendDoubling appends xs to s, doubling s's array when it must grow:
// a batch's arrays reach their size in a few steps (append grows large
// arrays by a quarter, each step a copy and fresh pages: a third of the
// host's time at n = 16 went there).
func appendDoubling(s, xs []uint64) []uint64 {
	if n := len(s) + len(xs); n > cap(s) {
		grown := make([]uint64, len(s), max(n, 2*cap(s), 1<<16))
		copy(grown, s)
		s = grown
	}
	return append(s, xs...)
}

// JoinProfile is where a device join's time went, summed over its host
// goroutines and launches: listing the sides (halfJoin, the quarter
// lists), sorting them into the batch by the sieve's buckets, waiting for
// the device while another goroutine's batch ran, copying batches to the
// device, and the kernel with its counts' read-back; and how much work
// the launches held.
type JoinProfile struct {
	// Hosts is how many host goroutines fed each device.
	Hosts                           int
	List, Sort, Wait, Write, Kernel time.Duration
	// Launches is how many batches ran, Blocks their jobs, Patterns the
	// patterns they held (both sides), ItemBlocks the items matched
	// against a block, summed over the blocks.
	Launches, Blocks, Patterns, ItemBlocks int64
	// Stages are the device's own times, where it reports them; Copied
	// the bytes copied to the devices and back.
	Stages Stages
	Copied int64
}

// add adds q's times and work to p.
func (p *JoinProfile) add(q *JoinProfile) {
	p.Stages.Add(q.Stages)
	p.Copied += q.Copied
	p.List += q.List
	p.Sort += q.Sort
	p.Wait += q.Wait
	p.Write += q.Write
	p.Kernel += q.Kernel
	p.Launches += q.Launches
	p.Blocks += q.Blocks
	p.Patterns += q.Patterns
	p.ItemBlocks += q.ItemBlocks
}

// pendingTask is a task whose parts a feeder has put in its batch: its
// result so far, and whether the task is still being listed.
type pendingTask struct {
	r    Result
	open bool
}

// joinFeeder is one host goroutine of a device's join: it lists and sorts
// tasks into its batch and launches the batch on the device when full.
type joinFeeder struct {
	dev     backend.Joiner
	lock    *sync.Mutex // the device: one launch at a time (nil: a ConcurrentJoiner's)
	ctx     context.Context
	js      *joinScratch
	tune    backend.Knobs // the run's tuning, resolved for the device
	b       joinBatch
	pending []pendingTask
	mult    uint64 // the weight of the way being listed
	report  func(Result)
	err     error
	prof    JoinProfile
	inPart  time.Duration           // time spent in part since the task began
	listed  []listedWay             // the ways in the batch the device lists
	shipped map[*quarterList]uint32 // where the batch's Lists hold a kept list, until reset empties them (ship)
	cut     bool                    // large jobs are cut before a launch (Tuning.Cut)
	split   uint                    // the most extra bits a part's buckets are split by: backend.SplitBits where jobs are cut, else 0
	sorted  []uint64                // where the host sorts a part's sides (Tuning.Sort)
}

// task counts task i of the plan: a join task's parts go to the batch, any
// other kind is counted on the host.
func (f *joinFeeder) task(plan *partition.Plan, i int) {
	t := &plan.Tasks[i]
	if t.Kind != board.Halves {
		r := runTask(plan, t, f.js)
		r.Task = i
		f.report(r)
		return
	}
	js, qc, n := f.js, f.js.cache, plan.N
	began := time.Now()
	f.inPart = 0
	defer func() { f.prof.List += time.Since(began) - f.inPart }()
	f.pending = append(f.pending, pendingTask{r: Result{Task: i}, open: true})
	js.ways = joinWays(n, t, qc, js.ways)
	for k := range js.ways {
		if js.stopped() || f.err != nil {
			return
		}
		w := &js.ways[k]
		f.mult = w.weight
		f.way(n, t, w, qc)
		p := &f.pending[len(f.pending)-1]
		p.r.Nodes += js.eastH.nodes() + js.westH.nodes()
	}
	f.pending[len(f.pending)-1].open = false
}

// way lists way w of task t straight into the batch: the east side into
// the room left (its largest power of two, as halfJoin.fill takes), the
// west side after it, no copy. A side that does not fit grows the
// batch's array, up to a batch, or else launches the batch, and the way
// is listed again; a way whose
// sides an empty batch does not hold is listed as the CPU lists it
// (joinWayPairs, in pieces of the listing buffers), each pair of pieces
// copied in (part).
func (f *joinFeeder) way(n int, t *partition.Task, w *joinWay, qc *quarterCache) {
	js, b := f.js, &f.b
	if f.tune.List == backend.ByDevice && f.wayOnDevice(n, t, w, qc) {
		return
	}
	if b.OnDevice {
		f.flush()
		if f.err != nil {
			return
		}
	}
	if cap(b.Pats) == 0 {
		b.Pats = make([]uint64, 0, min(b.Tuning.Batch, firstBatch))
	}
	for {
		chunks := startJoin(n, t, w, qc, js, 1, 1)
		at := len(b.Pats)
		room := b.Pats[:cap(b.Pats)]
		ne, ok := fillInto(&js.eastH, room[at:])
		nw := 0
		if ok {
			nw, ok = fillInto(&js.westH, room[at+ne:])
		}
		if ok {
			f.place(qc.sv, at, ne, nw, chunks)
			return
		}
		if c := cap(b.Pats); c < b.Tuning.Batch {
			// The array grows to a batch only where the tasks fill it
			// (listing the way again): fresh pages cost a fault each.
			b.Pats = slices.Grow(b.Pats, min(b.Tuning.Batch, 4*c)-len(b.Pats))
			continue
		}
		if at == 0 {
			break
		}
		began := time.Now()
		f.flush()
		f.inPart += time.Since(began)
		if f.err != nil {
			return
		}
	}
	joinWayPairs(n, t, w, qc, js)
}

// firstBatch is the patterns a batch's array holds at first where the
// host lists: a small run's batches never need more.
const firstBatch = 1 << 20

// fillInto lists the half into the largest power of two of room's
// length and returns how many patterns it holds, and whether that is
// the whole half.
func fillInto(hj *halfJoin, room []uint64) (int, bool) {
	if len(room) == 0 {
		return 0, false
	}
	k := hj.fill(room[:1<<(bits.Len(uint(len(room)))-1)], 0)
	return k, hj.done
}

// match copies one pair of sides (pieces of a way too large for the
// batch) into the batch, launching the batch first when they would not
// fit: the feeder is its goroutine's pairSink, and the device adds their
// count to the task's result.
func (f *joinFeeder) match(_ *joinScratch, sv sieve, east, west []uint64, chunks int) uint64 {
	f.part(sv, east, west, chunks)
	return 0
}

// failed reports whether the feeder's device failed (pairSink).
func (f *joinFeeder) failed() bool { return f.err != nil }

// part copies one pair of sides into the batch (match).
func (f *joinFeeder) part(sv sieve, east, west []uint64, chunks int) {
	if len(east) == 0 || len(west) == 0 || f.err != nil {
		return
	}
	began := time.Now()
	b := &f.b
	if b.patterns() > 0 && b.patterns()+len(east)+len(west) > b.Tuning.Batch {
		f.flush()
		if f.err != nil {
			return
		}
	}
	copied := time.Now()
	at := len(b.Pats)
	b.Pats = appendDoubling(appendDoubling(b.Pats, east), west)
	f.prof.Sort += time.Since(copied)
	f.inPart += time.Since(began)
	f.place(sv, at, len(east), len(west), chunks)
}

// place adds a part to the batch: its east side at b.Pats[at:at+ne] and
// its west side at the ne patterns after (whatever b.Pats's length), the
// sieve's plan of the two, and their sort jobs and blocks.
func (f *joinFeeder) place(sv sieve, at, ne, nw, chunks int) {
	b := &f.b
	b.Pats = b.Pats[:at+ne+nw]
	sorted := time.Now()
	defer func() {
		d := time.Since(sorted)
		f.prof.Sort += d
		f.inPart += d
	}()
	// T is the side whose transposed blocks cost less (see countSides).
	t0, nT, i0, nI := at, ne, at+ne, nw
	if matchCost(nw, ne) < matchCost(ne, nw) {
		t0, nT, i0, nI = at+ne, nw, at, ne
	}
	trans, items := b.Pats[t0:t0+nT], b.Pats[i0:i0+nI]
	if len(trans) == 0 || len(items) == 0 {
		b.Pats = b.Pats[:at] // nothing to match
		return
	}
	bk := f.buckets()
	cut, sq := uint8(0), squeeze{}
	if bk.plan(sv, trans, items, chunks, f.split) {
		cut, sq, chunks = bk.best, bk.sq, bk.chunks
		if b.Sorted() {
			f.sort(sv, bk, trans, items)
		}
	} else {
		bk.whole(len(trans), len(items))
	}
	f.addPart(sv, t0, len(trans), i0, len(items), cut, sq, chunks, int32(len(f.pending)-1), f.mult)
}

// sort sorts a part's sides in place into the buckets bk planned, as the
// device's sort kernel would (the CPU's counting sort, through the
// goroutine's buffer).
func (f *joinFeeder) sort(sv sieve, bk *buckets, trans, items []uint64) {
	nT, n := len(trans), len(trans)+len(items)
	if cap(f.sorted) < n {
		f.sorted = make([]uint64, n, max(n, 2*cap(f.sorted)))
	}
	sT, sI := f.sorted[:nT], f.sorted[nT:n]
	bk.scatter(sv, trans, items, sT, sI)
	copy(trans, sT)
	copy(items, sI)
}

// buckets returns the goroutine's sieve buckets.
func (f *joinFeeder) buckets() *buckets {
	if f.js.buckets == nil {
		f.js.buckets = new(buckets)
	}
	return f.js.buckets
}

// whole sets b's bounds to one bucket (0) of each side, not split: no
// cut.
func (b *buckets) whole(nT, nI int) {
	b.shift = 0
	clear(b.startT[:backend.Bounds(0)])
	clear(b.startI[:backend.Bounds(0)])
	for u := 1; u < backend.Bounds(0); u++ {
		b.startT[u], b.startI[u] = nT, nI
	}
}

// addPart adds a part whose T side (nT patterns) begins at t0 in Pats
// and I side (nI) at i0, cut by cut into the sub-buckets the goroutine's
// buckets bound (startT, startI, split by its shift), with its sort jobs
// and blocks, for pending task owner's way of weight mult.
func (f *joinFeeder) addPart(sv sieve, t0, nT, i0, nI int, cut uint8, sq squeeze, chunks int, owner int32, mult uint64) {
	b, bk := &f.b, f.buckets()
	shift := bk.shift
	part := uint32(len(b.Parts) / backend.PartWords)
	boundsT := uint32(len(b.Bounds))
	for _, x := range bk.startT[:backend.Bounds(shift)] {
		b.Bounds = append(b.Bounds, uint32(t0+x))
	}
	boundsI := uint32(len(b.Bounds))
	for _, x := range bk.startI[:backend.Bounds(shift)] {
		b.Bounds = append(b.Bounds, uint32(i0+x))
	}
	flags := uint32(cut) | uint32(chunks)<<16 | uint32(shift)<<24
	if sv.long {
		flags |= 1 << 8
	}
	m0, a0, _, _ := sv.shifts()
	b.Parts = append(b.Parts, uint32(t0), uint32(i0), boundsT, flags,
		uint32(sq.lo1)|uint32(sq.hi1)<<8|uint32(sq.lo2)<<16|uint32(sq.hi2)<<24, uint32(m0)|uint32(a0)<<8, boundsI, 0)
	for side, r := range [2][2]int{{t0, nT}, {i0, nI}} {
		if b.Sorted() {
			break
		}
		for p := r[0]; p < r[0]+r[1]; p += backend.SortChunk {
			b.Sorts = append(b.Sorts, part, uint32(side), uint32(p), uint32(min(backend.SortChunk, r[0]+r[1]-p)))
		}
	}
	// Blocks within a bucket, each with the extra bits all its patterns
	// hold (blockAnd), as the CPU's match cuts them.
	block, subs := b.Tuning.Block, 1<<shift
	for v := uint8(0); ; v = (v - cut) & cut {
		sub := bk.startT[int(v)<<shift:][:subs+1]
		for p := sub[0]; p < sub[subs]; p += block {
			k := min(block, sub[subs]-p)
			b.Jobs = append(b.Jobs, uint32(t0+p), uint32(k), part, uint32(v), 0, 0, uint32(blockAnd(sub, p, k)), 0)
			b.owner = append(b.owner, owner)
			b.mult = append(b.mult, mult)
		}
		if v == cut {
			break
		}
	}
}

// flush launches the batch and reports the tasks it completes; a task
// still being listed stays pending.
func (f *joinFeeder) flush() {
	b := &f.b
	if b.Blocks() > 0 || len(f.listed) > 0 {
		waited := time.Now()
		if f.lock != nil {
			f.lock.Lock()
		}
		ran := time.Now()
		f.prof.Wait += ran.Sub(waited)
		b.Write, b.Kernel, b.Stages, b.Copied = 0, 0, backend.Stages{}, 0
		var err error
		var planned time.Duration
		if b.OnDevice {
			err = f.dev.ListHalves(f.ctx, &b.JoinBatch)
			if err == nil {
				began := time.Now()
				f.finish(f.js.cache.sv)
				planned = time.Since(began)
				f.prof.Sort += planned
			}
		} else {
			f.prof.Patterns += int64(b.patterns())
		}
		if err == nil && b.Blocks() > 0 {
			b.shape(f.cut)
			err = f.dev.Join(f.ctx, &b.JoinBatch)
		}
		if f.lock != nil {
			f.lock.Unlock()
		}
		f.prof.Launches++
		f.prof.Blocks += int64(b.Blocks())
		f.prof.ItemBlocks += b.itemBlocks()
		f.prof.Write += b.Write
		f.prof.Kernel += cmp.Or(b.Kernel, time.Since(ran)-b.Write-planned)
		f.prof.Stages.Add(b.Stages)
		f.prof.Copied += b.Copied
		if err != nil {
			if f.ctx.Err() == nil {
				f.err = fmt.Errorf("%w %s: %w", ErrDevice, f.dev.Name(), err)
			}
			return // js.stopped: nothing more is listed
		}
		for j, o := range b.owner {
			f.pending[o].r.Total += b.Out[j] * b.mult[j]
		}
	}
	if b.reset() {
		clear(f.shipped)
	}
	f.listed = f.listed[:0]
	keep := f.pending[:0]
	for _, p := range f.pending {
		if p.open {
			keep = append(keep, p)
			continue
		}
		f.report(p.r)
	}
	f.pending = keep
}

// runJoinDevice feeds dev join tasks from the run's queue (order, next)
// until it is empty or the run stops: tune.Hosts goroutines each list
// tasks into a batch of their own and launch it when it is full.
func runJoinDevice(ctx context.Context, dev backend.Joiner, plan *partition.Plan, order []int, next *atomic.Int64,
	feeders []*joinScratch, tune backend.Knobs, prof *JoinProfile, report func(host int, r Result)) error {
	var lock sync.Mutex
	tune = forDevice(tune, dev)
	devLock := &lock
	cj, concurrent := dev.(backend.ConcurrentJoiner)
	if concurrent && cj.JoinsConcurrently() {
		devLock = nil
	}
	g, gctx := errgroup.WithContext(ctx)
	var profMu sync.Mutex
	for h, js := range feeders {
		f := &joinFeeder{dev: dev, lock: devLock, ctx: gctx, js: js, report: func(r Result) { report(h, r) }, cut: tune.Cut == backend.CutAlways}
		if f.cut {
			// A device on the CPU (whose jobs stay whole) matches a
			// sub-bucket's short loop at the cost of a bucket's: pocl's
			// n = 18 took 2.4 s of kernels whole, 2.8-2.9 s split, with a
			// fifth fewer item-blocks.
			f.split = backend.SplitBits
		}
		f.b.N, f.b.Tuning, f.tune = plan.N, launch(tune), tune
		f.b.Chunks, f.b.Squeezed = joinChunks(plan.N, tune.Chunk)
		js.sink = f
		g.Go(func() error {
			defer func() {
				if concurrent {
					cj.ReleaseBatch(&f.b.JoinBatch)
				}
				js.sink = nil
				if prof != nil {
					profMu.Lock()
					prof.Hosts = len(feeders)
					prof.add(&f.prof)
					profMu.Unlock()
				}
			}()
			for gctx.Err() == nil && !js.stopped() && f.err == nil {
				k := int(next.Add(1) - 1)
				if k >= len(order) {
					break
				}
				f.task(plan, order[k])
			}
			if gctx.Err() == nil && !js.stopped() && f.err == nil {
				f.flush()
			}
			return f.err
		})
	}
	return g.Wait()
}

package opencl

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/nqueens/nqueens/internal/backend"
)

// The join on the device. Several host goroutines (the engine's feeders)
// call ListHalves and Join at once, each with a batch of its own: each batch
// has its own buffers on the device (a bufSet), and one goroutine at a
// time sets the kernels' arguments and enqueues its batch's commands,
// none of them blocking; it then waits for its last command outside the
// lock. So the device runs one batch's copies and kernels while the host
// lists and plans the next ([Device.JoinsConcurrently]), instead of idling
// through the host's work between launches. The commands go on three
// in-order queues: the copies to the device on upload, the kernels on
// queue, the copies back on download; a batch's first kernel waits for
// its last copy in and its copy back for its last kernel (events), so
// that one batch's copies run while another's kernels do. On a GPU each
// batch's arrays are copied into pinned staging buffers before the lock
// is taken (pinned.go).

// joiner runs the join's kernels (join.cl): its programs, built on first
// use for each board and tuning, and each batch's buffers. mu guards the
// programs, the sets and the kernels' arguments from their setting to
// their launch; several host goroutines share it.
type joiner struct {
	*core
	mu      sync.Mutex
	kernels map[string]joins // the join's kernels by their build options
	sets    map[*backend.JoinBatch]*bufSet
	staging stager
}

// joins is the join's program built for one board and tuning: its sort
// and join kernels.
type joins struct {
	program          clProgram
	list, sort, join clKernel
	// The sort's and the listing's work-groups: theirs (sortGroup,
	// listGroup), or the device's largest power of two below it.
	sortGroup, listGroup int
}

// The join's buffers in a batch's bufSet (the search's are 0..7).
const (
	joinBufs   = 8                   // the first
	joinPats   = joinBufs + iota - 1 // the sides as listed
	joinSorted                       // and sorted (on the device alone)
	joinParts
	joinBounds
	joinNext // the bounds again, each bucket's next free place while sorting
	joinSorts
	joinJobs
	joinOut
	joinLists // the quarter lists the device lists sides from
	joinListings
	joinSlots
	joinListed
)

// JoinsConcurrently reports that several goroutines may call ListHalves and
// Join at once, each with its own batch (backend.ConcurrentJoiner).
func (j *joiner) JoinsConcurrently() bool { return true }

// ReleaseBatch frees the buffers the device holds for b, once the host
// goroutine that fills it is done (backend.ConcurrentJoiner).
func (j *joiner) ReleaseBatch(b *backend.JoinBatch) {
	j.mu.Lock()
	s := j.sets[b]
	delete(j.sets, b)
	j.mu.Unlock()
	if s != nil {
		s.release(j.upload) // its commands are done; outside the lock, which the other feeders take
	}
}

// setOf returns b's buffers, made on first use. j.mu is held.
func (j *joiner) setOf(b *backend.JoinBatch) *bufSet {
	if j.sets == nil {
		j.sets = map[*backend.JoinBatch]*bufSet{}
	}
	s := j.sets[b]
	if s == nil {
		s = &bufSet{}
		j.sets[b] = s
	}
	return s
}

// launch sets kernel k's arguments to the set's buffers bufs, in order,
// and queues it over groups work-groups of group work-items after the
// command whose event is after (0: none), its event the stage's. j.mu is
// held.
func (j *joiner) launch(s *bufSet, k clKernel, st stage, after clEvent, groups, group int, bufs ...int) error {
	for i, b := range bufs {
		m := s.bufs[b]
		if err := check("clSetKernelArg", cl.setKernelArg(k, uint32(i), unsafe.Sizeof(m), unsafe.Pointer(&m))); err != nil {
			return err
		}
	}
	local := uintptr(group)
	global := uintptr(groups) * local
	n, wait := waitOn(&after)
	return check("clEnqueueNDRangeKernel", cl.enqueueNDRange(j.queue, k, 1, nil, &global, &local, n, wait, j.event(s, st, true)))
}

// waitOn is the wait list of one command's event, *ev (none where it is
// 0), as the enqueue calls take it.
func waitOn(ev *clEvent) (uint32, uintptr) {
	if *ev == 0 {
		return 0, 0
	}
	return 1, uintptr(unsafe.Pointer(ev))
}

// readBack queues the copy of size bytes of the set's buffer buf into ptr
// on the download queue, after the set's last command (a kernel, whose
// queue it flushes first: the copy waits for its event from another
// queue), and counts them in b.Copied. j.mu is held.
func (j *joiner) readBack(s *bufSet, b *backend.JoinBatch, buf int, size uintptr, ptr unsafe.Pointer) error {
	if err := check("clFlush", cl.flush(j.queue)); err != nil {
		return err
	}
	after := s.last()
	n, wait := waitOn(&after)
	b.Copied += int64(size)
	return check("clEnqueueReadBuffer", cl.enqueueReadBuffer(j.download, s.bufs[buf], 0, 0, size, ptr, n, wait, j.event(s, stageCopyOut, true)))
}

// start returns the kernels for b's board and tuning and b's buffers,
// under j.mu.
func (j *joiner) start(b *backend.JoinBatch) (joins, *bufSet, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	k, err := j.joinKernels(b)
	if err != nil {
		return joins{}, nil, err
	}
	return k, j.setOf(b), nil
}

// send queues the copies of the inputs to the set's buffers: through
// their staging buffers where pinned (copied in before the lock is
// taken), then under j.mu, which it returns held unless it fails. It
// flushes the upload queue: the batch's first kernel, on another queue,
// waits for the last copy's event, and the spec requires the queue of an
// event another queue waits on to be flushed (pocl submits at once;
// another driver may hold the copies until the queue is flushed).
func (j *joiner) send(s *bufSet, b *backend.JoinBatch, inputs []input) error {
	if err := j.staging.stage(s, inputs); err != nil {
		return err
	}
	j.mu.Lock()
	for _, in := range inputs {
		if err := j.write(s, b, in); err != nil {
			j.mu.Unlock()
			return err
		}
	}
	if err := check("clFlush", cl.flush(j.upload)); err != nil {
		j.mu.Unlock()
		return err
	}
	return nil
}

// write queues the copy of an input into the set's buffer on the upload
// queue, made large enough for it with its flags, and counts its bytes in
// b.Copied. j.mu is held.
func (j *joiner) write(s *bufSet, b *backend.JoinBatch, in input) error {
	if err := s.ensure(j.core, in.buf, in.at+in.size, in.flags); err != nil {
		return err
	}
	if in.size == 0 {
		return nil
	}
	if err := check("clEnqueueWriteBuffer", cl.enqueueWriteBuffer(j.upload, s.bufs[in.buf], 0, in.at, in.size, in.ptr, 0, 0, j.event(s, stageCopyIn, true))); err != nil {
		return err
	}
	b.Copied += int64(in.size)
	return nil
}

// wait flushes the download queue, which holds the set's last command
// (the copy back), waits for that command's event and adds the times of
// its commands to stages.
func (j *joiner) wait(s *bufSet, stages *backend.Stages) error {
	last := s.events[len(s.events)-1].ev
	if err := check("clFlush", cl.flush(j.download)); err != nil {
		return err
	}
	err := check("clWaitForEvents", cl.waitForEvents(1, &last))
	j.collect(s, stages)
	return err
}

// Join sorts the batch's sides (unless the host sorted them) and runs the
// join kernel over its blocks, and reads their counts back into b.Out.
// Its time, copies included, is b.Kernel (b.Write stays zero: the copies
// are queued with the kernels; profiling tells them apart).
func (j *joiner) Join(_ context.Context, b *backend.JoinBatch) error {
	jobs := b.Blocks()
	b.Out = append(b.Out[:0], make([]uint64, jobs)...)
	if jobs == 0 {
		return nil
	}
	began := time.Now()
	s, err := j.enqueueJoin(b, jobs)
	if err == nil {
		err = j.wait(s, &b.Stages)
	}
	b.Kernel += time.Since(began)
	runtime.KeepAlive(b) // the copies read and write its slices until the wait
	return err
}

// enqueueJoin queues the batch's copies, its sort and join kernels and
// the read of their counts, and returns its buffers.
func (j *joiner) enqueueJoin(b *backend.JoinBatch, jobs int) (*bufSet, error) {
	k, s, err := j.start(b)
	if err != nil {
		return nil, err
	}
	pats := len(b.Pats)
	const ro, rw = clMemReadOnly, clMemReadWrite // ListHalves writes pats, sort next and sorted
	inputs := []input{
		{joinPats, nil, uintptr(8 * len(b.Pats)), rw, 0},
		{joinParts, unsafe.Pointer(&b.Parts[0]), uintptr(4 * len(b.Parts)), ro, 0},
		{joinBounds, unsafe.Pointer(&b.Bounds[0]), uintptr(4 * len(b.Bounds)), ro, 0},
		{joinSorts, unsafe.Pointer(unsafe.SliceData(b.Sorts)), uintptr(4 * len(b.Sorts)), ro, 0}, // empty when Sorted
		{joinJobs, unsafe.Pointer(&b.Jobs[0]), uintptr(4 * len(b.Jobs)), ro, 0},
	}
	switch {
	case b.OnDevice:
		pats = b.Room // listed there by ListHalves
		inputs = inputs[1:]
	case b.Sorted(): // the host sorted the sides: they go where the sort kernel would leave them
		inputs[0] = input{joinSorted, unsafe.Pointer(&b.Pats[0]), uintptr(8 * len(b.Pats)), rw, 0}
		inputs = slices.Delete(inputs, 3, 4)
	default:
		inputs[0].ptr = unsafe.Pointer(&b.Pats[0])
	}
	if err := j.send(s, b, inputs); err != nil {
		return nil, err
	}
	defer j.mu.Unlock()
	up := s.last() // the batch's last copy in: its first kernel waits for it
	for _, out := range []struct {
		buf  int
		size uintptr
	}{{joinSorted, uintptr(8 * pats)}, {joinOut, uintptr(8 * jobs)}} {
		if err := s.ensure(j.core, out.buf, out.size, clMemReadWrite); err != nil {
			return nil, err
		}
	}
	if !b.Sorted() {
		// The sort's cursors start at the bounds: copied on the device,
		// not sent twice.
		size := uintptr(4 * len(b.Bounds))
		if err := s.ensure(j.core, joinNext, size, clMemReadWrite); err != nil {
			return nil, err
		}
		n, wait := waitOn(&up)
		if err := check("clEnqueueCopyBuffer", cl.enqueueCopyBuffer(j.queue, s.bufs[joinBounds], s.bufs[joinNext], 0, 0, size, n, wait, j.event(s, stageCopyIn, false))); err != nil {
			return nil, err
		}
		if err := j.launch(s, k.sort, stageSort, 0, b.NumSorts(), k.sortGroup, joinPats, joinSorted, joinParts, joinSorts, joinNext); err != nil {
			return nil, err
		}
		up = 0 // the queue's order keeps the join after the sort
	}
	if err := j.launch(s, k.join, stageJoin, up, jobs, b.Tuning.Group, joinSorted, joinParts, joinBounds, joinJobs, joinOut); err != nil {
		return nil, err
	}
	return s, j.readBack(s, b, joinOut, uintptr(8*jobs), unsafe.Pointer(&b.Out[0]))
}

// ListHalves runs the listing kernel over the batch's listings, into the
// batch's pats on the device, and reads the slots' sizes and bucket
// counts back into b.Listed; its time is b.Kernel, as Join's.
func (j *joiner) ListHalves(_ context.Context, b *backend.JoinBatch) error {
	b.Listed = append(b.Listed[:0], make([]uint32, b.ListedWords())...)
	if b.NumListings() == 0 || b.NumSlots() == 0 {
		return nil
	}
	began := time.Now()
	s, err := j.enqueueList(b)
	if err == nil {
		err = j.wait(s, &b.Stages)
	}
	b.Kernel += time.Since(began)
	runtime.KeepAlive(b)
	return err
}

// enqueueList queues the listing's copies, its kernel and the read of
// what it listed, and returns the batch's buffers.
func (j *joiner) enqueueList(b *backend.JoinBatch) (*bufSet, error) {
	k, s, err := j.start(b)
	if err != nil {
		return nil, err
	}
	// The lists the set's buffer holds from the batch's earlier launches
	// stay there (b.ListsSent): only the words after them are copied,
	// unless the buffer must grow (a new buffer holds nothing). The set
	// is this goroutine's alone, so its sizes are read without the lock.
	sent := b.ListsSent
	if sent > len(b.Lists) || s.sizes[joinLists] < uintptr(8*len(b.Lists)) {
		sent = 0
	}
	b.ListsSent = 0 // until the copy is queued
	inputs := []input{
		{joinLists, unsafe.Pointer(unsafe.SliceData(b.Lists[sent:])), uintptr(8 * (len(b.Lists) - sent)), clMemReadOnly, uintptr(8 * sent)},
		{joinListings, unsafe.Pointer(&b.Listings[0]), uintptr(4 * len(b.Listings)), clMemReadOnly, 0},
		{joinSlots, unsafe.Pointer(&b.Slots[0]), uintptr(8 * len(b.Slots)), clMemReadOnly, 0},
		{joinListed, unsafe.Pointer(&b.Listed[0]), uintptr(4 * len(b.Listed)), clMemReadWrite, 0},
	}
	if err := j.send(s, b, inputs); err != nil {
		return nil, err
	}
	defer j.mu.Unlock()
	b.ListsSent = len(b.Lists)
	up := s.last() // the batch's last copy in
	if err := s.ensure(j.core, joinPats, uintptr(8*max(1, b.Room)), clMemReadWrite); err != nil {
		return nil, err
	}
	if err := j.launch(s, k.list, stageList, up, b.NumListings(), k.listGroup, joinLists, joinListings, joinSlots, joinPats, joinListed); err != nil {
		return nil, err
	}
	return s, j.readBack(s, b, joinListed, uintptr(4*len(b.Listed)), unsafe.Pointer(&b.Listed[0]))
}

// joinKernels returns the join's kernels built for b's board (its
// chunks) and tuning, building them on first use; a block whose table
// the device's local memory cannot hold is a *backend.TuningError naming
// it. (The engine refuses a work-group or a batch the device cannot take
// before a run starts, from its Traits.)
func (j *joiner) joinKernels(b *backend.JoinBatch) (joins, error) {
	t, n, chunks := b.Tuning, b.N, b.Chunks
	sortG, listG := j.groupOf(sortGroup), j.groupOf(listGroup)
	opts := fmt.Sprintf("-cl-std=CL1.2 %s %s -DCHUNKS=%d -DSQUEEZED=%d -DBLOCK=%d -DGROUP=%d -DITEMS=%d -DSORTGROUP=%d -DLISTGROUP=%d",
		backend.LayoutDefines(), t.Defines(), chunks, b.Squeezed, t.Block, t.Group, t.Items, sortG, listG)
	if j, ok := j.kernels[opts]; ok {
		return j, nil
	}
	if need := joinLocalBytes(t.Block, chunks, t.ChunkBits, t.Group); j.info.LocalMemory > 0 && need > j.info.LocalMemory {
		return joins{}, backend.TuningErrorf("block", "the tuning's block=%d needs %d bytes of local memory at n = %d, the device has %d (a smaller block fits)",
			t.Block, need, n, j.info.LocalMemory)
	}
	pr, err := j.build(joinSource, opts, "join")
	if err != nil {
		return joins{}, err
	}
	var code int32
	sort := cl.createKernel(pr.program, cString("sort"), &code)
	if err := check("clCreateKernel", code); err != nil {
		cl.releaseKernel(pr.kernel)
		cl.releaseProgram(pr.program)
		return joins{}, err
	}
	list := cl.createKernel(pr.program, cString("list"), &code)
	if err := check("clCreateKernel", code); err != nil {
		cl.releaseKernel(sort)
		cl.releaseKernel(pr.kernel)
		cl.releaseProgram(pr.program)
		return joins{}, err
	}
	if j.kernels == nil {
		j.kernels = map[string]joins{}
	}
	k := joins{program: pr.program, list: list, sort: sort, join: pr.kernel, sortGroup: sortG, listGroup: listG}
	j.kernels[opts] = k
	return k, nil
}

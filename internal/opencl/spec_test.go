package opencl

import (
	"fmt"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

// specLog watches the calls the device makes into the runtime, through
// wrappers of the function table that pass every call on, and notes
// where a call sequence breaks a rule of the OpenCL spec that pocl
// forgives (it submits every command at once) and a GPU's driver may
// not:
//   - a command that waits for an event of another queue comes after that
//     queue was flushed (clFlush, clFinish or a blocking command) since
//     the event's command was queued;
//   - clWaitForEvents waits only for commands whose queue was flushed;
//   - no queue is finished, and no blocking command is queued on the
//     kernels' queue, while a count runs (either would hold every feeder
//     behind the kernels of all batches).
type specLog struct {
	mu         sync.Mutex
	seq        int
	queueOf    map[clEvent]clQueue
	queuedAt   map[clEvent]int
	flushedAt  map[clQueue]int
	kernels    clQueue // the kernels' queue
	finishes   int
	blocking   int            // blocking commands on the kernels' queue
	violations map[string]int // what broke a rule, and how often
	commands   int
}

// waits checks the wait list (n events at events) of a command on q.
func (l *specLog) waits(call string, q clQueue, n uint32, events uintptr) {
	if n == 0 || events == 0 {
		return
	}
	for _, ev := range unsafe.Slice((*clEvent)(pointer(events)), n) {
		if from, ok := l.queueOf[ev]; ok && from != q && l.flushedAt[from] < l.queuedAt[ev] {
			l.violations[fmt.Sprintf("%s waits for an event of another queue that was not flushed since its command", call)]++
		}
	}
}

// queued notes a command queued on q, its event where event points to
// one, and whether it blocks (a blocking command flushes its queue).
func (l *specLog) queued(q clQueue, event uintptr, blocking bool) {
	l.seq++
	l.commands++
	if event != 0 {
		ev := *(*clEvent)(pointer(event))
		l.queueOf[ev], l.queuedAt[ev] = q, l.seq
	}
	if blocking {
		l.flushedAt[q] = l.seq
		if q == l.kernels {
			l.blocking++
		}
	}
}

// pointer is the address u holds (the table passes events' addresses as
// uintptr), read as the pointer it is.
func pointer(u uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&u)) }

// watchSpec wraps the function table for d's queues until the test ends.
func watchSpec(t *testing.T, d *Device) *specLog {
	t.Helper()
	require.NoError(t, load())
	l := &specLog{queueOf: map[clEvent]clQueue{}, queuedAt: map[clEvent]int{}, flushedAt: map[clQueue]int{}, kernels: d.queue, violations: map[string]int{}}
	saved := cl.enqueueWriteBuffer
	savedRead, savedCopy, savedND := cl.enqueueReadBuffer, cl.enqueueCopyBuffer, cl.enqueueNDRange
	savedMap, savedUnmap, savedWait := cl.enqueueMapBuffer, cl.enqueueUnmap, cl.waitForEvents
	savedFlush, savedFinish := cl.flush, cl.finish
	t.Cleanup(func() {
		cl.enqueueWriteBuffer, cl.enqueueReadBuffer, cl.enqueueCopyBuffer, cl.enqueueNDRange = saved, savedRead, savedCopy, savedND
		cl.enqueueMapBuffer, cl.enqueueUnmap, cl.waitForEvents = savedMap, savedUnmap, savedWait
		cl.flush, cl.finish = savedFlush, savedFinish
	})
	cl.enqueueWriteBuffer = func(q clQueue, m clMem, blocking uint32, offset, size uintptr, ptr unsafe.Pointer, n uint32, events, event uintptr) int32 {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.waits("clEnqueueWriteBuffer", q, n, events)
		code := saved(q, m, blocking, offset, size, ptr, n, events, event)
		l.queued(q, event, blocking != 0)
		return code
	}
	cl.enqueueReadBuffer = func(q clQueue, m clMem, blocking uint32, offset, size uintptr, ptr unsafe.Pointer, n uint32, events, event uintptr) int32 {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.waits("clEnqueueReadBuffer", q, n, events)
		code := savedRead(q, m, blocking, offset, size, ptr, n, events, event)
		l.queued(q, event, blocking != 0)
		return code
	}
	cl.enqueueCopyBuffer = func(q clQueue, src, dst clMem, srcOffset, dstOffset, size uintptr, n uint32, events, event uintptr) int32 {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.waits("clEnqueueCopyBuffer", q, n, events)
		code := savedCopy(q, src, dst, srcOffset, dstOffset, size, n, events, event)
		l.queued(q, event, false)
		return code
	}
	cl.enqueueNDRange = func(q clQueue, k clKernel, dims uint32, offset, global, local *uintptr, n uint32, events, event uintptr) int32 {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.waits("clEnqueueNDRangeKernel", q, n, events)
		code := savedND(q, k, dims, offset, global, local, n, events, event)
		l.queued(q, event, false)
		return code
	}
	cl.enqueueMapBuffer = func(q clQueue, m clMem, blocking uint32, flags uint64, offset, size uintptr, n uint32, events, event uintptr, errcode *int32) unsafe.Pointer {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.waits("clEnqueueMapBuffer", q, n, events)
		p := savedMap(q, m, blocking, flags, offset, size, n, events, event, errcode)
		l.queued(q, event, blocking != 0)
		return p
	}
	cl.enqueueUnmap = func(q clQueue, m clMem, ptr unsafe.Pointer, n uint32, events, event uintptr) int32 {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.waits("clEnqueueUnmapMemObject", q, n, events)
		code := savedUnmap(q, m, ptr, n, events, event)
		l.queued(q, event, false)
		return code
	}
	cl.flush = func(q clQueue) int32 {
		l.mu.Lock()
		l.seq++
		l.flushedAt[q] = l.seq
		l.mu.Unlock()
		return savedFlush(q)
	}
	cl.finish = func(q clQueue) int32 {
		l.mu.Lock()
		l.seq++
		l.flushedAt[q] = l.seq
		l.finishes++
		l.mu.Unlock()
		return savedFinish(q)
	}
	cl.waitForEvents = func(n uint32, events *clEvent) int32 {
		l.mu.Lock()
		for _, ev := range unsafe.Slice(events, n) {
			if from, ok := l.queueOf[ev]; ok && l.flushedAt[from] < l.queuedAt[ev] {
				l.violations["clWaitForEvents waits for a command whose queue was not flushed since"]++
			}
		}
		l.mu.Unlock()
		return savedWait(n, events) // outside the lock: other goroutines queue meanwhile
	}
	return l
}

// TestJoinSpec counts join plans on the device, the way a GPU runs them
// (the device listing and sorting, jobs cut, three queues linked by
// events, pinned staging buffers grown as batches grow, several host
// goroutines), with the runtime's calls watched: no call sequence breaks
// the spec's rules on flushes and waits, no queue is finished and no
// blocking command queued on the kernels' queue, and every count is
// exact.
func TestJoinSpec(t *testing.T) {
	t.Setenv("NQUEENS_OPENCL_PINNED", "1")
	d := requireDevice(t)
	l := watchSpec(t, d)
	for n := 11; n <= 13; n++ {
		plan, err := partition.Make(t.Context(), partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		gpu := gpuWay
		gpu.Batch, gpu.Hosts = 1<<16, 3
		c := joinOnBoth(t, d, plan, nil, gpu)
		assert.Equal(t, wide.Of(known.Total[n]), c.Total, "n=%d", n)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	require.Positive(t, l.commands, "the join queued commands through the watched table")
	assert.Empty(t, l.violations)
	assert.Zero(t, l.finishes, "clFinish while counting")
	assert.Zero(t, l.blocking, "blocking commands on the kernels' queue")
}

package opencl

import "unsafe"

// Pinned staging: on a GPU the join's batches go to the device through
// staging buffers in pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped
// once), one per input buffer of each batch's set. The host goroutine
// copies its batch's arrays into them before it takes the device's lock,
// and the copies to the device then start from pinned memory, which the
// GPU reads by DMA while the host goes on, instead of from pageable Go
// memory, which the driver stages itself, on the calling thread, under
// the lock. NQUEENS_OPENCL_PINNED=1 or 0 forces the staging on or off
// (the tests run it on pocl; device-check.sh times both on a GPU); by
// default it is on for a GPU and off elsewhere (on a CPU runtime the copy
// is one more pass over the batch).

// pinnedFor reports whether a device's batches go through pinned staging
// under the settings s.
func pinnedFor(info Info, s settings) bool {
	if s.pinned >= 0 {
		return s.pinned == 1
	}
	return info.Type == GPU
}

// staging is a pinned host buffer and where it is mapped.
type staging struct {
	mem  clMem
	ptr  unsafe.Pointer
	size uintptr
}

// release unmaps the buffer on the queue q (the copies' own, where the
// writes from it went: its set's commands are done) and waits for that
// command alone, then releases the buffer. It never drains a queue: the
// kernels of other batches run on.
func (st *staging) release(q clQueue) {
	if st.mem == 0 {
		return
	}
	if st.ptr != nil && q != 0 {
		var ev clEvent
		if cl.enqueueUnmap(q, st.mem, st.ptr, 0, 0, uintptr(unsafe.Pointer(&ev))) == clSuccess {
			cl.flush(q)
			cl.waitForEvents(1, &ev)
			cl.releaseEvent(ev)
		}
	}
	cl.releaseMem(st.mem)
	*st = staging{}
}

// stager copies a join batch's inputs into pinned staging buffers on a
// GPU (where the device's pinned is set), before the device's lock is
// taken, so that the writes to the device come from pinned memory.
type stager struct{ *core }

// stageOf returns the set's staging buffer k, made and mapped at least
// size bytes (a quarter more, to grow into). The set is its host
// goroutine's own, so no lock is held: the unmap and the map are
// commands on the upload queue, where the copies from the buffers go,
// each waited for alone (a blocking map waits for its own command and the
// copies queued before it, never for a kernel).
func (g stager) stageOf(s *bufSet, k int, size uintptr) (*staging, error) {
	st := &s.stage[k]
	if st.size >= size {
		return st, nil
	}
	st.release(g.upload)
	size = max(size+size/4, 64)
	var code int32
	m := cl.createBuffer(g.ctx, clMemReadWrite|clMemAllocHostPtr, size, nil, &code)
	if err := check("clCreateBuffer", code); err != nil {
		return nil, err
	}
	ptr := cl.enqueueMapBuffer(g.upload, m, 1, clMapWrite, 0, size, 0, 0, 0, &code)
	if err := check("clEnqueueMapBuffer", code); err != nil {
		cl.releaseMem(m)
		return nil, err
	}
	*st = staging{mem: m, ptr: ptr, size: size}
	return st, nil
}

// input is one array of a batch to copy to the set's buffer buf, at
// byte at of it (0 unless the buffer holds what comes before).
type input struct {
	buf   int
	ptr   unsafe.Pointer
	size  uintptr
	flags uint64
	at    uintptr
}

// stage copies each input into its staging buffer, made where it must
// grow, and points the input at it: the copies run outside the device's
// lock, and the writes from pinned memory. Without pinned it does
// nothing.
func (g stager) stage(s *bufSet, ins []input) error {
	if !g.pinned {
		return nil
	}
	st := make([]*staging, len(ins))
	for i, in := range ins {
		var err error
		if st[i], err = g.stageOf(s, in.buf, in.size); err != nil {
			return err
		}
	}
	for i := range ins {
		if ins[i].size > 0 {
			copy(unsafe.Slice((*byte)(st[i].ptr), ins[i].size), unsafe.Slice((*byte)(ins[i].ptr), ins[i].size))
		}
		ins[i].ptr = st[i].ptr
	}
	return nil
}

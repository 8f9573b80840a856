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

// release unmaps and releases the buffer.
func (st *staging) release(q clQueue) {
	if st.mem == 0 {
		return
	}
	if st.ptr != nil && q != 0 {
		cl.enqueueUnmap(q, st.mem, st.ptr, 0, 0, 0)
		cl.finish(q)
	}
	cl.releaseMem(st.mem)
	*st = staging{}
}

// stageOf returns the set's staging buffer k, made and mapped at least
// size bytes (a quarter more, to grow into). d.mu is held: the map is a
// command on the device's queue.
func (d *Device) stageOf(s *bufSet, k int, size uintptr) (*staging, error) {
	st := &s.stage[k]
	if st.size >= size {
		return st, nil
	}
	st.release(d.queue)
	size = max(size+size/4, 64)
	var code int32
	m := cl.createBuffer(d.ctx, clMemReadWrite|clMemAllocHostPtr, size, nil, &code)
	if err := check("clCreateBuffer", code); err != nil {
		return nil, err
	}
	ptr := cl.enqueueMapBuffer(d.queue, m, 1, clMapWrite, 0, size, 0, 0, 0, &code)
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

// stage copies each input into its staging buffer, making them under
// d.mu where they must grow, and points the input at it: the copies then
// run outside the lock, and the writes from pinned memory.
func (d *Device) stage(s *bufSet, ins []input) error {
	if !d.pinned {
		return nil
	}
	d.mu.Lock()
	st := make([]*staging, len(ins))
	for i, in := range ins {
		var err error
		if st[i], err = d.stageOf(s, in.buf, in.size); err != nil {
			d.mu.Unlock()
			return err
		}
	}
	d.mu.Unlock()
	for i := range ins {
		if ins[i].size > 0 {
			copy(unsafe.Slice((*byte)(st[i].ptr), ins[i].size), unsafe.Slice((*byte)(ins[i].ptr), ins[i].size))
		}
		ins[i].ptr = st[i].ptr
	}
	return nil
}

package opencl

import (
	"context"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/nqueens/nqueens/internal/backend"
)

// searcher runs the search kernels of sym and mirror (search.cl): one
// program a board size, built on first use, and one set of buffers.
type searcher struct {
	*core
	built map[int]built // the search kernels by board size (0: any board)
	set   bufSet        // bans, cols, ld, rd, posib, mode, path, out
}

// kernel returns the search kernel built for the n×n board, building it
// on first use: its stacks sized to the levels a start of that board can
// have.
func (sr *searcher) kernel(n int) (clKernel, error) {
	if b, ok := sr.built[n]; ok {
		return b.kernel, nil
	}
	opts := fmt.Sprintf("-cl-std=CL1.2 -DROWS=%d -DSTACK=%d", n, backend.Levels(n)+2)
	b, err := sr.build(source, opts, "search")
	if err != nil {
		return 0, err
	}
	if sr.built == nil {
		sr.built = map[int]built{}
	}
	sr.built[n] = b
	return b.kernel, nil
}

// Search runs the kernel over the batch's starts and reads their sums
// back into b.Out.
func (sr *searcher) Search(_ context.Context, b *backend.SearchBatch) error {
	count := b.Len()
	if count == 0 {
		b.Out = b.Out[:0]
		return nil
	}
	b.Out = append(b.Out[:0], make([]uint64, 5*count)...)
	bans := b.Bans
	if len(bans) == 0 {
		bans = make([]uint64, 64)
	}
	inputs := []struct {
		ptr  unsafe.Pointer
		size uintptr
	}{
		{unsafe.Pointer(&bans[0]), uintptr(8 * len(bans))},
		{unsafe.Pointer(&b.Cols[0]), uintptr(8 * count)},
		{unsafe.Pointer(&b.LD[0]), uintptr(8 * count)},
		{unsafe.Pointer(&b.RD[0]), uintptr(8 * count)},
		{unsafe.Pointer(&b.Posib[0]), uintptr(8 * count)},
		{unsafe.Pointer(&b.Mode[0]), uintptr(4 * count)},
		{unsafe.Pointer(&b.Path[0]), uintptr(8 * count)},
	}
	for k, in := range inputs {
		if err := sr.set.ensure(sr.core, k, in.size, clMemReadOnly); err != nil {
			return err
		}
		if err := check("clEnqueueWriteBuffer", cl.enqueueWriteBuffer(sr.queue, sr.set.bufs[k], 0, 0, in.size, in.ptr, 0, 0, 0)); err != nil {
			return err
		}
	}
	outSize := uintptr(8 * len(b.Out))
	if err := sr.set.ensure(sr.core, 7, outSize, clMemWriteOnly); err != nil {
		return err
	}
	kernel, err := sr.kernel(b.N)
	if err != nil {
		return err
	}
	n, cnt, row := int32(b.N), uint32(count), int32(b.Row)
	for k, arg := range []unsafe.Pointer{unsafe.Pointer(&n), unsafe.Pointer(&cnt), unsafe.Pointer(&row)} {
		if err := check("clSetKernelArg", cl.setKernelArg(kernel, uint32(k), 4, arg)); err != nil {
			return err
		}
	}
	for k := range joinBufs {
		m := sr.set.bufs[k]
		if err := check("clSetKernelArg", cl.setKernelArg(kernel, uint32(3+k), unsafe.Sizeof(m), unsafe.Pointer(&m))); err != nil {
			return err
		}
	}
	// Work-groups of 64, or the device's largest where it is smaller
	// (a runtime left to choose may fail: pocl asserts on a limit of 1).
	local := uintptr(sr.groupOf(64))
	global := (uintptr(count) + local - 1) / local * local
	if err := check("clEnqueueNDRangeKernel", cl.enqueueNDRange(sr.queue, kernel, 1, nil, &global, &local, 0, 0, 0)); err != nil {
		return err
	}
	// A blocking read waits for the kernel. A launch is not cut short:
	// the engine looks at its context between batches.
	err = check("clEnqueueReadBuffer", cl.enqueueReadBuffer(sr.queue, sr.set.bufs[7], 1, 0, outSize, unsafe.Pointer(&b.Out[0]), 0, 0, 0))
	runtime.KeepAlive(b)
	runtime.KeepAlive(bans)
	return err
}

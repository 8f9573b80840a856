package opencl

import (
	"context"
	_ "embed"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/nqueens/nqueens/internal/backend"
)

// source is the search kernels in OpenCL C.
//
//go:embed search.cl
var source string

// joinSource is the join's kernel in OpenCL C.
//
//go:embed join.cl
var joinSource string

// Kind is a device's type as the runtime reports it.
type Kind string

// The kinds of device.
const (
	GPU   Kind = "gpu"
	CPU   Kind = "cpu" // a CPU runtime, such as pocl
	Other Kind = "other"
)

// Info describes a device as the runtime reports it.
type Info struct {
	Index         int    `json:"index"` // its place in [Devices], what "opencl:N" names
	Platform      string `json:"platform"`
	PlatformVer   string `json:"platform_version"`
	Name          string `json:"name"`
	Vendor        string `json:"vendor"`
	Type          Kind   `json:"type"`
	ComputeUnits  int    `json:"compute_units"`
	ClockMHz      int    `json:"clock_mhz"`
	Memory        uint64 `json:"memory_bytes"`
	DeviceVersion string `json:"device_version"`
	Driver        string `json:"driver_version"`
	LocalMemory   uint64 `json:"local_memory_bytes"`
	MaxGroup      int    `json:"max_work_group"`
	MaxAlloc      uint64 `json:"max_alloc_bytes"` // the largest buffer it allocates

	id deviceID
}

// String names the device in one line.
func (i Info) String() string {
	return fmt.Sprintf("%s (%s, %s)", i.Name, i.Platform, i.DeviceVersion)
}

// Devices returns every device of every platform, in the runtime's order;
// [ErrNoRuntime] where no OpenCL runtime can be loaded. A runtime without
// a platform or device gives an empty list.
func Devices() ([]Info, error) {
	defer enter()() // the runtime starts here
	if err := load(); err != nil {
		return nil, err
	}
	var np uint32
	switch code := cl.getPlatformIDs(0, nil, &np); {
	case code == clPlatformNotFoundKHR || np == 0: // no ICD installed
		return nil, nil
	case code != clSuccess:
		return nil, check("clGetPlatformIDs", code)
	}
	platforms := make([]platformID, np)
	if err := check("clGetPlatformIDs", cl.getPlatformIDs(np, &platforms[0], nil)); err != nil {
		return nil, err
	}
	var out []Info
	for _, p := range platforms {
		pget := func(param uint32, size uintptr, value unsafe.Pointer, sizeRet *uintptr) int32 {
			return cl.getPlatformInfo(p, param, size, value, sizeRet)
		}
		pname, pver := infoString(pget, clPlatformName), infoString(pget, clPlatformVersion)
		var nd uint32
		if code := cl.getDeviceIDs(p, clDeviceTypeAll, 0, nil, &nd); code == clDeviceNotFound || nd == 0 {
			continue
		} else if code != clSuccess {
			return nil, check("clGetDeviceIDs", code)
		}
		ids := make([]deviceID, nd)
		if err := check("clGetDeviceIDs", cl.getDeviceIDs(p, clDeviceTypeAll, nd, &ids[0], nil)); err != nil {
			return nil, err
		}
		for _, d := range ids {
			dget := func(param uint32, size uintptr, value unsafe.Pointer, sizeRet *uintptr) int32 {
				return cl.getDeviceInfo(d, param, size, value, sizeRet)
			}
			var kind uint64
			var units, clock uint32
			var mem, local uint64
			var group uintptr
			cl.getDeviceInfo(d, clDeviceLocalMemSize, 8, unsafe.Pointer(&local), nil)
			cl.getDeviceInfo(d, clDeviceMaxWorkGroup, unsafe.Sizeof(group), unsafe.Pointer(&group), nil)
			cl.getDeviceInfo(d, clDeviceType, 8, unsafe.Pointer(&kind), nil)
			cl.getDeviceInfo(d, clDeviceMaxComputeUnits, 4, unsafe.Pointer(&units), nil)
			cl.getDeviceInfo(d, clDeviceMaxClock, 4, unsafe.Pointer(&clock), nil)
			cl.getDeviceInfo(d, clDeviceGlobalMemSize, 8, unsafe.Pointer(&mem), nil)
			var maxAlloc uint64
			cl.getDeviceInfo(d, clDeviceMaxMemAlloc, 8, unsafe.Pointer(&maxAlloc), nil)
			typ := Other
			switch {
			case kind&clDeviceTypeGPU != 0:
				typ = GPU
			case kind&clDeviceTypeCPU != 0:
				typ = CPU
			}
			out = append(out, Info{Index: len(out), Platform: pname, PlatformVer: pver, Name: infoString(dget, clDeviceName),
				Vendor: infoString(dget, clDeviceVendor), Type: typ, ComputeUnits: int(units), ClockMHz: int(clock), Memory: mem,
				DeviceVersion: infoString(dget, clDeviceVersion), Driver: infoString(dget, clDriverVersion),
				LocalMemory: local, MaxGroup: int(group), MaxAlloc: maxAlloc, id: d})
		}
	}
	return out, nil
}

// Device is an opened OpenCL device, a backend.Searcher and
// backend.Joiner, its programs built as a run needs them. Close releases
// it.
type Device struct {
	info  Info
	ctx   clContext
	queue clQueue
	// upload and download take the join's copies to and from the
	// device, so that one batch's copies run beside another's kernels on
	// queue (join.go).
	upload, download clQueue
	built            map[int]built    // the search kernels by board size (0: any board)
	joins            map[string]joins // the join's kernels by their build options
	search           bufSet           // the search kernel's: bans, cols, ld, rd, posib, mode, path, out
	// The join's state, which several host goroutines share: mu guards
	// the programs, each batch's buffers (sets) and the kernels'
	// arguments from their setting to their launch (join.go).
	mu   sync.Mutex
	sets map[*backend.JoinBatch]*bufSet
	// env is what the environment asked of the device when it opened.
	env settings
	// started is the time the device took to start (its context and
	// queues, then each program it built), in nanoseconds: Startup.
	started atomic.Int64
	// cacheHits counts the programs built from the cache's binaries.
	cacheHits atomic.Int64
	// profile is set where NQUEENS_OPENCL_PROFILE asks for the join's
	// commands to be timed by their events (profile.go).
	profile bool
	// pinned is set where the join's batches are copied to the device
	// through pinned staging buffers (pinned.go).
	pinned bool
}

// bufSet is a set of buffers on the device: the search's, or one batch's
// of the join (joinBuf* below), and the events of its commands not yet
// collected.
type bufSet struct {
	bufs   [20]clMem
	sizes  [20]uintptr // their sizes in bytes
	events []timedEvent
	stage  [20]staging // where pinned, each input's staging buffer (pinned.go)
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

// The join's buffers in Device.bufs.
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

// built is a program built for one board size, and its kernel.
type built struct {
	program clProgram
	kernel  clKernel
}

// Open creates a context and queues on the device. Its programs are
// built on first use, each for what a run counts (the search kernels for
// a board's size, the join's for its board and tuning), so that a join
// run compiles the join's program alone.
func Open(info Info) (*Device, error) {
	began := time.Now()
	env, err := readEnv()
	if err != nil {
		return nil, err
	}
	defer enter()()
	if err := load(); err != nil {
		return nil, err
	}
	d := &Device{info: info, env: env}
	var code int32
	id := info.id
	d.ctx = cl.createContext(nil, 1, &id, 0, 0, &code)
	if err := check("clCreateContext", code); err != nil {
		return nil, err
	}
	var props uint64
	if d.profile = env.profile; d.profile {
		props = clQueueProfiling
	}
	d.pinned = pinnedFor(info, env)
	for _, q := range []*clQueue{&d.queue, &d.upload, &d.download} {
		*q = cl.createCommandQueue(d.ctx, id, props, &code)
		if err := check("clCreateCommandQueue", code); err != nil {
			d.Close()
			return nil, err
		}
	}
	d.started.Add(int64(time.Since(began)))
	return d, nil
}

// Startup is the time the device took to start: its context and queues,
// and the programs built so far (backend.Starter).
func (d *Device) Startup() time.Duration { return time.Duration(d.started.Load()) }

// kernel returns the search kernel built for the n×n board, building it
// on first use: its stacks sized to the levels a start of that board can
// have.
func (d *Device) kernel(n int) (clKernel, error) {
	if b, ok := d.built[n]; ok {
		return b.kernel, nil
	}
	opts := fmt.Sprintf("-cl-std=CL1.2 -DROWS=%d -DSTACK=%d", n, backend.Levels(n)+2)
	b, err := d.build(source, opts, "search")
	if err != nil {
		return 0, err
	}
	if d.built == nil {
		d.built = map[int]built{}
	}
	d.built[n] = b
	return b.kernel, nil
}

// build builds the program src with the options opts and returns it with
// its kernel name.
func (d *Device) build(src, opts, name string) (built, error) {
	defer enter()() // the compiler may start here
	began := time.Now()
	defer func() { d.started.Add(int64(time.Since(began))) }()
	id := d.info.id
	opts = d.buildOptions(opts)
	// A binary the cache kept, where the runtime takes it and it builds.
	cached := d.cachePath(src, opts)
	var program clProgram
	if bin := readCached(cached); bin != nil && d.env.buildLog == "" {
		if program = d.fromBinary(bin); program != 0 {
			if cl.buildProgram(program, 1, &id, cString(opts), 0, 0) == clSuccess {
				d.cacheHits.Add(1)
			} else {
				cl.releaseProgram(program)
				program = 0
			}
		}
	}
	var code int32
	if program == 0 {
		csrc := cString(src)
		length := uintptr(len(src))
		program = cl.createProgram(d.ctx, 1, &csrc, &length, &code)
		runtime.KeepAlive(csrc)
		if err := check("clCreateProgramWithSource", code); err != nil {
			return built{}, err
		}
		code = cl.buildProgram(program, 1, &id, cString(opts), 0, 0)
		log := infoString(func(param uint32, size uintptr, value unsafe.Pointer, sizeRet *uintptr) int32 {
			return cl.getProgramBuildInfo(program, id, param, size, value, sizeRet)
		}, clProgramBuildLog)
		d.keepBuildLog(name, opts, log)
		if code != clSuccess {
			cl.releaseProgram(program)
			return built{}, fmt.Errorf("%w: %s", check("clBuildProgram", code), firstLines(log, 10))
		}
		writeCached(cached, programBinary(program))
	}
	k := cl.createKernel(program, cString(name), &code)
	if err := check("clCreateKernel", code); err != nil {
		cl.releaseProgram(program)
		return built{}, err
	}
	return built{program, k}, nil
}

// firstLines is s cut to k lines.
func firstLines(s string, k int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > k {
		lines = append(lines[:k], "…")
	}
	return strings.Join(lines, "; ")
}

// Traits tells the engine what the join's tuning is fitted to
// (backend.Describer): whether the device runs on the CPU (pocl), its
// largest work-group, compute units and memory.
func (d *Device) Traits() backend.Traits {
	i := d.info
	return backend.Traits{OnCPU: i.Type == CPU, MaxGroup: i.MaxGroup, ComputeUnits: i.ComputeUnits, Memory: i.Memory, MaxAlloc: i.MaxAlloc}
}

// Name names the device: its name, platform and OpenCL version.
func (d *Device) Name() string { return d.info.String() }

// Info describes the device.
func (d *Device) Info() Info { return d.info }

// Close releases the device's objects.
func (d *Device) Close() error {
	d.search.release(d.upload)
	for _, s := range d.sets {
		s.release(d.upload)
	}
	for _, b := range d.built {
		cl.releaseKernel(b.kernel)
		cl.releaseProgram(b.program)
	}
	for _, b := range d.joins {
		cl.releaseKernel(b.list)
		cl.releaseKernel(b.sort)
		cl.releaseKernel(b.join)
		cl.releaseProgram(b.program)
	}
	for _, q := range []clQueue{d.queue, d.upload, d.download} {
		if q != 0 {
			cl.releaseQueue(q)
		}
	}
	if d.ctx != 0 {
		cl.releaseContext(d.ctx)
	}
	*d = Device{info: d.info}
	return nil
}

// release releases the set's buffers, staging buffers (unmapped on q, the
// upload queue, where their copies went) and events.
func (s *bufSet) release(q clQueue) {
	for i := range s.stage {
		s.stage[i].release(q)
	}
	for i, m := range s.bufs {
		if m != 0 {
			cl.releaseMem(m)
		}
		s.bufs[i], s.sizes[i] = 0, 0
	}
	for _, e := range s.events {
		if e.ev != 0 {
			cl.releaseEvent(e.ev)
		}
	}
	s.events = nil
}

// buffer makes buffer k of the set s at least size bytes.
func (d *Device) buffer(s *bufSet, k int, size uintptr, flags uint64) error {
	size = max(size, 64)
	if s.sizes[k] >= size {
		return nil
	}
	if s.bufs[k] != 0 {
		cl.releaseMem(s.bufs[k])
		s.bufs[k] = 0
	}
	size += size / 4 // room to grow, within the largest buffer the device allocates
	if d.info.MaxAlloc > 0 && uint64(size) > d.info.MaxAlloc {
		size = max(size-size/5, uintptr(d.info.MaxAlloc))
	}
	var code int32
	m := cl.createBuffer(d.ctx, flags, size, nil, &code)
	if err := check("clCreateBuffer", code); err != nil {
		s.sizes[k] = 0
		return err
	}
	s.bufs[k], s.sizes[k] = m, size
	return nil
}

// Search runs the kernel over the batch's starts and reads their sums
// back into b.Out.
func (d *Device) Search(_ context.Context, b *backend.SearchBatch) error {
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
		if err := d.buffer(&d.search, k, in.size, clMemReadOnly); err != nil {
			return err
		}
		if err := check("clEnqueueWriteBuffer", cl.enqueueWriteBuffer(d.queue, d.search.bufs[k], 0, 0, in.size, in.ptr, 0, 0, 0)); err != nil {
			return err
		}
	}
	outSize := uintptr(8 * len(b.Out))
	if err := d.buffer(&d.search, 7, outSize, clMemWriteOnly); err != nil {
		return err
	}
	kernel, err := d.kernel(b.N)
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
		m := d.search.bufs[k]
		if err := check("clSetKernelArg", cl.setKernelArg(kernel, uint32(3+k), unsafe.Sizeof(m), unsafe.Pointer(&m))); err != nil {
			return err
		}
	}
	// Work-groups of 64, or the device's largest where it is smaller
	// (a runtime left to choose may fail: pocl asserts on a limit of 1).
	local := uintptr(d.groupOf(64))
	global := (uintptr(count) + local - 1) / local * local
	if err := check("clEnqueueNDRangeKernel", cl.enqueueNDRange(d.queue, kernel, 1, nil, &global, &local, 0, 0, 0)); err != nil {
		return err
	}
	// A blocking read waits for the kernel. A launch is not cut short:
	// the engine looks at its context between batches.
	err = check("clEnqueueReadBuffer", cl.enqueueReadBuffer(d.queue, d.search.bufs[7], 1, 0, outSize, unsafe.Pointer(&b.Out[0]), 0, 0, 0))
	runtime.KeepAlive(b)
	runtime.KeepAlive(bans)
	return err
}

// joinKernels returns the join's kernels built for b's board (its
// chunks) and tuning, building them on first use; a block whose table
// the device's local memory cannot hold is a *backend.TuningError naming
// it. (The engine refuses a work-group or a batch the device cannot take
// before a run starts, from its Traits.)
func (d *Device) joinKernels(b *backend.JoinBatch) (joins, error) {
	t, n, chunks := b.Tuning, b.N, b.Chunks
	sortG, listG := d.groupOf(sortGroup), d.groupOf(listGroup)
	opts := fmt.Sprintf("-cl-std=CL1.2 %s %s -DCHUNKS=%d -DSQUEEZED=%d -DBLOCK=%d -DGROUP=%d -DITEMS=%d -DSORTGROUP=%d -DLISTGROUP=%d",
		backend.LayoutDefines(), t.Defines(), chunks, b.Squeezed, t.Block, t.Group, t.Items, sortG, listG)
	if j, ok := d.joins[opts]; ok {
		return j, nil
	}
	if need := joinLocalBytes(t.Block, chunks, t.ChunkBits, t.Group); d.info.LocalMemory > 0 && need > d.info.LocalMemory {
		return joins{}, backend.TuningErrorf("block", "the tuning's block=%d needs %d bytes of local memory at n = %d, the device has %d (a smaller block fits)",
			t.Block, need, n, d.info.LocalMemory)
	}
	pr, err := d.build(joinSource, opts, "join")
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
	if d.joins == nil {
		d.joins = map[string]joins{}
	}
	j := joins{program: pr.program, list: list, sort: sort, join: pr.kernel, sortGroup: sortG, listGroup: listG}
	d.joins[opts] = j
	return j, nil
}

// sortGroup is the sort kernel's work-group size (SORTGROUP in join.cl)
// where the device allows it.
const sortGroup = 256

// groupOf is want (a power of two), or the largest power of two within
// the device's largest work-group where that is smaller.
func (d *Device) groupOf(want int) int {
	for want > 1 && d.info.MaxGroup > 0 && want > d.info.MaxGroup {
		want /= 2
	}
	return want
}

// joinLocalBytes is the local memory the join kernel takes with blocks of
// block patterns, chunks chunks of bits bits a pattern and work-groups
// of group: the block's bit matrices, its valid patterns, its table and
// the work-group's sums.
func joinLocalBytes(block, chunks, bits, group int) uint64 {
	words := block / 32
	return uint64(8*block + 4*words + 4*chunks*(1<<bits)*words + 8*group)
}

// listGroup is the listing kernel's work-group size (LISTGROUP in
// join.cl) where the device allows it.
const listGroup = 128

package opencl

import (
	_ "embed"
	"fmt"
	"runtime"
	"strings"
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

// Device is an opened OpenCL device: what its kernels share (core: the
// context, the queues, the settings, the programs' builds), the search's
// kernels and buffers (searcher, search.go) and the join's (joiner,
// join.go), each batch's memory (bufSet, memory.go) and, on a GPU, the
// join's staging (stager, pinned.go).
type Device struct {
	*core
	searcher
	joiner
}

// core is what a device's kernels share: the device, its context and its
// queues, what the environment asked of it, and its start-up.
type core struct {
	info  Info
	ctx   clContext
	queue clQueue
	// upload and download take the join's copies to and from the
	// device, so that one batch's copies run beside another's kernels on
	// queue (join.go).
	upload, download clQueue
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
	d := deviceOn(&core{info: info, env: env})
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
func (c *core) Startup() time.Duration { return time.Duration(c.started.Load()) }

// build builds the program src with the options opts and returns it with
// its kernel name.
func (c *core) build(src, opts, name string) (built, error) {
	defer enter()() // the compiler may start here
	began := time.Now()
	defer func() { c.started.Add(int64(time.Since(began))) }()
	id := c.info.id
	opts = c.buildOptions(opts)
	// A binary the cache kept, where the runtime takes it and it builds.
	cached := c.cachePath(src, opts)
	var program clProgram
	if bin := readCached(cached); bin != nil && c.env.buildLog == "" {
		if program = c.fromBinary(bin); program != 0 {
			if cl.buildProgram(program, 1, &id, cString(opts), 0, 0) == clSuccess {
				c.cacheHits.Add(1)
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
		program = cl.createProgram(c.ctx, 1, &csrc, &length, &code)
		runtime.KeepAlive(csrc)
		if err := check("clCreateProgramWithSource", code); err != nil {
			return built{}, err
		}
		code = cl.buildProgram(program, 1, &id, cString(opts), 0, 0)
		log := infoString(func(param uint32, size uintptr, value unsafe.Pointer, sizeRet *uintptr) int32 {
			return cl.getProgramBuildInfo(program, id, param, size, value, sizeRet)
		}, clProgramBuildLog)
		c.keepBuildLog(name, opts, log)
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
func (c *core) Traits() backend.Traits {
	i := c.info
	return backend.Traits{OnCPU: i.Type == CPU, MaxGroup: i.MaxGroup, ComputeUnits: i.ComputeUnits, Memory: i.Memory, MaxAlloc: i.MaxAlloc}
}

// Name names the device: its name, platform and OpenCL version.
func (c *core) Name() string { return c.info.String() }

// Info describes the device.
func (c *core) Info() Info { return c.info }

// Close releases the device's objects.
func (d *Device) Close() error {
	d.searcher.set.release(d.upload)
	for _, s := range d.sets {
		s.release(d.upload)
	}
	for _, b := range d.built {
		cl.releaseKernel(b.kernel)
		cl.releaseProgram(b.program)
	}
	for _, b := range d.kernels {
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
	*d = *deviceOn(&core{info: d.info})
	return nil
}

// deviceOn is a device whose parts share the core c.
func deviceOn(c *core) *Device {
	return &Device{core: c, searcher: searcher{core: c}, joiner: joiner{core: c, staging: stager{c}}}
}

// sortGroup is the sort kernel's work-group size (SORTGROUP in join.cl)
// where the device allows it.
const sortGroup = 256

// groupOf is want (a power of two), or the largest power of two within
// the device's largest work-group where that is smaller.
func (c *core) groupOf(want int) int {
	for want > 1 && c.info.MaxGroup > 0 && want > c.info.MaxGroup {
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
